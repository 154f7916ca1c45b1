"""Game tables stored as action logs: creation, one append per move, seats, and finishing.

A table's moves are inserted one row at a time (the primary key ``(table_id, index)`` refuses a
second move with the same index), so a server that stops between two moves loses nothing that a
player saw.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update

from cardtable.storage.database import Database
from cardtable.storage.models import ActionRow, TableRow, TableSeatRow, utc_now

PLAYING = "playing"
FINISHED = "finished"
ABANDONED = "abandoned"


@dataclass(frozen=True, slots=True)
class StoredTable:
    """A table as stored: setup, status, who sits where, and the moves in order."""

    id: str
    owner_id: int
    game: str
    rules: dict[str, Any]
    seed: int
    seats: tuple[dict[str, Any], ...]
    status: str
    result: dict[str, Any] | None
    seated: dict[int, int]
    """Human seat -> profile id."""
    actions: tuple[tuple[int, str], ...]


def create_table(
    db: Database,
    *,
    table_id: str,
    owner_id: int,
    game: str,
    rules: dict[str, Any],
    seed: int,
    seats: list[dict[str, Any]],
    owner_seat: int,
) -> None:
    """Store a new table with its owner sitting at ``owner_seat``."""
    with db.session() as session:
        session.add(
            TableRow(
                id=table_id,
                owner_id=owner_id,
                game=game,
                rules=rules,
                seed=seed,
                seats=seats,
                status=PLAYING,
            )
        )
        session.flush()
        session.add(TableSeatRow(table_id=table_id, seat=owner_seat, profile_id=owner_id))


def sit(db: Database, table_id: str, seat: int, profile_id: int) -> None:
    """Seat a profile at a free human seat."""
    with db.session() as session:
        session.add(TableSeatRow(table_id=table_id, seat=seat, profile_id=profile_id))


def append_action(db: Database, table_id: str, index: int, seat: int, notation: str) -> None:
    """Append move number ``index`` (0-based) to a table's log."""
    # Plain statements rather than ORM objects: this runs after every move of every table.
    with db.session() as session:
        session.execute(
            insert(ActionRow).values(table_id=table_id, index=index, seat=seat, notation=notation)
        )
        session.execute(
            update(TableRow).where(TableRow.id == table_id).values(updated_at=utc_now())
        )


def set_status(
    db: Database, table_id: str, status: str, result: dict[str, Any] | None = None
) -> None:
    """Mark a table finished or abandoned (with its result, if any)."""
    with db.session() as session:
        row = session.get(TableRow, table_id)
        if row is None:
            raise LookupError(f"no table {table_id}")
        row.status = status
        row.result = result
        row.updated_at = utc_now()


def load_table(db: Database, table_id: str) -> StoredTable | None:
    """A table with its whole log, or ``None``."""
    with db.session() as session:
        row = session.get(TableRow, table_id)
        if row is None:
            return None
        actions = session.execute(
            select(ActionRow.seat, ActionRow.notation)
            .where(ActionRow.table_id == table_id)
            .order_by(ActionRow.index)
        ).all()
        seated = session.execute(
            select(TableSeatRow.seat, TableSeatRow.profile_id).where(
                TableSeatRow.table_id == table_id
            )
        ).all()
        return StoredTable(
            id=row.id,
            owner_id=row.owner_id,
            game=row.game,
            rules=dict(row.rules),
            seed=row.seed,
            seats=tuple(dict(seat) for seat in row.seats),
            status=row.status,
            result=None if row.result is None else dict(row.result),
            seated={seat: profile for seat, profile in seated},
            actions=tuple((seat, notation) for seat, notation in actions),
        )


def tables_of(db: Database, profile_id: int, *, status: str = PLAYING) -> list[str]:
    """Ids of the tables where a profile sits, with this status, most recently played first."""
    with db.session() as session:
        rows = session.execute(
            select(TableRow.id)
            .join(TableSeatRow, TableSeatRow.table_id == TableRow.id)
            .where(TableSeatRow.profile_id == profile_id, TableRow.status == status)
            .order_by(TableRow.updated_at.desc())
        ).all()
        return list(dict.fromkeys(row[0] for row in rows))
