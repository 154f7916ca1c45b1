"""A call relayed to a table's owner is answered even when the owner lets the table go while
answering it, as closing a table does: the owner stops listening on the table's inbox, which
used to cancel the reply still on its way (the caller then waited for its time-out and tried
again, 8 s for a close). The reply's publish is made slow here, as on a cold connection pool,
so that letting go lands while it is under way."""

from __future__ import annotations

import asyncio
import secrets
from types import SimpleNamespace
from typing import Any

from redis.asyncio import Redis

from cardtable.server.cluster.lease import Leases
from cardtable.server.cluster.relay import Relay

from .conftest import run_async


def test_the_owners_reply_arrives_though_it_lets_the_table_go_while_answering(
    redis_url: str,
) -> None:
    table_id = f"close-test-{secrets.token_hex(6)}"

    async def scenario() -> tuple[int, Any]:
        owner_redis: Redis = Redis.from_url(redis_url)
        caller_redis: Redis = Redis.from_url(redis_url)
        owner = Relay(owner_redis, Leases(owner_redis, holder="owner-" + table_id))
        caller = Relay(caller_redis, Leases(caller_redis, holder="caller-" + table_id))
        owner.lobby = SimpleNamespace(tables={table_id: object()})

        async def close(name: str, args: dict[str, Any]) -> tuple[int, Any]:
            # As the lobby's close does: the table leaves memory, and its lease and inbox are
            # given back from a task of their own.
            asyncio.get_running_loop().create_task(owner.disown(table_id))
            return 200, {"table_id": table_id, "closed": name}

        owner.handle_call = close
        publish = owner_redis.publish

        async def slow_publish(*args: Any, **kwargs: Any) -> Any:
            await asyncio.sleep(0.2)
            return await publish(*args, **kwargs)

        try:
            await owner.own(table_id)
            owner_redis.publish = slow_publish  # type: ignore[method-assign]
            return await caller.call(table_id, "close", {}, timeout=3.0)
        finally:
            await owner.close()
            await caller.close()
            await owner_redis.aclose()
            await caller_redis.aclose()

    status, body = run_async(scenario())
    assert (status, body) == (200, {"table_id": table_id, "closed": "close"})
