"""The ten variations of RULES.md 3.10 (test vectors DR8, DR9, DR11, DR12, DR16) and the
combinations that interact."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from cardtable.cards import is_regular
from cardtable.errors import IllegalActionError
from cardtable.games.contract import CHANCE
from cardtable.games.declaration_rummy.actions import DISCARDS
from cardtable.games.declaration_rummy.dealing import choose_places, preliminary_key, seven_piles
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules
from cardtable.games.declaration_rummy.state import (
    DeclarationRummyState as State,
)
from cardtable.games.declaration_rummy.state import (
    DrawKind,
    Phase,
    pack_cards,
    scenario,
    seat_left_of,
    seat_right_of,
)

from .helpers import (
    advance,
    assert_conserved,
    card,
    cards,
    legal_texts,
    new_dealt,
    play,
    sorted_cards,
)


def _rule_of(state: State, seat: int, text: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), seat)
    return caught.value.rule


def _after_draw(rules: Rules, hands: list[str], turn: int = 1, **kwargs: object) -> State:
    """Seat ``turn`` has drawn (its hand given with the drawn card included)."""
    return scenario(rules, hands, phase=Phase.PLAY, turn=turn, **kwargs)  # type: ignore[arg-type]


# --- 1. Gin Rummy (DR12) --------------------------------------------------------------------------

GIN = Rules(players=2, cards_dealt=3, gin_rummy=True)


def test_gin_declare_needs_a_count_of_seven_or_less_dr12() -> None:
    eight = _after_draw(GIN, ["KS KD KC", "AS 2H 5D"], stock="9C", pile="7S")
    assert "declare" not in legal_texts(eight)
    assert _rule_of(eight, 1, "declare") == "gin-threshold"
    seven = _after_draw(GIN, ["KS KD KC", "AS 2H 4D"], stock="9C", pile="7S")
    assert "declare" in legal_texts(seven)


def test_gin_threshold_counts_the_drawn_card() -> None:
    state = scenario(GIN, ["KS KD KC", "AS 2H 4D"], stock="9C 3C", pile="7S")
    assert "declare" not in legal_texts(play(state, (1, "draw stock")))  # 7 + 3 = 10


def test_gin_threshold_is_a_setting() -> None:
    rules = Rules(players=2, cards_dealt=3, gin_rummy=True, gin_threshold=10)
    assert "declare" in legal_texts(_after_draw(rules, ["KS KD KC", "AS 2H 7D"], pile="7S"))


def test_gin_still_blocks_cant_declare_0() -> None:
    rules = Rules(players=2, cards_dealt=3, gin_rummy=True, optional_cards=("CD0",))
    state = _after_draw(rules, ["KS KD KC", "AS 2H CD0"], pile="7S")
    assert _rule_of(state, 1, "declare") == "cant-declare"


# --- 2. Declare Bonus (DR11) and its combination with Gin -----------------------------------------

BONUS = Rules(players=2, cards_dealt=3, declare_bonus=True)


def test_declare_bonus_compares_the_declarer_one_lower_dr11() -> None:
    # Declarer (seat 1, offset 0) counts 8, compared as 7; seat 0 counts 7: a tie that the seat
    # rule gives to seat 0 (offset 1).
    state = play(_after_draw(BONUS, ["AS 2S 4H", "AH 2H 5D"], pile="7S"), (1, "declare"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.counts == (7, 8) and outcome.compared == (7, 7)
    assert outcome.winner == 0 and outcome.tie_break is not None


def test_declare_bonus_tie_won_by_a_declarer_further_left() -> None:
    rules = Rules(players=3, cards_dealt=2, declare_bonus=True)
    # First player seat 1; declarer seat 0 has offset 2, seat 2 offset 1.
    state = scenario(rules, ["AS 2S 5H", "KD KC", "3H 4S"], phase=Phase.PLAY, turn=0, pile="7S")
    state = play(state, (0, "declare"))
    assert state.outcome is not None
    assert state.outcome.compared == (7, 26, 7) and state.outcome.winner == 0


def test_without_declare_bonus_the_lower_count_wins() -> None:
    state = play(
        _after_draw(Rules(players=2, cards_dealt=3), ["AS 2S 4H", "AH 2H 5D"], pile="7S"),
        (1, "declare"),
    )
    assert state.outcome is not None and state.outcome.winner == 0
    assert state.outcome.tie_break is None


def test_gin_with_declare_bonus_uses_the_raw_count_for_the_threshold() -> None:
    rules = Rules(players=2, cards_dealt=3, gin_rummy=True, declare_bonus=True)
    eight = _after_draw(rules, ["KS KD 9C", "AH 2H 5D"], pile="7S")
    assert "declare" not in legal_texts(eight)  # raw 8 > 7, although compared it would be 7
    seven = _after_draw(rules, ["KS KD 9C", "AH 2H 4D"], pile="7S")
    state = play(seven, (1, "declare"))
    assert state.outcome is not None and state.outcome.compared[1] == 6


# --- 3. Going Out Major or Minor (DR8, DR9) -------------------------------------------------------

SINGLE = Rules(players=2, cards_dealt=5, going_out_single_meld=True)


def test_two_melds_go_out_in_the_base_game_but_not_with_single_meld_dr8() -> None:
    hands = ["AS AC AD KC QD", "2H 3H 4H 9S 9D 9C"]
    base = _after_draw(Rules(players=2, cards_dealt=5), hands, pile="7S")
    assert "go out" in legal_texts(base)
    single = _after_draw(SINGLE, hands, pile="7S")
    assert "go out" not in legal_texts(single)
    assert _rule_of(single, 1, "go out") == "cannot-go-out"


def test_one_six_card_sequence_goes_out_major_dr9() -> None:
    state = _after_draw(SINGLE, ["AS AC AD KC QD", "2H 3H 4H 5H 6H 7H"], pile="7S")
    state = play(state, (1, "go out"))
    assert state.outcome is not None and state.outcome.winner == 1
    assert state.outcome.melds_of(1) == (sorted_cards("2H 3H 4H 5H 6H 7H"),)


def test_five_card_meld_and_a_loose_card_go_out_minor_dr9() -> None:
    state = _after_draw(SINGLE, ["AS AC AD KC QD", "2H 3H 4H 5H 6H KS"], pile="7S")
    assert "go out" in legal_texts(state)


# --- 4. Declare or Go Out -------------------------------------------------------------------------

DOGO = Rules(players=2, cards_dealt=3, declare_or_go_out=True)


def test_declare_or_go_out_reshuffles_the_pile_but_its_top_into_a_new_stock() -> None:
    state = scenario(DOGO, ["AS 2S 9H", "KH KD 9C"], stock="5C", pile="3D 8S")
    state = ENGINE.apply(state, ENGINE.parse_action("draw stock"), 1)
    state = ENGINE.apply(state, ENGINE.parse_action("discard KH"), 1)
    assert state.phase is Phase.RESHUFFLE and ENGINE.current_player(state) == CHANCE
    state = ENGINE.chance_step(state)
    assert state.phase is Phase.RESHUFFLE_CUT
    assert state.events[-1].verb == "reshuffle" and state.events[-1].seat == state.dealer
    cutter_events = len(state.events)
    state = ENGINE.chance_step(state)
    assert state.events[cutter_events].seat == seat_right_of(state, state.dealer)
    assert state.pile == (card("KH"),)
    assert sorted(state.stock) == sorted(cards("3D 8S"))
    assert state.phase is Phase.DRAW and state.turn == 0 and not state.exhaustion
    assert "draw stock" in legal_texts(state)
    assert_conserved_scenario(state, "AS 2S 9H KD 9C 5C KH 3D 8S")


def assert_conserved_scenario(state: State, text: str) -> None:
    held: Counter[int] = Counter()
    for hand in state.hands:
        held.update(hand)
    held.update(state.stock)
    held.update(state.pile)
    assert held == Counter(cards(text))


def test_declare_or_go_out_with_only_the_top_card_falls_back_to_exhaustion() -> None:
    state = scenario(DOGO, ["AS 2S 9H", "KH KD 9C"], stock="5C", pile="")
    state = play(state, (1, "draw stock"), (1, "discard KH"))
    assert state.pile == (card("KH"),)
    assert state.phase is Phase.DRAW and state.exhaustion
    assert legal_texts(state)[:2] == ["take discard", "decline"]
    outcome = play(state, (0, "decline")).outcome
    assert outcome is not None and outcome.reason == "declined"


def test_declare_or_go_out_has_no_exhaustion_ending_while_it_can_reshuffle() -> None:
    state = scenario(DOGO, ["AS 2S 9H", "KH KD 9C"], stock="5C", pile="3D 8S")
    state = play(state, (1, "draw stock"), (1, "discard KH"))
    assert "decline" not in legal_texts(state)


# --- 5. Three-Card Draw, and with Spread-Out ------------------------------------------------------

THREE_CARD = Rules(players=2, cards_dealt=3, three_card_draw=True)


def test_three_card_draw_takes_the_next_discard_and_the_top_stock_card() -> None:
    state = scenario(THREE_CARD, ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="3D 8S")
    state = play(state, (1, "take discard"))
    assert "take extra" in legal_texts(state)
    state = play(state, (1, "take extra"))
    assert state.hands[1] == sorted_cards("KH KD 9C 8S 3D 5C")
    assert state.pile == () and state.stock == (card("2C"),)
    assert state.draw_kind is DrawKind.EXTRA
    assert "take extra" not in legal_texts(state)
    # Only one card is discarded: the hand grows by two.
    state = play(state, (1, "discard KH"))
    assert len(state.hands[1]) == 5


def test_three_card_draw_is_both_or_neither() -> None:
    state = scenario(THREE_CARD, ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="3D 8S")
    state = play(state, (1, "take discard"), (1, "discard KH"))
    assert state.pile == (card("3D"), card("KH")) and state.stock == cards("2C 5C")


def test_three_card_draw_needs_two_cards_in_the_discard_pile() -> None:
    state = scenario(THREE_CARD, ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="8S")
    state = play(state, (1, "take discard"))
    assert "take extra" not in legal_texts(state)
    assert _rule_of(state, 1, "take extra") == "no-extra"


def test_three_card_draw_needs_a_stock_card() -> None:
    state = scenario(THREE_CARD, ["AS 2S 9H", "KH KD 9C"], stock="", pile="3D 8S", exhaustion=True)
    state = play(state, (1, "take discard"))
    assert "take extra" not in legal_texts(state)


def test_three_card_draw_only_after_taking_the_top_discard() -> None:
    state = scenario(THREE_CARD, ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="3D 8S")
    state = play(state, (1, "draw stock"))
    assert _rule_of(state, 1, "take extra") == "no-extra"


def test_three_card_draw_is_off_without_the_variation() -> None:
    state = scenario(
        Rules(players=2, cards_dealt=3), ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="3D 8S"
    )
    state = play(state, (1, "take discard"))
    assert "take extra" not in legal_texts(state)
    assert _rule_of(state, 1, "take extra") == "no-extra"


def test_three_card_draw_with_spread_out_only_when_the_first_card_was_the_top_discard() -> None:
    rules = Rules(players=2, cards_dealt=3, three_card_draw=True, spread_out_discard=True)
    deep = scenario(rules, ["AS 2S 9H", "KH KD 9C"], stock="2C 5C", pile="4C 3D 8S")
    assert "take extra" not in legal_texts(play(deep, (1, "take discard 2")))
    top = play(deep, (1, "take discard"))
    assert "take extra" in legal_texts(top)
    state = play(top, (1, "take extra"))
    assert state.pile == (card("4C"),)
    assert state.hands[1] == sorted_cards("KH KD 9C 8S 3D 5C")


# --- 6. Four 7's (DR16) ---------------------------------------------------------------------------

SEVENS = Rules(players=2, cards_dealt=4, four_sevens=True)


def test_four_natural_sevens_at_the_start_of_the_turn_win_at_once_dr16() -> None:
    state = scenario(SEVENS, ["AS 2S 9H 3C", "7S 7H 7D 7C"], stock="2C 5C", pile="8S")
    assert "four sevens" in legal_texts(state)
    state = play(state, (1, "four sevens"))
    result = ENGINE.result(state)
    assert result is not None and result.winners == (1,) and result.reason == "four-sevens"


def test_four_sevens_completed_by_the_draw_win_during_the_turn() -> None:
    state = scenario(SEVENS, ["AS 2S 9H 3C", "7S 7H 7D KC"], stock="2C 7C", pile="8S")
    assert "four sevens" not in legal_texts(state)
    state = play(state, (1, "draw stock"))
    assert "four sevens" in legal_texts(state)
    outcome = play(state, (1, "four sevens")).outcome
    assert outcome is not None and outcome.winner == 1


def test_four_sevens_need_natural_sevens_not_wildcards() -> None:
    rules = Rules(players=2, cards_dealt=4, four_sevens=True, optional_cards=("W",))
    state = scenario(rules, ["AS 2S 9H 3C", "7S 7H 7D W"], stock="2C 5C", pile="8S")
    assert "four sevens" not in legal_texts(state)
    assert _rule_of(state, 1, "four sevens") == "no-four-sevens"


def test_four_sevens_is_only_a_variation() -> None:
    state = scenario(
        Rules(players=2, cards_dealt=4), ["AS 2S 9H 3C", "7S 7H 7D 7C"], stock="2C", pile="8S"
    )
    assert "four sevens" not in legal_texts(state)
    assert _rule_of(state, 1, "four sevens") == "no-four-sevens"


# --- 7. Spread-Out Discard-Pile -------------------------------------------------------------------

SPREAD = Rules(players=2, cards_dealt=3, spread_out_discard=True)


def test_spread_out_takes_any_card_with_every_card_above_it() -> None:
    state = scenario(SPREAD, ["AS 2S 9H", "KH KD 9C"], stock="2C", pile="4C 3D 8S JH")
    assert [t for t in legal_texts(state) if t.startswith("take")] == [
        "take discard",
        "take discard 2",
        "take discard 3",
        "take discard 4",
    ]
    state = play(state, (1, "take discard 3"))
    assert state.hands[1] == sorted_cards("KH KD 9C 3D 8S JH")
    assert state.pile == (card("4C"),) and state.draw_kind is DrawKind.SPREAD


def test_spread_out_shows_every_discard_to_everyone() -> None:
    state = scenario(SPREAD, ["AS 2S 9H", "KH KD 9C"], stock="2C", pile="4C 3D 8S")
    for seat in (0, 1):
        assert ENGINE.view(state, seat).discard_pile == cards("4C 3D 8S")
    squared = scenario(
        Rules(players=2, cards_dealt=3), ["AS 2S 9H", "KH KD 9C"], stock="2C", pile="4C 3D 8S"
    )
    view = ENGINE.view(squared, 0)
    assert view.discard_pile is None and view.discard_top == card("8S")


def test_spread_out_does_not_reach_below_the_pile() -> None:
    state = scenario(SPREAD, ["AS 2S 9H", "KH KD 9C"], stock="2C", pile="4C 3D")
    assert _rule_of(state, 1, "take discard 3") == "pile-too-short"


def test_after_exhaustion_only_the_top_discard_may_be_taken_even_spread() -> None:
    state = scenario(SPREAD, ["AS 2S 9H", "KH KD 9C"], stock="", pile="4C 3D 8S", exhaustion=True)
    assert [t for t in legal_texts(state) if t.startswith("take")] == ["take discard"]
    assert _rule_of(state, 1, "take discard 2") == "exhausted-top-only"


# --- 8. Missing Cards -----------------------------------------------------------------------------


def test_missing_cards_removes_optional_then_pack_cards_unseen() -> None:
    rules = Rules(
        players=3,
        missing_cards=True,
        optional_cards=ALL_OPTIONAL,
        missing_optional=4,
        missing_regular=5,
    )
    for seed in range(10):
        state = new_dealt(rules, seed)
        assert len(state.removed) == 9
        assert_conserved(state)
        in_play = sum(len(h) for h in state.hands) + len(state.stock) + len(state.pile)
        assert in_play == 64 - 9
        view = ENGINE.view(state, 0)
        assert view.removed_unseen == 9
        hidden = set(state.removed) - {card("W")}  # another WILDCARD may be in play
        assert not hidden & set(_visible_cards(view))


def _visible_cards(view: object) -> list[int]:
    from cardtable.cards import parse_card

    labels: list[str] = []

    def walk(value: object) -> None:
        if isinstance(value, str):
            labels.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    data = view.to_json()  # type: ignore[attr-defined]
    # The chosen optional cards are public, and so are the Preliminary cards, which went back
    # into the pack before the Missing Cards were removed; which cards went missing is not.
    del data["rules"], data["preliminary"]
    data["events"] = [e for e in data["events"] if e["verb"] not in ("preliminary", "first-dealer")]
    walk(data)
    found: list[int] = []
    for label in labels:
        try:
            found.append(parse_card(label))
        except ValueError:
            continue
    return found


def test_missing_optional_count_is_capped_at_the_chosen_optional_cards() -> None:
    rules = Rules(
        players=2,
        missing_cards=True,
        optional_cards=("W", "C7"),
        missing_optional=12,
        missing_regular=0,
    )
    state = new_dealt(rules, 3)
    assert sorted(state.removed) == sorted(cards("W C7"))


def test_first_removal_takes_only_optional_cards() -> None:
    rules = Rules(
        players=2,
        missing_cards=True,
        optional_cards=ALL_OPTIONAL,
        missing_optional=12,
        missing_regular=0,
    )
    state = new_dealt(rules, 8)
    assert sorted(state.removed) == sorted(pack_cards(rules)[52:])
    assert all(is_regular(c) for hand in state.hands for c in hand)


def test_missing_cards_with_every_optional_card_plays_to_the_end() -> None:
    from cardtable.bots.base import RandomBot

    from .helpers import run

    rules = Rules(
        players=4,
        missing_cards=True,
        optional_cards=ALL_OPTIONAL,
        missing_optional=3,
        missing_regular=7,
    )
    for seed in range(5):
        state, _ = run(rules, seed, [RandomBot()] * 4, checked=True)
        assert state.phase is Phase.OVER
        assert_conserved(state)


def test_missing_cards_off_removes_nothing() -> None:
    rules = Rules(players=2, optional_cards=ALL_OPTIONAL, missing_optional=5, missing_regular=5)
    assert new_dealt(rules, 1).removed == ()


# --- 9. Seating -----------------------------------------------------------------------------------


def test_seating_puts_the_dealer_just_right_of_the_lowest_card_who_plays_first() -> None:
    rules = Rules(players=6, seating=True)
    for seed in range(15):
        state = new_dealt(rules, seed)
        finals = {s: got[-1] for s, got in enumerate(state.preliminary)}
        lowest = min(finals, key=lambda s: preliminary_key(finals[s]))
        assert seat_left_of(state, state.dealer) == lowest
        assert state.first_player == lowest
        assert sorted(state.order) == list(range(6))
        assert all(state.order[state.positions[s]] == s for s in range(6))


def test_seating_choices_are_random_but_follow_the_card_order() -> None:
    preliminary = tuple((c,) for c in cards("5H KS 2D 9C"))
    orders = {choose_places(preliminary, 1, random.Random(seed)) for seed in range(60)}
    assert len(orders) > 1
    for order in orders:
        lowest = 2  # 2D
        assert order[(order.index(lowest) - 1) % 4] == 1


def test_without_seating_the_table_order_is_the_seat_order() -> None:
    assert new_dealt(Rules(players=5), 2).order == (0, 1, 2, 3, 4)


def test_seating_turns_go_clockwise_in_the_new_order() -> None:
    state = new_dealt(Rules(players=4, seating=True), 21)
    first = state.turn
    state = ENGINE.apply(state, ENGINE.parse_action("draw stock"), first)
    discard = state.hands[first][0]
    state = ENGINE.apply(state, DISCARDS[discard], first)
    assert state.turn == seat_left_of(state, first)


# --- 10. Shuffle Option ---------------------------------------------------------------------------


def test_shuffle_option_deals_seven_piles_after_the_shuffle() -> None:
    pack = list(range(14))  # top card is 13
    assert seven_piles(pack) == [7, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6]
    plain = new_dealt(Rules(players=3, offer_cut=False), 5)
    piled = new_dealt(Rules(players=3, offer_cut=False, shuffle_option=True), 5)
    assert plain.hands != piled.hands
    assert_conserved(piled)
    assert Counter(plain.stock + sum(plain.hands, ())) == Counter(
        piled.stock + sum(piled.hands, ())
    )


# --- every variation at once ----------------------------------------------------------------------


def test_all_variations_combined_play_to_the_end_with_cards_conserved() -> None:
    from cardtable.bots.base import RandomBot

    from .helpers import run

    rules = Rules(
        players=5,
        optional_cards=ALL_OPTIONAL,
        gin_rummy=True,
        declare_bonus=True,
        going_out_single_meld=True,
        declare_or_go_out=True,
        three_card_draw=True,
        four_sevens=True,
        spread_out_discard=True,
        missing_cards=True,
        missing_optional=2,
        missing_regular=3,
        seating=True,
        shuffle_option=True,
        turn_cap=150,
    )
    for seed in range(4):
        state, _ = run(rules, seed, [RandomBot()] * 5, checked=True)
        assert state.phase is Phase.OVER
        assert_conserved(state)
    assert advance(ENGINE.new_game(rules, 0)).phase is Phase.DRAW
