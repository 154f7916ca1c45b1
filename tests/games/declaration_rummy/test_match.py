"""Matches (RULES.md 3.10 item 11): first to two game wins, the winner plays first next, rules
may change between games, seats stay fixed, and a match record replays."""

from __future__ import annotations

import random

import pytest

from cardtable.errors import ActionSyntaxError, IllegalActionError
from cardtable.games.contract import TERMINAL
from cardtable.games.declaration_rummy.actions import NextGame
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import Phase, scenario, seat_right_of
from cardtable.replay import record_of, replay

from .helpers import CountingBot, State, advance, assert_conserved, legal_texts, play, run

MATCH = Rules(players=3, cards_dealt=3, match=True)


def _won_by_seat_2(rules: Rules = MATCH, wins: tuple[int, int, int] = (0, 0, 0)) -> State:
    """Seat 2 goes out in game 1 (or a later game, given earlier ``wins``)."""
    state = scenario(
        rules,
        ["KS KD 9C", "AS 2S 9H", "2H 3H 4H"],
        stock="5C 8D",
        pile="7S",
        turn=2,
        match_wins=wins,
    )
    return play(state, (2, "draw stock"), (2, "go out"))


def _rule_of(state: State, seat: int, text: str) -> str:
    with pytest.raises(IllegalActionError) as caught:
        ENGINE.apply(state, ENGINE.parse_action(text), seat)
    return caught.value.rule


def test_after_a_game_the_winner_starts_the_next_game() -> None:
    state = _won_by_seat_2()
    assert state.phase is Phase.BETWEEN_GAMES
    assert ENGINE.current_player(state) == 2
    assert ENGINE.result(state) is None
    assert legal_texts(state, 2) == ["next game"]
    assert legal_texts(state, 0) == [] and legal_texts(state, 1) == []
    assert state.match_wins == (0, 0, 1)
    assert _rule_of(state, 0, "next game") == "not-your-turn"
    assert _rule_of(state, 2, "draw stock") == "between-games"


def test_winner_draws_first_and_the_dealer_sits_to_the_winner_s_right() -> None:
    state = play(_won_by_seat_2(), (2, "next game"))
    assert state.game_number == 2
    assert state.dealer == seat_right_of(state, 2) == 1
    assert state.first_player == 2 and state.turn == 2
    assert state.outcome is None and len(state.history) == 1
    assert all(len(hand) == 3 for hand in state.hands)
    assert_conserved(state)


def test_tie_game_keeps_the_same_first_player() -> None:
    state = scenario(MATCH, ["KS KD 9C", "AS 2S 9H", "2H 3H 4H"], stock="5C", pile="7S")
    assert state.first_player == 1
    state = play(state, (1, "propose tie"), (2, "accept tie"), (0, "accept tie"))
    assert state.phase is Phase.BETWEEN_GAMES and state.match_wins == (0, 0, 0)
    assert ENGINE.current_player(state) == 1
    state = play(state, (1, "next game"))
    assert state.first_player == 1 and state.dealer == 0


def test_first_to_two_game_wins_takes_the_match() -> None:
    state = _won_by_seat_2(wins=(1, 0, 1))
    assert ENGINE.current_player(state) == TERMINAL
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == (2,) and result.scores == (1, 0, 2)
    assert result.utilities == (0.0, 0.0, 1.0) and result.reason == "match"


def test_match_wins_is_a_setting() -> None:
    rules = Rules(players=3, cards_dealt=3, match=True, match_wins=3)
    state = _won_by_seat_2(rules, wins=(0, 0, 1))
    assert state.phase is Phase.BETWEEN_GAMES and state.match_wins == (0, 0, 2)


def test_rules_may_change_between_games_and_the_change_is_an_action() -> None:
    state = play(_won_by_seat_2(), (2, "next game cards_dealt=5 optional_cards=W,C7"))
    assert state.rules.hand_size == 5 and state.rules.optional_cards == ("C7", "W")
    assert all(len(hand) == 5 for hand in state.hands)
    assert_conserved(state)


def test_next_game_function_builds_the_recorded_action() -> None:
    state = _won_by_seat_2()
    new_rules = Rules(players=3, cards_dealt=2, match=True, gin_rummy=True)
    after = advance(ENGINE.next_game(state, new_rules))
    assert after.rules == new_rules
    expected = advance(
        ENGINE.apply(state, ENGINE.parse_action("next game cards_dealt=2 gin_rummy=true"), 2)
    )
    assert after == expected


def test_players_and_match_settings_stay_fixed_within_a_match() -> None:
    state = _won_by_seat_2()
    assert _rule_of(state, 2, "next game players=4") == "match-fixed"
    assert _rule_of(state, 2, "next game match=false") == "match-fixed"
    assert _rule_of(state, 2, "next game cards_dealt=11") == "bad-rules"
    with pytest.raises(ActionSyntaxError, match="unknown rule field"):
        ENGINE.parse_action("next game colour=red")


def test_next_game_is_only_for_the_break_between_games() -> None:
    state = scenario(MATCH, ["KS KD 9C", "AS 2S 9H", "2H 3H 4H"], stock="5C", pile="7S")
    assert _rule_of(state, 1, "next game") == "not-between"


def test_dropped_players_are_back_for_the_next_game() -> None:
    state = scenario(MATCH, ["KS KD 9C", "AS 2S 9H", "2H 3H 4H"], stock="5C 8D", pile="7S")
    state = play(state, (0, "drop"), (1, "drop"))
    assert state.phase is Phase.BETWEEN_GAMES and state.match_wins == (0, 0, 1)
    state = play(state, (2, "next game"))
    assert state.dropped == (False, False, False)
    assert all(len(hand) == 3 for hand in state.hands)


def test_seats_chosen_in_the_first_game_stay_for_the_whole_match() -> None:
    rules = Rules(players=5, match=True, seating=True)
    for seed in range(4):
        orders: set[tuple[int, ...]] = set()
        state = ENGINE.new_game(rules, seed)
        rng = random.Random(seed)
        bot = CountingBot()
        games = 0
        while ENGINE.current_player(state) != TERMINAL:
            state = advance(state)
            seat = ENGINE.current_player(state)
            if seat == TERMINAL:
                break
            if state.phase is Phase.DRAW:
                orders.add(state.order)
            if state.phase is Phase.BETWEEN_GAMES:
                games += 1
            action = bot.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
            state = ENGINE.apply_unchecked(state, action, seat)
        assert len(orders) == 1
        assert len(state.history) == games + 1 >= 2


def test_match_game_cap_ends_an_endless_match_of_ties() -> None:
    rules = Rules(players=2, cards_dealt=3, match=True, match_game_cap=2)
    state = scenario(rules, ["KS KD 9C", "AS 2S 9H"], stock="5C", pile="7S")
    state = play(state, (1, "propose tie"), (0, "accept tie"), (1, "next game"))
    state = play(state, (ENGINE.current_player(state), "propose tie"))
    state = play(state, (ENGINE.current_player(state), "accept tie"))
    result = ENGINE.result(state)
    assert result is not None
    assert result.reason == "match-cap" and result.winners == (0, 1)
    assert result.utilities == (0.5, 0.5)


def test_a_whole_match_record_with_rule_changes_replays_identically() -> None:
    rules = Rules(players=3, match=True)
    state = ENGINE.new_game(rules, 77)
    rng = random.Random(1)
    bot = CountingBot()
    log: list[tuple[int, object]] = []
    changes = iter(["cards_dealt=4 optional_cards=W,W,NM2", "gin_rummy=true", "", "", "", ""])
    while True:
        state = advance(state)
        seat = ENGINE.current_player(state)
        if seat == TERMINAL:
            break
        if state.phase is Phase.BETWEEN_GAMES:
            action: object = ENGINE.parse_action(f"next game {next(changes)}".strip())
        else:
            action = bot.choose(ENGINE.view(state, seat), ENGINE.legal_actions(state, seat), rng)
        state = ENGINE.apply(state, action, seat)  # type: ignore[arg-type]
        log.append((seat, action))
    assert any(isinstance(a, NextGame) and a.changes for _, a in log)
    record = record_of("declaration-rummy", rules, 77, log)
    assert replay(record) == state


def test_full_random_matches_end() -> None:
    from cardtable.bots.base import RandomBot

    for seed in range(5):
        state, _ = run(Rules(players=4, match=True), seed, [RandomBot()] * 4)
        result = ENGINE.result(state)
        assert result is not None and result.reason in ("match", "match-cap")
