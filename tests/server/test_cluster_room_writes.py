"""Every write of a people's table's room carries the owner's lease token: the database refuses
one carrying an old token (SQLite and PostgreSQL), and a server whose lease passed to another
process has its room change refused, keeps nothing of it, drops the table and sends its page
to connect again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable import storage
from cardtable.server.context import context_of
from cardtable.server.settings import Settings
from cardtable.storage import Database, FencedOutError, shared
from cardtable.storage.shared import StoredRoom

from .conftest import receive, run_async
from .online import shared_table, until
from .test_cluster_fencing import _forget, a_table, steal, stored_fence

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
        client.portal.call(client.app.state.cluster.leases.stop_renewing)
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
        assert table_id not in lobby.tables and owner.table_id == table_id
    db = Database(postgres_url)
    stored = storage.load_table(db, table_id)
    assert stored is not None and [seat["kind"] for seat in stored.seats] == ["human", "human"]
    room = shared.load_room(db, table_id)
    assert room is not None and room.phase == "waiting"
    db.close()
    assert stored_fence(postgres_url, table_id) == token
    run_async(_forget(redis_url, table_id))
