"""One authority per table: the database refuses a move carrying an old lease token (SQLite and
PostgreSQL), two processes racing for one table's lease never both append (the stored log's
tokens never go back), and a server whose lease passed to another process has its next move
refused, drops the table and sends its page to connect again."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import random
import secrets
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from sqlalchemy import text
from starlette.websockets import WebSocketDisconnect

from cardtable import storage
from cardtable.server.cluster.lease import Leases
from cardtable.server.cluster.redis_leases import RedisLeaseTable, fence_key, lease_key
from cardtable.server.cluster.store import LeasedLogStore, TableElsewhereError
from cardtable.server.context import context_of
from cardtable.server.settings import Settings
from cardtable.storage import Database, DatabaseLogStore, FencedOutError, TableSummary

from .conftest import cluster_of, new_table, portal_of, receive, run_async, wait_for_turn


def a_table(db: Database) -> str:
    profile, _token = storage.create_profile(db, name="Ruby", options={})
    table_id = f"fence-{secrets.token_hex(6)}"
    storage.create_table(
        db,
        table_id=table_id,
        owner_id=profile.id,
        game="indecision",
        rules={"players": 2},
        seed=5,
        seats=[{"kind": "human", "name": "Ruby"}, {"kind": "bot", "level": "easy"}],
        owner_seat=0,
    )
    return table_id


def fencing_refuses_an_old_token(url: str) -> None:
    db = Database(url)
    table_id = a_table(db)
    assert storage.claim_table(db, table_id, 3) is None
    storage.append_action(db, table_id, 0, 0, "first", fence=3)
    assert storage.claim_table(db, table_id, 2) == 3  # an older token claims nothing
    assert storage.claim_table(db, table_id, 4) is None  # another process takes it over
    with pytest.raises(FencedOutError, match="another server process"):
        storage.append_action(db, table_id, 1, 1, "late", TableSummary(2, 1, (0, 0), 0), fence=3)
    with pytest.raises(FencedOutError):
        storage.set_status(db, table_id, storage.FINISHED, fence=3)
    stored = storage.load_table(db, table_id)
    assert stored is not None and stored.actions == ((0, "first"),)
    assert stored.status == storage.PLAYING
    storage.append_action(db, table_id, 1, 1, "second", fence=4)
    with pytest.raises(FencedOutError, match="already stored"):  # the log's primary key
        storage.append_action(db, table_id, 1, 0, "again", fence=4)
    stored = storage.load_table(db, table_id)
    assert stored is not None and stored.actions == ((0, "first"), (1, "second"))
    with pytest.raises(LookupError):
        storage.claim_table(db, "no-such-table", 1)
    db.close()


def test_sqlite_refuses_a_move_with_an_old_lease_token(tmp_path: Path) -> None:
    fencing_refuses_an_old_token(storage.sqlite_url(tmp_path))


def test_postgresql_refuses_a_move_with_an_old_lease_token(postgres_url: str) -> None:
    fencing_refuses_an_old_token(postgres_url)


# --- two processes racing -----------------------------------------------------------------------


def race(name: str, database_url: str, redis_url: str, table_id: str, seconds: float) -> None:
    """One process of the race: take the table's lease whenever it is free, append moves as
    fast as it can, and now and then stall (the event loop blocked) past the lease's life."""

    async def main() -> None:
        client = Redis.from_url(redis_url)
        leases = Leases(RedisLeaseTable(client), ttl=0.3, holder=name)
        db = Database(database_url)
        store = LeasedLogStore(DatabaseLogStore(db), leases)
        rng = random.Random(name)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                lease = await store.claim(table_id)
            except TableElsewhereError:
                await asyncio.sleep(0.02)
                continue
            stored = storage.load_table(db, table_id)
            assert stored is not None
            index = len(stored.actions)
            while time.monotonic() < deadline:
                if rng.random() < 0.05:
                    time.sleep(0.4)  # a stall: no renewal reaches Redis in time
                try:
                    await store.append(table_id, index, 0, f"{name}:{lease.token}:{index}", None)
                except FencedOutError:
                    break
                index += 1
                await asyncio.sleep(0.005)
            await store.release(table_id)
            await asyncio.sleep(rng.random() * 0.1)
        await leases.close()
        await client.aclose()
        store.close()
        db.close()

    asyncio.run(main())


def test_two_processes_racing_for_a_lease_never_both_append(
    postgres_url: str, redis_url: str
) -> None:
    db = Database(postgres_url)
    table_id = a_table(db)
    context = multiprocessing.get_context("spawn")
    racers = [
        context.Process(target=race, args=(name, postgres_url, redis_url, table_id, 3.0))
        for name in ("north", "south")
    ]
    for racer in racers:
        racer.start()
    for racer in racers:
        racer.join(60)
        assert racer.exitcode == 0
    stored = storage.load_table(db, table_id)
    assert stored is not None
    moves = [notation.split(":") for _seat, notation in stored.actions]
    writers = [name for name, _token, _index in moves]
    tokens = [int(token) for _name, token, _index in moves]
    assert [int(index) for _n, _t, index in moves] == list(range(len(moves)))
    assert {"north", "south"} <= set(writers), "both processes owned the table at some point"
    # Once a newer lease has claimed the table, no move with an older token is ever stored.
    assert tokens == sorted(tokens)
    for earlier, later in itertools.pairwise(moves):
        if earlier[1] == later[1]:
            assert earlier[0] == later[0], "one token, one writer"
    with db.engine.connect() as connection:
        fence = connection.execute(
            text("SELECT fence FROM game_tables WHERE id = :id"), {"id": table_id}
        ).scalar_one()
    assert fence >= tokens[-1]
    db.close()
    run_async(_forget(redis_url, table_id))


async def _forget(redis_url: str, table_id: str) -> None:
    client = Redis.from_url(redis_url)
    await client.delete(lease_key(table_id), fence_key(table_id))
    await client.aclose()


# --- a server that lost its lease ---------------------------------------------------------------


async def steal(postgres_url: str, redis_url: str, table_id: str) -> int:
    """Another process takes the table: the lease is gone from Redis (as when it expired) and
    the other process claims the table with a newer token; that token."""
    thief = Redis.from_url(redis_url)
    await thief.delete(lease_key(table_id))
    other = Leases(RedisLeaseTable(thief), ttl=5.0, holder="other", autorenew=False)
    db = Database(postgres_url)
    store = LeasedLogStore(DatabaseLogStore(db), other)
    lease = await store.claim(table_id)
    await thief.aclose()
    store.close()
    db.close()
    return lease.token


def stored_fence(postgres_url: str, table_id: str) -> int:
    db = Database(postgres_url)
    with db.engine.connect() as connection:
        fence: int = connection.execute(
            text("SELECT fence FROM game_tables WHERE id = :id"), {"id": table_id}
        ).scalar_one()
    db.close()
    return fence


def test_a_stalled_server_whose_lease_passed_on_refuses_the_move_and_drops_the_table(
    postgres_url: str, redis_url: str, make_client: Callable[..., TestClient]
) -> None:
    settings = Settings(
        test_seed=7, limit_messages="1000/second", redis_url=redis_url, lease_seconds=0.5
    )
    client = make_client(url=postgres_url, settings=settings)
    table_id = new_table(client, "indian-rummy")
    lobby = context_of(client.app).lobby
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        owner = lobby.tables[table_id]
        before = owner.state
        # The process stalls: no renewal reaches Redis, and another process takes the table.
        portal_of(client).call(cluster_of(client).leases.stop_renewing)
        token = run_async(steal(postgres_url, redis_url, table_id))
        ws.send_json({"type": "action", "version": state["version"], "action": state["legal"][0]})
        error = receive(ws)
        assert error["type"] == "error" and error["code"] == "unavailable"
        assert "another server process" in error["message"] or "no longer owns" in error["message"]
        moved = receive(ws)
        assert moved["code"] == "unavailable" and "connect again" in moved["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1013
        assert table_id not in lobby.tables and owner.state is before
    stored = storage.load_table(Database(postgres_url), table_id)
    assert stored is not None and len(stored.actions) == state["version"]
    assert stored_fence(postgres_url, table_id) == token
    run_async(_forget(redis_url, table_id))


def test_a_server_that_finds_its_lease_gone_at_renewal_drops_the_table(
    postgres_url: str, redis_url: str, make_client: Callable[..., TestClient]
) -> None:
    settings = Settings(
        test_seed=7, limit_messages="1000/second", redis_url=redis_url, lease_seconds=0.3
    )
    client = make_client(url=postgres_url, settings=settings)
    table_id = new_table(client, "indecision")
    lobby = context_of(client.app).lobby
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        token = run_async(steal(postgres_url, redis_url, table_id))
        moved = receive(ws)  # the next renewal finds the lease gone
        assert moved["code"] == "unavailable" and "connect again" in moved["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1013 and table_id not in lobby.tables
    stored = storage.load_table(Database(postgres_url), table_id)
    assert stored is not None and len(stored.actions) == state["version"]
    assert stored_fence(postgres_url, table_id) == token
    run_async(_forget(redis_url, table_id))
