"""The environments' step path against the reference path: at every position of random games,
the cached observation and mask equal the seat's view encoded afresh and the engine's legal
actions looked up in the action table by equality, for every seat; a refused action leaves the
position as it was."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.envs.pettingzoo import declaration_rummy_v0, indecision_v0, indian_rummy_v0
from cardtable.games.contract import TERMINAL

MODULES = {
    "indecision": indecision_v0,
    "indian-rummy": indian_rummy_v0,
    "declaration-rummy": declaration_rummy_v0,
}


def _reference(env: object, seat: int) -> tuple[np.ndarray, np.ndarray]:
    engine, spec, state = env.engine, env.spec_, env.state  # type: ignore[attr-defined]
    vector = spec.encoder(engine.view(state, seat), env.layout)  # type: ignore[attr-defined]
    mask = np.zeros(len(spec.actions), dtype=np.int8)
    if engine.current_player(state) == seat:
        for action in engine.legal_actions(state, seat):
            mask[spec.actions.index(action)] = 1
    return vector, mask


@settings(max_examples=20, deadline=None)
@given(game=st.sampled_from(sorted(MODULES)), players=st.integers(2, 3), seed=st.integers(0, 2**32))
def test_observation_and_mask_equal_the_reference_path_in_random_games(
    game: str, players: int, seed: int
) -> None:
    env = MODULES[game].raw_env(players=players)
    rng = np.random.default_rng(seed)
    env.reset(seed=seed)
    positions = 0
    while env.engine.current_player(env.state) != TERMINAL and positions < 60:
        for agent in env.possible_agents:
            seat = env.agent_name_mapping[agent]
            vector, mask = _reference(env, seat)
            got = env.observe(agent)
            assert np.array_equal(got["observation"], vector)
            assert got["observation"].dtype == np.float32
            assert np.array_equal(got["action_mask"], mask)
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(legal[rng.integers(len(legal))]))
        positions += 1
    finished = env.engine.current_player(env.state) == TERMINAL
    for agent in env.possible_agents:
        vector, mask = _reference(env, env.agent_name_mapping[agent])
        assert np.array_equal(env.observe(agent)["observation"], vector)
        assert np.array_equal(env.observe(agent)["action_mask"], mask)
        assert not (finished and mask.any())


@pytest.mark.parametrize("game", sorted(MODULES))
def test_a_masked_out_action_is_refused_and_the_position_kept(game: str) -> None:
    env = MODULES[game].raw_env(players=2)
    env.reset(seed=5)
    before = env.state
    observed = env.observe(env.agent_selection)
    refused = int(np.flatnonzero(observed["action_mask"] == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(refused)
    with pytest.raises(ValueError, match="outside"):
        env.step(len(env.spec_.actions))
    assert env.state is before
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], observed["action_mask"])
