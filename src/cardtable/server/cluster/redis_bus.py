"""The message bus over Redis pub/sub (:class:`~cardtable.server.cluster.bus.Bus`), between the
processes of a cluster.

A publish takes a connection of the client's pool first, so that its connect and handshake
(which time out on a loaded machine) fail as :class:`~cardtable.server.cluster.bus.NotSent`,
safe to try again; a failure once the command is sent may have delivered it. A subscription
that loses Redis subscribes to its channels again; Redis confirms each subscription, and a
confirmation heard again tells the relay the connection was made afresh.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.client import PubSub
from redis.exceptions import RedisError

from cardtable.server.cluster.bus import Confirmed, Delivery, Event, NotSent

logger = logging.getLogger(__name__)

LOST_PAUSE = 0.5
"""Seconds a subscription that lost Redis waits before it subscribes again."""


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


class RedisSubscription:
    """One Redis pub/sub connection's channels (see the module docstring)."""

    def __init__(self, pubsub: PubSub) -> None:
        self.pubsub = pubsub
        self.channels: set[str] = set()

    async def subscribe(self, *channels: str) -> None:
        """Listen on ``channels`` too (a Redis error is raised: nothing was subscribed)."""
        await self.pubsub.subscribe(*channels)
        self.channels.update(channels)

    async def unsubscribe(self, *channels: str) -> None:
        """Listen no more on ``channels`` (Redis away: its next subscription leaves them out)."""
        self.channels.difference_update(channels)
        with contextlib.suppress(RedisError):
            await self.pubsub.unsubscribe(*channels)

    async def next_event(self, timeout: float) -> Event | None:
        """The next message or confirmation. Redis lost: a pause, this subscription's channels
        subscribed again (their confirmations follow once Redis is back), and ``None``."""
        try:
            message = await self.pubsub.get_message(timeout=timeout)
        except RedisError as exc:
            logger.warning("the relay lost Redis: %s; listening again", exc)
            await asyncio.sleep(LOST_PAUSE)
            with contextlib.suppress(RedisError):
                await self.pubsub.subscribe(*self.channels)
            return None
        if message is None:
            return None
        kind = message.get("type")
        if kind == "message":
            data = message["data"]
            return Delivery(
                _text(message["channel"]), data if isinstance(data, bytes) else str(data).encode()
            )
        if kind == "subscribe":
            return Confirmed(_text(message.get("channel")))
        return None

    async def close(self) -> None:
        """Close the pub/sub connection."""
        with contextlib.suppress(Exception):
            # Untyped before redis 8.2, typed since: the ignore must hold for both.
            await self.pubsub.aclose()  # type: ignore[no-untyped-call, unused-ignore]


class RedisBus:
    """A :class:`~cardtable.server.cluster.bus.Bus` over one Redis client."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis

    async def publish(self, channel: str, data: bytes) -> int:
        """One try (see :class:`~cardtable.server.cluster.bus.Bus`)."""
        pool = self.redis.connection_pool
        try:
            connection = await pool.get_connection()  # type: ignore[no-untyped-call]
        except (RedisError, OSError) as exc:
            raise NotSent(str(exc)) from exc
        try:
            await connection.send_command("PUBLISH", channel, data)
            listeners = await connection.read_response()
        except (RedisError, OSError) as exc:
            await connection.disconnect()
            raise ConnectionError(str(exc)) from exc
        except BaseException:
            # Cancelled between the command and its answer: the connection may still have
            # the answer to read, so it is not given back as it is.
            await connection.disconnect()
            raise
        finally:
            await pool.release(connection)
        return int(listeners)

    def subscription(self) -> RedisSubscription:
        """A new pub/sub connection, listening on nothing yet."""
        return RedisSubscription(self.redis.pubsub())
