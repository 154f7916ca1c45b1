"""A process that takes a table over from an owner that died says so on the takeover channel
once the table is loaded, and every process relaying sockets of that table has them greet the
new owner at once (not at their next look at the lease); a process that merely loads a table
whose lease was given back announces nothing. Over PostgreSQL and a real Redis, and over SQLite
with the in-process bus and lease table; every wait is bounded."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis

from cardtable.server.app import create_app
from cardtable.server.cluster.bus import Bus, InProcessBus
from cardtable.server.cluster.lease import InProcessLeaseTable, Leases, LeaseTable
from cardtable.server.cluster.redis_bus import RedisBus
from cardtable.server.cluster.redis_leases import RedisLeaseTable
from cardtable.server.cluster.relay import TAKEOVERS, Proxy, Relay
from cardtable.server.cluster.store import LeasedLogStore
from cardtable.server.context import context_of
from cardtable.server.settings import Settings
from cardtable.storage import Database, DatabaseLogStore

from .conftest import cluster_of, new_table, portal_of, run_async
from .test_cluster_fencing import _forget

WAIT_SECONDS = 5.0


class Published:
    """Stands for the bus: keeps what is published."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, channel: str, data: bytes) -> int:
        self.sent.append((channel, json.loads(data)))
        return 1


def test_a_takeover_notice_has_the_proxies_of_that_table_only_look_again() -> None:
    redis = Published()
    relay = Relay(redis, SimpleNamespace(holder="p1"))  # type: ignore[arg-type]
    proxies = [Proxy("p1/1", "t1", 7), Proxy("p1/2", "t2", 8), Proxy("p1/3", "t1", 9)]
    for proxy in proxies:
        relay.proxies[proxy.conn] = proxy
    relay._dispatch(TAKEOVERS, {"table": "t1", "holder": "p2"})
    assert [proxy.inbox.qsize() for proxy in proxies] == [1, 0, 1]
    assert proxies[0].inbox.get_nowait() == {"moved": True}
    run_async(relay.announce_takeover("t9"))
    assert redis.sent == [(TAKEOVERS, {"table": "t9", "holder": "p1"})]


@pytest.mark.timeout(120)
@pytest.mark.parametrize("parts", ["in-process", "redis"])
def test_a_table_taken_over_is_announced_once_loaded_and_a_relaying_process_hears_it(
    parts: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Over Redis and PostgreSQL, and over the in-process bus and lease table and SQLite."""
    bus, lease_table = InProcessBus(), InProcessLeaseTable()
    redis_url: str | None = None
    if parts == "redis":
        redis_url = request.getfixturevalue("redis_url")
        database_url: str = request.getfixturevalue("postgres_url")
    else:
        database_url = f"sqlite:///{tmp_path / 'takeover.sqlite3'}"
    settings = Settings(test_seed=7, limit_messages="1000/second", redis_url=redis_url)
    in_process = redis_url is None
    app = create_app(
        database_url,
        settings=settings,
        bot_delay_scale=0.0,
        bus=bus if in_process else None,
        lease_table=lease_table if in_process else None,
    )
    with TestClient(app) as client:
        assert client.post("/api/profile").status_code == 201
        announced_once_loaded(client, database_url, redis_url, bus, lease_table)


def announced_once_loaded(
    client: TestClient,
    database_url: str,
    redis_url: str | None,
    bus: InProcessBus,
    lease_table: InProcessLeaseTable,
) -> None:
    table_id = new_table(client, "indecision", rules={"target_score": 25})
    lobby = context_of(client.app).lobby
    cluster = cluster_of(client)
    clients: list[Redis] = []

    def parts() -> tuple[Bus, LeaseTable]:
        """Another process's bus and lease table (on the running loop)."""
        if redis_url is None:
            return bus, lease_table
        redis = Redis.from_url(redis_url)
        clients.append(redis)
        return RedisBus(redis), RedisLeaseTable(redis)

    async def watch() -> tuple[Relay, Proxy]:
        """Another process relaying a socket of the table."""
        watcher = Relay(parts()[0], SimpleNamespace(holder="watcher"))  # type: ignore[arg-type]
        proxy = Proxy("watcher/1", table_id, 7)
        watcher.proxies[proxy.conn] = proxy
        await watcher._ensure_reader()
        return watcher, proxy

    async def heard(proxy: Proxy, within: float) -> dict[str, Any] | None:
        try:
            return await asyncio.wait_for(proxy.inbox.get(), within)
        except TimeoutError:
            return None

    async def hand_over(dies: bool) -> None:
        """The table leaves this process; another takes it, then gives it back or dies."""
        lobby.drop(table_id)
        await cluster.store.release(table_id)
        other = Leases(parts()[1], ttl=0.3, holder="other", autorenew=False)
        db = Database(database_url)
        store = LeasedLogStore(DatabaseLogStore(db), other)
        await store.claim(table_id)
        if dies:
            await asyncio.sleep(0.5)  # its lease lapses: it never gave it back
        else:
            await store.release(table_id)
        store.close()
        db.close()

    watcher, proxy = portal_of(client).call(watch)
    try:
        # A table whose last owner gave it back is loaded without a notice.
        portal_of(client).call(hand_over, False)
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert table_id in lobby.tables
        assert portal_of(client).call(heard, proxy, 1.0) is None
        # One whose last owner died is announced once it is loaded here.
        portal_of(client).call(hand_over, True)
        assert client.get(f"/api/tables/{table_id}").status_code == 200
        assert table_id in lobby.tables
        assert portal_of(client).call(heard, proxy, WAIT_SECONDS) == {"moved": True}
        assert not cluster.store.taken_over
    finally:

        async def stop() -> None:
            await watcher.close()
            for redis in clients:
                await redis.aclose()

        portal_of(client).call(stop)
        if redis_url is not None:
            run_async(_forget(redis_url, table_id))
