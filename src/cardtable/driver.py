"""The driver: runs chance steps and asks seats for actions until a game ends.

Engines never loop; this module does. ``advance`` performs every due chance step; ``play``
runs a whole game between bots (or any objects with a ``choose`` method) and returns the final
state with the log of seat actions, which together with the rules and the seed is the game's
record (:mod:`cardtable.replay`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import Bot
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """A finished (or capped) game: its final state, the seat actions, and step counts."""

    state: Any
    actions: tuple[tuple[int, Any], ...]
    chance_steps: int


def advance(engine: AnyEngine, state: Any) -> tuple[Any, int]:
    """Perform every due chance step; return the state and how many steps were taken."""
    steps = 0
    while engine.current_player(state) == CHANCE:
        state = engine.chance_step(state)
        steps += 1
    return state, steps


def play(
    engine: AnyEngine,
    rules: Any,
    seed: int,
    seats: Sequence[Bot],
    *,
    rng: random.Random | None = None,
    checked: bool = False,
    on_action: Callable[[Any, int, Any], None] | None = None,
) -> PlayedGame:
    """Play one game between ``seats`` (one bot per seat) and return it.

    ``rng`` feeds the bots' own randomness (the deal comes from ``seed``); ``checked`` routes
    every action through the checked apply, as untrusted input would be; ``on_action`` is called
    with ``(state_before, seat, action)`` for each seat action.
    """
    bot_rng = rng if rng is not None else random.Random(seed)
    state = engine.new_game(rules, seed)
    log: list[tuple[int, Any]] = []
    chance = 0
    apply = engine.apply if checked else engine.apply_unchecked
    while True:
        seat = engine.current_player(state)
        if seat == CHANCE:
            state = engine.chance_step(state)
            chance += 1
            continue
        if seat == TERMINAL:
            break
        legal = engine.legal_actions(state, seat)
        action = seats[seat].choose(engine.view(state, seat), legal, bot_rng)
        if on_action is not None:
            on_action(state, seat, action)
        state = apply(state, action, seat)
        log.append((seat, action))
    return PlayedGame(state=state, actions=tuple(log), chance_steps=chance)
