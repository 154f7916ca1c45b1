"""Requests that only a table's owner may answer, from whichever process received them: looking
at an invite, joining with it, taking a seat at a table, closing a table.

Each is a named call with JSON arguments, run by :func:`run` on the process that owns the table
(it changes the table's room under the table's lock, so only one process may). A process that
receives such a request and does not own the table (:class:`TableElsewhereError`) hands the call
to the owner through the relay (:meth:`cardtable.server.cluster.relay.Relay.call`) and answers
with what the owner answered; when no owner answers (its process died and its lease has not
lapsed yet) it tries again, taking the table over itself as soon as the lease is free. A lone
server runs every call itself.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Final

from fastapi import HTTPException

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.server.cluster.relay import NOT_HERE, Relay
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.lobby import Lobby, NotAllowedError, TableInUseError
from cardtable.server.models import Joined, LeftTable, SeatAnswer
from cardtable.server.people_tables import InviteError, JoinRefused, join, peek, table_of_invite
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)

CALL_SECONDS: Final = 5.0
"""How long a call waits for the owner's answer."""
TRIES: Final = 4
"""Rounds of "here, or else on the owner" before a call gives up (503)."""


async def _peek(lobby: Lobby, args: dict[str, Any]) -> Any:
    try:
        owner = await table_of_invite(lobby, args.get("token"))
    except InviteError as exc:
        raise HTTPException(404, str(exc)) from None
    return peek(owner, int(args["profile"]))


async def _profile(lobby: Lobby, args: dict[str, Any]) -> storage.Profile:
    """The profile the call is made for (read again here: the owner may be another process)."""
    profile = await asyncio.to_thread(storage.get_profile, lobby.db, int(args["profile"]))
    if profile is None:
        raise HTTPException(401, "no such profile: load the page first")
    return profile


async def _join(lobby: Lobby, args: dict[str, Any]) -> Any:
    profile = await _profile(lobby, args)
    try:
        owner = await table_of_invite(lobby, args.get("token"))
        seat, role = await join(
            lobby,
            owner,
            profile,
            name=args.get("name"),
            seat=args.get("seat"),
            watch=bool(args.get("watch")),
            contribution=args.get("contribution"),
        )
    except InviteError as exc:
        raise HTTPException(404, str(exc)) from None
    except JoinRefused as exc:
        raise HTTPException(exc.status, str(exc)) from None
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    return Joined(table_id=owner.table_id, seat=seat, role=role).model_dump(mode="json")  # type: ignore[arg-type]


async def _close(lobby: Lobby, args: dict[str, Any]) -> Any:
    table_id = str(args["table_id"])
    try:
        closed = await lobby.close(table_id, int(args["profile"]))
    except NotAllowedError as exc:
        raise HTTPException(403, str(exc)) from None
    except TableInUseError as exc:
        raise HTTPException(409, str(exc)) from None
    if closed is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return LeftTable(table_id=closed.table_id, status=closed.status).model_dump(mode="json")  # type: ignore[arg-type]


async def _seat(lobby: Lobby, args: dict[str, Any]) -> Any:
    table_id = str(args["table_id"])
    profile = await _profile(lobby, args)
    try:
        seat = await lobby.join(table_id, profile)
    except NotAllowedError as exc:
        raise HTTPException(403, str(exc)) from None
    except CardtableError as exc:
        raise HTTPException(409, str(exc)) from None
    if seat is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return SeatAnswer(table_id=table_id, seat=seat).model_dump(mode="json")


CALLS: Final[dict[str, Callable[[Lobby, dict[str, Any]], Awaitable[Any]]]] = {
    "peek": _peek,
    "join": _join,
    "close": _close,
    "seat": _seat,
}


async def run(lobby: Lobby, name: str, args: dict[str, Any]) -> Any:
    """Run a call here (its JSON answer); ``HTTPException`` for a refusal,
    :class:`TableElsewhereError` when another process owns the table."""
    call = CALLS.get(name)
    if call is None:
        raise HTTPException(400, f"unknown call {name!r}")
    return await call(lobby, args)


async def answer(lobby: Lobby, name: str, args: dict[str, Any]) -> tuple[int, Any]:
    """The owner's side of a relayed call: its HTTP status and JSON body."""
    try:
        return 200, await run(lobby, name, args)
    except HTTPException as exc:
        return exc.status_code, exc.detail
    except TableElsewhereError:
        return NOT_HERE, None
    except StorageError as exc:
        return 503, str(exc)
    except Exception:  # the caller must get an answer whatever went wrong here
        logger.exception("the call %r failed", name)
        return 500, "the server could not handle that request"


async def at_owner(lobby: Lobby, relay: Relay | None, name: str, args: dict[str, Any]) -> Any:
    """Run a call on the table's owner, this process or another (see the module docstring):
    its JSON answer, ``HTTPException`` for a refusal, :class:`StorageError` when no process
    could answer."""
    pause = lobby.settings.lease_seconds / 2
    for attempt in range(TRIES):
        try:
            return await run(lobby, name, args)
        except TableElsewhereError as elsewhere:
            if relay is None:
                raise
            table_id = elsewhere.table_id
        try:
            status, body = await relay.call(table_id, name, args, CALL_SECONDS)
        except ConnectionError as exc:
            raise StorageError(
                "the server's coordination service (Redis) could not be reached; try again "
                "in a moment"
            ) from exc
        except TimeoutError:  # the owner is gone: its lease lapses soon, then this one takes it
            if attempt + 1 < TRIES:
                await asyncio.sleep(pause)
            continue
        if status == NOT_HERE:
            continue
        if status != 200:
            raise HTTPException(status, body)
        return body
    raise StorageError("the table's server process did not answer; try again in a moment")
