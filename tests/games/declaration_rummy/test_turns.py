"""Turns, declaring and going out (RULES.md 3.5, 3.8) and test vectors DR10, DR13, DR15."""

from __future__ import annotations

import pytest

from cardtable.errors import ActionSyntaxError, IllegalActionError
from cardtable.games.contract import TERMINAL
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules
from cardtable.games.declaration_rummy.state import DrawKind, Phase, scenario

from .helpers import card, legal_texts, play, sorted_cards

FOUR = Rules(players=4, cards_dealt=2)
TWO = Rules(players=2, cards_dealt=3, optional_cards=ALL_OPTIONAL)


def _illegal(state: object, seat: int, text: str) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), seat)  # type: ignore[arg-type]
    return caught.value


def test_draw_from_stock_takes_the_top_card_into_the_hand() -> None:
    state = scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S")
    state = play(state, (1, "draw stock"))
    assert state.hands[1] == sorted_cards("KS KD 9C 9D")
    assert state.stock == (card("5C"),)
    assert state.phase is Phase.PLAY and state.draw_kind is DrawKind.STOCK
    assert state.drawn == (card("9D"),)


def test_take_discard_takes_only_the_top_card_of_the_squared_pile() -> None:
    state = scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="8H 7S")
    assert legal_texts(state) == ["draw stock", "take discard", "propose tie", "drop"]
    state = play(state, (1, "take discard"))
    assert state.hands[1] == sorted_cards("KS KD 9C 7S")
    assert state.pile == (card("8H"),)
    assert _illegal(
        scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C", pile="8H 7S"), 1, "take discard 2"
    ).rule == ("squared-pile")


def test_discard_puts_the_card_on_the_pile_and_passes_the_turn_clockwise() -> None:
    state = scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S")
    state = play(state, (1, "draw stock"), (1, "discard KS"))
    assert state.pile == (card("7S"), card("KS"))
    assert state.turn == 0 and state.phase is Phase.DRAW
    assert state.hands[1] == sorted_cards("KD 9C 9D")


def test_card_just_taken_from_the_discard_pile_may_be_discarded_again() -> None:
    state = scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S")
    state = play(state, (1, "take discard"))
    assert "discard 7S" in legal_texts(state)
    state = play(state, (1, "discard 7S"))
    assert state.pile == (card("7S"),)


def test_must_draw_before_discarding_declaring_or_going_out() -> None:
    state = scenario(TWO, ["2H 3H 4H", "KS KD 9C"], stock="5C 9D", pile="7S", turn=0)
    for text in ("discard 2H", "declare", "go out"):
        assert _illegal(state, 0, text).rule == "draw-first"


def test_cannot_draw_twice_in_one_turn() -> None:
    state = play(
        scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S"), (1, "draw stock")
    )
    assert _illegal(state, 1, "draw stock").rule == "already-drew"
    assert _illegal(state, 1, "take discard").rule == "already-drew"


def test_acting_out_of_turn_is_refused_but_proposing_a_tie_or_dropping_is_not() -> None:
    state = scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S")
    assert _illegal(state, 0, "draw stock").rule == "not-your-turn"
    assert legal_texts(state, 0) == ["propose tie", "drop"]


def test_discarding_a_card_not_held_is_refused() -> None:
    state = play(
        scenario(TWO, ["2H 3H 4S", "KS KD 9C"], stock="5C 9D", pile="7S"), (1, "draw stock")
    )
    error = _illegal(state, 1, "discard AS")
    assert error.rule == "not-in-hand" and "AS" in str(error)


def test_unreadable_action_is_a_syntax_error() -> None:
    with pytest.raises(ActionSyntaxError, match="unknown action"):
        ENGINE.parse_action("shuffle the deck")


# --- NO MELD 2 (DR15) ---------------------------------------------------------------------------


def test_no_meld_2_may_never_be_discarded_dr15() -> None:
    state = scenario(TWO, ["2H 3H 4S", "NM0 NM2 9C"], stock="5C 9D", pile="7S")
    state = play(state, (1, "draw stock"))
    assert "discard NM2" not in legal_texts(state)
    assert "discard NM0" in legal_texts(state)  # NO MELD 0 may be discarded
    error = _illegal(state, 1, "discard NM2")
    assert error.rule == "no-meld-2-discard" and "never" in str(error)


def test_no_meld_2_may_be_the_loose_card_when_going_out_dr15() -> None:
    state = scenario(TWO, ["5S 6S 7S", "2H 3H NM2"], stock="5C 4H", pile="7D")
    state = play(state, (1, "draw stock"))
    assert "go out" in legal_texts(state)
    state = play(state, (1, "go out"))
    assert state.outcome is not None
    assert state.outcome.reason == "went-out" and state.outcome.winner == 1
    assert state.outcome.melds_of(1) == (sorted_cards("2H 3H 4H"),)


# --- CAN'T DECLARE 0 (DR13) ---------------------------------------------------------------------


def test_cant_declare_0_blocks_declaring_but_not_going_out_dr13() -> None:
    state = scenario(TWO, ["5S 6S 7S", "2H 3H CD0"], stock="5C 4H", pile="7D")
    state = play(state, (1, "draw stock"))
    texts = legal_texts(state)
    assert "declare" not in texts and "go out" in texts
    error = _illegal(state, 1, "declare")
    assert error.rule == "cant-declare"
    assert play(state, (1, "go out")).outcome.winner == 1  # type: ignore[union-attr]


def test_discarding_cant_declare_0_allows_declaring_next_turn() -> None:
    state = scenario(TWO, ["5S 6S 7S", "2H 3H CD0"], stock="5C 4D 4H", pile="7D")
    state = play(state, (1, "draw stock"), (1, "discard CD0"), (0, "draw stock"), (0, "discard 4D"))
    state = play(state, (1, "draw stock"))
    assert "declare" in legal_texts(state)


# --- declaring (3.8) ----------------------------------------------------------------------------


def test_declare_ends_the_game_at_once_without_a_discard() -> None:
    state = scenario(TWO, ["KS QS JS", "AH 2D 9C"], stock="5C 3C", pile="7S")
    state = play(state, (1, "draw stock"), (1, "declare"))
    assert ENGINE.current_player(state) == TERMINAL
    assert state.pile == (card("7S"),)
    assert state.outcome is not None and state.outcome.declarer == 1


def test_declarer_is_counted_with_the_drawn_card() -> None:
    # Seat 1 holds A 2 4 (7, less than seat 0's 9) but draws 3C: 10 with the drawn card.
    state = scenario(TWO, ["AS 3S 5H", "AH 2D 4C"], stock="5C 3C", pile="7S")
    state = play(state, (1, "draw stock"), (1, "declare"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.counts == (9, 10)
    assert outcome.winner == 0
    assert len(outcome.hands[1] or ()) == 4


def test_declaring_with_a_higher_count_loses_to_the_lowest_count() -> None:
    state = scenario(TWO, ["AS 2S 3S", "KH KD 9C"], stock="5C 3C", pile="7S")
    state = play(state, (1, "draw stock"), (1, "declare"))
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == (0,)
    assert result.scores == (0, 38)
    assert result.utilities == (1.0, 0.0)
    assert result.reason == "declared"


def test_tie_goes_to_the_tied_player_furthest_left_of_the_first_player_dr10() -> None:
    # 4 players, dealer 0, first player 1: counts seat0 3, seat1 4, seat2 3, seat3 5.
    state = scenario(
        FOUR,
        ["AS 2H", "AH 3D", "2S AD", "AC 2C 2D"],
        stock="5C 9C",
        pile="7S",
        dealer=0,
        turn=3,
        phase=Phase.PLAY,
        drawn="2D",
    )
    assert state.first_player == 1
    state = play(state, (3, "declare"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.counts == (3, 4, 3, 5)
    assert outcome.winner == 0
    assert outcome.tie_break is not None and "seat 0" in outcome.tie_break
    assert "offsets seat 2 at 1, seat 0 at 3" in outcome.tie_break
    # The summary says who won once; the tie-break sentence explains it without repeating it.
    assert outcome.summary.count("wins") == 1, outcome.summary
    assert outcome.tie_break in outcome.summary


def test_declarer_wins_a_tie_only_from_the_higher_seat_offset() -> None:
    # First player is seat 1 (offset 0); seat 0 has offset 1 and wins a tie against seat 1.
    state = scenario(
        TWO, ["AS 2H", "AH 2D"], stock="5C", pile="7S", phase=Phase.PLAY, drawn="", turn=1
    )
    state = play(state, (1, "declare"))
    assert state.outcome is not None and state.outcome.winner == 0


# --- going out (3.8) ----------------------------------------------------------------------------


def test_going_out_with_every_card_melded_wins_whatever_others_hold() -> None:
    state = scenario(TWO, ["AS AH AD", "2H 3H 4H"], stock="9C 5H", pile="7S")
    state = play(state, (1, "draw stock"), (1, "go out"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == "went-out" and outcome.winner == 1
    assert outcome.counts[0] == 0  # seat 0's count is lower, and it does not matter


def test_going_out_with_all_but_one_card_melded() -> None:
    state = scenario(TWO, ["AS AH AD", "2H 3H 4H"], stock="9C KS", pile="7S")
    state = play(state, (1, "draw stock"))
    assert "go out" in legal_texts(state)


def test_cannot_go_out_with_two_loose_cards() -> None:
    state = scenario(TWO, ["AS AH AD", "2H 3H 9D"], stock="9C KS", pile="7S")
    state = play(state, (1, "draw stock"))
    assert "go out" not in legal_texts(state)
    assert _illegal(state, 1, "go out").rule == "cannot-go-out"


def test_going_out_is_optional() -> None:
    state = scenario(TWO, ["AS AH AD", "2H 3H 4H"], stock="9C KS", pile="7S")
    state = play(state, (1, "draw stock"), (1, "discard KS"))
    assert state.phase is Phase.DRAW and state.turn == 0


def test_going_out_needs_three_cards_in_a_meld_not_two() -> None:
    state = scenario(Rules(players=2, cards_dealt=2), ["AS AH", "2H 3H"], stock="9C KS", pile="7S")
    state = play(state, (1, "draw stock"))
    assert "go out" not in legal_texts(state)
