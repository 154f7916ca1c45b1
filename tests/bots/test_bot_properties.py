"""Invariants of every bot: it returns one of the legal actions, it is deterministic given its
dice, and it sees only its view (re-dealing the hidden cards consistently with the view does not
change its choice)."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots import LEVELS, make_bot
from cardtable.errors import RulesError
from cardtable.registry import get_engine

from .positions import decision_states, default_rules

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
SETTINGS = settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _positions(game: str, seed: int, count: int) -> list[object]:
    """A few decision points of one seeded game, half its moves made by the Easy bot so that
    hands take shape as in play."""
    guide = make_bot(game, "easy")
    states = decision_states(game, default_rules(game), seed, limit=160, guide=guide, mix=0.6)
    rng = random.Random(seed)
    return [states[rng.randrange(len(states))] for _ in range(count)] if states else []


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", LEVELS)
@SETTINGS
@given(seed=st.integers(0, 10**6))
def test_a_bot_never_returns_an_illegal_action(game: str, level: str, seed: int) -> None:
    engine = get_engine(game)
    bot = make_bot(game, level)
    for state in _positions(game, seed, 3):
        seat = engine.current_player(state)
        legal = engine.legal_actions(state, seat)
        action = bot.choose(engine.view(state, seat), legal, random.Random(seed))
        assert action in legal
        engine.apply(state, action, seat)  # the checked path accepts it too


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("level", ("easy", "normal", "hard"))
@SETTINGS
@given(seed=st.integers(0, 10**6), other=st.integers(0, 10**6))
def test_a_bots_choice_does_not_change_when_hidden_cards_are_redealt(
    game: str, level: str, seed: int, other: int
) -> None:
    engine = get_engine(game)
    bot = make_bot(game, level)
    for state in _positions(game, seed, 2):
        seat = engine.current_player(state)
        view = engine.view(state, seat)
        redealt = engine.determinize(view, random.Random(other))
        assert engine.view(redealt, seat) == view
        first = bot.choose(view, engine.legal_actions(state, seat), random.Random(7))
        second = bot.choose(
            engine.view(redealt, seat), engine.legal_actions(redealt, seat), random.Random(7)
        )
        assert first == second


def test_levels_are_named_and_unknown_levels_are_refused() -> None:
    assert LEVELS == ("random", "easy", "normal", "hard")
    for game in GAMES:
        for level in LEVELS:
            bot = make_bot(game, level)
            assert bot.name == level and bot.version
    with pytest.raises(RulesError, match="unknown bot level 'expert'"):
        make_bot("indecision", "expert")
    with pytest.raises(RulesError, match="unknown game"):
        make_bot("chess", "easy")
