"""The engine contract's verify / can / do (as PokerKit's): ``why_illegal`` names the broken rule,
``check`` gives its sentence, ``is_legal`` a yes or no, and ``apply`` raises exactly that error;
and one rule has one key (:class:`RuleKey`) in every game."""

from __future__ import annotations

import random
from typing import Any

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


@pytest.mark.parametrize("package", ["indecision", "indian_rummy", "declaration_rummy"])
def test_every_game_package_names_its_parts_alike(package: str) -> None:
    import importlib

    module = importlib.import_module(f"cardtable.games.{package}")
    engine = module.ENGINE
    rules, hands, extra = _scenario_of(package)
    state = module.scenario(rules, hands, **extra)
    assert isinstance(state, module.State)
    seat = engine.current_player(state)
    view = module.make_view(state, seat)
    assert view == engine.view(state, seat)
    # determinize: a full state whose view is the view (from a position of a real game).
    played = _positions(engine.name, moves=12)[-1]
    mover = engine.current_player(played)
    if mover >= 0:
        seen = module.make_view(played, mover)
        assert module.make_view(module.determinize(seen, random.Random(1)), mover) == seen
    assert all(isinstance(a, module.Action) for a in engine.legal_actions(state, seat))


def _scenario_of(package: str) -> tuple[Any, list[str], dict[str, Any]]:
    from cardtable.games.declaration_rummy.rules import Rules as DeclarationRules
    from cardtable.games.indecision.rules import Rules as IndecisionRules
    from cardtable.games.indian_rummy.rules import Rules as IndianRules

    if package == "indecision":
        return IndecisionRules(), ["AS 2S 3S 4S 5S", "AH 2H 3H 4H 5H 6H"], {}
    if package == "indian_rummy":
        hands = [
            "2S 3S 9S 2H 4H 10H QH 3D 5D JD 4C 8C KC",
            "5S 7S JS AH 6H 8H KH 2D 6D 10D AC 3C 9C",
        ]
        return IndianRules(), hands, {"pile": "6C", "wild_card": "KD"}
    hands = ["AS 2S 9H", "KH KD 9C", "3D 4D 8S"]
    return DeclarationRules(players=3, cards_dealt=3), hands, {"stock": "5C 6C", "pile": "7S"}
