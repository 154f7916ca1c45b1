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

from cardtable.storage.database import Database
from cardtable.storage.models import RecordEventRow, utc_now


@dataclass(frozen=True, slots=True)
class RecordEvent:
    """One finished unit of play.

    ``kind`` is ``deal`` (a deal or hand), ``game`` or ``match``; ``key`` is unique per profile
    (for example ``"<table>:deal:3"``); ``points`` are in the game's own terms; ``details`` holds
    the game's own facts (a drop, a wrong show, a stop, a forfeit).
    """

    key: str
    game: str
    kind: str
    won: bool
    points: int | None = None
    details: dict[str, Any] = field(default_factory=dict)
    at: datetime | None = None

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
        }


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
        known = set(
            session.scalars(
                select(RecordEventRow.key).where(RecordEventRow.profile_id == profile_id)
            )
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
                    details=dict(event.details),
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
        return [
            RecordEvent(
                key=row.key,
                game=row.game,
                kind=row.kind,
                won=row.won,
                points=row.points,
                details=dict(row.details or {}),
                at=row.created_at,
            )
            for row in rows
        ]
