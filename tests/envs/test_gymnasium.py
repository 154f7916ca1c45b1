"""The Gymnasium single-seat environments: Gymnasium's checker, episodes, illegal actions."""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from cardtable.envs.gymnasium import ENV_IDS, SingleSeatEnv


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_gymnasium_env_checker_passes(env_id: str) -> None:
    check_env(gymnasium.make(env_id, opponents="easy").unwrapped, skip_render_check=True)


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_masked_random_episode_ends_with_the_games_result(env_id: str) -> None:
    env = gymnasium.make(env_id, players=2, opponents="normal")
    obs, _ = env.reset(seed=8)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    info: dict[str, Any] = {}
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        total += float(reward)
        assert not truncated
    assert total == info["result"]["utilities"][0]
    assert obs["action_mask"].sum() == 0


@pytest.mark.parametrize("env_id", list(ENV_IDS))
def test_each_observation_is_the_seats_view_encoded(env_id: str) -> None:
    env = gymnasium.make(env_id, players=3, seat=1, opponents="easy").unwrapped
    assert isinstance(env, SingleSeatEnv)
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(1)
    for _ in range(30):
        view = env.engine.view(env.state, env.seat)
        assert obs["observation"].tobytes() == env.game.encoder(view, env.layout).tobytes()
        if not obs["action_mask"].any():
            break
        obs, _reward, done, _truncated, _info = env.step(
            int(rng.choice(np.flatnonzero(obs["action_mask"])))
        )
        if done:
            view = env.engine.view(env.state, env.seat)
            assert obs["observation"].tobytes() == env.game.encoder(view, env.layout).tobytes()
            break


def test_module_path_make_imports_the_registration() -> None:
    env = gymnasium.make("cardtable.envs.gymnasium:cardtable/IndianRummy-v0", seat=1)
    obs, _ = env.reset(seed=2)
    assert obs["action_mask"].sum() > 0


def test_illegal_action_ends_the_episode_with_the_penalty_or_raises() -> None:
    env = gymnasium.make("cardtable/IndianRummy-v0", illegal_reward=-5.0)
    obs, _ = env.reset(seed=1)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = env.step(illegal)
    assert (reward, done, info) == (-5.0, True, {"illegal_action": True})
    strict = gymnasium.make("cardtable/IndianRummy-v0", illegal_action="raise")
    strict.reset(seed=1)
    with pytest.raises(ValueError, match="not legal"):
        strict.step(illegal)


def test_bad_options_are_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="seat must be 0-1"):
        gymnasium.make("cardtable/Indecision-v0", seat=5)
    with pytest.raises(ValueError, match="one opponent level"):
        gymnasium.make("cardtable/Indecision-v0", players=3, opponents=["hard"])
