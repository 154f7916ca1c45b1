"""Record events: one row per finished deal, hand, game or match of a profile.

The record shown to a player is aggregated from these events (``cardtable.server.record``), so
new statistics can be added later without migrating stored numbers.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from cardtable.storage.database import Database
from cardtable.storage.models import RecordEventRow, utc_now


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """One finished unit of play.

    ``kind`` is ``deal`` (a deal or hand), ``game`` or ``match``; ``key`` is unique per profile
    (for example ``"<table>:deal:3"``); ``points`` are in the game's own terms; ``details`` holds
    the game's own facts (a drop, a wrong show, a stop, a forfeit). ``imported`` marks a result
    that came from an exported profile rather than from play on this server (it is stored as
    the reserved detail ``imported``).
    """

    key: str
    game: str
    kind: str
    won: bool
    points: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    at: datetime | None = None
    imported: bool = False

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data."""
        return {
            "key": self.key,
            "game": self.game,
            "kind": self.kind,
            "won": self.won,
            "points": self.points,
            "details": dict(self.details),
            "at": None if self.at is None else self.at.isoformat(),
            "imported": self.imported,
        }


IMPORTED_DETAIL = "imported"


def _stored_details(event: RecordEvent) -> dict[str, Any]:
    details = {k: v for k, v in event.details.items() if k != IMPORTED_DETAIL}
    if event.imported:
        details[IMPORTED_DETAIL] = True
    return details


def add_events(db: Database, profile_id: int, events: Iterable[RecordEvent]) -> int:
    """Store events not stored yet (by key); return how many were added.

    >>> db = Database("sqlite://")
    >>> from cardtable.storage.profiles import create_profile
    >>> profile, _ = create_profile(db)
    >>> event = RecordEvent(key="t1:game", game="indecision", kind="game", won=True)
    >>> add_events(db, profile.id, [event, event]), add_events(db, profile.id, [event])
    (1, 0)
    """
    with db.session() as session:
        return add_events_in(session, profile_id, events)


def add_events_in(session: Session, profile_id: int, events: Iterable[RecordEvent]) -> int:
    """:func:`add_events` inside the caller's transaction."""
    known = set(
        session.scalars(select(RecordEventRow.key).where(RecordEventRow.profile_id == profile_id))
    )
    added = 0
    for event in events:
        if event.key in known:
            continue
        known.add(event.key)
        session.add(
            RecordEventRow(
                profile_id=profile_id,
                key=event.key,
                game=event.game,
                kind=event.kind,
                won=event.won,
                points=event.points,
                details=_stored_details(event),
                created_at=event.at or utc_now(),
            )
        )
        added += 1
    return added


def events_of(db: Database, profile_id: int) -> list[RecordEvent]:
    """Every event of a profile, oldest first."""
    with db.session() as session:
        rows = session.scalars(
            select(RecordEventRow)
            .where(RecordEventRow.profile_id == profile_id)
            .order_by(RecordEventRow.created_at, RecordEventRow.id)
        ).all()
        return [_event(row) for row in rows]


def _event(row: RecordEventRow) -> RecordEvent:
    details = dict(row.details or {})
    imported = details.pop(IMPORTED_DETAIL, False) is True
    return RecordEvent(
        key=row.key,
        game=row.game,
        kind=row.kind,
        won=row.won,
        points=row.points,
        details=details,
        at=row.created_at,
        imported=imported,
    )
