"""Gymnasium single-seat environments: the agent plays one seat against cardtable's computer
players.

Importing this module registers one environment per research game: ``cardtable/Indecision-v0``,
``cardtable/IndianRummy-v0`` and ``cardtable/DeclarationRummy-v0``
(``gymnasium.make("cardtable.envs.gymnasium:cardtable/IndianRummy-v0")`` imports it for you).
Keyword arguments: ``players``, ``preset``, ``rules`` (option overrides), ``opponents`` (a level
of :data:`cardtable.bots.LEVELS`, or one per other seat), ``seat`` (the agent's seat, default
0), ``shaped_rewards`` (Indian Rummy: minus the agent's points of each deal as it ends, instead
of the game's utility at the end), ``illegal_action`` and ``render_mode`` (``"ansi"`` or
``"human"``).

Observations and actions are those of the PettingZoo environments: a dict of the seat's
``observation`` vector and its ``action_mask`` over the game's fixed action table (also given
by :meth:`SingleSeatEnv.action_masks`). An action the mask forbids ends the episode with
``illegal_reward`` and ``info["illegal_action"] = True`` (``illegal_action="raise"`` raises
``ValueError`` instead), so that unmasked sampling, as Gymnasium's checker does, stays valid.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Final

import gymnasium
import numpy as np
from gymnasium import spaces

from cardtable.bots import make_bot
from cardtable.games.contract import CHANCE, TERMINAL

from .spec import ResearchSpec, game_spec, research_games

ENV_IDS: Final = {
    f"cardtable/{spec.title.replace(' ', '')}-v0": spec.name for spec in research_games()
}
"""Gymnasium's id of every research game (``cardtable/IndianRummy-v0``) -> its registry name."""


class SingleSeatEnv(gymnasium.Env[dict[str, Any], Any]):
    """One seat of a game against computer players (see the module docstring)."""

    metadata: dict[str, Any] = {  # noqa: RUF012 (Gymnasium declares it an instance field)
        "render_modes": ["human", "ansi"],
        "render_fps": 1,
    }

    def __init__(
        self,
        game: str,
        players: int | None = None,
        preset: str = "default",
        rules: Mapping[str, Any] | None = None,
        *,
        opponents: str | Sequence[str] = "normal",
        seat: int = 0,
        shaped_rewards: bool = False,
        illegal_action: str = "penalty",
        illegal_reward: float = -1.0,
        render_mode: str | None = None,
    ) -> None:
        self.game: ResearchSpec = game_spec(game)
        self.engine = self.game.engine
        self.rules = self.game.make_rules(players=players, preset=preset, rules=rules)
        n = self.rules.players
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0-{n - 1}, not {seat!r}")
        levels = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != n - 1:
            raise ValueError(f"give one opponent level, or {n - 1} (one per other seat)")
        if shaped_rewards:
            self.game.check_shaped_rewards()
        if illegal_action not in ("penalty", "raise"):
            raise ValueError(f"illegal_action must be 'penalty' or 'raise', not {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        others = iter(levels)
        self.bots = [
            None if s == seat else make_bot(self.game.name, next(others)) for s in range(n)
        ]
        self.seat = seat
        self.shaped_rewards = shaped_rewards
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.layout = self.game.layout_for(n)
        size = len(self.game.actions)
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0, high=np.inf, shape=(self.layout.size,), dtype=np.float32
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
            }
        )
        self.action_space = spaces.Discrete(size)
        self.state: Any = None
        self._bot_rng = random.Random()
        self._deals_scored = 0

    # ------------------------------------------------------------------ observations

    def action_masks(self) -> np.ndarray[Any, np.dtype[np.int8]]:
        """The legal entries of the action table for the agent now (all zero at the end)."""
        mask = np.zeros(len(self.game.actions), dtype=np.int8)
        if self.state is not None and self.engine.current_player(self.state) == self.seat:
            mask[self.game.actions.indices(self.engine.legal_actions(self.state, self.seat))] = 1
        return mask

    def _observation(self) -> dict[str, Any]:
        return {
            # The seat's view encoded, read from the state without building the view.
            "observation": self.game.observe(self.state, self.seat, self.layout),
            "action_mask": self.action_masks(),
        }

    # ------------------------------------------------------------------ episode

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**62))
        self._bot_rng.seed(int(self.np_random.integers(0, 2**62)))
        self.state = self.engine.new_game(self.rules, game_seed)
        self._deals_scored = 0
        reward = self._play_others()
        info: dict[str, Any] = {"game_seed": game_seed}
        if reward:
            info["reward_before_first_turn"] = reward
        if self.render_mode == "human":
            self.render()
        return self._observation(), info

    def _play_others(self) -> float:
        """Run chance steps and the computer players until the agent acts or the game ends."""
        engine, state = self.engine, self.state
        reward = 0.0
        while True:
            seat = engine.current_player(state)
            if seat == CHANCE:
                state = engine.chance_step(state)
                continue
            if seat == TERMINAL or seat == self.seat:
                break
            bot = self.bots[seat]
            assert bot is not None
            legal = engine.legal_actions(state, seat)
            action = bot.choose(engine.view(state, seat), legal, self._bot_rng)
            state = engine.apply_unchecked(state, action, seat)
        self.state = state
        if self.shaped_rewards:
            points = state.deal_points
            while self._deals_scored < len(points):
                reward -= float(points[self._deals_scored][self.seat])
                self._deals_scored += 1
        return reward

    def step(self, action: int) -> tuple[dict[str, Any], float, bool, bool, dict[str, Any]]:
        if self.state is None:
            raise RuntimeError("call reset() before step()")
        if self.engine.current_player(self.state) == TERMINAL:
            raise RuntimeError("the episode is over: call reset()")
        legal = self.engine.legal_actions(self.state, self.seat)
        chosen = self.game.actions.action(int(action))
        if chosen not in legal:
            if self.illegal_action == "raise":
                raise ValueError(f"action {int(action)} ({chosen}) is not legal now")
            return self._observation(), self.illegal_reward, True, False, {"illegal_action": True}
        self.state = self.engine.apply_unchecked(self.state, chosen, self.seat)
        reward = self._play_others()
        terminated = self.engine.current_player(self.state) == TERMINAL
        info: dict[str, Any] = {}
        if terminated:
            result = self.engine.result(self.state)
            if result is not None:
                info["result"] = result.to_json()
                if not self.shaped_rewards:
                    reward += float(result.utilities[self.seat])
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, terminated, False, info

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        text = self.game.render_text(self.engine.view(self.state, self.seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None


def register_envs() -> None:
    """Register every research game's environment with Gymnasium (done on import; safe to
    repeat)."""
    for env_id, game in ENV_IDS.items():
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id,
                entry_point="cardtable.envs.gymnasium:SingleSeatEnv",
                kwargs={"game": game},
            )


register_envs()
