"""A people's table's room as its members are sent it: the part every member is sent alike
(:func:`shared_room_json`, built once per broadcast), and each reader's own (:func:`room_json`:
the seat and role, the host's invite), with the turn timer, time banks and rematch answers as
they stand now.
"""

from __future__ import annotations

from cardtable.server.people.part import (
    people_of,
    presence_of,
    room_of,
    seconds,
)
from cardtable.server.people.room import (
    FINISHED,
    PLAYING,
    WAITING,
    Member,
    TablePhase,
    invite_json,
)
from cardtable.server.protocol.messages import (
    BotSeatJson,
    OpenSeatJson,
    PersonSeatJson,
    RematchJson,
    RoomJson,
    SharedRoomJson,
    TurnJson,
    YouJson,
)
from cardtable.server.table.owner import SPECTATORS, TableOwner


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
