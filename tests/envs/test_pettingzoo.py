"""The PettingZoo AEC environments: PettingZoo's own API and seed tests, rewards, masks, errors."""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from cardtable.envs.pettingzoo import declaration_rummy_v0, indecision_v0, indian_rummy_v0
from cardtable.errors import RulesError

MODULES = [indecision_v0, indian_rummy_v0, declaration_rummy_v0]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoo_api_test_passes(module: object) -> None:
    api_test(module.env(), num_cycles=200)  # type: ignore[attr-defined]


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_pettingzoo_seed_test_passes(module: object) -> None:
    seed_test(module.env, num_cycles=200)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("module", "players"), [(indecision_v0, 4), (indian_rummy_v0, 3), (declaration_rummy_v0, 2)]
)
def test_other_seat_counts_pass_the_api_test(module: object, players: int) -> None:
    api_test(module.env(players=players), num_cycles=100)  # type: ignore[attr-defined]


def _deals_after(env: object, resets: list[int | None]) -> list[int]:
    """The game seeds of a run of resets (``None``: no seed given)."""
    seeds = []
    for seed in resets:
        env.reset(seed=seed)  # type: ignore[attr-defined]
        seeds.append(env.unwrapped.game_seed)  # type: ignore[attr-defined]
    return seeds


@pytest.mark.parametrize("module", MODULES, ids=lambda m: m.__name__.rsplit(".", 1)[-1])
def test_the_games_after_a_seeded_reset_follow_from_that_seed_alone(module: object) -> None:
    make = module.env  # type: ignore[attr-defined]
    chain = _deals_after(make(), [11, None, None, None])
    assert chain[0] == 11 and len(set(chain)) == 4
    # Whatever came before, the same seed starts the same chain, and unseeded resets go on from
    # where the chain is (a fresh environment's games differ from run to run).
    assert _deals_after(make(), [5, None, 11, None, None, None])[2:] == chain
    assert _deals_after(make(), [None, 11, None, None, None])[1:] == chain
    assert _deals_after(make(), [None, None])[1] not in chain


def _play_out(env: object, seed: int) -> dict[str, float]:
    """Play masked random actions to the end; return each agent's summed reward."""
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    env.reset(seed=seed)  # type: ignore[attr-defined]
    for agent in env.agent_iter():  # type: ignore[attr-defined]
        obs, reward, term, trunc, _ = env.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)  # type: ignore[attr-defined]
    return totals


def test_rewards_are_the_games_utilities_at_the_end() -> None:
    env = declaration_rummy_v0.env(players=3)
    totals = _play_out(env, 11)
    result = env.unwrapped.engine.result(env.unwrapped.state)
    assert result is not None
    assert [totals[f"player_{s}"] for s in range(3)] == list(result.utilities)


def test_indian_rummy_shaped_rewards_are_minus_each_deals_points() -> None:
    env = indian_rummy_v0.env(players=2, rules={"deals": 3}, shaped_rewards=True)
    totals = _play_out(env, 5)
    state = env.unwrapped.state
    assert len(state.deal_points) == 3
    for seat in range(2):
        assert totals[f"player_{seat}"] == -sum(points[seat] for points in state.deal_points)


def test_free_play_indian_rummy_is_one_deal_per_episode() -> None:
    env = indian_rummy_v0.env()
    _play_out(env, 2)
    assert len(env.unwrapped.state.deal_points) == 1


@pytest.mark.parametrize("preset", ["pool-101", "deals-2"])
def test_indian_rummy_pool_and_deals_are_played_whole_with_the_final_standings_utilities(
    preset: str,
) -> None:
    # RULES.md 2.13: a format ends by itself (no one-deal cut), rejoin and agreed-finish answers
    # are actions of the table, and the rewards are the winners' shares of one point.
    env = indian_rummy_v0.env(players=3, preset=preset, rules={"agreed_finish": True})
    totals = _play_out(env, 9)
    state = env.unwrapped.state
    result = env.unwrapped.engine.result(state)
    assert result is not None and result.reason != "deal-cap"
    assert [totals[f"player_{s}"] for s in range(3)] == list(result.utilities)
    assert sum(result.utilities) == pytest.approx(1.0)
    if preset == "deals-2":
        assert len(state.deal_points) >= 2


def test_only_the_seat_on_turn_has_a_mask() -> None:
    env = indian_rummy_v0.env(players=3)
    env.reset(seed=4)
    on_turn = env.agent_selection
    for agent in env.agents:
        mask = env.observe(agent)["action_mask"]
        assert (mask.sum() > 0) == (agent == on_turn)


def test_an_illegal_action_is_refused_and_the_state_is_kept() -> None:
    env = indian_rummy_v0.env()
    env.reset(seed=3)
    before = env.unwrapped.state
    mask = env.observe(env.agent_selection)["action_mask"]
    illegal = int(np.flatnonzero(mask == 0)[0])
    with pytest.raises(ValueError, match="not legal"):
        env.step(illegal)
    assert env.unwrapped.state is before


def test_unknown_preset_and_shaping_elsewhere_are_refused() -> None:
    with pytest.raises(RulesError, match="unknown Indian Rummy preset"):
        indian_rummy_v0.env(preset="nope")
    with pytest.raises(ValueError, match="Indian Rummy only"):
        indecision_v0.env(shaped_rewards=True)
    with pytest.raises(RulesError, match="manual declaration"):
        indecision_v0.env(preset="manual-declaration")


def test_ansi_render_is_the_table_of_the_seat_on_turn() -> None:
    env = declaration_rummy_v0.env(players=2, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert text.startswith("Declaration Rummy") and "Your hand:" in text


def test_an_action_outside_the_table_is_refused_naming_the_range() -> None:
    env = indecision_v0.env()
    env.reset(seed=1)
    with pytest.raises(ValueError, match=r"outside the indecision table \(0-105\)"):
        env.step(106)
