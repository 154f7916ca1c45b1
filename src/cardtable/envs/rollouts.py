"""Informed rollouts for OpenSpiel's tree searches: :class:`PlayoutEvaluator`.

OpenSpiel's ``RandomRolloutEvaluator`` plays uniformly random legal actions to the end. In
the rummy games that measures nothing: a random Indian Rummy seat drops or makes an 80-point
wrong show within a few turns, a random Declaration Rummy seat drops or proposes a tie. The
evaluator here rolls out with :mod:`cardtable.playouts`' playing seat instead (never drops,
shows in Indian Rummy only when the show is valid, proposes no tie in Declaration Rummy; every
legal action in Indecision), driving the engine directly rather than through ``pyspiel``, and
redraws every chance step of a rollout from its own generator.

Indian Rummy needs one thing more: two such seats seldom reach a valid show (most deals would
be abandoned at the 400-turn cap, worth 0 to both), so a rollout there stops after
``horizon`` seat decisions at the next draw and guesses the show: the live seat whose hand
has the fewest points (its best arrangement, capped) is taken to show first and gets 0 (every
such seat, on a tie), each other live seat minus its hand's points, a dropped seat minus its
drop penalty. Valuing every seat at minus its own points instead would make a first drop (20)
look better than playing nearly any hand. A rollout that ends the game first returns the game's
utilities. ``prior`` is uniform over the legal actions.
"""

from __future__ import annotations

import random
from typing import Any, Final

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import mcts

from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy.engine import hand_points
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from cardtable.playouts import playing_actions

from .openspiel import CardtableState

INDIAN_RUMMY_HORIZON: Final = 40
"""Seat decisions of an Indian Rummy rollout before it is valued by hand points."""


def indian_rummy_values(state: IndianRummyState) -> list[float]:
    """Each seat's guessed value of a deal in progress at a draw (see the module docstring)."""
    rules, wild = state.rules, state.wild_rank
    points = [
        None if drop is not None else hand_points(hand, wild, rules)
        for hand, drop in zip(state.hands, state.drops, strict=True)
    ]
    best = min((p for p in points if p is not None), default=0)
    return [
        -float(drop or 0) if p is None else 0.0 if p == best else -float(p)
        for p, drop in zip(points, state.drops, strict=True)
    ]


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Rollouts by :func:`cardtable.playouts.playing_actions` (see the module docstring)."""

    def __init__(
        self,
        game: Any,
        *,
        rollouts: int = 1,
        horizon: int | None = None,
        seed: int = 0,
    ) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self._spec = game.spec
        self._engine = game.engine
        self._choices = playing_actions(self._engine)
        self._rollouts = rollouts
        self._cut = self._spec.name == "indian-rummy"
        self._horizon = INDIAN_RUMMY_HORIZON if horizon is None and self._cut else horizon
        self._rng = random.Random(seed)

    def evaluate(self, state: CardtableState) -> npt.NDArray[np.float64]:
        """The mean over ``rollouts`` of each seat's value at the rollout's end."""
        total = np.zeros(state.num_players())
        for _ in range(self._rollouts):
            total += self._rollout(state.engine_state)
        result: npt.NDArray[np.float64] = total / self._rollouts
        return result

    def prior(self, state: CardtableState) -> list[tuple[int, float]]:
        """Uniform over the legal actions."""
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]

    def _rollout(self, s: Any) -> list[float]:
        engine, rng, choices = self._engine, self._rng, self._choices
        current, legal_of = engine.current_player, engine.legal_actions
        apply = engine.apply_unchecked
        chance = engine.chance_step
        horizon = self._horizon
        decisions = 0
        while True:
            seat = current(s)
            if seat == CHANCE:
                s = chance(s, rng)
            elif seat == TERMINAL:
                result = engine.result(s)
                return [0.0] * engine.players(s) if result is None else list(result.utilities)
            else:
                if horizon is not None and decisions >= horizon and self._at_cut(s):
                    return indian_rummy_values(s)
                playing = choices(s, seat, legal_of(s, seat))
                s = apply(s, playing[rng.randrange(len(playing))], seat)
                decisions += 1

    def _at_cut(self, s: Any) -> bool:
        return bool(self._cut and s.phase is Phase.DRAW)
