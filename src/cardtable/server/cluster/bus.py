"""The message bus the relay speaks over: publish a payload on a named channel, and read what
is published on the channels one subscribed to.

:class:`Bus` and :class:`Subscription` are all the relay (:mod:`cardtable.server.cluster.relay`)
knows of it. The delivery it relies on is Redis pub/sub's: a payload reaches the subscriptions
listening on its channel when it is published (none later), in the order one publisher sent
them; the publisher learns how many listened. :class:`InProcessBus` gives that between the apps
of one Python process (a lone server, or tests playing several processes), :class:`RedisBus`
(:mod:`cardtable.server.cluster.redis_bus`) between processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections import defaultdict
from dataclasses import dataclass
from typing import Protocol


class NotSent(ConnectionError):
    """A publish failed before anything was sent (no connection could be made or had):
    trying again cannot deliver it twice."""


@dataclass(frozen=True, slots=True)
class Delivery:
    """A payload published on a channel this subscription listens on."""

    channel: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Confirmed:
    """The subscription to a channel is in place: just made, or made again after the bus's
    connection was lost (payloads published meanwhile were lost)."""

    channel: str


Event = Delivery | Confirmed


class Subscription(Protocol):
    """One reader's channels and what arrives on them, in order."""

    async def subscribe(self, *channels: str) -> None:
        """Listen on ``channels`` too (each confirmed by a :class:`Confirmed` event)."""
        ...

    async def unsubscribe(self, *channels: str) -> None:
        """Listen no more on ``channels`` (best effort: a bus away is no error)."""
        ...

    async def next_event(self, timeout: float) -> Event | None:
        """The next event, or ``None`` when none came in ``timeout`` seconds."""
        ...

    async def close(self) -> None:
        """Listen no more on anything."""
        ...


class Bus(Protocol):
    """Channels shared by every process of a server."""

    async def publish(self, channel: str, data: bytes) -> int:
        """Publish ``data`` on ``channel`` (one try); how many subscriptions listen there.
        :class:`NotSent` when nothing was sent, ``ConnectionError`` when it may have been."""
        ...

    def subscription(self) -> Subscription:
        """A new subscription, listening on nothing yet."""
        ...


class InProcessSubscription:
    """A subscription to an :class:`InProcessBus`. Its events are queued on the event loop it
    was made on, whichever thread publishes (each app under test runs a loop of its own)."""

    def __init__(self, bus: InProcessBus) -> None:
        self._bus = bus
        self._loop = asyncio.get_running_loop()
        self._events: asyncio.Queue[Event] = asyncio.Queue()
        self.channels: set[str] = set()

    def deliver(self, event: Event) -> bool:
        """Queue an event from any thread; ``False`` once this subscription's loop is gone."""
        if self._loop.is_closed():
            return False
        try:
            self._loop.call_soon_threadsafe(self._events.put_nowait, event)
        except RuntimeError:  # the loop closed meanwhile
            return False
        return True

    async def subscribe(self, *channels: str) -> None:
        """Listen on ``channels`` too."""
        for channel in channels:
            self._bus._listen(channel, self)
            self.channels.add(channel)
            self._events.put_nowait(Confirmed(channel))

    async def unsubscribe(self, *channels: str) -> None:
        """Listen no more on ``channels``."""
        for channel in channels:
            self._bus._unlisten(channel, self)
            self.channels.discard(channel)

    async def next_event(self, timeout: float) -> Event | None:
        """The next event, or ``None`` after ``timeout`` seconds."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                return await self._events.get()
        return None

    async def close(self) -> None:
        """Listen no more on anything."""
        await self.unsubscribe(*self.channels)


class InProcessBus:
    """A :class:`Bus` inside one Python process: a lone server's, or one shared by the apps of
    a test that plays several server processes. It is never away."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._listeners: defaultdict[str, set[InProcessSubscription]] = defaultdict(set)

    def _listen(self, channel: str, subscription: InProcessSubscription) -> None:
        with self._lock:
            self._listeners[channel].add(subscription)

    def _unlisten(self, channel: str, subscription: InProcessSubscription) -> None:
        with self._lock:
            listening = self._listeners.get(channel)
            if listening is not None:
                listening.discard(subscription)
                if not listening:
                    del self._listeners[channel]

    async def publish(self, channel: str, data: bytes) -> int:
        """Deliver ``data`` to every subscription listening on ``channel``; how many."""
        with self._lock:
            listening = list(self._listeners.get(channel, ()))
        reached = 0
        for subscription in listening:
            if subscription.deliver(Delivery(channel, data)):
                reached += 1
            else:  # its app is gone: as a process that died, it listens no more
                self._unlisten(channel, subscription)
        return reached

    def subscription(self) -> InProcessSubscription:
        """A new subscription, its events queued on the running event loop."""
        return InProcessSubscription(self)
