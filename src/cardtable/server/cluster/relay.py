"""The relay: a person connected to one process plays at a table owned by another, through
the server's message bus (:class:`~cardtable.server.cluster.bus.Bus`: Redis pub/sub in a
cluster, in memory for a lone server, where every table is this process's and nothing crosses
it).

The owner of a table listens on the table's inbox (``cardtable:inbox:<table>``). A process
whose websocket is for a table owned elsewhere becomes a *proxy*: it says hello to the inbox
(with the profile, for the owner to find the seat), forwards every frame the page sends, and
the owner answers on the proxy process's own channel (``cardtable:proc:<holder>``): the seat's
state at once, then every new view, errors, hints and coach reports, exactly as it answers its
own sockets. To the owner a proxied socket is one more connection of the seat
(:class:`RemoteConnection`), so every view reaches every seat wherever it is connected; the
sockets connected to the owner itself are served directly, never through the bus.

A request to a process that does not own the table (joining with an invite, closing the table)
is a *call*: the process publishes it to the table's inbox with a reply address, the owner
runs it as it would its own request and publishes the answer (an HTTP status and body) to the
caller's process channel.

The proxy watches the table's lease (:class:`~cardtable.server.cluster.lease.Leases`). When
it lapses (the owner died) the proxy's process takes the table over itself (it claims the
lease, replays the log, and serves the socket as its own); when another process holds it, the
proxy says hello again to the new owner. A process that took a table over says so on
:data:`TAKEOVERS` once the table is loaded, and every proxy of the table greets it then,
without waiting for its next look at the lease. Either way the page keeps its socket and gets
the table's state again. Actions carry the version they were made for, so one that was sent
again after a takeover is refused as stale, never applied twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from cardtable.server.cluster.bus import Bus, Confirmed, NotSent, Subscription
from cardtable.server.cluster.lease import PREFIX, Leases
from cardtable.server.logs import bind_table
from cardtable.server.protocol.messages import Outgoing, dumps

logger = logging.getLogger(__name__)

PUBLISH_SECONDS: Final = 5.0
"""How long a publish may keep trying to reach the bus before it fails."""
HELLO_SECONDS: Final = 2.0
"""A proxy whose hello got no answer in this time says it again."""


def inbox(table_id: str) -> str:
    """The channel the owner of a table listens on.

    >>> inbox("t1")
    'cardtable:inbox:t1'
    """
    return f"{PREFIX}inbox:{table_id}"


TAKEOVERS: Final = f"{PREFIX}takeovers"
"""The channel every process listens on for tables taken over (their owner died): a process
relaying sockets of such a table greets the new owner at once instead of at its next look at
the lease."""


def process_channel(holder: str) -> str:
    """The channel of one process, where owners answer its proxied sockets.

    >>> process_channel("41-ab")
    'cardtable:proc:41-ab'
    """
    return f"{PREFIX}proc:{holder}"


@dataclass(slots=True, eq=False)
class RemoteConnection:
    """A proxied socket as its table owner sees it: sending publishes to the proxy's process.
    Compared by identity, as a local socket is (a people's table keys its profiles by
    connection)."""

    relay: Relay
    holder: str
    conn: str
    table_id: str
    closed: bool = False

    async def send(self, message: Outgoing) -> None:
        """Send one server message to the proxied page. When no process listens on the proxy's
        channel any more (it died), the socket is gone: the owner forgets it, so the person's
        grace period starts as when a local socket closes."""
        if self.closed:
            return
        # The message's own text, encoded once for all its connections, goes in as it is.
        payload = {"conn": self.conn, "message": orjson.Fragment(dumps(message))}
        try:
            listeners = await self.relay.publish(process_channel(self.holder), payload)
        except ConnectionError:
            # Redis is away (the publish said so): this message is lost, and the proxy greets
            # the table again once it hears Redis back, getting the state as it is then.
            return
        if listeners == 0:
            self.closed = True
            self.relay.forget(self)

    async def close_with(self, message: Outgoing, code: int) -> None:
        """Send a last message and have the proxy close the page's socket with ``code`` (a
        member removed from, or leaving, a people's table)."""
        if self.closed:
            return
        self.closed = True
        with contextlib.suppress(ConnectionError):
            await self.relay.publish(
                process_channel(self.holder), {"conn": self.conn, "message": message, "close": code}
            )

    async def moved(self) -> None:
        """The table left this process: the proxy finds its new owner (with Redis away, it
        finds out at its next look at the table's lease)."""
        with contextlib.suppress(ConnectionError):
            await self.relay.publish(
                process_channel(self.holder), {"conn": self.conn, "moved": True}
            )


@dataclass(slots=True)
class Proxy:
    """One proxied socket on this process: what its owner sent, waiting to be written."""

    conn: str
    table_id: str
    profile_id: int
    inbox: asyncio.Queue[dict[str, Any]] = field(default_factory=asyncio.Queue)
    answered: bool = False
    heard: bool = False
    """Whether the last hello reached a listener on the table's inbox. One that reached none
    (the owner had let the table go and not loaded it again yet) was lost, so a message still
    arriving from the old owner does not count as its answer: the proxy greets again."""
    unconfirmed: dict[str, tuple[int, str]] = field(default_factory=dict)
    """Actions sent with a client id that no answer has named yet: ``client id -> (version,
    frame)``. Sent again after greeting a new owner (the old one may have died before
    answering): a new owner that applied one acknowledges it, one that did not applies it."""

    def note_sent(self, raw: str) -> None:
        """Keep an action frame with a client id until it is answered."""
        try:
            data = json.loads(raw)
        except ValueError:
            return
        if not isinstance(data, dict) or data.get("type") != "action":
            return
        client_id, version = data.get("client_id"), data.get("version")
        if isinstance(client_id, str) and isinstance(version, int):
            self.unconfirmed[client_id] = (version, raw)

    def note_received(self, message: dict[str, Any]) -> None:
        """Forget the actions an answer settles: its own acknowledgement or error, or a state
        past the version they were made for."""
        client_id = message.get("client_id")
        if isinstance(client_id, str):
            self.unconfirmed.pop(client_id, None)
        version = message.get("version")
        if message.get("type") == "state" and isinstance(version, int):
            for key, (made_for, _raw) in list(self.unconfirmed.items()):
                if version > made_for:
                    del self.unconfirmed[key]


# What the owner's side does with one proxied frame: (table, connection, seat, profile, raw
# frame, arrival time) -> the connection's place afterwards, or None when the profile is no
# longer at the table (answers go through the connection).
FrameHandler = Callable[[Any, Any, int, int, str, float], Awaitable[int | None]]
# How the owner's side greets a proxied socket: (table, connection, profile) -> its place, or
# None for a profile that has none; and the refusal then: table -> (error code, message).
Greeter = Callable[[Any, Any, int], Awaitable[int | None]]
Outsider = Callable[[Any], tuple[str, str]]
# What the owner's side does with a call: (name, arguments) -> (outcome code, JSON body); the
# codes besides NOT_HERE are the caller's (cardtable.server.hosting.owner_calls).
CallHandler = Callable[[str, dict[str, Any]], Awaitable[tuple[int, Any]]]

NOT_HERE: Final = 0
"""The status of a call that reached a process no longer owning the table (ask again)."""


class Relay:
    """This process's side of the relay (see the module docstring)."""

    def __init__(self, bus: Bus, leases: Leases) -> None:
        self.bus = bus
        self.leases = leases
        self.holder = leases.holder
        self.publish_seconds = PUBLISH_SECONDS
        self.lobby: Any = None
        self.handle_frame: FrameHandler | None = None
        self.greet: Greeter | None = None
        self.outsider: Outsider | None = None
        self.handle_call: CallHandler | None = None
        self._calls: dict[str, asyncio.Future[tuple[int, Any]]] = {}
        self.proxies: dict[str, Proxy] = {}
        self.remotes: dict[str, tuple[RemoteConnection, int]] = {}
        """Proxied sockets greeted by this process as owner: the connection and its profile."""
        self._numbers = itertools.count(1)
        self._subscription: Subscription | None = None
        self._subscribed = False
        """Whether this process's channel was confirmed subscribed once already."""
        self._reader: asyncio.Task[None] | None = None
        self._starting = asyncio.Lock()
        self._queues: dict[str, asyncio.Queue[dict[str, Any]]] = {}
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._answering: set[asyncio.Task[None]] = set()
        self._ownings: dict[str, int] = {}
        """How many times this process took each table it owns (a table let go and owned
        again while the letting go still runs keeps its inbox)."""

    # --- plumbing -----------------------------------------------------------------------------

    async def publish(self, channel: str, payload: dict[str, Any]) -> int:
        """Publish one JSON payload; how many processes listen on the channel
        (``ConnectionError``, with a warning, if the bus cannot be reached). A publish that
        failed before anything was sent (connecting to Redis or its handshake timed out on a
        loaded machine, Redis restarting, every connection busy) waits and tries again until
        :attr:`publish_seconds` have passed; once the command may have been sent, a failure
        is final (sending it again could deliver it twice)."""
        data = orjson.dumps(payload, option=orjson.OPT_NON_STR_KEYS)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.publish_seconds
        pause = 0.05
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    return await self.bus.publish(channel, data)
            except NotSent as exc:
                if loop.time() + pause > deadline:
                    logger.warning("could not publish to %s: %s", channel, exc)
                    raise ConnectionError("the message bus could not be reached") from exc
                logger.info("connecting to publish to %s failed (%s); trying again", channel, exc)
                await asyncio.sleep(pause)
                pause = min(1.0, pause * 2)
            except (ConnectionError, TimeoutError) as exc:
                logger.warning("could not publish to %s: %s", channel, exc)
                raise ConnectionError("the message bus could not be reached") from exc

    async def _ensure_reader(self) -> Subscription:
        """The subscription, subscribed to this process's channels, with its reader running.
        Callers at once (the first sockets and calls of a process just started) wait for one
        another: a reader started before the subscribe has finished reads a connection that
        is not there yet."""
        async with self._starting:
            if self._subscription is None:
                subscription = self.bus.subscription()
                try:
                    await subscription.subscribe(process_channel(self.holder), TAKEOVERS)
                except BaseException:  # the bus away: the next caller subscribes afresh
                    with contextlib.suppress(Exception):
                        await subscription.close()
                    raise
                self._subscription = subscription  # only once subscribed, for the reader
            if self._reader is None or self._reader.done():
                self._reader = asyncio.get_running_loop().create_task(self._read_forever())
            return self._subscription

    async def _read_forever(self) -> None:
        while True:
            subscription = self._subscription
            assert subscription is not None
            try:
                event = await subscription.next_event(timeout=1.0)
            except asyncio.CancelledError:
                raise
            except Exception:
                logger.exception("the relay's reader failed; listening again")
                await asyncio.sleep(0.5)
                continue
            if event is None:
                continue
            if isinstance(event, Confirmed):
                self._confirmed(event.channel)
                continue
            try:
                self._dispatch(event.channel, json.loads(event.data))
            except Exception:
                logger.exception("the relay could not read a message")

    def _confirmed(self, channel: str) -> None:
        """A subscription confirmed. This process's channel confirmed again means the bus's
        connection was made afresh (Redis restarted, say), whether the subscription saw an
        error or the client reconnected by itself inside a read or a subscribe: messages
        published meanwhile were lost, and an owner whose answer found no listener here
        forgot the socket. Every proxy greets its table's owner again, getting its state."""
        if channel != process_channel(self.holder):
            return
        if not self._subscribed:
            self._subscribed = True  # the first subscription: nothing was missed
            return
        for proxy in self.proxies.values():
            proxy.inbox.put_nowait({"moved": True})  # say hello again

    def _dispatch(self, channel: str, payload: dict[str, Any]) -> None:
        if channel == TAKEOVERS:
            table_id = str(payload.get("table"))
            for relayed in self.proxies.values():
                if relayed.table_id == table_id:
                    relayed.inbox.put_nowait({"moved": True})  # greet the new owner now
            return
        if channel == process_channel(self.holder):
            if "reply" in payload:
                waiting = self._calls.get(str(payload["reply"]))
                if waiting is not None and not waiting.done():
                    waiting.set_result((int(payload.get("status", NOT_HERE)), payload.get("body")))
                return
            proxy = self.proxies.get(str(payload.get("conn")))
            if proxy is not None:
                proxy.inbox.put_nowait(payload)
            return
        table_id = channel.removeprefix(f"{PREFIX}inbox:")
        queue = self._queues.get(table_id)
        if queue is None:  # one worker a table: its messages are answered in order
            queue = self._queues[table_id] = asyncio.Queue()
            task = asyncio.get_running_loop().create_task(self._serve_inbox(table_id, queue))
            self._tasks[table_id] = task
        queue.put_nowait(payload)

    async def _serve_inbox(self, table_id: str, queue: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            payload = await queue.get()
            try:
                await self._serve_remote(table_id, payload)
            except asyncio.CancelledError:
                raise
            except ConnectionError as exc:  # Redis away: expected, and the publish warned
                logger.warning("table %s: a relayed message was not answered: %s", table_id, exc)
            except Exception:
                logger.exception("table %s: a relayed message failed", table_id)

    # --- the owner's side ---------------------------------------------------------------------

    async def own(self, table_id: str) -> None:
        """Listen on the table's inbox (this process now owns it)."""
        self._ownings[table_id] = self._ownings.get(table_id, 0) + 1
        subscription = await self._ensure_reader()
        await subscription.subscribe(inbox(table_id))

    async def announce_takeover(self, table_id: str) -> None:
        """Tell every process that this one took the table over and serves it now (its
        proxies of the table greet this one at once). Only a shortcut: a notice the bus does
        not carry leaves them to notice at their next look at the lease."""
        with contextlib.suppress(ConnectionError):
            await self.publish(TAKEOVERS, {"table": table_id, "holder": self.holder})

    async def disown(self, table_id: str) -> None:
        """Stop listening on the table's inbox, and tell its proxied sockets to look for the
        new owner."""
        owning = self._ownings.get(table_id, 0)
        self._queues.pop(table_id, None)
        worker = self._tasks.pop(table_id, None)
        if worker is not None and worker is not asyncio.current_task():
            worker.cancel()
        for conn, (remote, _seat) in list(self.remotes.items()):
            if remote.table_id == table_id:
                del self.remotes[conn]
                with contextlib.suppress(ConnectionError):
                    await remote.moved()
        if self._ownings.get(table_id, 0) != owning:
            # Owned again while the sockets were told (a publish waits out a bus away): the
            # inbox is the new owning's, and stays.
            return
        self._ownings.pop(table_id, None)
        if self._subscription is not None:
            await self._subscription.unsubscribe(inbox(table_id))

    async def _serve_remote(self, table_id: str, payload: dict[str, Any]) -> None:
        bind_table(table_id)
        op, conn = payload.get("op"), str(payload.get("conn"))
        holder = str(payload.get("holder"))
        lobby = self.lobby
        owner = lobby.tables.get(table_id) if lobby is not None else None
        if op == "bye":
            known = self.remotes.pop(conn, None)
            if known is not None and owner is not None:
                owner.detach(_seat_of(owner, known[0]), known[0])
            return
        if op == "call":
            # A task of its own, shielded: a call may let the table go (a close does), which
            # cancels this inbox's worker, and the reply must still reach the caller.
            answer = asyncio.get_running_loop().create_task(
                self._answer_call(owner, holder, payload)
            )
            self._answering.add(answer)
            answer.add_done_callback(self._answering.discard)
            await asyncio.shield(answer)
            return
        if owner is None or self.handle_frame is None or self.greet is None:
            await RemoteConnection(self, holder, conn, table_id).moved()
            return
        if op == "hello":
            profile_id = int(payload.get("profile", -1))
            previous = self.remotes.pop(conn, None)
            if previous is not None:
                owner.detach(_seat_of(owner, previous[0]), previous[0])
            remote = RemoteConnection(self, holder, conn, table_id)
            self.remotes[conn] = (remote, profile_id)
            if await self.greet(owner, remote, profile_id) is None:
                self.remotes.pop(conn, None)
                code, text = ("not-seated", "you do not sit at this table")
                if self.outsider is not None:
                    code, text = self.outsider(owner)
                await self.publish(
                    process_channel(holder), {"conn": conn, "refuse": code, "text": text}
                )
            return
        known = self.remotes.get(conn)
        if known is None:  # a frame for a socket this owner never greeted: greet again
            await RemoteConnection(self, holder, conn, table_id).moved()
            return
        remote, profile_id = known
        if remote.closed:
            return
        place = await self.handle_frame(
            owner,
            remote,
            _seat_of(owner, remote),
            profile_id,
            str(payload.get("raw", "")),
            time.perf_counter(),
        )
        if place is None:  # no longer at the table (removed meanwhile, say)
            self.remotes.pop(conn, None)
            owner.detach(_seat_of(owner, remote), remote)
            code, text = ("not-member", "you are not at this table")
            await self.publish(
                process_channel(holder), {"conn": conn, "refuse": code, "text": text}
            )

    def forget(self, remote: RemoteConnection) -> None:
        """A proxied socket whose process is gone: detach it from its table."""
        if self.remotes.get(remote.conn, (None, 0))[0] is not remote:
            return
        del self.remotes[remote.conn]
        owner = self.lobby.tables.get(remote.table_id) if self.lobby is not None else None
        if owner is not None:
            logger.info("table %s: a relaying process is gone; its socket too", remote.table_id)
            owner.detach(_seat_of(owner, remote), remote)

    async def _answer_call(self, owner: Any, holder: str, payload: dict[str, Any]) -> None:
        status, body = NOT_HERE, None
        if owner is not None and self.handle_call is not None:
            status, body = await self.handle_call(
                str(payload.get("name")), dict(payload.get("args") or {})
            )
        await self.publish(
            process_channel(holder),
            {"reply": payload.get("reply"), "status": status, "body": body},
        )

    # --- the caller's side --------------------------------------------------------------------

    async def call(
        self, table_id: str, name: str, args: dict[str, Any], timeout: float
    ) -> tuple[int, Any]:
        """Run the call ``name`` on the table's owner; its outcome code and JSON body
        (:data:`NOT_HERE` when the process reached no longer owns the table).
        ``TimeoutError`` when no owner answered in ``timeout`` seconds, ``ConnectionError``
        when the bus cannot be reached."""
        await self._ensure_reader()
        reply = f"{self.holder}/call/{next(self._numbers)}"
        waiting: asyncio.Future[tuple[int, Any]] = asyncio.get_running_loop().create_future()
        self._calls[reply] = waiting
        try:
            listeners = await self.publish(
                inbox(table_id),
                {"op": "call", "name": name, "args": args, "reply": reply, "holder": self.holder},
            )
            if listeners == 0:
                raise TimeoutError(f"no server process serves table {table_id} now")
            return await asyncio.wait_for(waiting, timeout)
        finally:
            self._calls.pop(reply, None)

    # --- the proxy's side ---------------------------------------------------------------------

    async def open_proxy(self, table_id: str, profile_id: int) -> Proxy:
        """A proxy for a socket of ``profile_id`` at a table owned elsewhere."""
        await self._ensure_reader()
        conn = f"{self.holder}/{next(self._numbers)}"
        proxy = Proxy(conn, table_id, profile_id)
        self.proxies[conn] = proxy
        await self.hello(proxy)
        return proxy

    async def hello(self, proxy: Proxy) -> None:
        """Introduce the proxied socket to the table's owner (again)."""
        proxy.answered = False
        proxy.heard = False
        listeners = await self.publish(
            inbox(proxy.table_id),
            {"op": "hello", "conn": proxy.conn, "holder": self.holder, "profile": proxy.profile_id},
        )
        proxy.heard = listeners > 0
        for _version, raw in list(proxy.unconfirmed.values()):
            await self.publish(
                inbox(proxy.table_id),
                {"op": "frame", "conn": proxy.conn, "holder": self.holder, "raw": raw},
            )

    async def forward(self, proxy: Proxy, raw: str) -> None:
        """Send one frame of the page to the table's owner."""
        proxy.note_sent(raw)
        await self.publish(
            inbox(proxy.table_id),
            {"op": "frame", "conn": proxy.conn, "holder": self.holder, "raw": raw},
        )

    async def close_proxy(self, proxy: Proxy) -> None:
        """The page went away: the owner forgets the socket."""
        self.proxies.pop(proxy.conn, None)
        with contextlib.suppress(ConnectionError):
            await self.publish(
                inbox(proxy.table_id), {"op": "bye", "conn": proxy.conn, "holder": self.holder}
            )

    async def close(self) -> None:
        """Stop listening (replies under way are given a moment to leave)."""
        if self._answering:
            await asyncio.wait(set(self._answering), timeout=2.0)
        tasks = [task for task in (self._reader, *self._tasks.values()) if task is not None]
        for task in tasks:
            task.cancel()
        if tasks:  # a read under way may be inside the Redis client: wait for it a little only
            await asyncio.wait(tasks, timeout=2.0)
        if self._subscription is not None:
            with contextlib.suppress(Exception):
                await self._subscription.close()


def _seat_of(owner: Any, connection: RemoteConnection) -> int:
    """Where the owner has the proxied socket attached now (a person who took another seat
    moved with it; -1, the spectators, once it is attached nowhere)."""
    for seat, listeners in owner.audience.connections.items():
        if connection in listeners:
            return int(seat)
    return -1
