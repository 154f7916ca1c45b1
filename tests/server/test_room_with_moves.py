"""A move stores the room after it only when the move changed it: a move that leaves the room
as the last stored one is (no turn timer, or the same person's turn going on) stores the move
alone, the room in the database stays the one in memory, and a table whose room is stored less
often is still listed in the lobby by its last move."""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server.context import context_of
from cardtable.server.people.connections import save_room
from cardtable.storage import Database, shared

from .conftest import owner_of, receive
from .online import friend, is_state, join, shared_table, until
from .test_online_tables import _no_drop

PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def _record_rooms(client: TestClient, table_id: str) -> list[tuple[int, Any]]:
    """Each stored move's number and the room stored with it (``None``: none), from now on."""
    store = owner_of(client, table_id).services.store
    append = store.append
    rooms: list[tuple[int, Any]] = []

    async def recording(table_id: str, index: int, *args: Any, **kwargs: Any) -> None:
        await append(table_id, index, *args, **kwargs)
        rooms.append((index, kwargs.get("room")))

    store.append = recording  # type: ignore[method-assign]
    return rooms


def _stored_room(client: TestClient, table_id: str) -> dict[str, Any]:
    db: Database = context_of(client.app).lobby.db
    stored = shared.load_room(db, table_id)
    assert stored is not None
    return stored.room


def _both_play(
    client: TestClient, table_id: str, moves: int, check: Callable[[], None] = lambda: None
) -> None:
    """The host and the friend play (never dropping) until ``moves`` moves are made; then
    ``check`` runs, both still connected."""
    url = f"/ws/tables/{table_id}"
    other = friend(client, "Bob")
    join(other, owner_of(client, table_id).people.room.invite, "Bob")  # type: ignore[union-attr]
    rng = random.Random(5)
    with client.websocket_connect(url) as ann, other.websocket_connect(url) as bob:
        receive(ann)
        receive(bob)
        ann.send_json({"type": "start"})
        state = until(ann, lambda m: is_state(m) and m["seat"] == 0)
        sockets, read_from = (ann, bob), ann
        while state["version"] < moves:
            mover = sockets[state["to_move"]]
            mine = state
            if mover is not read_from or not _may_move(state["version"], state):
                mine = until(mover, partial(_may_move, state["version"]))
            action = _no_drop(mine["legal"], rng)
            mover.send_json({"type": "action", "version": mine["version"], "action": action})
            state, read_from = until(mover, partial(_after, mine["version"])), mover
        check()


def _may_move(at: int, message: dict[str, Any]) -> bool:
    """A state from version ``at`` on in which the reader may move."""
    return (
        is_state(message)
        and message["version"] >= at
        and message["to_move"] == message["seat"]
        and bool(message["legal"])
    )


def _after(version: int, message: dict[str, Any]) -> bool:
    return is_state(message) and message["version"] > version


def test_moves_that_leave_the_room_as_it_was_store_the_move_alone(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", PEOPLE, rules={"deals": 1})
    table_id = table["table_id"]
    rooms = _record_rooms(client, table_id)

    def check() -> None:
        memory = owner_of(client, table_id).people.room
        assert memory is not None
        assert _stored_room(client, table_id) == memory.to_json(client_ids=False)

    _both_play(client, table_id, 6, check)
    assert len(rooms) >= 6, rooms
    # Once stored after the start, the room (no timer, nobody leaving) is not stored again.
    assert rooms[0][1] is not None
    assert [index for index, room in rooms[1:] if room is not None] == []


def test_a_move_that_passes_a_timed_turn_stores_the_room_with_it(client: TestClient) -> None:
    table = shared_table(
        client, "indian-rummy", PEOPLE, rules={"deals": 1}, turn_seconds=60, grace_seconds=600
    )
    table_id = table["table_id"]
    rooms = _record_rooms(client, table_id)
    owner = owner_of(client, table_id)

    def check() -> None:
        memory = owner.people.room
        assert memory is not None and memory.turn is not None
        assert _stored_room(client, table_id) == memory.to_json(client_ids=False)

    _both_play(client, table_id, 6, check)
    by_index = dict(rooms)
    for index, (_seat, action) in enumerate(owner.log[: len(rooms)]):
        # A draw leaves the same person to discard; a discard starts the other's turn.
        if index == 0 or not action.startswith("draw"):  # or the first move after the start
            assert by_index[index] is not None, (index, action, rooms)
        else:
            assert by_index[index] is None, (index, action, rooms)


def test_a_room_write_landing_after_a_moves_write_makes_the_next_move_store_the_room(
    client: TestClient,
) -> None:
    """A room write made while a move is being stored can land after the move's own write and
    hold the room from before the move (here: the turn timer of the turn that move ended). The
    next move then stores its room, even a draw that leaves the room as the move before left
    it, so that what is stored is the room in memory again."""
    table = shared_table(
        client, "indian-rummy", PEOPLE, rules={"deals": 1}, turn_seconds=60, grace_seconds=600
    )
    table_id = table["table_id"]
    owner = owner_of(client, table_id)
    store = owner.services.store
    append = store.append
    rooms: list[tuple[int, Any]] = []
    late_write = 3  # a discard: it ends a timed turn, so the room before it is another

    async def write_late(table_id: str, index: int, *args: Any, **kwargs: Any) -> None:
        await append(table_id, index, *args, **kwargs)
        rooms.append((index, kwargs.get("room")))
        if index == late_write:
            await save_room(owner)  # the room in memory is still the one before the move

    store.append = write_late  # type: ignore[method-assign]

    def check() -> None:
        memory = owner.people.room
        assert memory is not None and memory.turn is not None
        assert _stored_room(client, table_id) == memory.to_json(client_ids=False)

    _both_play(client, table_id, late_write + 2, check)
    actions = [action for _seat, action in owner.log]
    assert actions[late_write].startswith("discard"), actions
    assert actions[late_write + 1].startswith("draw"), actions
    by_index = dict(rooms)
    assert by_index[late_write + 1] is not None, rooms


def test_the_lobby_lists_a_public_table_by_its_last_move(client: TestClient) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    playing = shared_table(client, "indian-rummy", PEOPLE, rules={"deals": 1}, public=True)
    table_id = playing["table_id"]
    url = f"/ws/tables/{table_id}"
    other = friend(client, "Bob")
    join(other, playing["invite"]["token"], "Bob")
    with client.websocket_connect(url) as ann, other.websocket_connect(url) as bob:
        receive(ann)
        receive(bob)
        ann.send_json({"type": "start"})
        start = until(ann, lambda m: is_state(m) and m["seat"] == 0)
        mover = (ann, bob)[start["to_move"]]
        turn = until(mover, partial(_may_move, 0))
        mover.send_json({"type": "action", "version": turn["version"], "action": "draw stock"})
        drawn = until(mover, partial(_after, turn["version"]))
        # A table made after that move, its room changed last...
        waiting = shared_table(client, "indian-rummy", PEOPLE, rules={"deals": 1}, public=True)
        assert [t["table_id"] for t in friend(client).get("/api/lobby").json()] == [
            waiting["table_id"],
            table_id,
        ]
        # ...until the first table's next move, which leaves its room as it was.
        discard = next(a for a in drawn["legal"] if a.startswith("discard"))
        mover.send_json({"type": "action", "version": drawn["version"], "action": discard})
        until(mover, partial(_after, drawn["version"]))
        assert [t["table_id"] for t in friend(client).get("/api/lobby").json()] == [
            table_id,
            waiting["table_id"],
        ]
