"""Driving any game's engine in tests, written once for every game: cards by text, the due
chance steps run, seat actions applied by notation through the checked path, the legal actions
as text, and a seeded game played decision by decision.

Each game's ``tests/games/<game>/helpers.py`` binds these to its engine and adds only what is
its own (positions, invariants, computer players for its playouts).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple, TypeVar

from cardtable.cards import parse_cards
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine

S = TypeVar("S")
"""A game's state type: the helpers give back a state of the type they were given."""


def cards(text: str) -> tuple[int, ...]:
    """Card ids of a text hand (any multiset: packs of two decks and wild cards repeat ids)."""
    return parse_cards(text, deck=None)


def card(text: str) -> int:
    """The id of one card."""
    return cards(text)[0]


def advance(engine: AnyEngine, state: S) -> S:
    """``state`` after every chance step due."""
    while engine.current_player(state) == CHANCE:
        state = engine.chance_step(state)
    return state


def play(engine: AnyEngine, state: S, moves: Iterable[tuple[int, str]]) -> S:
    """Apply ``(seat, notation)`` moves through the checked path, the chance steps due before
    each one run first (none after the last)."""
    for seat, text in moves:
        state = advance(engine, state)
        state = engine.apply(state, engine.parse_action(text), seat)
    return state


def legal_texts(engine: AnyEngine, state: Any, seat: int) -> list[str]:
    """The legal actions of ``seat`` as notation."""
    legal: Sequence[object] = engine.legal_actions(state, seat)
    return [str(action) for action in legal]


class Decision(NamedTuple):
    """One seat decision of a played game: the state, the seat on turn, its legal actions and
    the action chosen."""

    state: Any
    seat: int
    legal: Sequence[Any]
    action: Any


Chooser = Callable[[Any, int, Sequence[Any]], Any]
"""``choose(state, seat, legal) -> action``."""


def decisions(
    engine: AnyEngine, state: Any, choose: Chooser, *, limit: int, checked: bool = False
) -> Iterator[Decision]:
    """Play on from ``state`` (chance steps as they come, each seat's action from ``choose``)
    and yield every seat decision, until the game ends or ``limit`` steps (chance steps and
    decisions together) were taken. ``checked`` applies through :meth:`apply` (which verifies
    the action) instead of :meth:`apply_unchecked`; either way a seat on turn always has a
    legal action."""
    apply = engine.apply if checked else engine.apply_unchecked
    for _ in range(limit):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            return
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        legal = engine.legal_actions(state, seat)
        assert legal, "a seat on turn always has a legal action"
        action = choose(state, seat, legal)
        yield Decision(state, seat, legal, action)
        state = apply(state, action, seat)


def after(engine: AnyEngine, decision: Decision) -> Any:
    """The state a decision led to, with the chance steps due after it."""
    return advance(engine, engine.apply_unchecked(decision.state, decision.action, decision.seat))
