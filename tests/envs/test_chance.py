"""Card-by-card chance in the OpenSpiel games: each card dealt is one chance node with its true
probability, the first card chosen is the first card dealt, and the engine's draws are answered
from the chosen outcomes (``ScriptedRandom``)."""

from __future__ import annotations

import numpy as np
import pyspiel
import pytest

import cardtable.envs.openspiel as cardtable_spiel
from cardtable.envs.chance import CARD, DRAW, NeedOutcome, ScriptedRandom


def _first_card_node(game: pyspiel.Game) -> pyspiel.State:
    """The initial state advanced to its first card chance node (lowest outcome elsewhere)."""
    state = game.new_initial_state()
    while len(state.chance_outcomes()) <= 4:  # first dealer draws and cuts have few outcomes
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def test_indian_rummy_deal_offers_each_card_with_its_share_of_the_unplaced_cards() -> None:
    game = pyspiel.load_game("python_cardtable_indian_rummy(players=2)")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]  # the first dealer
    state.apply_action(1)
    first = state.chance_outcomes()
    assert len(first) == 53 and all(p == pytest.approx(2 / 106) for _, p in first)
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 13) == "deal AH"
    state.apply_action(13)
    second = dict(state.chance_outcomes())
    assert second[13] == pytest.approx(1 / 105) and second[14] == pytest.approx(2 / 105)
    assert sum(second.values()) == pytest.approx(1.0)


def test_indian_rummy_deal_takes_a_node_per_card_then_one_for_the_cut() -> None:
    game = pyspiel.load_game("python_cardtable_indian_rummy(players=2)")
    state = game.new_initial_state()
    state.apply_action(0)
    chosen = []
    nodes = 0
    while state.is_chance_node():
        outcome = state.chance_outcomes()[-1][0]
        chosen.append(outcome)
        state.apply_action(outcome)
        nodes += 1
    # 106 cards, the last forced, and the wild joker's cut among the 79 left in the stock.
    assert nodes == 105 + 1
    engine_state = state.engine_state
    first_to_play = engine_state.turn
    assert chosen[0] in engine_state.hands[first_to_play]
    assert engine_state.pile == (chosen[26],)  # after 13 cards each, the pile's first card


def test_indecision_first_card_chosen_goes_to_the_starter() -> None:
    game = pyspiel.load_game("python_cardtable_indecision")
    state = game.new_initial_state()
    # The cut for the first dealer: one card per seat (cards 0 and 1, ranks A and 2).
    assert len(state.chance_outcomes()) == 52
    state.apply_action(0)
    assert len(state.chance_outcomes()) == 51
    state.apply_action(1)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 52 and all(p == pytest.approx(1 / 52) for _, p in outcomes)
    state.apply_action(40)
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    table = state.engine_state.table
    assert 40 in state.engine_state.hands[table.starter]


def test_declaration_rummy_deals_card_by_card() -> None:
    game = pyspiel.load_game("python_cardtable_declaration_rummy(players=2)")
    state = _first_card_node(game)
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert all(0 <= card < 63 for card, _ in outcomes)


def test_a_chance_outcome_not_offered_is_refused() -> None:
    game = pyspiel.load_game("python_cardtable_indian_rummy(players=2)")
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="not an outcome"):
        state.apply_action(5)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]


def test_scripted_random_answers_draws_from_its_script_and_asks_for_the_next() -> None:
    rng = ScriptedRandom([2, 30, 10])
    assert rng.randrange(5) == 2
    deck = [10, 20, 30]
    rng.shuffle(deck)
    assert deck == [20, 10, 30]  # 30 chosen first lies on top (the end); 20 was forced
    with pytest.raises(NeedOutcome) as asked:
        rng.randrange(3, 6)
    assert asked.value.kind == DRAW and asked.value.outcomes == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]


def test_scripted_random_cards_come_with_their_copies_share() -> None:
    with pytest.raises(NeedOutcome) as asked:
        ScriptedRandom([7]).card_order([7, 7, 9, 9, 9])
    assert asked.value.kind == CARD
    assert asked.value.outcomes == [(7, 1 / 4), (9, 3 / 4)]
    assert ScriptedRandom([9, 7, 9, 9]).card_order([7, 7, 9, 9, 9]) == [9, 7, 9, 9, 7]
    assert ScriptedRandom([4, 1]).sample(range(5), 2) == [4, 1]


def test_scripted_random_refuses_a_bare_random_number() -> None:
    with pytest.raises(RuntimeError, match="no card-by-card outcome"):
        ScriptedRandom([]).random()


def test_resampling_keeps_the_information_state_after_a_card_by_card_deal() -> None:
    game = pyspiel.load_game(cardtable_spiel.short_name("indian-rummy") + "(players=2)")
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[len(state.chance_outcomes()) // 2][0])
    seat = state.current_player()
    other = state.resample_from_infostate(seat, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(seat) == state.information_state_string(seat)
    assert other.engine_state.stock != state.engine_state.stock


@pytest.mark.parametrize(
    "name",
    [
        "python_cardtable_indecision",
        "python_cardtable_indian_rummy(players=3)",
        "python_cardtable_declaration_rummy(players=2)",
    ],
)
def test_each_chance_node_is_the_one_running_the_step_again_would_ask(name: str) -> None:
    # Within a draw the adapter takes the next node from the last one instead of running the
    # engine's step again: every node must be the one that step would ask for.
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = np.random.default_rng(11)
    nodes = 0
    while state.is_chance_node():
        engine = state._game.engine
        with pytest.raises(NeedOutcome) as asked:
            engine.chance_step(state.engine_state, ScriptedRandom(state._script))
        assert state.chance_outcomes() == asked.value.outcomes
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
        nodes += 1
    assert nodes > 40 and not state.is_terminal()
