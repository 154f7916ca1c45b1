"""Informed rollouts for OpenSpiel's tree searches: :class:`PlayoutEvaluator`.

OpenSpiel's ``RandomRolloutEvaluator`` plays uniformly random legal actions to the end. In
the rummy games that measures nothing: a random Indian Rummy seat drops or makes an 80-point
wrong show within a few turns, a random Declaration Rummy seat drops or proposes a tie. The
evaluator here rolls out with :func:`cardtable.playouts.improving_actions`' seat instead
(``choices`` may name another filter): in Indian Rummy a seat that improves its hand (takes
the pile's card only to complete a group, keeps its groups, throws its least linked highest
card, shows whenever the show is valid, never drops), in the other games the playing seat
(proposes no tie in Declaration Rummy; every legal action in Indecision). It drives the engine
directly rather than through ``pyspiel`` and redraws every chance step of a rollout from its
own generator.

A game whose playing seats seldom finish says where a rollout may stop early and how the
position is then valued (its research spec's :class:`~cardtable.envs.spec.RolloutCut`):
Indian Rummy's rollouts stop after ``horizon`` seat decisions at the next draw and guess the
show (:func:`cardtable.envs.indian_rummy.rollout_values`). A rollout that ends the game first
returns the game's utilities. ``prior`` is uniform over the legal actions.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import numpy.typing as npt
from open_spiel.python.algorithms import mcts

from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.playouts import Choices, improving_actions

from .openspiel import CardtableState
from .spec import RolloutCut


class PlayoutEvaluator(mcts.Evaluator):  # type: ignore[misc]
    """Rollouts by :func:`cardtable.playouts.improving_actions`, or by ``choices`` (see the
    module docstring)."""

    def __init__(
        self,
        game: Any,
        *,
        rollouts: int = 1,
        horizon: int | None = None,
        seed: int = 0,
        choices: Choices | None = None,
    ) -> None:
        if rollouts < 1:
            raise ValueError(f"rollouts must be at least 1, not {rollouts}")
        self._spec = game.spec
        self._engine = game.engine
        self._choices = choices or improving_actions(self._engine)
        self._rollouts = rollouts
        self._cut: RolloutCut | None = self._spec.rollout_cut
        self._horizon = self._cut.horizon if horizon is None and self._cut else horizon
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
                cut = self._cut
                if horizon is not None and decisions >= horizon and cut and cut.at_cut(s):
                    return cut.values(s)
                playing = choices(s, seat, legal_of(s, seat))
                s = apply(s, playing[rng.randrange(len(playing))], seat)
                decisions += 1
