"""Each game's observation encoder gives exactly the vectors of the reference encoders (the
first, plain ones, kept in ``tests/reference/observation_encoders.py``): the same shape, dtype
and bytes for every seat's view at every position of random games, for every player count
(2-4; Declaration Rummy up to 10) and every preset an environment can play. So does the game's
``observe``, which reads the same from the state without building the view."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.envs import game_spec
from cardtable.envs.encoding import Layout
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.playouts import playing_actions

# tests/ is the import root (its test packages have no package above them).
from reference.observation_encoders import (
    encode_declaration_rummy,
    encode_indecision,
    encode_indian_rummy,
)

REFERENCE: dict[str, Callable[[Any, Layout], np.ndarray]] = {
    "indecision": encode_indecision,
    "indian-rummy": encode_indian_rummy,
    "declaration-rummy": encode_declaration_rummy,
}
PLAYERS = {"indecision": (2, 3, 4), "indian-rummy": (2, 3, 4), "declaration-rummy": range(2, 11)}
REFUSED_PRESETS = {("indecision", "manual-declaration")}
CASES = [
    (game, players, preset)
    for game, counts in PLAYERS.items()
    for players in counts
    for preset in game_spec(game).engine.presets()
    if (game, preset) not in REFUSED_PRESETS
]
DECISIONS = 120
"""Seat decisions per example: enough for reshuffles, taken discards and long piles."""


def _assert_same(got: np.ndarray, want: np.ndarray, where: str) -> None:
    assert got.dtype == want.dtype == np.float32, where
    assert got.shape == want.shape, where
    assert got.tobytes() == want.tobytes(), (where, np.flatnonzero(got != want))


@pytest.mark.parametrize(("game", "players", "preset"), CASES)
@settings(max_examples=4)
@given(seed=st.integers(0, 2**32), ending=st.booleans())
def test_encoder_equals_the_reference_on_every_view_of_random_games(
    game: str, players: int, preset: str, seed: int, ending: bool
) -> None:
    spec = game_spec(game)
    engine = spec.engine
    layout = spec.layout_for(players)
    reference = REFERENCE[game]
    # Uniform legal actions end most rummy deals within a few steps (drops, wrong shows, ties);
    # the playing actions keep deals going, so both kinds of position are met.
    playing = playing_actions(engine)
    rng = random.Random(seed)

    def choices(state: Any, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
        return legal if ending and rng.random() < 0.2 else (playing(state, seat, legal) or legal)

    state = engine.new_game(spec.make_rules(players=players, preset=preset), seed)
    decisions = 0
    while True:
        seat = engine.current_player(state)
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        for observer in range(players):
            view = engine.view(state, observer)
            where = f"{game} {preset} {players} seats, seed {seed}, decision {decisions}"
            want = reference(view, layout)
            _assert_same(spec.encoder(view, layout), want, where)
            _assert_same(spec.observe(state, observer, layout), want, f"{where}, from the state")
        if seat == TERMINAL or decisions == DECISIONS:
            break
        options = choices(state, seat, engine.legal_actions(state, seat))
        state = engine.apply_unchecked(state, options[rng.randrange(len(options))], seat)
        decisions += 1


def _positions(game: str, players: int, seed: int, decisions: int) -> list[Any]:
    """The states at every seat decision of a game of playing seats."""
    spec = game_spec(game)
    engine = spec.engine
    playing = playing_actions(engine)
    rng = random.Random(seed)
    state = engine.new_game(spec.make_rules(players=players), seed)
    seen: list[Any] = []
    while len(seen) < decisions:
        seat = engine.current_player(state)
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        seen.append(state)
        if seat == TERMINAL:
            break
        options = playing(state, seat, engine.legal_actions(state, seat))
        state = engine.apply_unchecked(state, options[rng.randrange(len(options))], seat)
    return seen


@pytest.mark.parametrize("game", sorted(REFERENCE))
@settings(max_examples=3)
@given(seed=st.integers(0, 2**32), order=st.randoms(use_true_random=False))
def test_history_is_the_same_whatever_order_positions_are_encoded_in(
    game: str, seed: int, order: random.Random
) -> None:
    # The encoders read only the events a position adds to the last one encoded: positions
    # asked for out of order, and two games interleaved, must give the reference's vectors.
    spec = game_spec(game)
    engine, layout, reference = spec.engine, spec.layout_for(2), REFERENCE[game]
    positions = _positions(game, 2, seed, 150) + _positions(game, 2, seed + 1, 150)
    asked = [(state, seat) for state in positions for seat in range(2)]
    order.shuffle(asked)
    for number, (state, seat) in enumerate(asked):
        view = engine.view(state, seat)
        where = f"{game} seed {seed}, position {number} of a shuffled order"
        want = reference(view, layout)
        _assert_same(spec.encoder(view, layout), want, where)
        _assert_same(spec.observe(state, seat, layout), want, f"{where}, from the state")
