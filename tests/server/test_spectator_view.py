"""The spectator's view, property-tested on every game: at any point of any game it names only
cards that every seat's view shows, it has the shape of a seat's view, and it never holds a
hand."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.driver import advance
from cardtable.games.contract import TERMINAL
from cardtable.registry import get_engine
from cardtable.server.table.spectate import spectator_view

from .conftest import card_labels

GAMES = {
    "indian-rummy": {"players": 3},
    "indecision": {"players": 3},
    "declaration-rummy": {"players": 4},
}


def _position(game: str, seed: int, moves: int, choices: int) -> tuple[Any, Any]:
    engine = get_engine(game)
    state, _ = advance(engine, engine.new_game(engine.rules_from_json(GAMES[game]), seed))
    rng = random.Random(choices)
    for _ in range(moves):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            break
        action = rng.choice(list(engine.legal_actions(state, seat)))
        state, _ = advance(engine, engine.apply(state, action, seat))
    return engine, state


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(sorted(GAMES)),
    seed=st.integers(0, 2**32),
    moves=st.integers(0, 80),
    choices=st.integers(0, 2**16),
)
def test_the_spectator_sees_only_what_every_seat_sees(
    game: str, seed: int, moves: int, choices: int
) -> None:
    engine, state = _position(game, seed, moves, choices)
    seen = spectator_view(engine, state)
    views = [engine.view(state, seat).to_json() for seat in range(engine.players(state))]
    common = set.intersection(*(card_labels(view) for view in views))
    assert card_labels(seen) <= common
    assert seen["hand"] == [] and seen["seat"] is None
    assert set(seen) == set(views[0])
