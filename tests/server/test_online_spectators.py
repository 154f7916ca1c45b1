"""Spectators see the table as every player sees it and nothing more: every frame a spectator
receives through whole games of the three games, two people and a computer player at the
table, names only cards that every seat can see (no hand, no card drawn face down, no stock
order, Declaration Rummy's pile rules kept)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.games.contract import AnyEngine
from cardtable.server.table.owner import replay_log
from cardtable.server.table.spectate import spectator_view

from .conftest import card_labels, owner_of, receive
from .online import friend, join, shared_table

GAMES = [
    ("indian-rummy", {"deals": 1}),
    ("indecision", {"target_score": 30}),
    ("declaration-rummy", {}),
]


def _common_labels(engine: AnyEngine, state: Any) -> set[str]:
    """Cards every seat's view shows."""
    views = [engine.view(state, seat).to_json() for seat in range(engine.players(state))]
    common = card_labels(views[0])
    for view in views[1:]:
        common &= card_labels(view)
    return common


def _play(
    people: dict[int, Any], watcher: Any, rng: random.Random, limit: int = 4000
) -> list[dict[str, Any]]:
    """Play both people's seats at random, reading the spectator's socket to know whose turn
    it is; every frame the spectator received."""
    frames: list[dict[str, Any]] = []
    latest: dict[int, dict[str, Any]] = {}
    for _ in range(limit):
        frame = receive(watcher)
        frames.append(frame)
        if frame["type"] != "state":
            continue
        if frame["result"] is not None:
            return frames
        seat = frame["to_move"]
        if seat not in people:
            continue
        ws = people[seat]
        state = latest.get(seat)
        while state is None or state["version"] < frame["version"]:
            message = receive(ws)
            if message["type"] == "state":
                state = latest[seat] = message
        if state["legal"] and state["to_move"] == seat:
            # Giving up (a drop, a wrong show) would end the game after a move or two.
            kept = [a for a in state["legal"] if a.split(" ")[0] not in ("drop", "declare")]
            action = rng.choice(kept or state["legal"])
            ws.send_json({"type": "action", "version": state["version"], "action": action})
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "rules"), GAMES)
def test_every_spectator_frame_shows_only_what_every_seat_sees(
    client: TestClient, game: str, rules: dict[str, Any]
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    table = shared_table(client, game, seats, rules=rules)
    table_id, token = table["table_id"], table["invite"]["token"]
    bob, carol = friend(client), friend(client)
    join(bob, token, "Bob")
    join(carol, token, "Carol", watch=True)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url) as ann_ws,
        bob.websocket_connect(url) as bob_ws,
        carol.websocket_connect(url) as watcher,
    ):
        ann_ws.send_json({"type": "start"})
        frames = _play({0: ann_ws, 1: bob_ws}, watcher, random.Random(5))
    owner = owner_of(client, table_id)
    states = [f for f in frames if f["type"] == "state"]
    assert states and states[-1]["result"] is not None
    checked = 0
    previous: set[str] = set()
    for frame in states:
        assert frame["seat"] is None and frame["legal"] == [] and frame["own"] == {}
        assert frame["view"]["hand"] == []
        state, before = replay_log(
            owner.setup.engine, owner.setup.rules, owner.setup.seed, owner.log[: frame["version"]]
        )
        assert frame["view"] == spectator_view(owner.setup.engine, state)
        common = _common_labels(owner.setup.engine, state)
        if frame["version"] > 0:
            previous = _common_labels(owner.setup.engine, before)
        shown = card_labels({key: value for key, value in frame.items() if key != "room"})
        leaked = shown - common - previous
        assert not leaked, f"the spectator saw {leaked} at version {frame['version']}"
        for seat in range(owner.setup.engine.players(state)):
            hand = set(card_labels(owner.setup.engine.view(state, seat).to_json()["hand"]))
            assert not (hand - common) & card_labels(frame["view"])
        checked += 1
    assert checked == len(states) > 5
