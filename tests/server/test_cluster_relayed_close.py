"""A call relayed to a table's owner is answered even when the owner lets the table go while
answering it, as closing a table does: the owner stops listening on the table's inbox, which
used to cancel the reply still on its way (the caller then waited for its time-out and tried
again, 8 s for a close). The reply's publish is made slow here, as on a cold connection pool,
so that letting go lands while it is under way. Over Redis and over the in-process bus."""

from __future__ import annotations

import asyncio
import secrets
from types import SimpleNamespace
from typing import Any

import pytest
from redis.asyncio import Redis

from cardtable.server.cluster.bus import Bus, InProcessBus
from cardtable.server.cluster.lease import InProcessLeaseTable, Leases, LeaseTable
from cardtable.server.cluster.redis_bus import RedisBus
from cardtable.server.cluster.redis_leases import RedisLeaseTable
from cardtable.server.cluster.relay import Relay

from .conftest import run_async


@pytest.mark.parametrize("bus", ["in-process", "redis"])
def test_the_owners_reply_arrives_though_it_lets_the_table_go_while_answering(
    bus: str, request: pytest.FixtureRequest
) -> None:
    table_id = f"close-test-{secrets.token_hex(6)}"
    redis_url: str | None = request.getfixturevalue("redis_url") if bus == "redis" else None

    async def scenario() -> tuple[int, Any]:
        clients: list[Redis] = []

        def process() -> tuple[Bus, LeaseTable]:
            if redis_url is None:
                return shared_bus, shared_leases
            client: Redis = Redis.from_url(redis_url)
            clients.append(client)
            return RedisBus(client), RedisLeaseTable(client)

        shared_bus, shared_leases = InProcessBus(), InProcessLeaseTable()
        owner_bus, owner_leases = process()
        caller_bus, caller_leases = process()
        owner = Relay(owner_bus, Leases(owner_leases, holder="owner-" + table_id))
        caller = Relay(caller_bus, Leases(caller_leases, holder="caller-" + table_id))
        owner.lobby = SimpleNamespace(tables={table_id: object()})

        async def close(name: str, args: dict[str, Any]) -> tuple[int, Any]:
            # As the lobby's close does: the table leaves memory, and its lease and inbox are
            # given back from a task of their own.
            asyncio.get_running_loop().create_task(owner.disown(table_id))
            return 200, {"table_id": table_id, "closed": name}

        owner.handle_call = close

        class SlowBus:
            """The owner's bus, its publishes slow (the caller's are not)."""

            def __init__(self, inner: Bus) -> None:
                self.inner = inner
                self.slowed = 0

            async def publish(self, channel: str, data: bytes) -> int:
                self.slowed += 1
                await asyncio.sleep(0.2)
                return await self.inner.publish(channel, data)

            def subscription(self) -> Any:
                return self.inner.subscription()

        slow = SlowBus(owner_bus)
        try:
            await owner.own(table_id)
            owner.bus = slow
            answer = await caller.call(table_id, "close", {}, timeout=3.0)
            assert slow.slowed == 1  # the reply went out slowly
            return answer
        finally:
            await owner.close()
            await caller.close()
            for client in clients:
                await client.aclose()

    status, body = run_async(scenario())
    assert (status, body) == (200, {"table_id": table_id, "closed": "close"})
