"""A cluster process's Redis client under a burst: more views to publish at once than it has
connections (a thousand sockets, most of them on another process than their table's owner).
Each publish waits for a free connection; none fails. A publish whose connect fails waits and
tries again until its deadline."""

from __future__ import annotations

import asyncio
import secrets

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

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
        cluster = Cluster.over_redis(db, redis_url, Settings())
        assert cluster.redis is not None
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
            await listener.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed since redis 8.2
            await cluster.close()

    try:
        assert run_async(scenario()) == burst
    finally:
        db.close()


def test_a_publish_whose_connect_times_out_waits_and_retries_within_its_deadline(
    redis_url: str, tmp_path: object
) -> None:
    """The first connects time out (as on a loaded machine), the socket's connect as well as
    the handshake read after it: the publish waits, tries again and arrives; connects that
    keep failing fail the publish once its deadline passed."""
    db = Database(f"sqlite:///{tmp_path}/cluster.sqlite3")
    channel = process_channel(f"pool-test-{secrets.token_hex(4)}")

    async def scenario() -> tuple[int, float]:
        cluster = Cluster.over_redis(db, redis_url, Settings())
        assert cluster.redis is not None
        pool = cluster.redis.connection_pool
        connect = pool.get_connection
        failures = [3]

        async def flaky_connect(*args: object, **kwargs: object) -> object:
            if failures[0] > 0:
                failures[0] -= 1
                if failures[0] == 1:  # the socket connected, its handshake's answer is late
                    raise RedisTimeoutError("Timeout reading from 127.0.0.1:6379")
                raise RedisTimeoutError("Timeout connecting to server")
            return await connect(*args, **kwargs)  # type: ignore[no-untyped-call]

        listener = cluster.redis.pubsub(ignore_subscribe_messages=True)
        await listener.subscribe(channel)
        pool.get_connection = flaky_connect  # type: ignore[method-assign]
        try:
            listeners = await cluster.relay.publish(channel, {"n": 1})
            message = None
            deadline = asyncio.get_running_loop().time() + 10
            while message is None:
                assert asyncio.get_running_loop().time() < deadline, "nothing arrived"
                message = await listener.get_message(timeout=1.0)
            assert message["data"] in (b'{"n":1}', '{"n":1}')
            assert failures == [0]
            # Connects that never succeed: refused once the deadline has passed, not sooner.
            failures[0] = 1_000_000
            cluster.relay.publish_seconds = 1.0
            began = asyncio.get_running_loop().time()
            with pytest.raises(ConnectionError):
                await cluster.relay.publish(channel, {"n": 2})
            return listeners, asyncio.get_running_loop().time() - began
        finally:
            pool.get_connection = connect  # type: ignore[method-assign]
            await listener.aclose()  # type: ignore[no-untyped-call, unused-ignore]  # typed since redis 8.2
            await cluster.close()

    try:
        listeners, gave_up_after = run_async(scenario())
        assert listeners == 1
        assert 0.5 < gave_up_after < 3.0
    finally:
        db.close()
