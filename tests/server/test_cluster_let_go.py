"""A table that leaves memory gives its lease back only for the claim it left under: asked for
again while the letting go still waits (the relay telling proxied sockets, which waits out a
bus away), it is claimed again, and that newer claim keeps its lease, so the table's moves are
still stored and no other process may take it. Over PostgreSQL and a real Redis, and over
SQLite with the in-process bus and lease table; every wait is bounded."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable import storage
from cardtable.server.app import create_app
from cardtable.server.cluster.lease import Lease, Leases
from cardtable.server.context import context_of
from cardtable.server.settings import Settings
from cardtable.storage import Database

from .conftest import cluster_of, new_table, portal_of, receive, wait_for_turn

WAIT_SECONDS = 10.0


@pytest.mark.timeout(120)
@pytest.mark.parametrize("parts", ["in-process", "redis"])
def test_a_table_asked_for_again_while_it_is_let_go_keeps_its_lease(
    parts: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    redis_url: str | None = None
    if parts == "redis":
        redis_url = request.getfixturevalue("redis_url")
        database_url: str = request.getfixturevalue("postgres_url")
    else:
        database_url = f"sqlite:///{tmp_path / 'let-go.sqlite3'}"
    settings = Settings(test_seed=7, limit_messages="1000/second", redis_url=redis_url)
    app = create_app(database_url, settings=settings, bot_delay_scale=0.0)
    with TestClient(app) as client:
        assert client.post("/api/profile").status_code == 201
        kept_while_let_go(client, database_url)


def kept_while_let_go(client: TestClient, database_url: str) -> None:
    table_id = new_table(client, "indecision", rules={"target_score": 25})
    lobby = context_of(client.app).lobby
    cluster = cluster_of(client)

    async def let_go_and_ask_again() -> tuple[Lease | None, str | None, int]:
        disown = cluster.relay.disown
        asked_again = asyncio.Event()

        async def slow_disown(table_id: str) -> None:
            # The relay's part of letting go waits (a publish waiting out a bus away) until
            # the table has been asked for again.
            async with asyncio.timeout(WAIT_SECONDS):
                await asked_again.wait()
            await disown(table_id)

        cluster.relay.disown = slow_disown  # type: ignore[method-assign]
        try:
            # Idle long enough: the table leaves memory and its lease is being given back.
            assert lobby.sweep(now=time.monotonic() + 10 * lobby.idle_seconds) == [table_id]
            releases = set(cluster._releases)
            assert releases
            assert await lobby.get(table_id) is not None  # asked for again meanwhile
            asked_again.set()
            async with asyncio.timeout(WAIT_SECONDS):
                await asyncio.gather(*releases)
        finally:
            del cluster.relay.disown
        lease = cluster.leases.lease_of(table_id)
        holder = await cluster.leases.holder_of(table_id)
        # Another process may not take the table: its lease is held.
        other = Leases(cluster.leases.table, ttl=5.0, holder="other", autorenew=False)
        taken = await other.acquire(table_id)
        if taken is not None:
            await other.release(table_id)
        return lease, holder, 0 if taken is None else taken.token

    lease, holder, taken = portal_of(client).call(let_go_and_ask_again)
    assert taken == 0, "another process took the table while it was in memory here"
    assert lease is not None and holder == lease.value
    assert table_id in lobby.tables

    # The table plays on from here, its moves stored under the newer claim.
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        assert state["result"] is None
        version = state["version"]
        action = random.Random(3).choice(state["legal"])
        ws.send_json({"type": "action", "version": version, "action": action})
        while state["version"] <= version:
            state = receive(ws)
            assert state["type"] == "state", state
    db = Database(database_url)
    try:
        stored = storage.load_table(db, table_id)
        assert stored is not None and len(stored.actions) >= version + 1
    finally:
        db.close()
