"""The people's part of a people's table (:class:`PeoplesTable`, the table core's
:class:`~cardtable.server.table.owner.PeopleHooks`): its room, presence (who is connected, the
grace period of a person whose last socket closed), the turn timer with its time bank, and the
room as each member is sent it. The core calls it through its hooks; it holds what the core
does not (the room, the presence, the timers), and asks the core only through its methods.

Everything here runs on the table owner's event loop and changes the table only under its
lock: the grace and timer tasks sleep outside it, then check under it that nothing moved
meanwhile (the person came back, the turn ended) before acting. A computer player moving for
a person goes through the owner's checked apply like every other move.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from cardtable.games.contract import TERMINAL, view_rules_json
from cardtable.registry import format_fields
from cardtable.server.people.room import (
    FINISHED,
    PLAYING,
    WAITING,
    Member,
    Room,
    RoomAfterMove,
    RoomSettings,
    RoomSettingsJson,
    TablePhase,
    invite_json,
)
from cardtable.server.protocol.messages import (
    AutoReason,
    AwayMessage,
    BotSeatJson,
    JsonObject,
    LastAction,
    OpenSeatJson,
    PersonSeatJson,
    RematchJson,
    RoomJson,
    SharedRoomJson,
    TurnJson,
    YouJson,
    away_message,
)
from cardtable.server.table.owner import SPECTATORS, Connection, TableOwner
from cardtable.storage import StorageError

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class Presence:
    """What only the running process knows about the people at a table: which profile is
    behind each connection, when each person's last socket closed, the running turn (seat,
    when it started, the version it started at), the timer tasks, and whether another
    process serves the table now."""

    profiles: dict[Connection, int] = field(default_factory=dict)
    """The profile behind each connection, by connection."""
    disconnected_at: dict[int, float] = field(default_factory=dict)
    turn: tuple[int, float, int] | None = None
    """``(seat, started, version)`` of the turn the timer runs for."""
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    """The grace, turn and room-saving tasks, by name."""
    retired: bool = False
    """Another process of a cluster serves the table now: this copy starts no timers."""


AUTO_SENTENCES: dict[AutoReason, str] = {
    "timeout": "Time ran out for {name}: the computer player moved for them.",
    "away": "{name} is away: the computer player moved for them.",
    "left": "{name} left: the computer player moved for them.",
}


def people_of(owner: TableOwner) -> PeoplesTable:
    """The people's part of a people's table (only called for people's tables)."""
    people = owner.people
    assert isinstance(people, PeoplesTable)
    return people


def room_of(owner: TableOwner) -> Room:
    """The room of a people's table."""
    return people_of(owner).room


def presence_of(owner: TableOwner) -> Presence:
    """The presence at a people's table."""
    return people_of(owner).presence


def seconds(owner: TableOwner, value: float) -> float:
    """A setting's seconds on this table's clock (tests shorten them)."""
    return value * people_of(owner).time_scale


def wall_time(owner: TableOwner, moment: float) -> float:
    """A moment of the table's clock in seconds since the epoch (as stored: another process's
    clock is another)."""
    return time.time() - (owner.services.clock() - moment)


def clock_time(owner: TableOwner, stored: float) -> float:
    """A stored moment (seconds since the epoch) on the table's clock."""
    return owner.services.clock() - (time.time() - stored)


# --- the room as sent ---------------------------------------------------------------------------


def phase_of(owner: TableOwner) -> TablePhase:
    """``waiting``, ``playing``, ``finished`` or ``abandoned``."""
    room = room_of(owner)
    if owner.status not in ("playing", FINISHED):
        return "abandoned"  # the only other status a table has
    if room.phase == WAITING:
        return WAITING
    return FINISHED if owner.finished else PLAYING


def open_seats(owner: TableOwner) -> list[int]:
    """Seats waiting for a person (waiting room only)."""
    room = room_of(owner)
    if room.phase != WAITING:
        return []
    return [
        seat
        for seat, spec in enumerate(owner.seats)
        if not spec.is_bot and room.person_at(seat) is None
    ]


def room_json(owner: TableOwner, viewer: int, shared: SharedRoomJson | None = None) -> RoomJson:
    """The room as the member at ``viewer`` (a seat, or the spectators) is sent it; ``shared``
    is :func:`shared_room_json` when the caller built it already (one broadcast builds it
    once for every seat)."""
    base = shared if shared is not None else shared_room_json(owner)
    you = you_json(owner, viewer)
    if you["host"]:
        # The host's seat alone: the link changes when the host removes somebody.

        return {**base, "invite": invite_json(room_of(owner).invite), "you": you}
    return {**base, "you": you}


def you_json(owner: TableOwner, viewer: int) -> YouJson:
    """The part of the room that depends on who it is sent to: the viewer's seat and role."""
    if viewer == SPECTATORS:
        return {"seat": None, "role": "spectator", "host": False}
    room = room_of(owner)
    person = room.person_at(viewer)
    return {
        "seat": viewer,
        "role": "player",
        "host": person is not None and person.profile_id == room.host,
    }


def shared_room_json(owner: TableOwner) -> SharedRoomJson:
    """The room as every member is sent it, but for ``you`` (:func:`you_json`) and the
    host's ``invite``."""
    people = people_of(owner)
    room = people.room
    now = owner.services.clock()
    phase = phase_of(owner)
    head = people.head(owner)
    presence = people.presence
    # Who sits where, read once (not a scan of the members per seat).
    at: dict[int, Member] = {m.seat: m for m in room.members.values() if m.seat is not None}
    timed = room.settings.turn_seconds is not None
    seats: list[BotSeatJson | OpenSeatJson | PersonSeatJson] = []
    for index, spec in enumerate(owner.seats):
        person = at.get(index)
        if spec.is_bot:
            seats.append({"seat": index, "kind": "bot", "name": spec.name, "level": spec.level})
            continue
        if person is None and room.phase == WAITING:
            seats.append({"seat": index, "kind": "open"})
            continue
        reconnecting = None
        since = presence.disconnected_at.get(index)
        if phase == PLAYING and since is not None and index not in room.away:
            left_s = seconds(owner, room.settings.grace_seconds) - (now - since)
            reconnecting = max(0, round(left_s * 1000))
        seats.append(
            {
                "seat": index,
                "kind": "person",
                "name": spec.name,
                "host": person is not None and person.profile_id == room.host,
                "connected": owner.connected(index),
                "reconnecting_ms": reconnecting,
                "away": index in room.away,
                "left": index in room.left or (person is None and room.phase != WAITING),
                "bank_ms": bank_left(owner, index, now) if timed else None,
            }
        )
    host_seat = next((seat for seat, m in at.items() if m.profile_id == room.host), None)
    return {
        "table_id": head.table_id,
        "phase": phase,
        "game": head.game,
        "title": head.title,
        "format": head.format,
        "table_label": head.table_label,
        # The same dict for equal rules (never changed): the room goes with every state.
        "rules": head.rules,
        "host_seat": host_seat,
        "settings": people.settings_json(),
        "seats": seats,
        "spectators": len(room.members) - len(at),
        "turn": turn_json(owner, now),
        "rematch": rematch_json(owner) if phase == FINISHED else None,
        "commitment": room.commitment,
        "can_start": room.phase == WAITING and not open_seats(owner),
        "locked": room.locked,
    }


@dataclass(frozen=True, slots=True)
class RoomHead:
    """What the room says of the table that only changes with its setup (game, rules,
    format, number of seats): worked out once, not for every broadcast. Its ``rules`` dict
    is shared by every room sent (never changed)."""

    setup: object
    players: int
    table_id: str
    game: str
    title: str
    format: str | None
    table_label: str
    rules: JsonObject

    @classmethod
    def of(cls, owner: TableOwner) -> RoomHead:
        """The head of ``owner``'s room as its setup is now."""
        setup = owner.setup
        shown = format_fields(setup.game, setup.rules, len(owner.seats))
        return cls(
            setup,
            len(owner.seats),
            setup.table_id,
            setup.game,
            setup.engine.title,
            shown["format"],
            shown["table_label"],
            view_rules_json(setup.rules),
        )


def bank_left(owner: TableOwner, seat: int, now: float) -> int:
    """Milliseconds of ``seat``'s time bank left now (its running turn counted)."""
    room = room_of(owner)
    bank = room.banks_ms.get(seat, round(seconds(owner, room.settings.bank_seconds) * 1000))
    turn = presence_of(owner).turn
    if turn is not None and turn[0] == seat and room.settings.turn_seconds is not None:
        over = (now - turn[1]) - seconds(owner, room.settings.turn_seconds)
        if over > 0:
            bank -= round(over * 1000)
    return max(0, bank)


def turn_json(owner: TableOwner, now: float) -> TurnJson | None:
    """The running turn timer, or ``None``."""
    room = room_of(owner)
    turn = presence_of(owner).turn
    if turn is None or room.settings.turn_seconds is None:
        return None
    seat, started, _version = turn
    own = seconds(owner, room.settings.turn_seconds) - (now - started)
    return {
        "seat": seat,
        "remaining_ms": max(0, round(own * 1000)),
        "bank_ms": bank_left(owner, seat, now),
    }


def rematch_json(owner: TableOwner) -> RematchJson:
    """Who accepted, declined, or has not answered the rematch yet."""
    room = room_of(owner)
    people = sorted(room.seated())
    return {
        "accepted": [s for s in people if room.rematch.get(s) is True],
        "declined": [s for s in people if room.rematch.get(s) is False],
        "waiting": [s for s in people if s not in room.rematch],
        "table_id": room.rematch_table,
    }


# --- storing ------------------------------------------------------------------------------------


async def save_room(owner: TableOwner) -> None:
    """Store the room (after a change of members, seats, phase or away counts)."""
    room = room_of(owner)
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


# --- connections --------------------------------------------------------------------------------


def connection_opened(owner: TableOwner, seat: int) -> list[AwayMessage]:
    """A member's socket opened at ``seat`` (the lock is held): a disconnected person is back,
    and a person whose grace ran out reclaims the seat at once. The extra messages for the new
    socket (how many moves were played for them)."""
    room = room_of(owner)
    if seat < 0:
        return []
    presence_of(owner).disconnected_at.pop(seat, None)
    _cancel(owner, f"grace:{seat}")
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
        _spawn(owner, "save", _save_later(owner))
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
        _spawn(owner, f"grace:{seat}", _grace(owner, seat, since, wait))
        _spawn(owner, "save", _save_later(owner))
    _spawn(owner, "presence", owner.broadcast_room())


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
        _spawn(owner, f"grace:{seat}", _grace(owner, seat, since, wait))
    _restore_turn(owner)
    if fresh:
        _spawn(owner, "save", _save_later(owner))


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
    if not same or not _timed(owner, to_move):
        track_turn(owner)
        return
    started = min(owner.services.clock(), clock_time(owner, started_at))
    turn = (seat, started, version)
    presence_of(owner).turn = turn
    room.banks_ms.setdefault(seat, round(seconds(owner, room.settings.bank_seconds) * 1000))
    total = seconds(owner, turn_seconds) + room.banks_ms[seat] / 1000
    _spawn(
        owner, "turn", _time_out(owner, turn, max(0.0, total - (owner.services.clock() - started)))
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


# --- moves and the turn timer -------------------------------------------------------------------


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
    _count_move(room, seat, auto)
    over = _over(owner, after)
    people.over_after = (after, over)  # the same question again once applied
    _turn_after(owner, room, after, owner.version + 1, over, now)
    if over and room.phase == PLAYING:
        room.phase = FINISHED
    # The move's client id goes in the move's own row, in the same write; a table loaded again
    # remembers the client ids of its stored moves, so the room's are not stored again here.
    return RoomAfterMove(room.phase, room.to_json(client_ids=False))


def move_applied(
    owner: TableOwner, seat: int, auto: AutoReason | None, client_id: str | None, now: float
) -> None:
    """After a stored move, the table's state now the new one (the lock is held): the room
    changes as :func:`room_after_move` said it would (the move's client id remembered: only
    once stored, as a move the database refused was not applied), and the turn timer
    follows."""
    people = people_of(owner)
    room = people.room
    people.last_auto = None if auto is None else (owner.version, auto)
    people.last_client = None if client_id is None else (owner.version, client_id)
    _count_move(room, seat, auto)
    if client_id is not None:
        room.remember(seat, client_id)
    current = people.presence.turn
    known, people.over_after = people.over_after, None
    over = known[1] if known is not None and known[0] is owner.state else _over(owner, owner.state)
    turn = _turn_after(owner, room, owner.state, owner.version, over, now)
    if over and room.phase == PLAYING:
        room.phase = FINISHED
    _run_turn(owner, current, turn)


def _over(owner: TableOwner, state: Any) -> bool:
    """Whether the table is over once at ``state`` (as the owner will mark it just after)."""
    return (
        owner.status != PLAYING
        or owner.setup.engine.current_player(state) == TERMINAL
        or owner.setup.engine.result(state) is not None
    )


def _count_move(room: Room, seat: int, auto: AutoReason | None) -> None:
    """Count a move a computer player made for a person."""
    if auto is None:
        return
    room.assisted.add(seat)
    if auto == "away":
        room.away_moves[seat] = room.away_moves.get(seat, 0) + 1


def track_turn(owner: TableOwner) -> None:
    """Start, keep or stop the turn timer after a change (the lock is held)."""
    current = presence_of(owner).turn
    turn = _turn_after(
        owner, room_of(owner), owner.state, owner.version, owner.finished, owner.services.clock()
    )
    _run_turn(owner, current, turn)


def _turn_after(
    owner: TableOwner, room: Room, state: Any, version: int, over: bool, now: float
) -> tuple[int, float, int] | None:
    """The turn the timer runs for once the table is at ``state`` (move ``version``) at
    ``now``: the running one when the same person is still to move, else a new one, or none.
    Only ``room`` changes (an ended turn's overtime taken from the bank, the turn as stored);
    no task is started or stopped."""
    current = presence_of(owner).turn
    if room.settings.turn_seconds is None or room.phase != PLAYING or over:
        if current is not None:
            _settle(owner, room, current, now)
        room.turn = None
        return None
    to_move = owner.setup.engine.current_player(state)
    timed = _timed(owner, to_move)
    if current is not None and current[0] == to_move and timed:
        return current  # the same person's turn goes on (a draw, then a discard)
    if current is not None:
        _settle(owner, room, current, now)
    if not timed:
        room.turn = None
        return None
    room.turn = (to_move, version, wall_time(owner, now))
    room.banks_ms.setdefault(to_move, round(seconds(owner, room.settings.bank_seconds) * 1000))
    return (to_move, now, version)


def _run_turn(
    owner: TableOwner, current: tuple[int, float, int] | None, turn: tuple[int, float, int] | None
) -> None:
    """Run the timer of ``turn`` (replacing the one of ``current``, unless it goes on)."""
    if turn is not None and turn is current:
        return
    presence_of(owner).turn = turn
    _cancel(owner, "turn")
    if turn is None:
        return
    room = room_of(owner)
    assert room.settings.turn_seconds is not None
    wait = seconds(owner, room.settings.turn_seconds) + room.banks_ms[turn[0]] / 1000
    _spawn(owner, "turn", _time_out(owner, turn, wait))


def _timed(owner: TableOwner, seat: int) -> bool:
    """Whether a turn of ``seat`` runs the timer: a person's, not a computer player's."""
    room = room_of(owner)
    return seat >= 0 and not owner.bot_seat(seat) and room.person_at(seat) is not None


def _settle(owner: TableOwner, room: Room, turn: tuple[int, float, int], now: float) -> None:
    """A turn ended: take the time beyond the turn's own from the person's bank."""
    assert room.settings.turn_seconds is not None
    seat, started, _version = turn
    over = (now - started) - seconds(owner, room.settings.turn_seconds)
    if over > 0 and seat in room.banks_ms:
        room.banks_ms[seat] = max(0, room.banks_ms[seat] - round(over * 1000))


async def _time_out(owner: TableOwner, turn: tuple[int, float, int], wait: float) -> None:
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


# --- tasks --------------------------------------------------------------------------------------


def _spawn(owner: TableOwner, name: str, work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` beside the table under ``name`` (replacing a task of that name)."""
    _cancel(owner, name)
    presence_of(owner).timers[name] = asyncio.get_running_loop().create_task(work)


def _cancel(owner: TableOwner, name: str) -> None:
    task = presence_of(owner).timers.pop(name, None)
    if task is not None and task is not asyncio.current_task() and not task.done():
        task.cancel()


def cancel_all(owner: TableOwner) -> None:
    """Stop every timer of the table."""
    timers = presence_of(owner).timers
    for name in list(timers):
        _cancel(owner, name)
    with contextlib.suppress(Exception):
        timers.clear()


@dataclass(slots=True)
class PeoplesTable:
    """The people's part of one people's table (see the module docstring): the hooks the
    table core calls, with what they keep."""

    room: Room
    presence: Presence = field(default_factory=Presence)
    time_scale: float = 1.0
    """Multiplies every timer and grace period (tests shorten them)."""
    last_auto: tuple[int, AutoReason] | None = None
    """``(version, why)`` when a computer player made the last move for a person."""
    over_after: tuple[Any, bool] | None = None
    """``(state, over)`` of the move being stored (:func:`room_after_move`), for
    :func:`move_applied` once that state is the table's."""
    _head: RoomHead | None = None
    _settings: tuple[RoomSettings, RoomSettingsJson] | None = None
    last_client: tuple[int, str] | None = None
    """``(version, client id)`` of the last move when it was sent with a client id: the
    mover's seat is sent it with that state, as its acknowledgement."""

    def waiting(self) -> bool:
        """Whether the host has not started the game yet."""
        return self.room.phase == WAITING

    def room_json(self, owner: TableOwner, seat: int, shared: SharedRoomJson | None) -> RoomJson:
        """:func:`room_json`."""
        return room_json(owner, seat, shared)

    def shared_room(self, owner: TableOwner) -> SharedRoomJson:
        """:func:`shared_room_json`."""
        return shared_room_json(owner)

    def head(self, owner: TableOwner) -> RoomHead:
        """The room's :class:`RoomHead`, worked out again only when the table's setup (a
        new deal's seed) or its number of seats changed."""
        head = self._head
        if head is None or head.setup is not owner.setup or head.players != len(owner.seats):
            head = self._head = RoomHead.of(owner)
        return head

    def settings_json(self) -> RoomSettingsJson:
        """The room's settings as sent, the same dict (never changed) while the settings
        stay (they are frozen: the host's change replaces them)."""
        settings = self.room.settings
        cached = self._settings
        if cached is None or cached[0] is not settings:
            cached = self._settings = (settings, settings.to_json())
        return cached[1]

    def member_info(self, owner: TableOwner, profile_id: int | None) -> dict[str, Any]:
        """The room for a member (the host also gets the invite); nothing for others."""
        member = None if profile_id is None else self.room.member(profile_id)
        if member is None:
            return {}
        shared = room_json(owner, SPECTATORS if member.seat is None else member.seat)
        if profile_id == self.room.host:
            shared["invite"] = invite_json(self.room.invite)
        return {"shared": shared}

    def note_last_action(self, owner: TableOwner, seat: int, last_action: LastAction) -> str:
        """Mark the last action with why a computer player made it for a person (``None``:
        the person's own move) and, for the mover's own seat, the client id it was sent with
        (its acknowledgement: the mover is sent no ``ack`` besides); the sentence saying
        why, or ""."""
        client = self.last_client
        if client is not None and client[0] == owner.version and owner.log[-1][0] == seat:
            last_action["client_id"] = client[1]
        auto: AutoReason | None = None
        if self.last_auto is not None and self.last_auto[0] == owner.version:
            auto = self.last_auto[1]
        last_action["auto"] = auto
        if auto is None:
            return ""
        name = owner.seats[owner.log[-1][0]].name
        return AUTO_SENTENCES[auto].format(name=name) + " "

    def seen(self, seat: int, client_id: str) -> bool:
        """Whether ``seat`` had an action with this client id applied already."""
        return self.room.seen(seat, client_id)

    def stand_in(self, seat: int) -> AutoReason | None:
        """``left`` or ``away`` for a person a computer player moves for, else ``None``."""
        if seat in self.room.left:
            return "left"
        return "away" if seat in self.room.away else None

    def record_marks(self, seat: int) -> dict[str, Any]:
        """Shared-table results are counted apart; "assisted": a computer player moved for
        this person during the game."""
        return {"shared": True, "assisted": seat in self.room.assisted}

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """:func:`connection_closed`."""
        connection_closed(owner, seat, connection)

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> RoomAfterMove:
        """:func:`room_after_move`."""
        return room_after_move(owner, after, seat, auto, client_id, now)

    def move_applied(
        self,
        owner: TableOwner,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> None:
        """:func:`move_applied`."""
        move_applied(owner, seat, auto, client_id, now)

    def stop(self, owner: TableOwner) -> None:
        """Stop every timer."""
        timers = self.presence.timers
        for task in timers.values():
            task.cancel()
        timers.clear()

    def retire(self, owner: TableOwner) -> None:
        """Start no timer again: another process serves the table now."""
        self.presence.retired = True
