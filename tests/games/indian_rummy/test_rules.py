"""One named scenario per rule of RULES.md section 2 (and each house rule of 2.11), played on
the engine through the checked path."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.bots import RandomBot
from cardtable.cards import PRINTED_JOKER, format_card, shuffled
from cardtable.driver import play as drive
from cardtable.errors import IllegalActionError
from cardtable.games.contract import CHANCE, TERMINAL, chance_rng
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, pack_of, scenario
from cardtable.games.indian_rummy.text import render_hand_summary

from .helpers import ScriptBot, advance, card, cards, legal_texts, play

# Two hands that never matter to the rule under test.
FILLER_0 = "2S 3S 9S 2H 4H 10H QH 3D 5D JD 4C 8C KC"
FILLER_1 = "5S 7S JS AH 6H 8H KH 2D 6D 10D AC 3C 9C"
FILLER_2 = "4S 8S QS 3H 7H 9H JH 4D 7D 9D 2C 5C QC"

# Test vectors of RULES.md 4.2, all with fours wild (cut card 4D) unless noted.
IR4_DECLARER = "AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH"  # valid: pure, impure, two sets
IR9_HAND = "KH AH 2H 5S 6S 7S 9D 9C 9S QC QD QH 8C"  # 30: K-A-2 is no sequence
NO_SEQUENCE_100 = "AS KS QD JC 10S 9H 8D 7C 6D 5H 3D 2C KC"  # no pure sequence: 100, cap 80
IR6_DECLARER = "5H 6H PJ 9S 7C JS 2C 2D 2S 4D 4C 4S 7D"  # sevens wild: wrong show; 48 counted
IR1_HAND = "3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C"  # twos wild: 23


def fresh(rules: Rules | None = None, seed: int = 1) -> IndianRummyState:
    """A new game with its first deal made."""
    return advance(ENGINE.new_game(rules or Rules(), seed))


# ------------------------------------------------------------------ 2.1, 2.2 setup of a deal


def test_pack_is_two_decks_and_two_printed_jokers_106_cards() -> None:
    state = fresh()
    assert sum(state.card_places().values()) == 106
    assert state.card_places() == Counter(pack_of(Rules()))
    assert state.card_places()[PRINTED_JOKER] == 2
    assert all(state.card_places()[c] == 2 for c in range(52))


def test_pack_without_printed_jokers_house_rule_has_104_cards() -> None:
    state = fresh(Rules(printed_jokers=0))
    assert sum(state.card_places().values()) == 104
    assert state.card_places()[PRINTED_JOKER] == 0


def test_first_dealer_is_chosen_at_random_from_the_seed() -> None:
    dealers = {fresh(Rules(players=4), seed).dealer for seed in range(40)}
    assert dealers == {0, 1, 2, 3}
    assert fresh(Rules(players=4), 5).dealer == fresh(Rules(players=4), 5).dealer


def test_thirteen_cards_dealt_one_at_a_time_from_the_dealers_left() -> None:
    rules = Rules(players=3)
    state = fresh(rules, seed=11)
    # Repeat the deal's shuffle (chance step 1, after the choice of dealer): card i of the
    # shuffled pack goes to seat dealer + 1 + i.
    deck = shuffled(pack_of(rules), chance_rng(11, 1))
    for i in range(3):
        seat = (state.dealer + 1 + i) % 3
        assert state.hands[seat] == tuple(sorted(deck[i:39:3]))
    assert all(len(hand) == 13 for hand in state.hands)


def test_next_card_turned_up_starts_the_discard_pile() -> None:
    rules = Rules(players=2)
    state = fresh(rules, seed=3)
    deck = shuffled(pack_of(rules), chance_rng(3, 1))
    assert state.pile == (deck[26],)
    assert state.opening_on_top
    assert [e.verb for e in state.events][:2] == ["deal", "open-pile"]


def test_wild_joker_is_cut_from_the_stock_and_out_of_play() -> None:
    state = fresh(seed=8)
    assert state.wild_card is not None
    assert state.wild_rank == (0 if state.wild_card == PRINTED_JOKER else state.wild_card % 13)
    assert len(state.stock) == 106 - 26 - 1 - 1
    assert state.events[2].verb == "cut-wild" and state.events[2].cards == (state.wild_card,)
    # Out of play: the turn cycles never bring the cut card back.
    assert state.card_places()[state.wild_card] == Counter(pack_of(Rules()))[state.wild_card]


def test_printed_joker_cut_makes_aces_wild() -> None:
    seed = next(s for s in range(2000) if fresh(seed=s).wild_card == PRINTED_JOKER)
    state = fresh(seed=seed)
    assert state.wild_rank == 0
    position = scenario(
        Rules(), [FILLER_0, FILLER_1], pile="5C AS", wild_card="PJ", has_drawn=(True, True)
    )
    assert position.wild_rank == 0
    assert "draw pile" not in legal_texts(position)


def test_no_wild_joker_cut_under_house_rule() -> None:
    state = fresh(PRESETS["printed-jokers-only"], seed=4)
    assert state.wild_card is None and state.wild_rank is None
    assert len(state.stock) == 106 - 26 - 1


def test_player_to_the_dealers_left_plays_first() -> None:
    for seed in range(6):
        state = fresh(Rules(players=4), seed)
        assert ENGINE.current_player(state) == (state.dealer + 1) % 4


def test_play_goes_clockwise() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    assert state.turn == 1
    state = play(state, (1, "draw stock"), (1, "discard 5S"))
    assert state.turn == 2
    state = play(state, (2, "draw stock"), (2, "discard 4S"))
    assert state.turn == 0


def test_dealer_rotates_clockwise() -> None:
    game = drive(ENGINE, Rules(players=3, deals=5), 21, [ScriptBot("drop")] * 3)
    deal_events = []
    state = ENGINE.new_game(Rules(players=3, deals=5), 21)
    for seat, action in game.actions:
        state = advance(state)
        deal_events.append((state.deal_number, state.dealer))
        state = ENGINE.apply(state, action, seat)
    dealers = dict(deal_events)
    first = dealers[1]
    assert [dealers[d] for d in range(1, 6)] == [(first + k) % 3 for k in range(5)]


# ------------------------------------------------------------------ 2.3 turn structure


def test_draw_from_stock_takes_its_top_card() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    top = state.stock[-1]
    after = play(state, (1, "draw stock"))
    assert top in after.hands[1] and len(after.hands[1]) == 14
    assert after.stock == state.stock[:-1] and after.phase is Phase.DISCARD


def test_draw_from_pile_takes_its_top_card() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C 8C", wild_card="KD")
    after = play(state, (1, "draw pile"))
    assert after.pile == cards("6C") and card("8C") in after.hands[1]


def test_a_joker_on_the_discard_pile_cannot_be_taken() -> None:
    state = scenario(
        Rules(), [FILLER_0, FILLER_1], pile="6C 7H", wild_card="7D", has_drawn=(True, True)
    )
    assert "draw pile" not in legal_texts(state)
    with pytest.raises(
        IllegalActionError, match="a joker on the discard pile cannot be taken"
    ) as e:
        ENGINE.apply(state, act.DRAW_PILE, 1)
    assert e.value.rule == "joker-on-pile"


def test_a_printed_joker_on_the_discard_pile_cannot_be_taken() -> None:
    state = scenario(
        Rules(), [FILLER_0, FILLER_1], pile="6C PJ", wild_card="7D", has_drawn=(True, True)
    )
    with pytest.raises(IllegalActionError, match="joker") as e:
        ENGINE.apply(state, act.DRAW_PILE, 1)
    assert e.value.rule == "joker-on-pile"


def test_an_opening_joker_cannot_be_taken_by_default() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="PJ", wild_card="7D")
    assert state.opening_on_top
    with pytest.raises(IllegalActionError, match="joker"):
        ENGINE.apply(state, act.DRAW_PILE, 1)


def test_opening_joker_may_be_taken_under_house_rule() -> None:
    rules = Rules(joker_from_discard="opening-card")
    state = scenario(rules, [FILLER_0, FILLER_1], pile="7H", wild_card="7D")
    assert "draw pile" in legal_texts(state)
    after = play(state, (1, "draw pile"))
    assert card("7H") in after.hands[1] and after.pile == ()


def test_house_rule_still_forbids_a_discarded_joker() -> None:
    rules = Rules(joker_from_discard="opening-card")
    state = scenario(rules, [FILLER_0, FILLER_1], pile="5C", wild_card="7D")
    state = play(state, (1, "draw stock"), (1, "discard 7S"))  # seat 1 holds 7S: a joker
    assert not state.opening_on_top
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DRAW_PILE, 0)
    assert e.value.rule == "joker-on-pile"


def test_opening_joker_stays_takeable_after_a_first_turn_drop_under_house_rule() -> None:
    # RULES.md 2.3, 2.11: a drop leaves the pile untouched, so the card turned up at the deal
    # still lies on top and the next seat may take it.
    rules = Rules(players=3, joker_from_discard="opening-card")
    state = scenario(rules, [FILLER_0, FILLER_1, FILLER_2], pile="PJ", wild_card="7D", dealer=2)
    state = play(state, (0, "drop"))
    assert state.turn == 1 and state.pile == cards("PJ")
    assert "draw pile" in legal_texts(state, 1)
    after = play(state, (1, "draw pile"))
    assert card("PJ") in after.hands[1] and after.pile == ()


def test_opening_joker_after_a_first_turn_drop_still_refused_by_default() -> None:
    state = scenario(
        Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="PJ", wild_card="7D", dealer=2
    )
    state = play(state, (0, "drop"))
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DRAW_PILE, 1)
    assert e.value.rule == "joker-on-pile"


def test_cannot_discard_the_card_just_taken_from_the_discard_pile() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6H 8D", wild_card="KD")
    state = play(state, (1, "draw pile"))
    assert "discard 8D" not in legal_texts(state)
    with pytest.raises(
        IllegalActionError, match="cannot discard the card you just took from the discard pile"
    ) as e:
        ENGINE.apply(state, act.DISCARDS[card("8D")], 1)
    assert e.value.rule == "card-taken-from-pile"


def test_cannot_put_down_the_card_just_taken_when_declaring() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6H 8D", wild_card="KD")
    state = play(state, (1, "draw pile"))
    assert "declare 8D" not in legal_texts(state)
    with pytest.raises(IllegalActionError, match="cannot put down the card you just took") as e:
        ENGINE.apply(state, act.DECLARES[card("8D")], 1)
    assert e.value.rule == "card-taken-from-pile"


def test_ir13_twin_of_the_card_taken_from_the_pile_may_not_be_discarded_or_put_down() -> None:
    # Seat 1 already holds 6D and takes the other 6D from the pile: IR13 names the card by rank
    # and suit, so neither copy may go this turn (no pass by letting the twin go).
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6H 6D", wild_card="KD")
    state = play(state, (1, "draw pile"))
    assert state.hands[1].count(card("6D")) == 2
    assert "discard 6D" not in legal_texts(state)
    assert "declare 6D" not in legal_texts(state)
    for action in (act.DISCARDS[card("6D")], act.DECLARES[card("6D")]):
        with pytest.raises(IllegalActionError, match="nor its twin") as e:
            ENGINE.apply(state, action, 1)
        assert e.value.rule == "card-taken-from-pile"
    # Next turn the rule is spent: the 6D may go.
    later = play(state, (1, "discard 9C"), (0, "draw stock"), (0, "discard 2S"), (1, "draw stock"))
    assert "discard 6D" in legal_texts(later)


def test_may_discard_card_drawn_from_stock_at_once() -> None:
    before = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    drawn = before.stock[-1]
    state = play(before, (1, "draw stock"))
    assert state.drawn == drawn and f"discard {format_card(drawn)}" in legal_texts(state)
    after = ENGINE.apply(state, act.DISCARDS[drawn], 1)
    assert after.pile == (*before.pile, drawn) and after.hands[1] == before.hands[1]


def test_must_draw_before_discarding_and_draw_only_once() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    with pytest.raises(IllegalActionError, match="draw a card first") as e:
        ENGINE.apply(state, act.DISCARDS[card("5S")], 1)
    assert e.value.rule == "draw-first"
    state = play(state, (1, "draw stock"))
    with pytest.raises(IllegalActionError, match="already drawn") as e:
        ENGINE.apply(state, act.DRAW_STOCK, 1)
    assert e.value.rule == "already-drew"


def test_cannot_discard_a_card_not_held() -> None:
    state = play(scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD"),
                 (1, "draw pile"))  # fmt: skip
    with pytest.raises(IllegalActionError, match="you do not hold QS") as e:
        ENGINE.apply(state, act.DISCARDS[card("QS")], 1)
    assert e.value.rule == "not-in-hand"


def test_stock_exhaustion_reshuffles_discards_under_top() -> None:
    rules = Rules()
    hands = [FILLER_0, FILLER_1]
    placed = Counter(cards(FILLER_0 + " " + FILLER_1 + " KD"))
    rest = sorted((Counter(pack_of(rules)) - placed).elements())
    last_stock_card = rest.pop(rest.index(card("QD")))
    state = scenario(
        rules, hands, pile=rest, stock=[last_stock_card], wild_card="KD",
        has_drawn=(True, True),
    )  # fmt: skip
    state = play(state, (1, "draw stock"), (1, "discard QD"))
    assert state.stock == () and state.phase is Phase.RESHUFFLE
    assert ENGINE.current_player(state) == CHANCE
    under, top = state.pile[:-1], state.pile[-1]
    after = ENGINE.chance_step(state)
    assert after.pile == (top,) and top == card("QD")
    assert Counter(after.stock) == Counter(under) and after.stock != under  # shuffled
    assert after.phase is Phase.DRAW and ENGINE.current_player(after) == 0
    assert after.events[-1].verb == "reshuffle"


def test_deal_turn_cap_abandons_the_deal_and_nobody_scores() -> None:
    rules = Rules(players=3, deal_turn_cap=7, deals=1)
    state = scenario(rules, [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    state = play(state, (1, "drop"))
    for _ in range(6):
        seat = state.turn
        state = ENGINE.apply(state, act.DRAW_STOCK, seat)
        state = ENGINE.apply(state, act.DISCARDS[state.drawn], seat)  # type: ignore[index]
    assert ENGINE.current_player(state) == TERMINAL
    assert state.last_deal is not None and state.last_deal.outcome == "abandoned"
    assert state.last_deal.points == (0, 0, 0) and state.totals == (0, 0, 0)


def test_deal_turn_cap_with_people_seated_keeps_the_drop_penalties() -> None:
    # RULES.md 2.3 keeps the abandoning cap for AI-only play; with a person at the table the
    # points already earned (here seat 1's first drop) stand and the deal ends with no show.
    rules = Rules(players=3, deal_turn_cap=7, deals=1, people_seated=True)
    state = scenario(rules, [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    state = play(state, (1, "drop"))
    for _ in range(6):
        seat = state.turn
        state = ENGINE.apply(state, act.DRAW_STOCK, seat)
        state = ENGINE.apply(state, act.DISCARDS[state.drawn], seat)  # type: ignore[index]
    assert ENGINE.current_player(state) == TERMINAL
    assert state.last_deal is not None and state.last_deal.outcome == "turn-limit"
    assert state.last_deal.points == (0, 20, 0) and state.totals == (0, 20, 0)
    text = render_hand_summary(ENGINE.view(state, 0)) or ""
    assert "limit of 7 turns" in text and "drop penalties stand" in text


# ------------------------------------------------------------------ 2.6 dropping


def test_first_drop_costs_20() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    state = play(state, (1, "drop"))
    assert state.drops == (None, 20, None)
    assert state.turn == 2


def test_middle_drop_costs_40() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    state = play(
        state, (1, "draw stock"), (1, "discard 5S"), (2, "draw stock"), (2, "discard 4S"),
        (0, "draw stock"), (0, "discard 2S"), (1, "drop"),
    )  # fmt: skip
    assert state.drops == (None, 40, None)


def test_gentle_drops_house_rule_costs_10_and_30() -> None:
    rules = Rules(players=3, first_drop=10, middle_drop=30)
    state = scenario(rules, [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD",
                       has_drawn=(True, False, False))  # fmt: skip
    state = play(state, (1, "drop"), (2, "drop"))
    assert state.last_deal is not None and state.last_deal.points == (0, 10, 10)
    state = scenario(rules, [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD",
                       has_drawn=(True, True, True))  # fmt: skip
    state = play(state, (1, "drop"))
    assert state.drops[1] == 30


def test_drops_switched_off_by_house_rule() -> None:
    state = scenario(Rules(drops_allowed=False), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    assert "drop" not in legal_texts(state)
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DROP, 1)
    assert e.value.rule == "drops-off"


def test_drop_only_at_start_of_own_turn() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    with pytest.raises(IllegalActionError, match="not your turn") as e:
        ENGINE.apply(state, act.DROP, 2)
    assert e.value.rule == "not-your-turn"
    state = play(state, (1, "draw stock"))
    assert "drop" not in legal_texts(state)
    with pytest.raises(IllegalActionError, match="only drop at the start of your turn") as e:
        ENGINE.apply(state, act.DROP, 1)
    assert e.value.rule == "drop-at-start-of-turn"


def test_a_dropped_player_takes_no_further_part() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD")
    state = play(state, (1, "drop"), (2, "draw stock"), (2, "discard 4S"))
    assert state.turn == 0
    state = play(state, (0, "draw stock"), (0, "discard 2S"))
    assert state.turn == 2  # seat 1 is skipped
    assert state.hands[1] == tuple(sorted(cards(FILLER_1)))  # set aside, not reused
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DRAW_STOCK, 1)
    assert e.value.rule == "dropped"


def test_everyone_else_dropped_last_player_scores_zero() -> None:
    state = scenario(Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="KD",
                       has_drawn=(True, True, False))  # fmt: skip
    state = play(state, (1, "drop"), (2, "drop"))
    summary = state.last_deal
    assert summary is not None
    assert summary.outcome == "all-dropped" and summary.winner == 0
    assert summary.points == (0, 40, 20) and state.totals == (0, 40, 20)
    assert state.phase is Phase.DEAL  # free play: the next deal is due


# ------------------------------------------------------------------ 2.7, 2.8 declaring, scoring


def _show_position(
    declarer_hand: str, others: list[str], wild: str, rules: Rules
) -> IndianRummyState:
    """Seat 0 on turn holding ``declarer_hand`` plus the card it drew from the stock."""
    return scenario(
        rules,
        [declarer_hand + " 10C", *others],
        pile="6C",
        wild_card=wild,
        dealer=rules.players - 1,
        phase=Phase.DISCARD,
        drawn="10C",
    )


def test_declare_is_always_legal_after_drawing() -> None:
    state = _show_position(NO_SEQUENCE_100, [FILLER_1], "4D", Rules())
    legal = legal_texts(state)
    assert all(f"declare {label}" in legal for label in ("AS", "10C", "KC"))


def test_valid_show_scores_declarer_zero_and_ends_the_deal() -> None:
    state = _show_position(IR4_DECLARER, [IR9_HAND], "4D", Rules(players=2, deals=1))
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.outcome == "valid-show"
    assert after.last_deal.winner == 0 and after.last_deal.points[0] == 0
    assert ENGINE.current_player(after) == TERMINAL


def test_valid_show_scores_others_by_best_arrangement() -> None:
    state = _show_position(IR4_DECLARER, [IR9_HAND, NO_SEQUENCE_100], "4D", Rules(players=3))
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None
    assert after.last_deal.points == (0, 30, 80)  # IR9; 100 capped at 80
    assert after.totals == (0, 30, 80)


def test_no_cap_house_rule_counts_every_point() -> None:
    rules = Rules(players=3, max_points=None)
    state = _show_position(IR4_DECLARER, [IR9_HAND, NO_SEQUENCE_100], "4D", rules)
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.points == (0, 30, 100)


def test_seed_example_23_points_after_a_valid_show() -> None:
    # IR1 under twos wild; the declarer shows two pure sequences and two sets.
    declarer = "AH 2H 3H 3S 4S 5S 6S KD KC KH JS JD JC"
    state = _show_position(declarer, [IR1_HAND], "2D", Rules())
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.points == (0, 23)


# A declarer valid under any wild rank: four pure sequences, wild-rank cards used as themselves.
ANY_WILD_DECLARER = "AS 2S 3S 4D 5D 6D 7C 8C 9C 10H JH QH KH"


@pytest.mark.parametrize(
    ("vector", "cut", "hand", "points"),
    [
        ("IR1", "2D", IR1_HAND, 23),
        ("IR1'", "2D", "3H 4H 5H 6H 7H 8H QS QD QC QH KS 9D 4C", 23),
        ("IR2", "2D", "AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S", 80),
        ("IR3", "JD", "5H 6H 7H QS QD QC 2S 9D 4C KD 3C 8S 10H", 76),
        ("IR7", "PJ", "AH 2H 3H 5S 6S PJ 9D 9C 9S KD KC KH QS", 10),
        ("IR8", "QS", "9D 9D 9C 2H 3H 4H 5S 6S 7S KC KD KH 8C", 35),
        ("IR9", "4D", IR9_HAND, 30),
    ],
)
def test_other_hands_score_as_the_test_vectors_say(
    vector: str, cut: str, hand: str, points: int
) -> None:
    after = play(_show_position(ANY_WILD_DECLARER, [hand], cut, Rules()), (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.outcome == "valid-show", vector
    assert after.last_deal.points == (0, points), vector


def test_ir5_wild_rank_card_used_as_itself_keeps_a_sequence_pure_for_a_show() -> None:
    # Sevens wild: 9S 10S PJ is impure, so 5H 6H 7H (the 7H as itself) is the only pure sequence.
    # (RULES.md IR5's suggested hand also holds 4H 5H 6H, pure without the seven; kings here.)
    ir5 = "5H 6H 7H 9S 10S PJ 2C 2D 2S KD KC KH KS"
    after = play(_show_position(ir5, [FILLER_0], "7D", Rules()), (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.outcome == "valid-show"
    # A 7C cannot stand as the 7H: the same show with it is wrong.
    wrong = ir5.replace("7H", "7C")
    after = play(_show_position(wrong, [FILLER_0], "7D", Rules()), (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.outcome == "wrong-show"


def test_wrong_show_costs_80_and_ends_deal() -> None:
    state = _show_position(IR6_DECLARER, [IR9_HAND], "7S", Rules(players=2))
    after = play(state, (0, "declare 10C"))
    summary = after.last_deal
    assert summary is not None and summary.outcome == "wrong-show"
    assert summary.points == (80, 0) and summary.winner is None
    assert after.phase is Phase.DEAL


def test_wrong_show_penalty_is_a_rules_value() -> None:
    state = _show_position(IR6_DECLARER, [IR9_HAND], "7S", Rules(wrong_show_penalty=50))
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.points == (50, 0)


def test_wrong_show_others_counted_house_rule() -> None:
    rules = Rules(players=2, wrong_show_others="counted")
    state = _show_position(IR6_DECLARER, [IR6_DECLARER], "7S", rules)
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None and after.last_deal.points == (80, 48)


def test_dropped_players_keep_their_drop_penalty_after_a_show() -> None:
    rules = Rules(players=3)
    state = scenario(
        rules,
        [IR4_DECLARER + " 10C", IR9_HAND, NO_SEQUENCE_100],
        pile="6C",
        wild_card="4D",
        dealer=2,
        phase=Phase.DISCARD,
        drawn="10C",
        drops=(None, None, 20),
    )
    after = play(state, (0, "declare 10C"))
    assert after.last_deal is not None
    assert after.last_deal.points == (0, 30, 20)
    assert after.last_deal.hands[2] is None and after.last_deal.hands[1] is not None


def test_one_joker_per_sequence_house_rule() -> None:
    hand = "AH 2H 3H 9C PJ 7D KS KD KC 5S 5D 5C 5H"  # sevens wild: 9C PJ 7D needs two jokers
    valid = play(_show_position(hand, [FILLER_1], "7S", Rules()), (0, "declare 10C"))
    assert valid.last_deal is not None and valid.last_deal.outcome == "valid-show"
    limited = play(
        _show_position(hand, [FILLER_1], "7S", PRESETS["one-joker-per-sequence"]),
        (0, "declare 10C"),
    )
    assert limited.last_deal is not None and limited.last_deal.outcome == "wrong-show"


def test_six_players_under_paplu_house_rule() -> None:
    state = fresh(PRESETS["paplu-six"], seed=2)
    assert len(state.hands) == 6 and all(len(h) == 13 for h in state.hands)
    assert len(state.stock) == 106 - 78 - 2


# ------------------------------------------------------------------ 2.9 totals and game end


def test_totals_accumulate_deal_by_deal() -> None:
    rules = Rules(players=3, deals=4)
    game = drive(ENGINE, rules, 5, [ScriptBot("drop")] * 3)
    final = game.state
    assert len(final.deal_points) == 4
    # Each deal: the first player and the next drop before drawing (20 each), the dealer wins.
    for points in final.deal_points:
        assert sorted(points) == [0, 20, 20]
    assert final.totals == tuple(sum(p[s] for p in final.deal_points) for s in range(3))


def test_game_ends_after_the_configured_deals_and_lowest_total_wins() -> None:
    rules = Rules(players=4, deals=3)
    game = drive(ENGINE, rules, 17, [RandomBot()] * 4)
    result = ENGINE.result(game.state)
    assert result is not None and len(game.state.deal_points) == 3
    assert result.scores == game.state.totals
    low = min(game.state.totals)
    assert result.winners == tuple(s for s, t in enumerate(game.state.totals) if t == low)
    assert result.utilities == tuple(-t / 3 for t in game.state.totals)


def test_free_play_never_ends_by_itself() -> None:
    state = ENGINE.new_game(Rules(players=2), 9)
    bot = ScriptBot("drop")
    rng = random.Random(0)
    for _ in range(12):
        state = advance(state)
        seat = ENGINE.current_player(state)
        assert seat >= 0
        state = ENGINE.apply(
            state,
            bot.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng),
            seat,
        )
    assert len(state.deal_points) == 12 and ENGINE.result(state) is None


# ------------------------------------------------------------------ checked apply


def test_out_of_turn_action_rejected_state_unchanged() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    before = repr(state)
    with pytest.raises(IllegalActionError, match="it is not your turn") as e:
        ENGINE.apply(state, act.DRAW_STOCK, 0)
    assert e.value.rule == "not-your-turn"
    assert repr(state) == before and ENGINE.legal_actions(state, 0) == ()


def test_actions_during_a_chance_step_or_after_the_game_are_rejected() -> None:
    state = ENGINE.new_game(Rules(deals=1), 1)
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DRAW_STOCK, 0)
    assert e.value.rule == "chance-pending"
    game = drive(ENGINE, Rules(deals=1), 1, [RandomBot()] * 2)
    with pytest.raises(IllegalActionError, match="the game is over"):
        ENGINE.apply(game.state, act.DRAW_STOCK, 0)


def test_unknown_seat_and_foreign_action_are_rejected() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, act.DRAW_STOCK, 7)
    assert e.value.rule == "no-such-seat"
    with pytest.raises(IllegalActionError) as e:
        ENGINE.apply(state, "draw stock", 1)  # type: ignore[arg-type]
    assert e.value.rule == "unknown-action"


def test_chance_step_when_none_is_due_is_rejected() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C", wild_card="KD")
    with pytest.raises(IllegalActionError):
        ENGINE.chance_step(state)
