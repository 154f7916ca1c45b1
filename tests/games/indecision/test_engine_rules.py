"""Scenario tests for each rule of RULES.md section 1, on the Indecision engine."""

from __future__ import annotations

import pytest

from cardtable.cards import format_cards
from cardtable.errors import IllegalActionError
from cardtable.games.contract import CHANCE, TERMINAL, chance_rng
from cardtable.games.indecision import (
    DRAW_DECK,
    DRAW_PILE,
    ENGINE,
    Discard,
    Phase,
    Rules,
    State,
    Stop,
)
from cardtable.games.indecision import text as ENGINE_TEXT
from cardtable.games.indecision.engine import STRICT_TURN_PROBLEM, TURN_PROBLEM, UNUSED_PROBLEM

from .helpers import advance, cards, check_invariants, dealt, play_moves, position

E1 = "5H 6H 7H 7C 7S"  # 23, all cards used
E2 = "10C JD QC KC KH"  # 17, all cards used
LOOSE = "2S 4H 6D 8C 10S"  # 0, nothing used
TWO_PLAYERS = Rules()


def opening(rules: Rules = TWO_PLAYERS, **kwargs: object) -> State:
    """Two players, dealer 0: the starter (seat 1) holds six cards for the opening discard."""
    hands = kwargs.pop("hands", [E1, "2C 3D 9S JH KD 5C"])
    return position(rules, hands, phase=Phase.OPENING, dealer=0, **kwargs)  # type: ignore[arg-type]


# -- 1.2 setup: cut, deal, opening discard -------------------------------------------------------


def test_lowest_cut_deals_first() -> None:
    decided = 0
    for seed in range(60):
        state = ENGINE.chance_step(ENGINE.new_game(Rules(players=3), seed))
        cut = state.table.cut_rounds[0]
        ranks = [card % 13 for _, card in cut]
        if ranks.count(min(ranks)) == 1:
            decided += 1
            assert state.table.dealer == cut[ranks.index(min(ranks))][0]
            assert state.phase is Phase.DEAL
    assert decided > 30


def test_ace_is_the_lowest_cut() -> None:
    for seed in range(200):
        state = ENGINE.chance_step(ENGINE.new_game(Rules(players=2), seed))
        cut = dict(state.table.cut_rounds[0])
        if any(card % 13 == 0 for card in cut.values()) and state.table.dealer >= 0:
            ace_seat = next(seat for seat, card in cut.items() if card % 13 == 0)
            assert state.table.dealer == ace_seat
            return
    pytest.fail("no seed in range cut an ace")


def test_cut_ties_are_recut() -> None:
    for seed in range(300):
        state = ENGINE.chance_step(ENGINE.new_game(Rules(players=4), seed))
        first = state.table.cut_rounds[0]
        ranks = [card % 13 for _, card in first]
        low = min(ranks)
        if ranks.count(low) < 2:
            continue
        tied = tuple(seat for seat, card in first if card % 13 == low)
        assert state.phase is Phase.CUT and state.table.dealer == -1
        assert state.table.cutters == tied
        state = ENGINE.chance_step(state)
        second = state.table.cut_rounds[1]
        assert tuple(seat for seat, _ in second) == tied
        while state.phase is Phase.CUT:
            state = ENGINE.chance_step(state)
        assert state.table.dealer in tied
        return
    pytest.fail("no seed in range produced a tied cut")


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starter_receives_six_cards_dealt_one_at_a_time_from_the_starter(players: int) -> None:
    state = ENGINE.new_game(Rules(players=players), 5)
    while state.phase is not Phase.DEAL:
        state = ENGINE.chance_step(state)
    step = state.chance_steps
    after = ENGINE.chance_step(state)
    deck = list(range(52))
    chance_rng(5, step).shuffle(deck)
    dealer = state.table.dealer
    starter = (dealer + 1) % players
    expected: list[list[int]] = [[] for _ in range(players)]
    for _ in range(5):
        for offset in range(players):
            expected[(starter + offset) % players].append(deck.pop())
    expected[starter].append(deck.pop())
    assert after.hands == tuple(tuple(hand) for hand in expected)
    assert len(after.hands[starter]) == 6
    assert after.deck == tuple(deck) and len(after.deck) == 52 - 5 * players - 1
    assert after.phase is Phase.OPENING and ENGINE.current_player(after) == starter
    check_invariants(after)


def test_opening_discard_starts_the_pile_and_counts_as_starters_turn() -> None:
    state = play_moves(opening(), [(1, "discard 9S")])
    assert state.pile == cards("9S")
    assert state.had_turn == 0b10 and state.turns == 1
    assert state.phase is Phase.DRAW and ENGINE.current_player(state) == 0


def test_opening_turn_has_no_draw() -> None:
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(opening(), DRAW_DECK, 1)
    assert error.value.rule == "opening-discard"


def test_play_continues_clockwise_from_the_starters_left() -> None:
    state = dealt(Rules(players=4), 2)
    starter = state.table.starter
    seen = []
    for _ in range(6):
        seat = ENGINE.current_player(state)
        seen.append(seat)
        legal = ENGINE.legal_actions(state, seat)
        action = next(a for a in legal if not isinstance(a, Stop))
        state = advance(ENGINE.apply(state, action, seat))
        if state.phase is Phase.DISCARD:
            state = ENGINE.apply(state, ENGINE.legal_actions(state, seat)[0], seat)
    assert seen == [(starter + i) % 4 for i in range(6)]


def test_starter_deals_next_hand_and_totals_carry_over() -> None:
    state = play_moves(
        opening(totals=(30, 40)), [(1, "discard 2C"), (0, "draw pile"), (0, "stop 2C")]
    )
    assert state.table.last_hand is not None and state.phase is Phase.DEAL
    assert state.table.totals == (53, 40)
    assert state.table.dealer == 1
    nxt = ENGINE.chance_step(state)
    assert nxt.table.hand_number == 2 and nxt.table.dealer == 1 and nxt.table.starter == 0
    assert len(nxt.hands[0]) == 6 and len(nxt.hands[1]) == 5
    assert nxt.table.totals == (53, 40)
    check_invariants(nxt)


# -- 1.3 turns ------------------------------------------------------------------------------------


def test_draw_from_pile_takes_its_top_card() -> None:
    state = play_moves(opening(), [(1, "discard 9S"), (0, "draw pile")])
    assert state.pile == () and state.hands[0][-1] == cards("9S")[0]
    assert state.drawn_from_pile and state.phase is Phase.DISCARD


def test_draw_from_deck_takes_its_top_card() -> None:
    state = play_moves(opening(), [(1, "discard 9S")])
    top = state.deck[-1]
    state = ENGINE.apply(state, DRAW_DECK, 0)
    assert state.hands[0][-1] == top and state.deck[-1] != top and len(state.deck) == 40


def test_may_discard_card_just_taken_from_pile_by_default() -> None:
    state = play_moves(opening(), [(1, "discard 9S"), (0, "draw pile")])
    assert Discard(cards("9S")[0]) in ENGINE.legal_actions(state, 0)
    state = ENGINE.apply(state, Discard(cards("9S")[0]), 0)
    assert state.pile == cards("9S")


def test_cannot_discard_card_just_taken_from_pile_when_rules_forbid() -> None:
    rules = Rules(may_discard_taken_card=False)
    state = play_moves(opening(rules), [(1, "discard 9S"), (0, "draw pile")])
    nine = Discard(cards("9S")[0])
    assert nine not in ENGINE.legal_actions(state, 0)
    assert Stop(cards("9S")[0]) in ENGINE.legal_actions(state, 0)
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, nine, 0)
    assert error.value.rule == "card-taken-from-pile"


def test_card_drawn_from_deck_may_be_discarded_even_when_taken_cards_may_not() -> None:
    rules = Rules(may_discard_taken_card=False)
    state = play_moves(opening(rules), [(1, "discard 9S"), (0, "draw deck")])
    assert Discard(state.drawn) in ENGINE.legal_actions(state, 0)


def test_discard_before_drawing_is_rejected() -> None:
    state = play_moves(opening(), [(1, "discard 9S")])
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, ENGINE.parse_action("discard 5H"), 0)
    assert error.value.rule == "draw-first"


def test_second_draw_in_a_turn_is_rejected() -> None:
    state = play_moves(opening(), [(1, "discard 9S"), (0, "draw deck")])
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, DRAW_PILE, 0)
    assert error.value.rule == "already-drew"


def test_card_not_in_hand_is_rejected() -> None:
    with pytest.raises(IllegalActionError, match="AS is not in your hand") as error:
        ENGINE.apply(opening(), ENGINE.parse_action("discard AS"), 1)
    assert error.value.rule == "not-in-hand"


def test_out_of_turn_action_is_rejected_and_state_unchanged() -> None:
    state = opening()
    snapshot = (state.hands, state.pile, state.deck, state.to_act, state.phase)
    with pytest.raises(IllegalActionError, match="it is not your turn: seat 1 is to play") as error:
        ENGINE.apply(state, ENGINE.parse_action("discard 5H"), 0)
    assert error.value.rule == "not-your-turn"
    assert (state.hands, state.pile, state.deck, state.to_act, state.phase) == snapshot
    assert ENGINE.apply(state, ENGINE.parse_action("discard 9S"), 1).pile == cards("9S")


def test_legal_actions_are_empty_for_seats_not_on_turn() -> None:
    state = opening()
    assert ENGINE.legal_actions(state, 0) == ()
    legal = ENGINE.legal_actions(state, 1)
    assert len(legal) == 12 and sum(isinstance(a, Stop) for a in legal) == 6


def test_chance_step_due_blocks_seat_actions() -> None:
    state = ENGINE.new_game(TWO_PLAYERS, 1)
    assert ENGINE.current_player(state) == CHANCE
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, DRAW_DECK, 0)
    assert error.value.rule == "chance-pending"


def test_unknown_seat_is_rejected() -> None:
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(opening(), ENGINE.parse_action("discard 9S"), 5)
    assert error.value.rule == "no-such-seat"


# -- deck exhaustion ------------------------------------------------------------------------------


def _exhausted(rules: Rules, pile: str) -> State:
    """Seat 0 to draw with an empty deck; the pile holds ``pile`` then every other card."""
    hands = [E1, E2]
    used = set(cards(E1 + " " + E2)) | set(cards(pile))
    rest = format_cards(c for c in range(52) if c not in used)
    return position(
        rules,
        hands,
        pile=f"{rest} {pile}".strip(),
        deck="",
        to_act=0,
        had_turn=(0, 1),
        turns=30,
    )


def test_empty_deck_reshuffles_pile_under_top_card() -> None:
    state = _exhausted(TWO_PLAYERS, "9D")
    old_pile = state.pile
    assert ENGINE.legal_actions(state, 0) == (DRAW_DECK, DRAW_PILE)
    state = ENGINE.apply(state, DRAW_DECK, 0)
    assert ENGINE.current_player(state) == CHANCE and state.phase is Phase.RESHUFFLE
    state = ENGINE.chance_step(state)
    assert state.pile == cards("9D")
    drawn = state.hands[0][-1]
    assert drawn == state.drawn and drawn in old_pile[:-1]
    assert sorted((*state.deck, drawn)) == sorted(old_pile[:-1])
    assert state.deck != tuple(c for c in old_pile[:-1] if c != drawn)  # shuffled
    assert [e.verb for e in state.events][-2:] == ["reshuffle", "draw-stock"]
    check_invariants(state)


def test_one_card_pile_forces_pile_draw_when_deck_empty() -> None:
    # Unreachable with one deck in real play (the pile then holds 30+ cards); a safeguard.
    state = position(TWO_PLAYERS, [E1, E2], pile="9D", deck="", to_act=0, had_turn=(0, 1))
    assert ENGINE.legal_actions(state, 0) == (DRAW_PILE,)
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, DRAW_DECK, 0)
    assert error.value.rule == "must-draw-pile"


def test_empty_deck_ends_hand_and_scores_everyone_when_option_is_score_hand() -> None:
    rules = Rules(deck_exhaustion="score-hand")
    state = position(rules, [E1, E2], pile="9D", deck="2D", to_act=0, had_turn=(0, 1))
    state = play_moves(state, [(0, "draw deck"), (0, "discard 2D")])
    summary = state.table.last_hand
    assert summary is not None and summary.ending == "deck-exhausted"
    assert summary.stopper is None
    assert [r.seat for r in summary.results] == [1, 0]
    assert state.table.totals == (23, 17)
    assert state.phase is Phase.DEAL


def test_deck_exhaustion_score_hand_help_says_the_hand_ends_once_the_deck_is_used_up() -> None:
    # RULES.md 1.8 item 4: the engine ends the hand at the end of the turn that takes the
    # deck's last card; the next player is never asked, though the pile holds a card.
    from cardtable.rule_options import options_of

    rules = Rules(deck_exhaustion="score-hand")
    state = position(rules, [E1, E2], pile="9D", deck="2D", to_act=0, had_turn=(0, 1))
    state = play_moves(state, [(0, "draw deck"), (0, "discard 2D")])
    assert state.table.last_hand is not None and state.table.last_hand.ending == "deck-exhausted"
    (declared,) = [d for d in options_of(Rules) if d.name == "deck_exhaustion"]
    words = declared.option.help
    assert "wants to draw" not in words and "empty deck" not in words, words
    assert "the hand ends as soon as the deck is used up" in words, words


# -- 1.4 stopping ---------------------------------------------------------------------------------


def _stop_after_draw(state: State, seat: int, spare: str) -> State:
    return play_moves(state, [(seat, "draw pile"), (seat, f"stop {spare}")])


def test_stop_puts_spare_card_face_down_outside_the_pile() -> None:
    state = play_moves(opening(), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    assert state.pile == () and state.counting is not None
    assert state.counting.stop_card == cards("2C")[0]
    assert ENGINE.view(state, 0).stop_card == cards("2C")[0]
    assert ENGINE.view(state, 1).stop_card is None
    check_invariants(state)


def test_earliest_valid_stop_is_the_dealers_first_turn() -> None:
    state = play_moves(opening(), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    summary = state.table.last_hand
    assert summary is not None and summary.stop_valid is True
    assert state.table.totals[0] == 23


def test_stop_in_place_of_opening_discard_always_fails_requirement_1() -> None:
    state = opening(hands=[E2, "7S 7H 7D 7C 9S 2H"])
    state = ENGINE.apply(state, ENGINE.parse_action("stop 2H"), 1)
    summary = state.table.last_hand
    assert summary is not None and summary.stop_problems == (TURN_PROBLEM,)
    assert state.table.totals == (17, 0)


def test_stop_before_every_player_had_a_turn_forfeits() -> None:
    rules = Rules(players=3)
    # Dealer 0, starter 1; seat 2 stops on its first turn before the dealer has played.
    state = position(rules, [LOOSE, "2C 3D 9S JH KD 5C", E1], phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C")])
    state = _stop_after_draw(state, 2, "2C")
    summary = state.table.last_hand
    assert summary is not None and summary.stop_problems == (TURN_PROBLEM,)
    assert [r.forfeited for r in summary.results] == [True, False, False]
    assert state.table.totals == (0, 0, 0)


def test_strict_stop_turns_needs_completed_turns_before_the_current_one() -> None:
    rules = Rules(strict_stop_turns=True)
    state = play_moves(opening(rules, hands=[E1, f"{E2} 2C"]), [(1, "discard 2C")])
    early = _stop_after_draw(state, 0, "2C")
    assert early.table.last_hand is not None
    assert early.table.last_hand.stop_problems == (STRICT_TURN_PROBLEM,)
    # The starter's second turn is the earliest valid strict stop.
    state = play_moves(state, [(0, "draw pile"), (0, "discard 2C")])
    later = play_moves(state, [(1, "draw pile"), (1, "stop 2C")])
    assert later.table.last_hand is not None and later.table.last_hand.stop_valid is True


def test_stop_with_unused_card_forfeits() -> None:
    state = play_moves(opening(hands=["5H 6H 7H 8C 2D", "2C 3D 9S JH KD QS"]), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    summary = state.table.last_hand
    assert summary is not None and summary.stop_problems == (UNUSED_PROBLEM,)
    assert summary.results[0].score == 6 and summary.results[0].points == 0


def test_prile_of_four_stop_is_valid_with_unused_fifth_card() -> None:
    state = play_moves(opening(hands=["7S 7H 7D 7C 9S", "2C 3D 9D JH KD QS"]), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    summary = state.table.last_hand
    assert summary is not None and summary.stop_valid is True
    assert state.table.totals[0] == 24


def test_invalid_stop_others_still_scored() -> None:
    state = opening(hands=[E2, "7S 7H 7D 7C 9S 2H"])
    state = ENGINE.apply(state, ENGINE.parse_action("stop 9S"), 1)
    summary = state.table.last_hand
    assert summary is not None
    stopper, other = summary.results
    assert (stopper.seat, stopper.forfeited, stopper.score, stopper.points) == (1, True, 24, 0)
    assert (other.seat, other.forfeited, other.points) == (0, False, 17)


def test_every_hand_is_counted_from_the_stopper_clockwise() -> None:
    rules = Rules(players=4)
    hands = [LOOSE, "2C 3D 9S JH KD QS", E1, E2]
    state = position(rules, hands, phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C")])
    state = _stop_after_draw(state, 2, "2C")
    summary = state.table.last_hand
    assert summary is not None and [r.seat for r in summary.results] == [2, 3, 0, 1]


# -- 1.5 winning ----------------------------------------------------------------------------------


def test_first_to_121_in_counting_order_wins() -> None:
    state = play_moves(
        opening(totals=(110, 120), hands=[E1, "3D 3C 9H 9S 9D 2C"]), [(1, "discard 2C")]
    )
    state = _stop_after_draw(state, 0, "2C")
    assert state.phase is Phase.GAME_OVER and ENGINE.current_player(state) == TERMINAL
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0,) and result.reason == "target"
    assert result.scores == (133, 120) and result.utilities == (1.0, 0.0)
    summary = state.table.last_hand
    assert summary is not None and summary.results[1].counted is False


def test_non_stopper_reaching_121_first_in_counting_order_wins() -> None:
    rules = Rules(players=3)
    state = position(
        rules,
        ["3D 3C 9H 9S 9D", E2, E1],
        pile="QS",
        dealer=2,
        to_act=1,
        had_turn=(0, 1, 2),
        totals=(115, 100, 110),
    )
    state = _stop_after_draw(state, 1, "QS")
    result = ENGINE.result(state)
    assert result is not None and result.winners == (2,)
    assert result.scores == (115, 117, 133)
    summary = state.table.last_hand
    assert summary is not None
    assert [(r.seat, r.counted) for r in summary.results] == [(1, True), (2, True), (0, False)]


def test_end_of_round_win_check_highest_total_wins() -> None:
    rules = Rules(win_check="end-of-round")
    state = play_moves(
        opening(rules, totals=(110, 120), hands=[E1, "3D 3C 9H 9S 9D 2C"]), [(1, "discard 2C")]
    )
    state = _stop_after_draw(state, 0, "2C")
    result = ENGINE.result(state)
    assert result is not None and result.winners == (1,)
    assert result.scores == (133, 134)


def test_end_of_round_tie_shares_the_win() -> None:
    rules = Rules(win_check="end-of-round")
    state = play_moves(
        opening(rules, totals=(110, 119), hands=[E1, "3D 3C 9H 9S 9D 2C"]), [(1, "discard 2C")]
    )
    state = _stop_after_draw(state, 0, "2C")
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0, 1) and result.utilities == (0.5, 0.5)


def test_target_score_is_a_setting() -> None:
    rules = Rules(target_score=30)
    state = play_moves(opening(rules, totals=(10, 0)), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0,) and result.scores[0] == 33


# -- safeguards ---------------------------------------------------------------------------------


def test_hand_turn_cap_abandons_hand_without_score() -> None:
    rules = Rules(hand_turn_cap=3)
    state = play_moves(
        opening(rules),
        [(1, "discard 2C"), (0, "draw pile"), (0, "discard 2C"), (1, "draw pile")],
    )
    assert state.phase is Phase.DISCARD
    state = ENGINE.apply(state, ENGINE.parse_action("discard 2C"), 1)
    summary = state.table.last_hand
    assert summary is not None and summary.ending == "turn-cap" and summary.results == ()
    assert state.table.totals == (0, 0) and state.phase is Phase.DEAL
    assert state.table.dealer == 1


def test_hand_cap_abandons_the_game() -> None:
    rules = Rules(hand_cap=1)
    state = play_moves(opening(rules), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")
    result = ENGINE.result(state)
    assert result is not None and result.reason == "cap" and result.winners == ()
    assert result.utilities == (0.0, 0.0) and "abandoned" in result.summary


def test_hand_turn_cap_with_people_seated_counts_every_hand_instead_of_abandoning() -> None:
    # RULES.md 1.3 keeps the abandoning cap for computer-only play; with a person at the table
    # the hand ends as on an empty deck: every hand is counted from the seat to draw next.
    rules = Rules(hand_turn_cap=3, people_seated=True)
    state = play_moves(
        opening(rules, totals=(10, 4)),
        [(1, "discard 2C"), (0, "draw pile"), (0, "discard 2C"), (1, "draw pile")],
    )
    state = ENGINE.apply(state, ENGINE.parse_action("discard 2C"), 1)
    summary = state.table.last_hand
    assert summary is not None and summary.ending == "turn-limit" and summary.stopper is None
    assert [r.seat for r in summary.results] == [0, 1]
    seat_1_score = summary.results[1].score
    assert state.table.totals == (10 + 23, 4 + seat_1_score)  # E1 is 23
    assert state.phase is Phase.DEAL
    assert "limit of 3 turns" in " ".join(ENGINE_TEXT.summary_lines(summary))


def test_hand_cap_with_people_seated_gives_the_game_to_the_highest_total() -> None:
    rules = Rules(hand_cap=1, people_seated=True)
    state = play_moves(opening(rules, totals=(10, 50)), [(1, "discard 2C")])
    state = _stop_after_draw(state, 0, "2C")  # seat 0 stops with E1: 10 + 23 = 33, below 50
    result = ENGINE.result(state)
    assert result is not None and result.reason == "hand-limit"
    assert result.winners == (1,) and result.utilities == (0.0, 1.0)
    assert "limit of hands" in result.summary and "abandoned" not in result.summary


# -- manual declaration mode (1.5) -----------------------------------------------------------------

MANUAL = Rules(manual_declaration=True)


def _manual_stop(totals: tuple[int, int] = (0, 0), other: str = E2) -> State:
    """Seat 0 stops validly with E1 (true 23); seat 1 holds ``other``."""
    state = opening(MANUAL, totals=totals, hands=[E1, f"{other} 2C"])
    state = play_moves(state, [(1, "discard 2C")])
    return _stop_after_draw(state, 0, "2C")


def test_manual_declaration_starts_with_the_stopper() -> None:
    state = _manual_stop()
    assert state.phase is Phase.DECLARE and ENGINE.current_player(state) == 0
    assert ENGINE.legal_actions(state, 1) == ()
    assert len(ENGINE.legal_actions(state, 0)) == ENGINE.declaration_limit(MANUAL) + 1


def test_manual_declaration_under_declared_points_are_forfeited() -> None:
    state = play_moves(_manual_stop(), [(0, "declare 20"), (0, "confirm")])
    assert state.table.totals[0] == 20
    assert state.phase is Phase.DECLARE and ENGINE.current_player(state) == 1
    recorded = state.counting.results[0] if state.counting else None
    assert recorded is not None and (recorded.declared, recorded.score) == (20, 23)


def test_exact_declaration_scores_the_hand() -> None:
    state = play_moves(
        _manual_stop(), [(0, "declare 23"), (0, "confirm"), (1, "declare 17"), (1, "confirm")]
    )
    assert state.table.totals == (23, 17) and state.phase is Phase.DEAL


def test_over_declared_score_challenged_costs_double_the_difference() -> None:
    # D14: true score 10, declared 15, total before 7 -> hand 0, total max(0, 7 - 10) = 0.
    state = _manual_stop(totals=(0, 7), other="5D 6D 7D 8D 3S")
    state = play_moves(state, [(0, "declare 23"), (0, "confirm")])
    state = play_moves(state, [(1, "declare 15"), (1, "confirm")])
    summary = state.table.last_hand
    assert summary is not None
    result = summary.results[1]
    assert (result.score, result.declared, result.challenged) == (10, 15, True)
    assert (result.points, result.penalty, result.total) == (0, 7, 0)
    assert state.table.totals == (23, 0)


def test_over_declaration_penalty_is_not_capped_above_zero() -> None:
    state = _manual_stop(totals=(0, 30), other="5D 6D 7D 8D 3S")
    state = play_moves(
        state, [(0, "declare 23"), (0, "confirm"), (1, "declare 15"), (1, "confirm")]
    )
    assert state.table.totals == (23, 20)


def test_correction_before_recording() -> None:
    state = play_moves(_manual_stop(), [(0, "declare 30")])
    assert state.phase is Phase.CONFIRM and ENGINE.view(state, 1).pending_declaration == 30
    state = play_moves(state, [(0, "correct 23")])
    recorded = state.counting.results[0] if state.counting else None
    assert recorded is not None
    assert (recorded.declared, recorded.announced, recorded.penalty) == (23, 30, 0)
    assert state.table.totals[0] == 23


def test_invalid_stopper_does_not_declare_and_scores_zero() -> None:
    state = opening(MANUAL, hands=[E2, "7S 7H 7D 7C 9S 2H"])
    state = ENGINE.apply(state, ENGINE.parse_action("stop 2H"), 1)
    assert state.phase is Phase.DECLARE and ENGINE.current_player(state) == 0
    assert state.counting is not None and state.counting.results[0].forfeited


def test_declaration_must_be_within_the_possible_range() -> None:
    state = _manual_stop()
    limit = ENGINE.declaration_limit(MANUAL)
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, ENGINE.parse_action(f"declare {limit + 1}"), 0)
    assert error.value.rule == "declaration-range"
    with pytest.raises(IllegalActionError) as error:
        ENGINE.apply(state, ENGINE.parse_action("confirm"), 0)
    assert error.value.rule == "declare-first"


def test_manual_counting_order_win_ends_the_counting() -> None:
    state = play_moves(_manual_stop(totals=(100, 0)), [(0, "declare 23"), (0, "confirm")])
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0,)
    summary = state.table.last_hand
    assert summary is not None and summary.results[1].counted is False
