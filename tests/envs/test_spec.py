"""The research specs: every registered game that declares one is offered by every adapter,
found through the registry alone."""

from __future__ import annotations

import gymnasium
import pyspiel
import pytest

import cardtable.envs.gymnasium as cardtable_gym
import cardtable.envs.openspiel as cardtable_spiel
from cardtable.envs.spec import game_spec, research_games
from cardtable.errors import RulesError
from cardtable.registry import specs


def test_every_game_declaring_a_research_spec_is_offered_by_every_adapter() -> None:
    declared = [spec.name for spec in specs() if spec.research is not None]
    assert [spec.name for spec in research_games()] == declared == list(cardtable_spiel.GAMES)
    assert sorted(cardtable_gym.ENV_IDS.values()) == sorted(declared)
    for name in declared:
        spec = game_spec(name)
        game = pyspiel.load_game(cardtable_spiel.short_name(name))
        assert game.num_players() == spec.default_players
        assert game.num_distinct_actions() == len(spec.actions)
        assert game.get_type().max_num_players == spec.engine.max_players
    for env_id in cardtable_gym.ENV_IDS:
        assert env_id in gymnasium.registry


def test_a_games_own_rule_changes_and_refusals_come_from_its_spec() -> None:
    assert game_spec("indian-rummy").make_rules(rules={"deals": None}).deals == 1
    assert game_spec("ir").make_rules(rules={"deals": 3}).deals == 3
    with pytest.raises(RulesError, match="manual declaration"):
        game_spec("indecision").make_rules(preset="manual-declaration")
    with pytest.raises(ValueError, match="applies to Indian Rummy only"):
        game_spec("declaration-rummy").check_shaped_rewards()
    game_spec("indian-rummy").check_shaped_rewards()
