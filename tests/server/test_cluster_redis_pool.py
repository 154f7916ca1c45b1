"""A cluster process's Redis client under a burst: more views to publish at once than it has
connections (a thousand sockets, most of them on another process than their table's owner).
Each publish waits for a free connection; none fails."""

from __future__ import annotations

import asyncio
import secrets

from cardtable.server.cluster.relay import process_channel
from cardtable.server.cluster.wiring import REDIS_CONNECTIONS, Cluster
from cardtable.server.settings import Settings
from cardtable.storage import Database

from .conftest import run_async


def test_a_burst_of_publishes_beyond_the_connection_limit_waits_and_all_arrive(
    redis_url: str, tmp_path: object
) -> None:
    db = Database(f"sqlite:///{tmp_path}/cluster.sqlite3")
    channel = process_channel(f"pool-test-{secrets.token_hex(4)}")
    burst = 3 * REDIS_CONNECTIONS

    async def scenario() -> int:
        cluster = Cluster(db, redis_url, Settings())
        listener = cluster.redis.pubsub(ignore_subscribe_messages=True)
        await listener.subscribe(channel)
        try:
            await asyncio.gather(*(cluster.relay.publish(channel, {"n": n}) for n in range(burst)))
            received = 0
            deadline = asyncio.get_running_loop().time() + 30
            while received < burst:
                assert asyncio.get_running_loop().time() < deadline, f"{received} of {burst}"
                # None: nothing yet, or the subscription's confirmation (skipped).
                if await listener.get_message(timeout=1.0) is not None:
                    received += 1
            return received
        finally:
            await listener.aclose()  # type: ignore[no-untyped-call]
            await cluster.close()

    try:
        assert run_async(scenario()) == burst
    finally:
        db.close()
