"""The websocket ``/ws/tables/{id}``: one seat's connection to its table.

On connecting, the seat gets its state; then every frame is read by
:func:`~cardtable.server.protocol.messages.parse_client_message` and answered. Errors, hints, coach
reports and pongs go to this connection only; state changes go to every connected seat through
the table owner.

A connection from a page of another origin is refused (the Origin check of
:mod:`cardtable.server.routes.security`), a frame above the settings' ``max_frame_bytes`` ends the
connection, and the rate limits count connections per address and per profile and messages
per connection. Close codes: 1008 origin not allowed, 1009 frame too large, 1013 try again
(the database or Redis cannot be reached, or the table moved to another server process of a
cluster), 4401 no profile cookie, 4403 not seated at this table, 4404 no such table, 4429 too
many connections or messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Sequence

from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected

from cardtable.server import metrics
from cardtable.server.cluster.proxy import serve_through_relay
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.context import context_of
from cardtable.server.logs import about_table
from cardtable.server.narration.moves import hint_move
from cardtable.server.people import connections, part, room_control
from cardtable.server.protocol.frames import (
    CLOSE_BAD_ORIGIN,
    CLOSE_NO_PROFILE,
    CLOSE_NO_TABLE,
    CLOSE_NOT_SEATED,
    CLOSE_TOO_LARGE,
    CLOSE_TRY_AGAIN,
    MOVED,
    frame_text,
    refuse,
    went_away,
)
from cardtable.server.protocol.messages import (
    ActionMessage,
    ClientMessage,
    CoachMessage,
    ErrorCode,
    GroupsMessage,
    HintMessage,
    Outgoing,
    PingMessage,
    ProtocolError,
    ack_message,
    coach_message,
    dumps,
    error_message,
    hint_message,
    parse_client_message,
    pong_message,
)
from cardtable.server.protocol.state_frames import PATCH_QUERY
from cardtable.server.rate_limits import CLOSE_RATE_LIMITED, RateLimits
from cardtable.server.routes.identity import client_address, websocket_profile
from cardtable.server.routes.security import origin_refusal
from cardtable.server.table import advisors, hand_groups
from cardtable.server.table.owner import SPECTATORS, Connection, TableOwner
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)

router = APIRouter()

NOWHERE = -2
"""No place at a table (:data:`~cardtable.server.table.owner.SPECTATORS` is -1)."""


class SocketConnection:
    """A websocket as a table connection; sends are serialised so frames never interleave."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self._send_lock = asyncio.Lock()
        self.closed = False
        # Pages relayed through the cluster's proxy carry no query string: they get whole states.
        params = getattr(websocket, "query_params", None)
        self.patches = params is not None and params.get(PATCH_QUERY) == "1"
        """The page asked for patches (:mod:`~cardtable.server.protocol.state_frames`)."""

    async def send(self, message: Outgoing) -> None:
        """Send one server message as a JSON text frame (nothing once closed). A page gone
        under the write raises :class:`WebSocketDisconnect`, whichever way Starlette says it
        (its ``WebSocketDisconnected`` once the socket is closed on this side)."""
        async with self._send_lock:
            if self.closed:
                return
            try:
                await self.websocket.send_text(dumps(message))
            except WebSocketDisconnect:
                self.closed = True
                raise
            except WebSocketDisconnected:
                self.closed = True
                raise WebSocketDisconnect(1006) from None

    async def moved(self) -> None:
        """The table passed to another server process: close, so that the page connects
        again (and reaches the table's new owner)."""
        async with self._send_lock:
            if self.closed:
                return
            self.closed = True
            with contextlib.suppress(Exception):
                await refuse(self.websocket, CLOSE_TRY_AGAIN, "unavailable", MOVED)

    async def close_with(self, message: Outgoing, code: int) -> None:
        """Send a last message and close (a member removed from, or leaving, a table)."""
        if self.closed:
            return
        async with self._send_lock:
            self.closed = True
            try:
                await self.websocket.send_text(dumps(message))
                await self.websocket.close(code=code)
            except Exception:  # already gone: nothing to tell
                logger.debug("closing a connection that was already closed")


async def _table_socket(websocket: WebSocket, table_id: str) -> None:
    context = context_of(websocket.app)
    await websocket.accept()
    refusal = origin_refusal(websocket.scope, context.settings.allowed_origins)
    if refusal is not None:
        await refuse(websocket, CLOSE_BAD_ORIGIN, "forbidden-origin", refusal)
        return
    profile = await websocket_profile(websocket)
    if profile is None:
        await refuse(websocket, CLOSE_NO_PROFILE, "not-seated", "no profile: load the app first")
        return
    limited = context.limits.hit(
        "socket", f"address:{client_address(websocket)}", f"profile:{profile.id}"
    ) or context.limits.open_socket(profile.id)
    if limited is not None:
        await refuse(websocket, CLOSE_RATE_LIMITED, "rate-limited", limited.message)
        return
    metrics.CONNECTED_SOCKETS.inc()
    try:
        with about_table(table_id):
            await _seat(websocket, table_id, profile.id)
    finally:
        metrics.CONNECTED_SOCKETS.dec()
        context.limits.close_socket(profile.id)


@router.websocket("/ws/tables/{table_id}")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """Serve one seat of one table until the client goes away (a page closed while it was
    being answered, even refused, is a normal end: no error)."""
    try:
        await _table_socket(websocket, table_id)
    except (WebSocketDisconnect, RuntimeError) as exc:
        if not went_away(websocket, exc):
            raise
        logger.debug("table %s: the page went away while it was answered", table_id)


async def _seat(websocket: WebSocket, table_id: str, profile_id: int) -> None:
    context = context_of(websocket.app)
    unanswered: list[str] = []
    try:
        owner = await context.lobby.get(table_id)
    except TableElsewhereError:  # another process owns the table
        taken = await serve_through_relay(websocket, context.relay, table_id, profile_id)
        if taken is None:
            return
        owner, unanswered = taken
    except StorageError as exc:  # the database or Redis is away
        await refuse(websocket, CLOSE_TRY_AGAIN, "unavailable", str(exc))
        return
    if owner is None:
        await refuse(websocket, CLOSE_NO_TABLE, "no-table", f"there is no table {table_id!r}")
        return
    connection = SocketConnection(websocket)
    seat: int | None = None
    try:
        seat = await greet(owner, connection, profile_id)
        if seat is None:
            await refuse(websocket, CLOSE_NOT_SEATED, *outsider(owner))
            return
        limits, socket_key = context_of(websocket.app).limits, f"socket:{id(connection)}"
        for raw in unanswered:  # sent through the relay to an owner that died before answering
            place = await answer_frame(
                owner, connection, seat, profile_id, raw, time.perf_counter(), limits, socket_key
            )
            seat = seat if place is None else place
        await _serve(websocket, connection, owner, seat, profile_id)
    except (WebSocketDisconnect, RuntimeError) as exc:
        if not went_away(websocket, exc):
            raise
        # The page went away, maybe while it was being greeted (just after this process took
        # its table over, say): a normal end of the socket.
        logger.debug("table %s: the page went away", owner.setup.table_id)
    finally:
        # Greeting attaches the connection before writing to it: a page gone meanwhile
        # leaves it attached, with no seat known here.
        place = attached_seat(owner, connection, NOWHERE if seat is None else seat)
        if place != NOWHERE:
            owner.detach(place, connection)


def _place(owner: TableOwner, profile_id: int) -> int | None:
    """The profile's seat, :data:`SPECTATORS` for a spectator, ``None`` for an outsider."""
    if owner.people.room is not None:
        member = owner.people.room.member(profile_id)
        if member is None:
            return None
        return SPECTATORS if member.seat is None else member.seat
    return next((s for s, p in owner.seated.items() if p == profile_id), None)


def outsider(owner: TableOwner) -> tuple[ErrorCode, str]:
    """The error code and message of a socket whose profile has no place at the table."""
    if owner.people.room is not None:
        return "not-member", "you are not at this table"
    return "not-seated", "you do not sit at this table"


async def greet(owner: TableOwner, connection: Connection, profile_id: int) -> int | None:
    """Attach a new connection of ``profile_id`` (local, or proxied from another process) at
    its place and send it the table as that place sees it; the place, or ``None`` for a
    profile that has none (nothing is attached then)."""
    seat = _place(owner, profile_id)
    if seat is None:
        return None
    async with owner.lock:
        owner.attach(seat, connection)
        if isinstance(connection, SocketConnection) and connection.patches:
            owner.audience.frames.take_patches(connection)
        extra: Sequence[Outgoing] = ()
        if owner.people.room is not None:
            part.presence_of(owner).profiles[connection] = profile_id
            extra = connections.connection_opened(owner, seat)
        await connection.send(owner.message_for(seat))
        for message in extra:
            await connection.send(message)
    if owner.people.room is not None:
        await owner.broadcast_room()
        owner.wake_bots()
    return seat


def attached_seat(owner: TableOwner, connection: Connection, fallback: int) -> int:
    """Where the connection is attached now (a person who moved seats moved with it)."""
    for seat, listeners in owner.audience.connections.items():
        if connection in listeners:
            return seat
    return fallback


async def _follow(
    owner: TableOwner, connection: Connection, seat: int, profile_id: int
) -> int | None:
    """At a people's table, move the connection to the member's place now (a seat taken or
    given up in the waiting room); ``None`` when the profile is not a member any more."""
    if owner.people.room is None:
        return seat
    place = _place(owner, profile_id)
    if place is None:
        return None
    if place != seat:
        listeners = owner.audience.connections.get(seat, [])
        if connection in listeners:
            listeners.remove(connection)
        owner.attach(place, connection)
    return place


async def _serve(
    websocket: WebSocket,
    connection: SocketConnection,
    owner: TableOwner,
    seat: int,
    profile_id: int,
) -> None:
    context = context_of(websocket.app)
    max_frame = context.settings.max_frame_bytes
    socket_key = f"socket:{id(connection)}"
    while True:
        frame = await websocket.receive()
        if frame["type"] == "websocket.disconnect" or connection.closed:
            return
        received = time.perf_counter()
        raw = frame_text(frame, max_frame)
        if raw is None:
            await refuse(
                websocket,
                CLOSE_TOO_LARGE,
                "too-large",
                f"frame too large: the limit is {max_frame} bytes",
            )
            return
        limited = context.limits.hit("message", socket_key)
        if limited is not None:
            await connection.send(error_message("rate-limited", limited.message))
            continue
        if connection.closed:
            return
        place = await answer_frame(
            owner, connection, seat, profile_id, raw, received, context.limits, socket_key
        )
        if place is None:
            await refuse(websocket, CLOSE_NOT_SEATED, "not-member", "you are not at this table")
            return
        seat = place


async def answer_frame(
    owner: TableOwner,
    connection: Connection,
    seat: int,
    profile_id: int,
    raw: str | bytes,
    received: float,
    limits: RateLimits | None,
    socket_key: str,
) -> int | None:
    """Answer one frame of a connection (local, or proxied from another process) at ``seat``:
    moves, hints, the coach, pings and a people's table's room messages, exactly alike
    wherever the page is connected. Answers and errors go to ``connection`` only; changes
    reach every connection through the owner. The connection's place afterwards (a person may
    have taken another seat), or ``None`` when its profile is no longer at the table."""
    place = await _follow(owner, connection, seat, profile_id)
    if place is None:
        return None
    seat = place
    message: ClientMessage | None = None
    try:
        message = parse_client_message(raw, shared=owner.people.room is not None)
        playing = isinstance(message, ActionMessage | HintMessage | CoachMessage | GroupsMessage)
        if isinstance(message, PingMessage):
            await connection.send(pong_message())
        elif seat == SPECTATORS and playing:
            raise ProtocolError("spectator", "spectators watch: they cannot play or ask")
        elif owner.waiting and playing:
            raise ProtocolError("phase", "the game has not started yet: the host starts it")
        elif isinstance(message, ActionMessage):
            submitted = await owner.submit(seat, message, received)
            if submitted.duplicate and message.client_id is not None:
                # A resend: acknowledged again, and the table as it is.
                await connection.send(
                    ack_message(message.client_id, submitted.version, duplicate=True)
                )
                owner.audience.frames.unsync(connection)  # a whole state outside a broadcast
                await connection.send(owner.message_for(seat))
            elif message.client_id is not None and owner.people.room is None:
                # At a people's table the move's own state acknowledges it: the broadcast
                # (sent before this answer) carries the client id in the mover's seat's
                # ``last_action``, so the mover is sent one frame per move. Elsewhere (no
                # room, whose hooks note no client id) the ack goes apart.
                await connection.send(
                    ack_message(message.client_id, submitted.version, duplicate=False)
                )
        elif isinstance(message, HintMessage):
            # The advice is about the state at this version: other seats may move while it is
            # worked out, and the page must not show it over a newer state.
            version = owner.version
            action, reason = await advisors.hint_at(owner, seat)
            move = hint_move(owner.setup.game, owner.setup.engine, action)
            await connection.send(hint_message(action, reason, version=version, move=move))
        elif isinstance(message, CoachMessage):
            version = owner.version
            report = await advisors.coach_at(owner, seat)
            await connection.send(coach_message(report, version=version))
        elif isinstance(message, GroupsMessage):
            await connection.send(await hand_groups.answer(owner, seat, message))
        else:
            if message.type == "quick" and limits is not None:
                quick = limits.hit("quick", f"profile:{profile_id}", socket_key)
                if quick is not None:
                    raise ProtocolError("rate-limited", quick.message)
            await room_control.handle(owner, profile_id, message)
    except ProtocolError as exc:
        client_id = message.client_id if isinstance(message, ActionMessage) else None
        await connection.send(error_message(exc.code, str(exc), rule=exc.rule, client_id=client_id))
        if owner.people.room is not None and exc.code in ("stale", "not-your-turn", "seat-taken"):
            # The loser of a race sees the table as it is now.
            owner.audience.frames.unsync(connection)  # a whole state outside a broadcast
            await connection.send(owner.message_for(_place(owner, profile_id) or seat))
    except StorageError as exc:  # the database or Redis is away, or the table passed on
        await connection.send(error_message("unavailable", str(exc)))
    except (WebSocketDisconnect, WebSocketDisconnected):
        raise  # the page went away: the socket's end, not a failed message
    except Exception:  # the table must keep serving whatever one message did
        logger.exception("table %s seat %d: message failed", owner.setup.table_id, seat)
        await connection.send(error_message("server", "the server could not handle that message"))
    return attached_seat(owner, connection, seat)
