"""The OpenSpiel Indian Rummy game's ``wrong_shows`` parameter: with ``wrong_shows=false`` a seat
is offered exactly the valid shows (and every other legal action), a wrong show is refused
without changing the state, and the game still passes OpenSpiel's random simulation test."""

from __future__ import annotations

import pyspiel
import pytest

import cardtable.envs.openspiel  # noqa: F401  (registers the games)
from cardtable.cards import parse_card
from cardtable.envs.indian_rummy import ACTIONS
from cardtable.games.indian_rummy import actions as ir_act
from cardtable.games.indian_rummy.rules import Rules
from games.indian_rummy.helpers import show_once_kd_is_down

NAME = "python_cardtable_indian_rummy"


def _show_once_kd_is_down() -> object:
    return show_once_kd_is_down(Rules(players=2, deals=1))


def _at(game: pyspiel.Game, engine_state: object) -> pyspiel.State:
    state = game.new_initial_state()
    state.engine_state = engine_state
    return state


def _declared(indices: list[int]) -> list[str]:
    return [str(a) for a in map(ACTIONS.action, indices) if isinstance(a, ir_act.Declare)]


def test_without_wrong_shows_only_the_valid_show_is_offered() -> None:
    position = _show_once_kd_is_down()
    everything = _at(pyspiel.load_game(f"{NAME}(players=2)"), position).legal_actions(0)
    kept = _at(pyspiel.load_game(f"{NAME}(players=2,wrong_shows=false)"), position)
    offered = kept.legal_actions(0)
    kd = ACTIONS.index(ir_act.DECLARES[parse_card("KD")])
    assert len(_declared(everything)) == 14  # by default every put-down may be declared
    assert [i for i in offered if i not in everything] == []
    assert _declared(offered) == [str(ACTIONS.action(kd))]
    assert [i for i in everything if not _declared([i])] == [
        i for i in offered if not _declared([i])
    ]


def test_without_wrong_shows_a_wrong_show_is_refused_and_nothing_changes() -> None:
    game = pyspiel.load_game(f"{NAME}(players=2,wrong_shows=false)")
    state = _at(game, _show_once_kd_is_down())
    before = state.information_state_string(0)
    wrong = ACTIONS.index(ir_act.DECLARES[parse_card("5H")])
    with pytest.raises(ValueError, match="wrong show"):
        state.apply_action(wrong)
    assert state.information_state_string(0) == before
    state.apply_action(ACTIONS.index(ir_act.DECLARES[parse_card("KD")]))
    assert state.is_terminal()
    assert state.returns()[0] > state.returns()[1]


def test_the_default_game_still_lets_a_seat_make_a_wrong_show() -> None:
    state = _at(pyspiel.load_game(f"{NAME}(players=2)"), _show_once_kd_is_down())
    state.apply_action(ACTIONS.index(ir_act.DECLARES[parse_card("5H")]))
    assert state.is_terminal()
    assert state.returns()[0] < state.returns()[1]


def test_without_wrong_shows_passes_openspiels_random_simulation_test() -> None:
    game = pyspiel.load_game(f"{NAME}(players=3,wrong_shows=false)")
    pyspiel.random_sim_test(game, num_sims=3, serialize=True, verbose=False)


def test_games_without_shows_have_no_such_parameter() -> None:
    with pytest.raises(pyspiel.SpielError):
        pyspiel.load_game("python_cardtable_indecision(wrong_shows=false)")
