"""The OpenSpiel games: registration with parameters, OpenSpiel's random simulation test,
serialisation, information-state resampling, evaluate_bots and information-set MCTS."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import evaluate_bots, ismcts, mcts

import cardtable.envs.openspiel as cardtable_spiel

GAMES = [
    "python_cardtable_indecision(preset=short)",
    "python_cardtable_indian_rummy",
    "python_cardtable_indian_rummy(players=3)",
    "python_cardtable_declaration_rummy",
    "python_cardtable_declaration_rummy(players=2)",
]


def _dealt(game: pyspiel.Game, seed: int = 7) -> pyspiel.State:
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    return state


@pytest.mark.parametrize("name", GAMES)
def test_openspiel_random_sim_test_passes(name: str) -> None:
    pyspiel.random_sim_test(pyspiel.load_game(name), num_sims=2, serialize=True, verbose=False)


def test_parameters_set_the_seat_count() -> None:
    assert pyspiel.load_game("python_cardtable_indian_rummy(players=3)").num_players() == 3
    assert pyspiel.load_game("python_cardtable_declaration_rummy").num_players() == 4


def test_serialised_state_replays_to_the_same_position() -> None:
    game = pyspiel.load_game("python_cardtable_indian_rummy")
    state = _dealt(game)
    rng = np.random.default_rng(3)
    for _ in range(6):
        if state.is_terminal():
            break
        state.apply_action(int(rng.choice(state.legal_actions())))
    copy = game.deserialize_state(state.serialize())
    for seat in range(2):
        assert copy.information_state_string(seat) == state.information_state_string(seat)
        assert copy.observation_tensor(seat) == state.observation_tensor(seat)


@pytest.mark.parametrize("name", GAMES)
def test_resampled_state_has_the_same_information_state(name: str) -> None:
    game = pyspiel.load_game(name)
    state = _dealt(game)
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    others = [state.resample_from_infostate(seat, sampler) for _ in range(3)]
    for other in others:
        assert other.information_state_string(seat) == state.information_state_string(seat)
        assert other.information_state_tensor(seat) == state.information_state_tensor(seat)
    assert len({str(other) for other in others}) > 1, "the hidden cards were not redealt"


def test_cardtable_bots_play_through_evaluate_bots() -> None:
    game = pyspiel.load_game("python_cardtable_declaration_rummy(players=3)")
    bots = [cardtable_spiel.CardtableBot(game, seat, "normal", seed=seat) for seat in range(3)]
    returns = evaluate_bots.evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(2))
    assert sum(returns) == pytest.approx(1.0) and min(returns) >= 0.0


def test_information_set_mcts_chooses_a_legal_action() -> None:
    game = pyspiel.load_game("python_cardtable_indian_rummy")
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(0)
    )
    state = _dealt(game)
    for _ in range(3):
        if state.is_terminal() or state.is_chance_node():
            break
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
