"""The PettingZoo AEC environment shared by the three games (:class:`CardtableAEC`).

Agents are ``player_0`` .. ``player_{n-1}`` (the game's seats). Only the seat the engine has on
turn acts; chance steps (shuffles, cuts, deals) run inside ``reset`` and ``step``. Out-of-turn
actions of the engine (a Declaration Rummy drop while another seat is on turn) are not offered:
a seat drops on its own turn.

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}``: the vector
encodes the agent's own view only (:mod:`cardtable.envs.encoding`; read from the state's fields
that view shows, by the game's ``observe``, without building the view), the mask marks the legal
entries of the game's fixed action table (its research spec's ``actions``) and is all zeros for a
seat not on turn. Both are computed at most once per position and seat (PettingZoo's loop asks
for the same position more than once), and the step checks the action against the same list of
legal action numbers before the engine's unchecked apply; the arrays returned are shared by
those calls, so treat them as read-only. Rewards are the game's utilities
(``GameResult.utilities``) given when the game ends; with ``shaped_rewards=True`` (Indian
Rummy) each seat instead gets minus its points of every deal when that deal ends.
``reset(seed=S)`` fixes the whole episode: the deal comes from ``S`` and the next seed (when
``reset`` gets none) from a generator seeded by it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from cardtable.games.contract import CHANCE, TERMINAL

from ..spec import ResearchSpec, game_spec

_INT8 = np.dtype(np.int8)


class CardtableAEC(AECEnv):  # type: ignore[misc]
    """One game as a PettingZoo AEC environment (see the module docstring)."""

    game: ClassVar[str] = ""
    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "cardtable_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(
        self,
        players: int | None = None,
        preset: str = "default",
        rules: Mapping[str, Any] | None = None,
        *,
        shaped_rewards: bool = False,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.spec_: ResearchSpec = game_spec(self.game)
        self.engine = self.spec_.engine
        self.rules = self.spec_.make_rules(players=players, preset=preset, rules=rules)
        if shaped_rewards:
            self.spec_.check_shaped_rewards()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'human', 'ansi' or None, not {render_mode!r}")
        self.shaped_rewards = shaped_rewards
        self.render_mode = render_mode
        n = self.rules.players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self.layout = self.spec_.layout_for(n)
        size = len(self.spec_.actions)
        self.observation_spaces = {
            agent: spaces.Dict(
                {
                    "observation": spaces.Box(
                        low=0.0, high=np.inf, shape=(self.layout.size,), dtype=np.float32
                    ),
                    "action_mask": spaces.Box(low=0, high=1, shape=(size,), dtype=np.int8),
                }
            )
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(size) for agent in self.possible_agents}
        self._seeds = random.Random()
        self._reseed: int | None = None
        self._state: Any = None
        self._to_act = TERMINAL
        self._observed: dict[int, tuple[Any, Any]] = {}
        self._legal: list[int] | None = None
        # Bound once: the step path reads them for every observation and step.
        self._mask_size = size
        self._encode = self.spec_.observe
        self._apply = self.engine.apply_unchecked
        self._current = self.engine.current_player
        self._chance = self.engine.chance_step
        # A seat not on turn gets this mask: numpy keeps an array over bytes read-only.
        self._no_actions = np.frombuffer(bytes(size), _INT8)
        self._zero_rewards = False
        self.game_seed = 0

    # ------------------------------------------------------------------ spaces and observations

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, Any]:
        # Computed once per state and seat: PettingZoo's loop asks again for the same position
        # (``last`` before a step, each finished agent at the end). The arrays are shared by
        # those calls, so a caller must not write into them.
        seat = self.agent_name_mapping[agent]
        cached = self._observed.get(seat)
        if cached is None:
            if seat == self._to_act:
                # A bytearray set item by item and wrapped without a copy costs less than
                # numpy's fancy indexing for the dozen or so legal entries of a mask.
                mask = bytearray(self._mask_size)
                for index in self._legal_indices():
                    mask[index] = 1
                actions = np.frombuffer(mask, _INT8)
            else:
                actions = self._no_actions
            # Straight from the state: the seat's view encoded, without building the view.
            vector = self._encode(self._state, seat, self.layout)
            cached = self._observed[seat] = (vector, actions)
        return {"observation": cached[0], "action_mask": cached[1]}

    def _legal_indices(self) -> list[int]:
        """The action numbers the seat on turn may take (once per state)."""
        legal = self._legal
        if legal is None:
            seat = self._to_act
            legal = self._legal = (
                self.spec_.actions.indices(self.engine.legal_actions(self._state, seat))
                if seat >= 0
                else []
            )
        return legal

    @property
    def state(self) -> Any:
        """The engine state of the game in progress."""
        return self._state

    @state.setter
    def state(self, state: Any) -> None:
        # Whoever sets a state (tests put in a redeal of the hidden cards) gets fresh answers.
        self._hold(state, self.engine.current_player(state))

    def _hold(self, state: Any, to_act: int) -> None:
        self._state = state
        self._to_act = to_act
        self._observed = {}
        self._legal = None

    def _set_state(self, state: Any) -> None:
        """Run the chance steps due, then hold ``state`` and forget what was computed for the
        previous one."""
        current, chance = self._current, self._chance
        seat = current(state)
        while seat == CHANCE:
            state = chance(state)
            seat = current(state)
        # As _hold does, without the call: this runs on every step.
        self._state = state
        self._to_act = seat
        self._observed = {}
        self._legal = None

    def legal_actions(self, agent: str | None = None) -> list[Any]:
        """The legal actions (engine objects) of ``agent`` (default: the agent to act)."""
        seat = self.agent_name_mapping[agent or self.agent_selection]
        if self.engine.current_player(self.state) != seat:
            return []
        return list(self.engine.legal_actions(self.state, seat))

    # ------------------------------------------------------------------ episode

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            # The generator of later seeds starts from ``seed`` when one is first wanted: seeding
            # takes a few microseconds, and a caller that gives every seed never needs it.
            self._reseed = seed
            self.game_seed = seed
        else:
            if self._reseed is not None:
                self._seeds.seed(self._reseed)
                self._reseed = None
            self.game_seed = self._seeds.getrandbits(62)
        self._set_state(self.engine.new_game(self.rules, self.game_seed))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._zero_rewards = True
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._deals_scored = 0
        self.agent_selection = self.possible_agents[self._to_act]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        if action is None:
            raise ValueError(f"{agent} is on turn and must act; None is only for finished agents")
        index = int(action)
        table = self.spec_.actions
        legal = self._legal
        if index not in (self._legal_indices() if legal is None else legal):
            chosen = table.action(index)  # raises for a number outside the table
            raise ValueError(
                f"action {index} ({chosen}) is not legal for {agent} now; "
                "use the observation's action_mask"
            )
        self._cumulative_rewards[agent] = 0.0
        # Legal by the check above, so the engine's unchecked apply is safe.
        self._set_state(self._apply(self._state, table.actions[index], seat))
        now = self._to_act
        if self.shaped_rewards or now == TERMINAL:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = False
            if self.shaped_rewards:
                self._shape_rewards()
        elif not self._zero_rewards:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._zero_rewards = True
        if now == TERMINAL:
            result = self.engine.result(self._state)
            if not self.shaped_rewards and result is not None:
                for other in self.agents:
                    self.rewards[other] = float(result.utilities[self.agent_name_mapping[other]])
            self.terminations = dict.fromkeys(self.agents, True)
            for other in self.agents:
                self.infos[other] = {
                    "result": None if result is None else result.to_json(),
                }
            self.agent_selection = self.possible_agents[(seat + 1) % len(self.possible_agents)]
        else:
            self.agent_selection = self.possible_agents[now]
        # A step with no reward (most of them) leaves every sum as it is.
        if not self._zero_rewards:
            self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _shape_rewards(self) -> None:
        points = self.state.deal_points
        while self._deals_scored < len(points):
            for other in self.agents:
                seat = self.agent_name_mapping[other]
                self.rewards[other] -= float(points[self._deals_scored][seat])
            self._deals_scored += 1

    # ------------------------------------------------------------------ display

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        seat = self.agent_name_mapping[self.agent_selection]
        text = self.spec_.render_text(self.engine.view(self.state, seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass
