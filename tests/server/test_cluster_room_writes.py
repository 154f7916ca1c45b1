"""Every write of a people's table's room carries the owner's lease token: the database refuses
one carrying an old token (SQLite and PostgreSQL), and a server whose lease passed to another
process has its room change refused, keeps nothing of it, drops the table and sends its page
to connect again. A move is stored with the room after it (turn timer, time banks) in one
transaction: both land or neither (SQLite and PostgreSQL), so a server that stops right after
a move leaves the next one the clock of the turn that move started, not a fresh turn."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from cardtable import storage
from cardtable.server.context import context_of
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings
from cardtable.storage import Database, FencedOutError, shared
from cardtable.storage.shared import StoredRoom

from .conftest import cluster_of, cookie_of, owner_of, portal_of, receive, run_async
from .online import friend, is_state, join, shared_table, until
from .test_cluster_fencing import _forget, a_table, steal, stored_fence
from .test_online_tables import _play_until

ROOM = {"phase": "waiting", "members": [1]}


def room_writes_refuse_an_old_token(url: str) -> None:
    db = Database(url)
    table_id = a_table(db)
    assert storage.claim_table(db, table_id, 3) is None
    shared.create_room(db, StoredRoom(table_id, f"tok-{table_id}", False, "waiting", ROOM), fence=3)
    shared.save_room(db, table_id, "waiting", {**ROOM, "step": 1}, fence=3)
    assert storage.claim_table(db, table_id, 4) is None  # another process takes it over
    writes: list[Callable[[], None]] = [
        lambda: shared.save_room(db, table_id, "playing", {"step": 2}, fence=3),
        lambda: shared.unsit(db, table_id, 0, fence=3),
        lambda: shared.set_seats(db, table_id, [{"kind": "bot", "level": "easy"}] * 2, fence=3),
        lambda: shared.set_seed(db, table_id, 99, fence=3),
        lambda: storage.sit(db, table_id, 1, 1, "Mallory", fence=3),
    ]
    for write in writes:
        with pytest.raises(FencedOutError, match="another server process"):
            write()
    stored = shared.load_room(db, table_id)
    assert stored is not None and stored.phase == "waiting" and stored.room == {**ROOM, "step": 1}
    table = storage.load_table(db, table_id)
    assert table is not None and table.seed == 5 and table.seated == {0: table.owner_id}
    assert [seat["kind"] for seat in table.seats] == ["human", "bot"]
    shared.save_room(db, table_id, "playing", {"step": 3}, fence=4)  # the new owner writes
    stored = shared.load_room(db, table_id)
    assert stored is not None and stored.room == {"step": 3}
    db.close()


def test_sqlite_refuses_a_room_write_with_an_old_lease_token(tmp_path: Path) -> None:
    room_writes_refuse_an_old_token(storage.sqlite_url(tmp_path))


def test_postgresql_refuses_a_room_write_with_an_old_lease_token(postgres_url: str) -> None:
    room_writes_refuse_an_old_token(postgres_url)


def test_a_stale_owners_room_change_is_refused_and_the_table_dropped(
    postgres_url: str, redis_url: str, make_client: Callable[..., TestClient]
) -> None:
    settings = Settings(
        test_seed=7, limit_messages="1000/second", redis_url=redis_url, lease_seconds=0.5
    )
    client = make_client(url=postgres_url, settings=settings)
    table = shared_table(
        client, "indian-rummy", [{"kind": "human"}, {"kind": "human"}], rules={"deals": 1}
    )
    table_id = table["table_id"]
    lobby = context_of(client.app).lobby
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["type"] == "room"
        owner = lobby.tables[table_id]
        # The process stalls: no renewal reaches Redis, and another process takes the table.
        portal_of(client).call(cluster_of(client).leases.stop_renewing)
        token = run_async(steal(postgres_url, redis_url, table_id))
        ws.send_json({"type": "set_seat", "seat": 1, "kind": "bot", "level": "easy"})
        error = until(ws, lambda m: m["type"] != "room")  # the room as connected, then the error
        assert error["type"] == "error" and error["code"] == "unavailable", error
        assert "another server process" in error["message"] or "no longer owns" in error["message"]
        moved = receive(ws)
        assert moved["code"] == "unavailable" and "connect again" in moved["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1013
        assert table_id not in lobby.tables and owner.setup.table_id == table_id
    db = Database(postgres_url)
    stored = storage.load_table(db, table_id)
    assert stored is not None and [seat["kind"] for seat in stored.seats] == ["human", "human"]
    room = shared.load_room(db, table_id)
    assert room is not None and room.phase == "waiting"
    db.close()
    assert stored_fence(postgres_url, table_id) == token
    run_async(_forget(redis_url, table_id))


def moves_carry_their_room(url: str) -> None:
    db = Database(url)
    table_id = a_table(db)
    assert storage.claim_table(db, table_id, 3) is None
    shared.create_room(db, StoredRoom(table_id, f"tok-{table_id}", False, "playing", ROOM), fence=3)
    first = {**ROOM, "turn": [1, 1, 100.0]}
    storage.append_action(db, table_id, 0, 0, "draw stock", fence=3, room=("playing", first))

    def stored() -> tuple[tuple[tuple[int, str], ...], str, dict[str, Any]]:
        table, room = storage.load_table(db, table_id), shared.load_room(db, table_id)
        assert table is not None and room is not None
        return table.actions, room.phase, room.room

    assert stored() == (((0, "draw stock"),), "playing", first)
    # A room the database cannot store takes its move with it: one transaction.
    with pytest.raises((SQLAlchemyError, TypeError)):  # as each driver reports it
        storage.append_action(
            db, table_id, 1, 0, "discard 5h", fence=3, room=("playing", {"bad": object()})
        )
    assert stored() == (((0, "draw stock"),), "playing", first)
    # Another process takes the table over: the old owner's move stores no room either.
    assert storage.claim_table(db, table_id, 4) is None
    with pytest.raises(FencedOutError):
        storage.append_action(db, table_id, 1, 0, "discard 5h", fence=3, room=("finished", ROOM))
    assert stored() == (((0, "draw stock"),), "playing", first)
    second = {**ROOM, "turn": [0, 2, 101.0]}
    storage.append_action(db, table_id, 1, 1, "discard 5h", fence=4, room=("playing", second))
    assert stored() == (((0, "draw stock"), (1, "discard 5h")), "playing", second)
    db.close()


def test_sqlite_stores_a_move_and_its_room_together(tmp_path: Path) -> None:
    moves_carry_their_room(storage.sqlite_url(tmp_path))


def test_postgresql_stores_a_move_and_its_room_together(postgres_url: str) -> None:
    moves_carry_their_room(postgres_url)


TURN_SECONDS = 30


def test_a_server_stopping_right_after_a_move_leaves_the_next_one_the_turn_it_started(
    make_client: Callable[..., TestClient], db_url: str
) -> None:
    client = make_client()
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]
    table = shared_table(
        client,
        "indian-rummy",
        seats,
        rules={"deals": 1},
        turn_seconds=TURN_SECONDS,
        bank_seconds=0,
        grace_seconds=600,
    )
    table_id = table["table_id"]
    join(friend(client, "Bob"), table["invite"]["token"], "Bob")
    owner = owner_of(client, table_id)

    async def stopped(table_id: str, phase: str, room: dict[str, Any]) -> None:
        """The process stops right after storing a move: no later write of the room lands."""

    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as ws:
        receive(ws)
        ws.send_json({"type": "start"})
        start = until(ws, is_state)
        assert start["seat"] == 0 and start["to_move"] == 0, start  # Ann plays first
        owner.services.store.save_room = stopped  # type: ignore[method-assign]
        # Ann draws and discards; the computer player moves; Bob's turn starts.
        bob_turn = _play_until(
            ws, lambda m: is_state(m) and m["to_move"] == 1 and m["version"] > 0, first=start
        )
        moved_at = time.time()
        assert owner.people.room is not None and owner.people.room.turn is not None
        memory = owner.people.room.to_json()
    assert memory["turn"][:2] == [1, bob_turn["version"]]
    kept = shared.load_room(Database(db_url), table_id)
    assert kept is not None and kept.phase == "playing"
    assert kept.room["turn"][:2] == memory["turn"][:2]
    assert abs(kept.room["turn"][2] - memory["turn"][2]) < 0.5
    assert {k: v for k, v in kept.room.items() if k != "turn"} == {
        k: v for k, v in memory.items() if k != "turn"
    }
    time.sleep(1.5)
    # Another server loads the table: Bob's turn goes on from when the move started it.
    token = cookie_of(client)
    client.__exit__(None, None, None)
    fresh = make_client(profile=False)
    fresh.cookies.set(COOKIE_NAME, token)
    with fresh.websocket_connect(url) as ws:
        message = until(ws, lambda m: isinstance(m.get("room"), dict) and m["room"]["turn"])
        looked = time.time()
    turn = message["room"]["turn"]
    assert turn["seat"] == 1, turn
    full = TURN_SECONDS * 1000
    assert turn["remaining_ms"] <= full - 1500, turn
    assert turn["remaining_ms"] >= full - (looked - moved_at) * 1000 - 1000, turn
