"""A people's table's moves and turn timer: the room after a move (stored with it when the move
changed it), what follows a stored move (moves counted for a person, the client id
remembered), and the turn timer with each person's time bank, a computer player finishing the
turn of a person whose time ran out.

Runs on the table owner's event loop under its lock: the timer's task sleeps outside it, then
checks under it that the turn it was started for is still running before acting.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from cardtable.games.contract import TERMINAL
from cardtable.server.people.part import (
    cancel,
    people_of,
    presence_of,
    room_of,
    seconds,
    spawn,
    wall_time,
)
from cardtable.server.people.room import FINISHED, PLAYING, Room, RoomAfterMove
from cardtable.server.protocol.messages import AutoReason
from cardtable.server.table.owner import TableOwner

logger = logging.getLogger(__name__)


def room_after_move(
    owner: TableOwner,
    after: Any,
    seat: int,
    auto: AutoReason | None,
    client_id: str | None,
    now: float,
) -> RoomAfterMove:
    """The room's phase and document as they will be once the move leading to ``after`` is
    applied at ``now`` on the table's clock (the lock is held; the room itself is left as it
    is). Stored by the move's own write: a process taking the table over after it finds the
    turn timer and time banks that go with the log, whenever the owner stopped."""
    people = people_of(owner)
    room = people.room.move_copy()
    count_move(room, seat, auto)
    over = over_at(owner, after)
    people.over_after = (after, over)  # the same question again once applied
    turn_after(owner, room, after, owner.version + 1, over, now)
    if over and room.phase == PLAYING:
        room.phase = FINISHED
    # The move's client id goes in the move's own row, in the same write; a table loaded again
    # remembers the client ids of its stored moves, so the room's are not stored again here.
    document = room.to_json(client_ids=False)
    people.pending_room = document
    # Most moves change nothing in the room (no timer, or the same person's turn going on):
    # the document stored with an earlier move still holds, and rewriting it is the larger
    # part of the move's write.
    return RoomAfterMove(room.phase, document, unchanged=document == people.stored_room)


def move_applied(
    owner: TableOwner, seat: int, auto: AutoReason | None, client_id: str | None, now: float
) -> None:
    """After a stored move, the table's state now the new one (the lock is held): the room
    changes as :func:`room_after_move` said it would (the move's client id remembered: only
    once stored, as a move the database refused was not applied), and the turn timer
    follows."""
    people = people_of(owner)
    room = people.room
    people.stored_room, people.pending_room = people.pending_room, None
    people.last_auto = None if auto is None else (owner.version, auto)
    people.last_client = None if client_id is None else (owner.version, client_id)
    count_move(room, seat, auto)
    if client_id is not None:
        room.remember(seat, client_id)
    current = people.presence.turn
    known, people.over_after = people.over_after, None
    over = known[1] if known is not None and known[0] is owner.state else None
    if over is None:
        over = over_at(owner, owner.state)
    turn = turn_after(owner, room, owner.state, owner.version, over, now)
    _keep_stored_turn(room, people.stored_room)
    if over and room.phase == PLAYING:
        room.phase = FINISHED
    run_turn(owner, current, turn)


def _keep_stored_turn(room: Room, stored: dict[str, Any] | None) -> None:
    """The turn as the move stored it: the wall time of the same moment, worked out again,
    can differ in its last digits, and the room in memory is to be the stored one (so that
    the next move can tell it unchanged)."""
    kept = None if stored is None else stored.get("turn")
    if room.turn is not None and kept is not None and tuple(kept[:2]) == room.turn[:2]:
        room.turn = (room.turn[0], room.turn[1], float(kept[2]))


def over_at(owner: TableOwner, state: Any) -> bool:
    """Whether the table is over once at ``state`` (as the owner will mark it just after)."""
    return (
        owner.status != PLAYING
        or owner.setup.engine.current_player(state) == TERMINAL
        or owner.setup.engine.result(state) is not None
    )


def count_move(room: Room, seat: int, auto: AutoReason | None) -> None:
    """Count a move a computer player made for a person."""
    if auto is None:
        return
    room.assisted.add(seat)
    if auto == "away":
        room.away_moves[seat] = room.away_moves.get(seat, 0) + 1


def track_turn(owner: TableOwner) -> None:
    """Start, keep or stop the turn timer after a change (the lock is held)."""
    current = presence_of(owner).turn
    turn = turn_after(
        owner, room_of(owner), owner.state, owner.version, owner.finished, owner.services.clock()
    )
    run_turn(owner, current, turn)


def turn_after(
    owner: TableOwner, room: Room, state: Any, version: int, over: bool, now: float
) -> tuple[int, float, int] | None:
    """The turn the timer runs for once the table is at ``state`` (move ``version``) at
    ``now``: the running one when the same person is still to move, else a new one, or none.
    Only ``room`` changes (an ended turn's overtime taken from the bank, the turn as stored);
    no task is started or stopped."""
    current = presence_of(owner).turn
    if room.settings.turn_seconds is None or room.phase != PLAYING or over:
        if current is not None:
            settle(owner, room, current, now)
        room.turn = None
        return None
    to_move = owner.setup.engine.current_player(state)
    runs = timed(owner, to_move)
    if current is not None and current[0] == to_move and runs:
        return current  # the same person's turn goes on (a draw, then a discard)
    if current is not None:
        settle(owner, room, current, now)
    if not runs:
        room.turn = None
        return None
    room.turn = (to_move, version, wall_time(owner, now))
    room.banks_ms.setdefault(to_move, round(seconds(owner, room.settings.bank_seconds) * 1000))
    return (to_move, now, version)


def run_turn(
    owner: TableOwner, current: tuple[int, float, int] | None, turn: tuple[int, float, int] | None
) -> None:
    """Run the timer of ``turn`` (replacing the one of ``current``, unless it goes on)."""
    if turn is not None and turn is current:
        return
    presence_of(owner).turn = turn
    cancel(owner, "turn")
    if turn is None:
        return
    room = room_of(owner)
    assert room.settings.turn_seconds is not None
    wait = seconds(owner, room.settings.turn_seconds) + room.banks_ms[turn[0]] / 1000
    spawn(owner, "turn", time_out(owner, turn, wait))


def timed(owner: TableOwner, seat: int) -> bool:
    """Whether a turn of ``seat`` runs the timer: a person's, not a computer player's."""
    room = room_of(owner)
    return seat >= 0 and not owner.bot_seat(seat) and room.person_at(seat) is not None


def settle(owner: TableOwner, room: Room, turn: tuple[int, float, int], now: float) -> None:
    """A turn ended: take the time beyond the turn's own from the person's bank."""
    assert room.settings.turn_seconds is not None
    seat, started, _version = turn
    over = (now - started) - seconds(owner, room.settings.turn_seconds)
    if over > 0 and seat in room.banks_ms:
        room.banks_ms[seat] = max(0, room.banks_ms[seat] - round(over * 1000))


async def time_out(owner: TableOwner, turn: tuple[int, float, int], wait: float) -> None:
    await asyncio.sleep(wait)
    async with owner.lock:
        if presence_of(owner).turn != turn or owner.finished:
            return
        room = room_of(owner)
        seat = turn[0]
        room.banks_ms[seat] = 0
        # The computer player finishes the person's turn (a draw and a discard, say).
        while (
            not owner.finished
            and owner.setup.engine.current_player(owner.state) == seat
            and not owner.bot_seat(seat)
        ):
            try:
                await owner.bots.move(owner, seat, auto="timeout")
            except Exception:
                logger.exception(
                    "table %s: the move for timed-out seat %d failed", owner.setup.table_id, seat
                )
                return
    owner.wake_bots()
