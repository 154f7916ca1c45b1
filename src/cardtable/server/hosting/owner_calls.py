"""Requests that only a table's owner may answer, from whichever process received them: looking
at an invite, joining with it, taking a seat at a table, closing a table.

Each is a named call with JSON arguments, run by :func:`run` on the process that owns the table
(it changes the table's room under the table's lock, so only one process may). A process that
receives such a request and does not own the table (:class:`TableElsewhereError`) hands the call
to the owner through the relay (:meth:`cardtable.server.cluster.relay.Relay.call`) and answers
with what the owner answered; when no owner answers (its process died and its lease has not
lapsed yet) it tries again, taking the table over itself as soon as the lease is free. A lone
server holds every table's lease itself, so it runs every call itself, through the same code.

A call answers with its JSON result or refuses with :class:`CallRefused`, a domain error whose
:class:`Refusal` says why (no such invite, not allowed, a conflict...); a refusal crosses the
relay as its reason and sentence and is raised again on the asking side. This layer knows
nothing of HTTP: the web app turns a refusal into a status code at its edge
(:func:`cardtable.server.routes.boundary.install_error_handlers`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from enum import StrEnum
from typing import Any, Final

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.server.cluster.relay import NOT_HERE, Relay
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.hosting.lobby import Lobby, NotAllowedError, TableInUseError
from cardtable.server.people.tables import InviteError, JoinRefused, join, peek, table_of_invite
from cardtable.server.routes.models import Joined, LeftTable, SeatAnswer
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)

CALL_SECONDS: Final = 5.0
"""How long a call waits for the owner's answer."""
TRIES: Final = 4
"""Rounds of "here, or else on the owner" before a call gives up (:class:`StorageError`)."""

# How an owner's answer crosses the relay: (one of these, JSON body). ``NOT_HERE`` (0) is the
# relay's own: the process reached no longer owns the table.
ANSWERED: Final = 1
"""The call ran; the body is its JSON result."""
REFUSED: Final = 2
"""The call was refused; the body is ``{"reason": Refusal, "message": sentence}``."""
UNAVAILABLE: Final = 3
"""The owner's storage failed; the body is the sentence."""
COULD_NOT: Final = "the server could not handle that request"


class Refusal(StrEnum):
    """Why an owner call was refused (the value crosses the relay)."""

    NOT_FOUND = "not-found"
    NO_PROFILE = "no-profile"
    NOT_ALLOWED = "not-allowed"
    CONFLICT = "conflict"
    BAD_INPUT = "bad-input"
    FAILED = "failed"
    """Something unforeseen went wrong on the owner (logged there)."""


class CallRefused(CardtableError):
    """An owner call refused, with the reason and a sentence for the person."""

    def __init__(self, reason: Refusal, message: str) -> None:
        super().__init__(message)
        self.reason = reason


async def _peek(lobby: Lobby, args: dict[str, Any]) -> Any:
    try:
        owner = await table_of_invite(lobby, args.get("token"))
    except InviteError as exc:
        raise CallRefused(Refusal.NOT_FOUND, str(exc)) from None
    return peek(owner, int(args["profile"]))


async def _profile(lobby: Lobby, args: dict[str, Any]) -> storage.Profile:
    """The profile the call is made for (read again here: the owner may be another process)."""
    profile = await asyncio.to_thread(storage.get_profile, lobby.db, int(args["profile"]))
    if profile is None:
        raise CallRefused(Refusal.NO_PROFILE, "no such profile: load the page first")
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
        raise CallRefused(Refusal.NOT_FOUND, str(exc)) from None
    except StorageError:
        raise  # the owner's trouble, not the caller's input
    except JoinRefused as exc:
        reason = Refusal.NOT_ALLOWED if exc.status == 403 else Refusal.CONFLICT
        raise CallRefused(reason, str(exc)) from None
    except CardtableError as exc:
        raise CallRefused(Refusal.BAD_INPUT, str(exc)) from None
    return Joined(table_id=owner.setup.table_id, seat=seat, role=role).model_dump(mode="json")  # type: ignore[arg-type]


async def _close(lobby: Lobby, args: dict[str, Any]) -> Any:
    table_id = str(args["table_id"])
    try:
        closed = await lobby.close(table_id, int(args["profile"]))
    except NotAllowedError as exc:
        raise CallRefused(Refusal.NOT_ALLOWED, str(exc)) from None
    except TableInUseError as exc:
        raise CallRefused(Refusal.CONFLICT, str(exc)) from None
    if closed is None:
        raise CallRefused(Refusal.NOT_FOUND, f"there is no table {table_id!r}")
    return LeftTable(table_id=closed.setup.table_id, status=closed.status).model_dump(mode="json")  # type: ignore[arg-type]


async def _seat(lobby: Lobby, args: dict[str, Any]) -> Any:
    table_id = str(args["table_id"])
    profile = await _profile(lobby, args)
    try:
        seat = await lobby.join(table_id, profile)
    except NotAllowedError as exc:
        raise CallRefused(Refusal.NOT_ALLOWED, str(exc)) from None
    except StorageError:
        raise  # the table is elsewhere, or the database failed: not a conflict
    except CardtableError as exc:
        raise CallRefused(Refusal.CONFLICT, str(exc)) from None
    if seat is None:
        raise CallRefused(Refusal.NOT_FOUND, f"there is no table {table_id!r}")
    return SeatAnswer(table_id=table_id, seat=seat).model_dump(mode="json")


CALLS: Final[dict[str, Callable[[Lobby, dict[str, Any]], Awaitable[Any]]]] = {
    "peek": _peek,
    "join": _join,
    "close": _close,
    "seat": _seat,
}


async def run(lobby: Lobby, name: str, args: dict[str, Any]) -> Any:
    """Run a call here (its JSON answer); :class:`CallRefused` for a refusal,
    :class:`TableElsewhereError` when another process owns the table."""
    call = CALLS.get(name)
    if call is None:
        raise CallRefused(Refusal.BAD_INPUT, f"unknown call {name!r}")
    return await call(lobby, args)


async def answer(lobby: Lobby, name: str, args: dict[str, Any]) -> tuple[int, Any]:
    """The owner's side of a relayed call: how it went (:data:`ANSWERED`, :data:`REFUSED`,
    :data:`UNAVAILABLE` or the relay's ``NOT_HERE``) and the JSON body."""
    try:
        return ANSWERED, await run(lobby, name, args)
    except CallRefused as exc:
        return REFUSED, {"reason": exc.reason.value, "message": str(exc)}
    except TableElsewhereError:
        return NOT_HERE, None
    except StorageError as exc:
        return UNAVAILABLE, str(exc)
    except Exception:  # the caller must get an answer whatever went wrong here
        logger.exception("the call %r failed", name)
        return REFUSED, {"reason": Refusal.FAILED.value, "message": COULD_NOT}


def _refusal(body: Any) -> CallRefused:
    """The refusal an owner sent, raised again here (an unreadable one as a failure)."""
    try:
        return CallRefused(Refusal(body["reason"]), str(body["message"]))
    except (KeyError, TypeError, ValueError):
        return CallRefused(Refusal.FAILED, COULD_NOT)


async def at_owner(lobby: Lobby, relay: Relay, name: str, args: dict[str, Any]) -> Any:
    """Run a call on the table's owner, this process or another (see the module docstring):
    its JSON answer, :class:`CallRefused` for a refusal, :class:`StorageError` when no process
    (or no storage) could answer."""
    pause = lobby.settings.lease_seconds / 2
    for attempt in range(TRIES):
        try:
            return await run(lobby, name, args)
        except TableElsewhereError as elsewhere:
            table_id = elsewhere.table_id
        try:
            status, body = await relay.call(table_id, name, args, CALL_SECONDS)
        except ConnectionError as exc:
            raise StorageError(
                "the server's coordination service could not be reached; try again in a moment"
            ) from exc
        except TimeoutError:  # the owner is gone: its lease lapses soon, then this one takes it
            if attempt + 1 < TRIES:
                await asyncio.sleep(pause)
            continue
        if status == NOT_HERE:
            continue
        if status == REFUSED:
            raise _refusal(body)
        if status == UNAVAILABLE:
            raise StorageError(str(body))
        return body
    raise StorageError("the table's server process did not answer; try again in a moment")
