"""The engine contract's verify / can / do (as PokerKit's): ``why_illegal`` names the broken rule,
``check`` gives its sentence, ``is_legal`` a yes or no, and ``apply`` raises exactly that error;
and one rule has one key (:class:`RuleKey`) in every game."""

from __future__ import annotations

import random

import pytest

from cardtable.driver import advance
from cardtable.errors import IllegalActionError, RuleKey
from cardtable.games.contract import TERMINAL
from cardtable.registry import game_names, get_engine

GAMES = game_names()


def _positions(name: str, moves: int = 40) -> list[object]:
    engine = get_engine(name)
    rules = engine.presets()["default"]
    state, _ = advance(engine, engine.new_game(rules, 3))
    rng = random.Random(5)
    seen = [state]
    for _ in range(moves):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            break
        state, _ = advance(
            engine,
            engine.apply_unchecked(
                state, rng.choice(list(engine.legal_actions(state, seat))), seat
            ),
        )
        seen.append(state)
    return seen


@pytest.mark.parametrize("name", GAMES)
def test_check_and_is_legal_agree_with_the_checked_apply(name: str) -> None:
    engine = get_engine(name)
    for state in _positions(name):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            continue
        legal = list(engine.legal_actions(state, seat))
        for action in legal:
            assert engine.check(state, action, seat) is None and engine.is_legal(
                state, action, seat
            )
        other = (seat + 1) % engine.players(state)
        for action in legal:
            if action in engine.legal_actions(state, other):
                continue
            reason = engine.check(state, action, other)
            assert reason is not None and not engine.is_legal(state, action, other)
            with pytest.raises(IllegalActionError) as caught:
                engine.apply(state, action, other)
            assert str(caught.value) == reason
            assert isinstance(caught.value.rule, RuleKey)


@pytest.mark.parametrize("name", GAMES)
def test_drawing_twice_is_already_drew_in_every_game(name: str) -> None:
    engine = get_engine(name)
    for state in _positions(name):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            continue
        draws = [
            a for a in engine.legal_actions(state, seat) if str(a).startswith(("draw", "take"))
        ]
        if not draws:
            continue
        after, _ = advance(engine, engine.apply(state, draws[0], seat))
        if engine.current_player(after) != seat:
            continue
        problem = engine.why_illegal(after, draws[0], seat)
        assert problem is not None and problem.rule is RuleKey.ALREADY_DREW, name
        return
    pytest.fail(f"no draw found in {name}")


@pytest.mark.parametrize("name", GAMES)
def test_a_foreign_action_and_a_missing_seat_have_one_key_in_every_game(name: str) -> None:
    engine = get_engine(name)
    state = _positions(name, moves=0)[0]
    seat = engine.current_player(state)
    foreign = engine.why_illegal(state, object(), seat)
    assert foreign is not None and foreign.rule is RuleKey.UNKNOWN_ACTION
    action = engine.legal_actions(state, seat)[0]
    missing = engine.why_illegal(state, action, 99)
    assert missing is not None and missing.rule is RuleKey.NO_SUCH_SEAT
