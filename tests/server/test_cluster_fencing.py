"""One authority per table: the database refuses a move carrying an old lease token (SQLite and
PostgreSQL), two processes racing for one table's lease never both append (the stored log's
tokens never go back, and no move of an older token lands after a newer claim), and a server
whose lease passed to another process has its next move refused, drops the table and sends its
page to connect again."""

from __future__ import annotations

import asyncio
import itertools
import multiprocessing
import random
import secrets
import time
from collections.abc import Callable, Sequence
from multiprocessing.process import BaseProcess
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any, Final

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from redis.exceptions import RedisError
from sqlalchemy import text
from sqlalchemy.exc import SQLAlchemyError
from starlette.websockets import WebSocketDisconnect

from cardtable import storage
from cardtable.server.cluster.lease import Leases, fence_key, lease_key
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


RACE_SECONDS: Final = 3.0
"""How long the racers race at the least, once both are up."""
RACE_CLAIMS: Final = 12
"""How many claims of the table the race lasts for at the least (each a chance for a move of
the last owner's to land late)."""
RACE_PATIENCE: Final = 40.0
"""How long they go on at the most while only one of them has appended, or the table has
changed hands fewer times (a loaded machine)."""
START_SECONDS: Final = 120.0
"""How long a racer may take to start (a spawned interpreter importing the server) and reach
Redis and the database."""


def claims_key(table_id: str) -> str:
    """The Redis list where the racers note each claim they made: its token, and the length
    of the log they read just after it."""
    return f"test:fencing:{table_id}:claims"


def both_wrote(db: Database, table_id: str) -> bool:
    """Whether the stored log holds moves of both racers."""
    stored = storage.load_table(db, table_id)
    assert stored is not None
    return len({notation.split(":")[0] for _seat, notation in stored.actions}) >= 2


async def reach_services(client: Redis, db: Database, table_id: str) -> None:
    """Wait, retrying, until Redis answers and the table can be read."""
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            await client.ping()
            assert storage.load_table(db, table_id) is not None
            return
        except (OSError, RedisError, SQLAlchemyError):
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.2)


class LateWrites(DatabaseLogStore):
    """A store whose process now and then stalls with a move on its way to the database, the
    lease checked already: only the database's fence can refuse it then."""

    def __init__(self, db: Database, rng: random.Random) -> None:
        super().__init__(db)
        self.rng = rng

    async def append(
        self,
        table_id: str,
        index: int,
        seat: int,
        notation: str,
        summary: TableSummary | None,
        **options: Any,
    ) -> None:
        if self.rng.random() < 0.05:
            time.sleep(0.5)  # the event loop blocked: no renewal reaches Redis in time
        await super().append(table_id, index, seat, notation, summary, **options)


def race(
    name: str, database_url: str, redis_url: str, table_id: str, ready: Event, go: Event
) -> None:
    """One process of the race: once both racers are up (``ready``, then the test's ``go``),
    take the table's lease whenever it is free, append moves as fast as it can, and now and
    then stall (the event loop blocked) past the lease's life, before a move or with one on
    its way to the database (:class:`LateWrites`); for :data:`RACE_SECONDS`, and on (up to
    :data:`RACE_PATIENCE`) until the log holds both racers' moves and the table has been
    claimed :data:`RACE_CLAIMS` times."""

    async def main() -> None:
        client = Redis.from_url(redis_url)
        leases = Leases(client, ttl=0.3, holder=name)
        db = Database(database_url)
        rng = random.Random(name)
        store = LeasedLogStore(LateWrites(db, rng), leases)
        await reach_services(client, db, table_id)
        ready.set()
        # Blocking the loop is harmless here: nothing runs on it before the race.
        assert go.wait(START_SECONDS), "the other racer never started"
        started = time.monotonic()
        enough, deadline = started + RACE_SECONDS, started + RACE_PATIENCE

        async def racing() -> bool:
            now = time.monotonic()
            if now >= deadline:
                return False
            if now < enough:
                return True
            claims: int = await client.llen(claims_key(table_id))
            return claims < RACE_CLAIMS or not both_wrote(db, table_id)

        while await racing():
            try:
                lease = await store.claim(table_id)
            except TableElsewhereError:
                await asyncio.sleep(0.02)
                continue
            stored = storage.load_table(db, table_id)
            assert stored is not None
            index = len(stored.actions)
            await client.rpush(claims_key(table_id), f"{lease.token}:{index}")
            # A new owner reads the table before its first move (a server replays the log):
            # the time in which a move held up on its way from the last owner lands.
            await asyncio.sleep(rng.random() * 0.3)
            while await racing():
                if rng.random() < 0.03:
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


def wait_until_up(racers: Sequence[BaseProcess], ready: Sequence[Event]) -> None:
    """Wait until every racer says it is up, failing early if one of them died first."""
    deadline = time.monotonic() + START_SECONDS
    for racer, up in zip(racers, ready, strict=True):
        while not up.wait(0.5):
            assert racer.is_alive(), f"{racer.name} died before the race (exit {racer.exitcode})"
            assert time.monotonic() < deadline, f"{racer.name} did not start in time"


def test_two_processes_racing_for_a_lease_never_both_append(
    postgres_url: str, redis_url: str
) -> None:
    db = Database(postgres_url)
    table_id = a_table(db)
    context = multiprocessing.get_context("spawn")
    go = context.Event()
    ready = [context.Event() for _ in range(2)]
    racers = [
        context.Process(
            target=race,
            name=name,
            args=(name, postgres_url, redis_url, table_id, up, go),
        )
        for name, up in zip(("north", "south"), ready, strict=True)
    ]
    for racer in racers:
        racer.start()
    try:
        # The race starts only once both are up: a spawned process takes seconds to start on
        # a loaded machine, and the first one up would otherwise have the table to itself.
        wait_until_up(racers, ready)
        go.set()
        for racer in racers:
            racer.join(START_SECONDS + RACE_PATIENCE)
            assert racer.exitcode == 0
    finally:
        for racer in racers:
            if racer.is_alive():
                racer.kill()
                racer.join()
    stored = storage.load_table(db, table_id)
    assert stored is not None
    moves = [notation.split(":") for _seat, notation in stored.actions]
    writers = [name for name, _token, _index in moves]
    tokens = [int(token) for _name, token, _index in moves]
    assert [int(index) for _n, _t, index in moves] == list(range(len(moves)))
    assert {"north", "south"} <= set(writers), "both processes owned the table at some point"
    # Once a newer lease has claimed the table, no move with an older token is ever stored:
    # a move at or after the log's length read just after a claim was stored after that claim.
    assert tokens == sorted(tokens)
    claims = run_async(_claims(redis_url, table_id))
    assert len(claims) >= RACE_CLAIMS
    for token, length in claims:
        late = [move for move in moves if int(move[2]) >= length and int(move[1]) < token]
        assert not late, f"stored after the claim with token {token}: {late[:3]}"
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


async def _claims(redis_url: str, table_id: str) -> list[tuple[int, int]]:
    client = Redis.from_url(redis_url)
    noted = await client.lrange(claims_key(table_id), 0, -1)
    await client.aclose()
    texts = [note.decode() if isinstance(note, bytes) else note for note in noted]
    return [(int(token), int(length)) for token, length in (note.split(":") for note in texts)]


async def _forget(redis_url: str, table_id: str) -> None:
    client = Redis.from_url(redis_url)
    await client.delete(lease_key(table_id), fence_key(table_id), claims_key(table_id))
    await client.aclose()


# --- a server that lost its lease ---------------------------------------------------------------


async def steal(postgres_url: str, redis_url: str, table_id: str) -> int:
    """Another process takes the table: the lease is gone from Redis (as when it expired) and
    the other process claims the table with a newer token; that token."""
    thief = Redis.from_url(redis_url)
    await thief.delete(lease_key(table_id))
    other = Leases(thief, ttl=5.0, holder="other", autorenew=False)
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
