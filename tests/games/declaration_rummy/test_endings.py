"""Other endings (RULES.md 3.9): the exhausted stockpile, its safeguard and the turn cap,
unanimous tie games, and dropping out."""

from __future__ import annotations

import pytest

from cardtable.errors import IllegalActionError
from cardtable.games.contract import TERMINAL
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import Phase, scenario

from .helpers import State, advance, card, legal_texts, play, sorted_cards

TWO = Rules(players=2, cards_dealt=3)
THREE = Rules(players=3, cards_dealt=3)


def _rule_of(state: State, seat: int, text: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), seat)
    return caught.value.rule


# --- stock exhausted ----------------------------------------------------------------------------


def _exhausted_two_player() -> State:
    """Seat 1 draws the last stock card and discards; seat 0 is next."""
    state = scenario(TWO, ["AS 2S 9H", "KH KD 9C"], stock="5C", pile="7S")
    return play(state, (1, "draw stock"), (1, "discard KH"))


def test_after_the_last_stock_card_the_next_player_may_only_take_the_top_discard_or_decline() -> (
    None
):
    state = _exhausted_two_player()
    assert state.phase is Phase.DRAW and state.exhaustion
    assert legal_texts(state) == ["take discard", "decline", "propose tie", "drop"]
    assert _rule_of(state, 0, "draw stock") == "stock-exhausted"


def test_declining_the_discard_pile_ends_the_game_with_counts_compared() -> None:
    state = play(_exhausted_two_player(), (0, "decline"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.reason == "declined" and outcome.ender == 0
    # Seat 0 is compared with its normal three cards: AS 2S 9H = 12; seat 1: KD 9C 5C = 27.
    assert outcome.counts == (12, 27)
    assert outcome.winner == 0


def test_taking_the_top_discard_after_exhaustion_then_declaring() -> None:
    state = play(_exhausted_two_player(), (0, "take discard"), (0, "declare"))
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "declared"
    assert outcome.hands[0] == sorted_cards("AS 2S 9H KH")


def test_exhausted_turns_continue_while_players_take_the_top_discard() -> None:
    state = play(
        _exhausted_two_player(),
        (0, "take discard"),
        (0, "discard KH"),
        (1, "take discard"),
        (1, "discard 9C"),
    )
    assert state.phase is Phase.DRAW and state.turn == 0 and state.exhaustion
    assert state.pile == (card("7S"), card("9C"))


def test_exhaustion_safeguard_ends_the_game_as_if_declined_after_the_circuits() -> None:
    rules = Rules(players=2, cards_dealt=3, exhaustion_circuits=1)
    state = scenario(rules, ["AS 2S 9H", "KH KD 9C"], stock="5C", pile="7S")
    state = play(state, (1, "draw stock"), (1, "discard KH"))
    state = play(state, (0, "take discard"), (0, "discard KH"))
    assert state.turn == 1 and state.phase is Phase.DRAW
    state = play(state, (1, "take discard"), (1, "discard KH"))
    # One full circuit (two exhausted turns) is over: the game ends as if declined.
    assert ENGINE.current_player(state) == TERMINAL
    outcome = state.outcome
    assert outcome is not None and outcome.reason == "exhaustion-cap"
    assert outcome.ender is None
    assert outcome.winner == 0


def test_turn_cap_ends_the_game_as_if_declined() -> None:
    rules = Rules(players=2, cards_dealt=3, turn_cap=3)
    state = scenario(rules, ["AS 2S 9H", "KH KD 9C"], stock="5C 6C 7C 8C", pile="7S", turns=1)
    state = play(state, (1, "draw stock"), (1, "discard 8C"), (0, "draw stock"), (0, "discard 7C"))
    assert state.turns == 3 and state.phase is Phase.DRAW
    state = play(state, (1, "draw stock"), (1, "discard 6C"))
    assert state.outcome is not None and state.outcome.reason == "turn-cap"
    result = ENGINE.result(state)
    assert result is not None and result.winners == (0,)
    # The cap keeps the points: counts are compared, and the summary says so in words.
    assert "limit of 3 turns" in result.summary and "lowest count" in result.summary


# --- unanimous tie game ---------------------------------------------------------------------------


def _three_player_turn() -> State:
    return scenario(THREE, ["AS 2S 9H", "KH KD 9C", "3D 4D 8S"], stock="5C 6C", pile="7S")


def test_tie_proposal_is_answered_by_the_others_in_turn_order() -> None:
    state = play(_three_player_turn(), (1, "propose tie"))
    assert state.phase is Phase.TIE_VOTE
    assert state.vote is not None and state.vote.pending == (2, 0)
    assert ENGINE.current_player(state) == 2
    assert legal_texts(state) == ["accept tie", "reject tie", "drop"]
    assert legal_texts(state, 0) == ["drop"]
    assert _rule_of(state, 0, "accept tie") == "not-your-turn"
    state = play(state, (2, "accept tie"))
    assert ENGINE.current_player(state) == 0


def test_tie_accepted_by_everyone_ends_the_game_without_a_winner() -> None:
    state = play(_three_player_turn(), (1, "propose tie"), (2, "accept tie"), (0, "accept tie"))
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == () and result.reason == "tie"
    assert result.utilities == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_one_rejection_resumes_play_where_it_was() -> None:
    before = play(_three_player_turn(), (1, "draw stock"))
    state = play(before, (1, "propose tie"), (2, "accept tie"), (0, "reject tie"))
    assert state.phase is Phase.PLAY and state.turn == 1
    assert state.hands == before.hands and state.vote is None
    assert "propose tie" not in legal_texts(state)
    assert _rule_of(state, 1, "propose tie") == "one-tie-proposal"
    state = play(state, (1, "discard KH"))
    assert "propose tie" in legal_texts(state)


def test_rule_3_9_any_remaining_player_may_propose_a_tie_out_of_turn() -> None:
    # Seat 1 is on turn and has drawn; seat 0, out of turn, proposes: seats 1 and 2 answer
    # clockwise from the proposer, and one rejection gives seat 1 its turn back as it was.
    before = play(_three_player_turn(), (1, "draw stock"))
    assert "propose tie" in legal_texts(before, 0)
    state = play(before, (0, "propose tie"))
    assert state.phase is Phase.TIE_VOTE
    assert state.vote is not None and state.vote.proposer == 0 and state.vote.pending == (1, 2)
    assert ENGINE.current_player(state) == 1
    state = play(state, (1, "accept tie"), (2, "reject tie"))
    assert state.phase is Phase.PLAY and state.turn == 1 and state.hands == before.hands
    # All accepting ends the game as a tie, whoever proposed.
    state = play(before, (2, "propose tie"), (0, "accept tie"), (1, "accept tie"))
    assert state.outcome is not None and state.outcome.reason == "tie"


def test_rule_3_9_a_refused_proposal_is_not_repeated_until_a_new_turn_begins() -> None:
    state = play(_three_player_turn(), (0, "propose tie"), (1, "reject tie"))
    assert "propose tie" not in legal_texts(state, 0)
    assert _rule_of(state, 0, "propose tie") == "one-tie-proposal"
    # Others may still propose in this turn; each once.
    state = play(state, (2, "propose tie"), (0, "reject tie"))
    assert _rule_of(state, 2, "propose tie") == "one-tie-proposal"
    assert "propose tie" in legal_texts(state, 1)
    # Seat 1 ends its turn: a new turn lets seat 0 propose again.
    state = play(state, (1, "draw stock"), (1, "discard KH"))
    assert state.turn == 2
    assert "propose tie" in legal_texts(state, 0)
    assert "propose tie" in legal_texts(state, 2)


def test_tie_votes_only_answer_a_proposal() -> None:
    assert _rule_of(_three_player_turn(), 1, "accept tie") == "no-tie-vote"


def test_dropping_during_a_tie_vote_removes_the_voter() -> None:
    state = play(_three_player_turn(), (1, "propose tie"), (0, "drop"))
    assert state.vote is not None and state.vote.pending == (2,)
    state = play(state, (2, "accept tie"))
    assert state.outcome is not None and state.outcome.reason == "tie"
    result = ENGINE.result(state)
    assert result is not None and result.utilities == (0.0, 0.5, 0.5)


# --- dropping -------------------------------------------------------------------------------------


def test_any_remaining_player_may_drop_out_of_turn() -> None:
    state = _three_player_turn()
    for seat in range(3):
        assert "drop" in legal_texts(state, seat)
    state = play(state, (2, "drop"))
    assert state.dropped == (False, False, True)
    assert state.turn == 1 and state.phase is Phase.DRAW
    assert legal_texts(state, 2) == []
    assert _rule_of(state, 2, "drop") == "dropped"


def test_dropped_player_is_skipped_in_turn_order() -> None:
    state = play(_three_player_turn(), (2, "drop"), (1, "draw stock"), (1, "discard KH"))
    assert state.turn == 0


def test_player_on_turn_dropping_after_drawing_takes_the_drawn_card_along() -> None:
    state = play(_three_player_turn(), (1, "draw stock"), (1, "drop"))
    assert state.hands[1] == sorted_cards("KH KD 9C 6C")
    assert state.pile == (card("7S"),)
    assert state.turn == 2 and state.phase is Phase.DRAW


def test_last_remaining_player_wins() -> None:
    state = play(_three_player_turn(), (0, "drop"), (2, "drop"))
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == (1,) and result.reason == "last-player"
    assert result.scores[0] is None and result.scores[2] is None


def test_dropped_hand_is_never_shown_even_at_the_end() -> None:
    state = play(_three_player_turn(), (0, "drop"), (1, "draw stock"), (1, "declare"))
    outcome = state.outcome
    assert outcome is not None
    assert outcome.hands[0] is None and outcome.counts[0] is None
    assert outcome.melds_of(0) is None
    for seat in range(3):
        view = ENGINE.view(state, seat)
        assert view.hand == () if seat == 0 else view.hand == state.hands[seat]
        data = str(view.to_json())
        assert "'AS'" not in data and "'9H'" not in data


def test_dropped_player_cannot_win_even_with_the_lowest_count() -> None:
    state = play(_three_player_turn(), (0, "drop"), (1, "draw stock"), (1, "declare"))
    # Seat 0 held AS 2S 9H (12), the lowest; seat 2 (3D 4D 8S = 15) wins.
    assert state.outcome is not None and state.outcome.winner == 2


def test_drop_is_offered_during_chance_steps_and_the_deal_skips_the_dropped() -> None:
    state = ENGINE.new_game(THREE, seed=4)
    assert list(ENGINE.legal_actions(state, 1)) == [ENGINE.parse_action("drop")]
    state = advance(ENGINE.apply(state, ENGINE.parse_action("drop"), 1))
    assert state.hands[1] == ()
    assert all(len(state.hands[s]) == 3 for s in (0, 2))
    assert state.turn in (0, 2) and state.dealer != 1
