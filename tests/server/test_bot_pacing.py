"""Computer players at the "instant" opponent speed: the first computer move after a
person's is made at once, but each further computer move in a row (the whole game after a
person dropped out) waits at least the settings' floor, so such a table plays on at a bounded
rate."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.settings import Settings
from cardtable.server.table.computer_players import ComputerPlayers

from .conftest import new_table, play_to_end

FLOOR = 0.25
SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}, {"kind": "bot", "level": "random"}]


def test_a_computer_only_stretch_waits_at_least_the_floor_per_move(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    pauses: list[float] = []

    async def recorded(_self: ComputerPlayers, seconds: float) -> None:
        pauses.append(seconds)  # and no real wait: the test counts, it does not time

    monkeypatch.setattr(ComputerPlayers, "pause", recorded)
    settings = Settings(test_seed=7, limit_messages="1000/second", bot_stretch_floor_seconds=FLOOR)
    client = make_client(settings=settings, bot_delay_scale=1.0)
    changed = client.put("/api/profile", json={"options": {"opponent_speed": "instant"}})
    assert changed.status_code == 200
    table_id = new_table(client, "declaration-rummy", rules={"players": 3}, seats=SEATS, seed=11)

    def drop(state: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = state["legal"]
        return "drop" if "drop" in legal else rng.choice(legal)

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(2), choose=drop)
    assert final["result"] is not None
    # The two computer players played the game out after the person's drop.
    assert len(pauses) > len(SEATS)
    at_once = [p for p in pauses if p < FLOOR]
    assert all(p == 0.0 for p in at_once)  # "instant" for the first move of a stretch
    # One move at once per stretch (before the drop, and after it); then the floor.
    assert len(at_once) <= 2
    assert pauses[-1] == FLOOR
