"""A websocket served through the relay: the page is connected to this process, its table is
owned by another (:mod:`cardtable.server.cluster.relay`).

Frames are checked here as on any socket (size, rate limits) and forwarded to the owner; what
the owner sends is written to the page. Every quarter of the lease's life, and whenever the
owner says the table moved, the proxy looks at the table's lease: free, this process takes the
table over and the socket is then served here like any other; held by another process, the
proxy introduces itself to that one, and sends again the actions the old owner never answered
(see :attr:`~cardtable.server.cluster.relay.Proxy.unconfirmed`). The page keeps its socket all
along; a page that goes away, even while something is being written to it, just ends the proxy.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from fastapi import WebSocket, WebSocketDisconnect

from cardtable.server.cluster.lease import LeaseUnavailableError
from cardtable.server.cluster.relay import Relay
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.context import context_of
from cardtable.server.protocol import frames
from cardtable.server.protocol.messages import dumps, error_code, error_message
from cardtable.server.table.owner import TableOwner
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)


async def serve_through_relay(
    websocket: WebSocket, relay: Relay, table_id: str, profile_id: int
) -> tuple[TableOwner, list[str]] | None:
    """Serve the socket through the relay until the page goes away (``None``) or this process
    takes the table over: its owner, for the caller to serve the socket itself, and the
    actions sent that no owner answered, for it to answer them."""
    context = context_of(websocket.app)
    try:
        proxy = await relay.open_proxy(table_id, profile_id)
    except ConnectionError:
        await frames.refuse(
            websocket,
            frames.CLOSE_TRY_AGAIN,
            "unavailable",
            "the server cannot reach the table's owner",
        )
        return None
    socket_key = f"socket:{proxy.conn}"
    check_every = max(0.05, context.settings.lease_seconds / 4)
    loop = asyncio.get_running_loop()
    receiver: asyncio.Task[Any] = loop.create_task(websocket.receive())
    getter: asyncio.Task[dict[str, Any]] = loop.create_task(proxy.inbox.get())
    next_check = time.monotonic() + check_every
    try:
        known = await relay.leases.holder_of(table_id)
    except LeaseUnavailableError:
        known = None
    try:
        while True:
            timeout = max(0.0, next_check - time.monotonic())
            done, _ = await asyncio.wait(
                {receiver, getter}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED
            )
            look = False
            if getter in done:
                payload = getter.result()
                getter = loop.create_task(proxy.inbox.get())
                if "message" in payload:
                    # An answer to a hello nobody heard is a late message of an old owner.
                    proxy.answered = proxy.heard
                    proxy.note_received(payload["message"])
                    await websocket.send_text(dumps(payload["message"]))
                    if "close" in payload:  # removed from, or leaving, a people's table
                        await websocket.close(code=int(payload["close"]))
                        return None
                elif payload.get("refuse"):
                    await frames.refuse(
                        websocket,
                        frames.CLOSE_NOT_SEATED,
                        error_code(payload["refuse"]),
                        str(payload.get("text") or "you do not sit at this table"),
                    )
                    return None
                else:
                    look = True  # the table moved: find its owner
            if receiver in done:
                frame = receiver.result()
                if frame["type"] == "websocket.disconnect":
                    return None
                receiver = loop.create_task(websocket.receive())
                max_frame = context.settings.max_frame_bytes
                raw = frames.frame_text(frame, max_frame)
                if raw is None:
                    await frames.refuse(
                        websocket,
                        frames.CLOSE_TOO_LARGE,
                        "too-large",
                        f"frame too large: the limit is {max_frame} bytes",
                    )
                    return None
                limited = context.limits.hit("message", socket_key)
                if limited is not None:
                    await websocket.send_text(dumps(error_message("rate-limited", limited.message)))
                else:
                    text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
                    try:
                        await relay.forward(proxy, text)
                    except ConnectionError:
                        await websocket.send_text(
                            dumps(
                                error_message(
                                    "unavailable",
                                    "the server cannot reach the table's owner right now; "
                                    "nothing was done: try again in a moment",
                                )
                            )
                        )
            if look or time.monotonic() >= next_check:
                next_check = time.monotonic() + check_every
                owner, known = await _find_owner(relay, context.lobby, proxy, known, look)
                if owner is not None:
                    return owner, [raw for _version, raw in proxy.unconfirmed.values()]
    except (WebSocketDisconnect, RuntimeError) as exc:
        if not frames.went_away(websocket, exc):
            raise
        # The page went away while something was written to it (a view, an error, the
        # close): as normal as a disconnect read from it.
        logger.debug("table %s: a relayed page went away while being written to", table_id)
        return None
    finally:
        receiver.cancel()
        getter.cancel()
        await relay.close_proxy(proxy)


async def _find_owner(
    relay: Relay, lobby: Any, proxy: Any, known: str | None, moved: bool
) -> tuple[TableOwner | None, str | None]:
    """Look at the table's lease: take the table over if it is free (its owner), else greet
    a new (or silent) owner again. The holder seen."""
    if moved:
        # Told the table moved (or the bus came back): until an owner answers a hello, the
        # proxy greets again at every look, even when this look cannot (the lease or the
        # database away) and the lease's holder is the same process as before.
        proxy.answered = False
    try:
        holder = await relay.leases.holder_of(proxy.table_id)
    except LeaseUnavailableError:
        return None, known
    if holder is None:
        try:
            owner = await lobby.get(proxy.table_id)
        except TableElsewhereError:
            owner = None
        except StorageError:
            return None, known
        if owner is not None:
            return owner, None
        with contextlib.suppress(ConnectionError):
            await relay.hello(proxy)
        return None, holder
    if moved or holder != known or not proxy.answered:
        with contextlib.suppress(ConnectionError):
            await relay.hello(proxy)
    return None, holder
