"""Invariants of the research adapters over random games: observations leak no hidden card,
every legal action has an index that maps back to it, and a seeded episode replays exactly."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import numpy as np
import pyspiel
from hypothesis import given, settings
from hypothesis import strategies as st

import cardtable.envs.openspiel
from cardtable.envs import game_spec
from cardtable.envs.pettingzoo import declaration_rummy_v0, indecision_v0, indian_rummy_v0
from cardtable.envs.pettingzoo.aec import CardtableAEC
from cardtable.games.contract import TERMINAL
from engine_moves import decisions

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
MODULES = {
    "indecision": indecision_v0,
    "indian-rummy": indian_rummy_v0,
    "declaration-rummy": declaration_rummy_v0,
}


def _random_position(
    game: str, players: int, seed: int, steps: int
) -> tuple[CardtableAEC, random.Random]:
    """A raw environment after up to ``steps`` random legal actions from the seeded deal."""
    env = MODULES[game].raw_env(players=players)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if env.engine.current_player(env.state) == TERMINAL:
            break
        legal = env.legal_actions()
        env.step(env.spec_.actions.index(legal[rng.randrange(len(legal))]))
    return env, rng


@settings(max_examples=15)
@given(
    game=st.sampled_from(GAMES),
    players=st.integers(2, 3),
    seed=st.integers(0, 2**32),
    steps=st.integers(0, 40),
)
def test_a_seats_observation_ignores_the_other_seats_hidden_cards(
    game: str, players: int, seed: int, steps: int
) -> None:
    env, rng = _random_position(game, players, seed, steps)
    engine = env.engine
    state = env.state
    for seat, agent in enumerate(env.possible_agents):
        before = env.observe(agent)
        # Another deal of every card this seat cannot see, consistent with its view.
        env.state = engine.determinize(engine.view(state, seat), rng)
        after = env.observe(agent)
        env.state = state
        assert np.array_equal(before["observation"], after["observation"])
        assert np.array_equal(before["action_mask"], after["action_mask"])


@settings(max_examples=15)
@given(game=st.sampled_from(GAMES), players=st.integers(2, 4), seed=st.integers(0, 2**32))
def test_every_legal_action_met_round_trips_through_its_index(
    game: str, players: int, seed: int
) -> None:
    spec = game_spec(game)
    engine = spec.engine
    rng = random.Random(seed)

    def choose(_state: Any, _seat: int, legal: Sequence[Any]) -> Any:
        return legal[rng.randrange(len(legal))]

    start = engine.new_game(spec.make_rules(players=players), seed)
    for met in decisions(engine, start, choose, limit=300):
        indices = [spec.actions.index(action) for action in met.legal]
        assert [spec.actions.action(i) for i in indices] == list(met.legal)
        assert len(set(indices)) == len(met.legal)


def _episode(game: str, seed: int) -> list[tuple[object, ...]]:
    env = MODULES[game].env(players=2)
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    trace: list[tuple[object, ...]] = []
    for agent in env.agent_iter(max_iter=400):
        obs, reward, term, trunc, _ = env.last()
        trace.append((agent, obs["observation"].tobytes(), obs["action_mask"].tobytes(), reward))
        action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        env.step(action)
    return trace


@settings(max_examples=6)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_an_episode_replays_identically_from_the_same_seed(game: str, seed: int) -> None:
    assert _episode(game, seed) == _episode(game, seed)


def _chance_outcome(state: Any, rng: np.random.Generator) -> int:
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    return int(rng.choice(outcomes, p=probs))


@settings(max_examples=6)
@given(game=st.sampled_from(GAMES), seed=st.integers(0, 2**32))
def test_openspiel_tensor_is_unchanged_by_resampling_the_hidden_cards(game: str, seed: int) -> None:
    spiel_game = pyspiel.load_game(cardtable.envs.openspiel.short_name(game) + "(players=2)")
    state = spiel_game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        state.apply_action(_chance_outcome(state, rng))
    for _ in range(int(rng.integers(0, 12))):
        if state.is_terminal():
            break
        if state.is_chance_node():
            state.apply_action(_chance_outcome(state, rng))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    if state.is_terminal():
        return
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for seat in range(2):
        other = state.resample_from_infostate(seat, sampler)
        assert other.observation_tensor(seat) == state.observation_tensor(seat)
        assert other.information_state_string(seat) == state.information_state_string(seat)
