"""People's tables as stored: the invite token, the lobby flag, the phase and the room document
beside a game table; seats given up in the waiting room; the seed and seats fixed at the start.

The room document is whatever :class:`cardtable.server.people.room.Room` serialises: storage does
not read inside it, so the server may add to it without a migration. Every write takes an
optional ``fence``: in a cluster, the lease token the writing process claimed the table with;
the write then stores nothing once another process has claimed the table since
(:func:`cardtable.storage.tables.check_fence`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import case, delete, select, update

from cardtable.storage.database import Database
from cardtable.storage.models import SharedTableRow, TableRow, TableSeatRow, utc_now
from cardtable.storage.tables import check_fence


@dataclass(frozen=True, slots=True)
class StoredRoom:
    """A people's table's stored part."""

    table_id: str
    invite_token: str
    public: bool
    phase: str
    room: dict[str, Any]


def create_room(db: Database, room: StoredRoom, *, fence: int | None = None) -> None:
    """Store the room of a table just created."""
    with db.session() as session:
        check_fence(session, room.table_id, fence)
        session.add(
            SharedTableRow(
                table_id=room.table_id,
                invite_token=room.invite_token,
                public=room.public,
                phase=room.phase,
                room=room.room,
            )
        )


def save_room(
    db: Database, table_id: str, phase: str, room: dict[str, Any], *, fence: int | None = None
) -> None:
    """Store a room's phase and document after a change (and its invite token, which the
    host replaces when removing somebody)."""
    values: dict[str, Any] = {"phase": phase, "room": room, "updated_at": utc_now()}
    if isinstance(room.get("invite"), str):
        values["invite_token"] = room["invite"]
    with db.session() as session:
        check_fence(session, table_id, fence)
        session.execute(
            update(SharedTableRow).where(SharedTableRow.table_id == table_id).values(**values)
        )


def load_room(db: Database, table_id: str) -> StoredRoom | None:
    """A table's room, or ``None`` for a table that is not a people's table."""
    with db.session() as session:
        row = session.get(SharedTableRow, table_id)
        if row is None:
            return None
        return StoredRoom(row.table_id, row.invite_token, row.public, row.phase, dict(row.room))


def table_of_invite(db: Database, token: str) -> str | None:
    """The table an invite token opens, or ``None``."""
    with db.session() as session:
        found = session.scalar(
            select(SharedTableRow.table_id).where(SharedTableRow.invite_token == token)
        )
        return None if found is None else str(found)


def public_rooms(db: Database, phases: tuple[str, ...], limit: int) -> list[str]:
    """Ids of the public tables in one of ``phases``, most recently changed first: the later
    of the room's last change and the table's last move (a move stores the room only when it
    changed it)."""
    room_at, moved_at = SharedTableRow.updated_at, TableRow.updated_at
    changed = case((room_at > moved_at, room_at), else_=moved_at)  # SQL's greatest, portably
    with db.session() as session:
        rows = session.scalars(
            select(SharedTableRow.table_id)
            .join(TableRow, TableRow.id == SharedTableRow.table_id)
            .where(SharedTableRow.public.is_(True), SharedTableRow.phase.in_(phases))
            .order_by(changed.desc(), SharedTableRow.table_id)
            .limit(limit)
        ).all()
        return [str(row) for row in rows]


def unsit(db: Database, table_id: str, seat: int, *, fence: int | None = None) -> None:
    """Free a human seat (a person who moved, stood up, was removed or left)."""
    with db.session() as session:
        check_fence(session, table_id, fence)
        session.execute(
            delete(TableSeatRow).where(TableSeatRow.table_id == table_id, TableSeatRow.seat == seat)
        )


def set_seats(
    db: Database, table_id: str, seats: list[dict[str, Any]], *, fence: int | None = None
) -> None:
    """Store a table's seats (names, kinds, levels) after a change in the waiting room."""
    with db.session() as session:
        check_fence(session, table_id, fence)
        session.execute(update(TableRow).where(TableRow.id == table_id).values(seats=seats))


def set_seed(db: Database, table_id: str, seed: int, *, fence: int | None = None) -> None:
    """Store the seed a people's table was dealt from when it started."""
    with db.session() as session:
        check_fence(session, table_id, fence)
        session.execute(update(TableRow).where(TableRow.id == table_id).values(seed=seed))
