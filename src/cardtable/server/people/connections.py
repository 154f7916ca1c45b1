"""A people's table's presence as sockets open and close: a person back, a person whose last
socket closed (their grace period, then a computer player moving for them), a table loaded
again from storage (every person disconnected until their page connects again, the turn timer
going on where it was), and the room stored after such changes.

Runs on the table owner's event loop; the grace tasks sleep outside the table's lock, then
check under it that the person did not come back meanwhile.
"""

from __future__ import annotations

import asyncio
import logging

from cardtable.server.people.part import (
    cancel,
    clock_time,
    people_of,
    presence_of,
    room_of,
    seconds,
    spawn,
    wall_time,
)
from cardtable.server.people.room import PLAYING
from cardtable.server.people.turns import time_out, timed, track_turn
from cardtable.server.protocol.messages import AwayMessage, away_message
from cardtable.server.table.owner import Connection, TableOwner
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)


async def save_room(owner: TableOwner) -> None:
    """Store the room (after a change of members, seats, phase or away counts)."""
    room = room_of(owner)
    # The next move stores its room again, and so does the next after a move being stored
    # now: this write may land after that move's and hold the room from before it.
    people = people_of(owner)
    people.stored_room = people.pending_room = None
    await owner.services.store.save_room(owner.setup.table_id, room.phase, room.to_json())


async def _save_later(owner: TableOwner) -> None:
    """Store the room from a task of its own: a refusal is logged (the database is away, the
    table passed to another process, which the log store has already acted on, or the server
    is stopping)."""
    try:
        await save_room(owner)
    except StorageError as exc:
        logger.warning("table %s: the room could not be stored: %s", owner.setup.table_id, exc)
    except RuntimeError as exc:  # the store's writer has stopped: the server is stopping
        logger.info("table %s: the room was not stored at shutdown: %s", owner.setup.table_id, exc)


def connection_opened(owner: TableOwner, seat: int) -> list[AwayMessage]:
    """A member's socket opened at ``seat`` (the lock is held): a disconnected person is back,
    and a person whose grace ran out reclaims the seat at once. The extra messages for the new
    socket (how many moves were played for them)."""
    room = room_of(owner)
    if seat < 0:
        return []
    presence_of(owner).disconnected_at.pop(seat, None)
    cancel(owner, f"grace:{seat}")
    extra: list[AwayMessage] = []
    changed = room.disconnected.pop(seat, None) is not None
    if seat in room.away:
        room.away.discard(seat)
        moves = room.away_moves.pop(seat, 0)
        if moves:
            extra.append(away_message(moves))
        changed = True
        track_turn(owner)
    if changed:
        spawn(owner, "save", _save_later(owner))
    return extra


def connection_closed(owner: TableOwner, seat: int, connection: Connection) -> None:
    """A socket closed: when it was the person's last, their grace period starts (playing)."""
    presence_of(owner).profiles.pop(connection, None)
    room = room_of(owner)
    if presence_of(
        owner
    ).retired:  # another process serves the table now: its presence is that one's
        return
    if (
        seat >= 0
        and room.phase == PLAYING
        and not owner.finished
        and not owner.connected(seat)
        and room.person_at(seat) is not None
        and seat not in room.away
        and seat not in room.left
    ):
        since = owner.services.clock()
        presence_of(owner).disconnected_at[seat] = since
        room.disconnected[seat] = wall_time(owner, since)
        wait = seconds(owner, room.settings.grace_seconds)
        spawn(owner, f"grace:{seat}", _grace(owner, seat, since, wait))
        spawn(owner, "save", _save_later(owner))
    spawn(owner, "presence", owner.broadcast_room())


def resume(owner: TableOwner) -> None:
    """A playing people's table just loaded from storage: every person is disconnected (their
    sockets open again in a moment, or the grace runs out). The grace of a person already
    absent goes on from when their last socket closed; the others', connected to the process
    that served the table before, starts now. The turn timer goes on where it was."""
    room = room_of(owner)
    if room.phase != PLAYING or owner.finished:
        return
    now = owner.services.clock()
    grace = seconds(owner, room.settings.grace_seconds)
    fresh = False
    for seat in room.seated():
        if seat in room.away or seat in room.left:
            continue
        stored = room.disconnected.get(seat)
        if stored is None:
            since = now
            room.disconnected[seat] = wall_time(owner, now)
            fresh = True
        else:
            since = min(now, clock_time(owner, stored))
        presence_of(owner).disconnected_at[seat] = since
        wait = max(0.0, grace - (now - since))
        spawn(owner, f"grace:{seat}", _grace(owner, seat, since, wait))
    _restore_turn(owner)
    if fresh:
        spawn(owner, "save", _save_later(owner))


def _restore_turn(owner: TableOwner) -> None:
    """Go on with the stored turn timer when the same person's turn is still running (no
    other seat moved since it started); else start the timer as after any change."""
    room = room_of(owner)
    stored = room.turn
    turn_seconds = room.settings.turn_seconds
    if stored is None or turn_seconds is None:
        track_turn(owner)
        return
    seat, version, started_at = stored
    to_move = owner.setup.engine.current_player(owner.state)
    same = (
        seat == to_move
        and version <= owner.version
        and all(actor == seat for actor, _notation in owner.log[version:])
    )
    if not same or not timed(owner, to_move):
        track_turn(owner)
        return
    started = min(owner.services.clock(), clock_time(owner, started_at))
    turn = (seat, started, version)
    presence_of(owner).turn = turn
    room.banks_ms.setdefault(seat, round(seconds(owner, room.settings.bank_seconds) * 1000))
    total = seconds(owner, turn_seconds) + room.banks_ms[seat] / 1000
    spawn(
        owner, "turn", time_out(owner, turn, max(0.0, total - (owner.services.clock() - started)))
    )


async def _grace(owner: TableOwner, seat: int, since: float, wait: float) -> None:
    await asyncio.sleep(wait)
    async with owner.lock:
        room = room_of(owner)
        if (
            presence_of(owner).disconnected_at.get(seat) != since
            or owner.connected(seat)
            or room.phase != PLAYING
            or owner.finished
        ):
            return
        room.away.add(seat)
        room.away_moves.setdefault(seat, 0)
        presence_of(owner).disconnected_at.pop(seat, None)
        room.disconnected.pop(seat, None)
        track_turn(owner)
        await save_room(owner)
        await owner.broadcast_room()
    owner.wake_bots()
