"""The relay's reader starts once, after its subscription: callers asking for it at once (the
first sockets and calls of a process just started) share one subscription and one reader, and
nothing reads before the subscribe has finished; a subscribe Redis refused leaves nothing
behind for the next caller to trip on. With a stand-in for Redis whose subscribe
takes a few turns of the event loop, and with a real Redis; every wait is bounded."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from redis.asyncio import Redis
from redis.exceptions import ConnectionError as RedisConnectionError

from cardtable.server.cluster.redis_bus import RedisBus, RedisSubscription
from cardtable.server.cluster.relay import TAKEOVERS, Relay, process_channel

from .conftest import run_async

CALLERS = 2
WAIT_SECONDS = 5.0


class SlowPubSub:
    """Stands for a Redis subscription whose connection is set up over a few loop turns; it
    notes every read made before that (the real one raises then)."""

    def __init__(self, refuse: bool = False) -> None:
        self.refuse = refuse
        self.subscribed: list[tuple[str, ...]] = []
        self.connected = False
        self.closed = False
        self.early_reads = 0
        self.reads = 0

    async def subscribe(self, *channels: str) -> None:
        for _turn in range(3):
            await asyncio.sleep(0)
        if self.refuse:
            raise RedisConnectionError("Redis is away")
        self.connected = True
        self.subscribed.append(channels)

    async def get_message(self, timeout: float) -> dict[str, Any] | None:
        if not self.connected:
            self.early_reads += 1
            raise RuntimeError("pubsub connection not set")
        self.reads += 1
        await asyncio.sleep(min(timeout, 0.01))
        return None

    async def aclose(self) -> None:
        self.connected = False
        self.closed = True


class SlowRedis:
    """Stands for Redis: hands out slow subscriptions."""

    def __init__(self, refusals: int = 0) -> None:
        self.refusals = refusals
        self.pubsubs: list[SlowPubSub] = []

    def pubsub(self, **_options: Any) -> SlowPubSub:
        self.pubsubs.append(SlowPubSub(refuse=len(self.pubsubs) < self.refusals))
        return self.pubsubs[-1]


def test_callers_at_once_share_one_subscription_and_one_reader_started_after_it() -> None:
    async def scenario() -> tuple[SlowRedis, list[Any], int]:
        redis = SlowRedis()
        relay = Relay(RedisBus(redis), SimpleNamespace(holder="p1"))  # type: ignore[arg-type]
        try:
            got = await asyncio.wait_for(
                asyncio.gather(*(relay._ensure_reader() for _ in range(CALLERS))), WAIT_SECONDS
            )
            reader = relay._reader
            await asyncio.sleep(0.05)  # the reader reads a few times
            assert relay._reader is reader and reader is not None and not reader.done()
            readers = sum(
                1
                for task in asyncio.all_tasks()
                if getattr(task.get_coro(), "__name__", "") == "_read_forever"
            )
            return redis, list(got), readers
        finally:
            await relay.close()

    redis, got, readers = run_async(scenario())
    assert len(redis.pubsubs) == 1
    pubsub = redis.pubsubs[0]
    assert all(isinstance(s, RedisSubscription) for s in got)
    assert [s.pubsub for s in got] == [pubsub] * CALLERS
    assert pubsub.subscribed == [(process_channel("p1"), TAKEOVERS)]
    assert pubsub.early_reads == 0
    assert pubsub.reads > 0
    assert readers == 1


def test_a_subscribe_redis_refused_is_closed_and_the_next_caller_subscribes_afresh() -> None:
    async def scenario() -> tuple[SlowRedis, bool]:
        redis = SlowRedis(refusals=1)
        relay = Relay(RedisBus(redis), SimpleNamespace(holder="p1"))  # type: ignore[arg-type]
        try:
            with pytest.raises(RedisConnectionError):
                await asyncio.wait_for(relay._ensure_reader(), WAIT_SECONDS)
            started = relay._reader is not None
            await asyncio.wait_for(relay._ensure_reader(), WAIT_SECONDS)
            await asyncio.sleep(0.05)
            return redis, started
        finally:
            await relay.close()

    redis, started = run_async(scenario())
    assert not started
    refused, second = redis.pubsubs
    assert refused.closed and refused.reads == refused.early_reads == 0
    assert second.subscribed == [(process_channel("p1"), TAKEOVERS)]
    assert second.early_reads == 0 and second.reads > 0


@pytest.mark.timeout(60)
def test_callers_at_once_on_a_real_redis_log_no_failure(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    async def scenario() -> None:
        redis = Redis.from_url(redis_url)
        relay = Relay(RedisBus(redis), SimpleNamespace(holder="relay-start"))  # type: ignore[arg-type]
        try:
            await asyncio.wait_for(
                asyncio.gather(*(relay._ensure_reader() for _ in range(CALLERS))), WAIT_SECONDS
            )
            await asyncio.sleep(0.3)  # long enough for the reader to have read and failed
            listeners = await relay.publish(process_channel("relay-start"), {"reply": "none"})
            assert listeners == 1
        finally:
            await relay.close()
            await redis.aclose()

    caplog.set_level(logging.DEBUG, logger="cardtable.server.cluster.relay")
    run_async(scenario())
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not loud, [r.getMessage() for r in loud]
