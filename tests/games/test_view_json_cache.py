"""A view's event list in JSON is converted once per event however many tables play at once:
each table's list grows from its own, even where the engines share their event objects
between tables (Indian Rummy's deal event of a seat is one object everywhere), and the JSON
is always that of the view's own events."""

from __future__ import annotations

import random
from typing import Any

import pytest

from cardtable.driver import advance
from cardtable.games import contract
from cardtable.games.contract import TERMINAL, PublicEvent
from cardtable.registry import game_names, get_engine

TABLES = 6
MOVES = 60


@pytest.mark.parametrize("name", game_names())
def test_tables_played_side_by_side_convert_each_event_once(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    engine = get_engine(name)
    rules = engine.presets()["default"]
    states = [advance(engine, engine.new_game(rules, 11 + table))[0] for table in range(TABLES)]
    rngs = [random.Random(table) for table in range(TABLES)]
    converted = 0
    to_json = PublicEvent.to_json

    def counted(event: PublicEvent) -> dict[str, Any]:
        nonlocal converted
        converted += 1
        return to_json(event)

    monkeypatch.setattr(PublicEvent, "to_json", counted)
    contract._BY_PREFIX.clear()
    contract._BY_IDENTITY.clear()
    # The events each table's list gained: every event once, a new deal's list whole.
    added = 0
    last: list[tuple[PublicEvent, ...]] = [() for _ in states]
    for _ in range(MOVES):
        for table, state in enumerate(states):
            seat = engine.current_player(state)
            if seat == TERMINAL:
                continue
            action = rngs[table].choice(list(engine.legal_actions(state, seat)))
            state, _ = advance(engine, engine.apply(state, action, seat))
            states[table] = state
            for viewer in range(engine.players(state)):
                view = engine.view(state, viewer)
                # The check converts with the uncounted original.
                assert view.to_json()["events"] == [to_json(event) for event in view.events]
            events = tuple(view.events)
            grew = events[: len(last[table])] == last[table]
            added += len(events) - len(last[table]) if grew else len(events)
            last[table] = events
    # A list converted whole after every move would convert its deal's length each move.
    assert 0 < converted <= added, (converted, added)


def test_the_lists_remembered_stay_bounded_and_the_one_used_least_lately_goes() -> None:
    contract._BY_PREFIX.clear()
    made: list[int] = []

    def double(part: tuple[Any, ...]) -> list[Any]:
        made.append(len(part))
        return [2 * item for item in part]

    kept = contract._BY_IDENTITY_SIZE
    assert contract.by_prefix("bound", (-1, 1), double) == [-2, 2]
    for start in range(kept + 40):
        assert contract.by_prefix("bound", (start, 1), double) == [2 * start, 2]
        # The first start, used again and again, is never the one used least lately.
        assert contract.by_prefix("bound", (-1, 1), double) == [-2, 2]
    assert len(contract._BY_PREFIX) == kept
    made.clear()
    assert contract.by_prefix("bound", (-1, 1, 5), double) == [-2, 2, 10]
    assert made == [1]  # grown from the list remembered, not converted whole
    assert contract.by_prefix("bound", (0, 1, 5), double) == [0, 2, 10]
    assert made == [1, 3]  # that start went long ago: converted whole
