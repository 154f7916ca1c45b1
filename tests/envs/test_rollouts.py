"""The playout evaluator OpenSpiel's searches can use: the Indian Rummy cut's guess of the show,
rollout values within each game's utilities, a uniform prior."""

from __future__ import annotations

import pyspiel
import pytest

import cardtable.envs.openspiel as cardtable_spiel
from cardtable.envs.indian_rummy import rollout_values as indian_rummy_values
from cardtable.envs.rollouts import PlayoutEvaluator
from cardtable.games.indian_rummy.engine import hand_points
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import scenario

# A pure sequence, a second sequence and two sets: a valid show with KD cut (no wild in hand).
SHOWN = "2S 3S 4S 5S 6H 7H 8H 9D 9C 9S 10C 10D 10H"
LOOSE = "5S 7S JS AH 6H 8H KH 2D 6D 10D AC 3C 9C"
WORSE = "2S 4S 9S 2H 4H 10H QH 3D 5D JD 4C 8C KC"


def test_cut_values_the_seat_nearest_a_show_at_zero_and_the_others_at_their_points() -> None:
    rules = Rules(players=3)
    state = scenario(rules, [LOOSE, SHOWN, WORSE], pile="6C", wild_card="KD")
    values = indian_rummy_values(state)
    assert values[1] == 0.0
    assert values[0] == -hand_points(state.hands[0], state.wild_rank, rules) < 0
    assert values[2] == -hand_points(state.hands[2], state.wild_rank, rules) < 0


def test_cut_values_a_dropped_seat_at_its_penalty() -> None:
    rules = Rules(players=3)
    state = scenario(
        rules, [LOOSE, SHOWN, WORSE], pile="6C", wild_card="KD", drops=(None, 20, None)
    )
    values = indian_rummy_values(state)
    assert values[1] == -20.0
    assert values[0] == 0.0 or values[2] == 0.0


@pytest.mark.parametrize("game", ["indecision", "indian-rummy", "declaration-rummy"])
def test_rollout_values_lie_in_the_games_utility_range(game: str) -> None:
    spiel_game = pyspiel.load_game(cardtable_spiel.short_name(game) + "(players=2)")
    state = spiel_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    evaluator = PlayoutEvaluator(spiel_game, rollouts=3, seed=1)
    values = evaluator.evaluate(state)
    assert len(values) == 2
    assert all(spiel_game.min_utility() <= v <= spiel_game.max_utility() for v in values)
    prior = evaluator.prior(state)
    assert sorted(a for a, _ in prior) == state.legal_actions()
    assert sum(p for _, p in prior) == pytest.approx(1.0)


def test_rollouts_must_be_positive() -> None:
    spiel_game = pyspiel.load_game("python_cardtable_indian_rummy(players=2)")
    with pytest.raises(ValueError, match="at least 1"):
        PlayoutEvaluator(spiel_game, rollouts=0)
