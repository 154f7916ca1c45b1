"""A relay whose subscription to Redis was made afresh without the reader seeing an error (the
Redis client reconnects by itself inside a read or a subscribe once Redis is back after a
restart) still has its proxies greet their tables' owners again: an owner whose answer found
no listener on this process's channel meanwhile forgot the socket, and without a new hello
the page would wait for ever. The first confirmation of a subscription greets no one. With a
stand-in for Redis whose subscription plays confirmations; every wait is bounded."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from cardtable.server.cluster.redis_bus import RedisBus
from cardtable.server.cluster.relay import Proxy, Relay, process_channel

from .conftest import run_async

WAIT_SECONDS = 5.0


class ScriptedPubSub:
    """Stands for a Redis subscription: plays the given messages, then reads nothing."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.messages = list(messages)

    async def subscribe(self, *channels: str) -> None:
        await asyncio.sleep(0)

    async def get_message(self, timeout: float) -> dict[str, Any] | None:
        if self.messages:
            return self.messages.pop(0)
        await asyncio.sleep(min(timeout, 0.01))
        return None

    async def aclose(self) -> None:
        return None


class ScriptedRedis:
    """Stands for Redis: one scripted subscription."""

    def __init__(self, messages: list[dict[str, Any]]) -> None:
        self.subscription = ScriptedPubSub(messages)

    def pubsub(self, **_options: Any) -> ScriptedPubSub:
        return self.subscription


def confirmation(channel: str) -> dict[str, Any]:
    return {"type": "subscribe", "channel": channel.encode(), "data": 1, "pattern": None}


def notices_after(confirmations: int) -> list[dict[str, Any]]:
    """What a proxy of this process hears once its channel was confirmed that many times."""

    async def scenario() -> list[dict[str, Any]]:
        messages = [confirmation(process_channel("p1")) for _ in range(confirmations)]
        bus = RedisBus(ScriptedRedis(messages))  # type: ignore[arg-type]
        relay = Relay(bus, SimpleNamespace(holder="p1"))  # type: ignore[arg-type]
        proxy = Proxy("p1/1", "t1", 7)
        relay.proxies[proxy.conn] = proxy
        try:
            await asyncio.wait_for(relay._ensure_reader(), WAIT_SECONDS)
            await asyncio.sleep(0.1)  # the reader reads the confirmations
        finally:
            await asyncio.wait_for(relay.close(), WAIT_SECONDS)
        heard = []
        while not proxy.inbox.empty():
            heard.append(proxy.inbox.get_nowait())
        return heard

    return run_async(scenario())


def test_a_subscription_made_afresh_without_an_error_has_every_proxy_greet_again() -> None:
    assert notices_after(2) == [{"moved": True}]


def test_the_first_subscription_greets_no_one() -> None:
    assert notices_after(1) == []
