"""Record events: one row per finished deal, hand, game or match of a profile.

The record shown to a player is made from running totals kept beside the events
(:mod:`cardtable.storage.record_totals`), updated in the transaction that stores them, so a
record read costs the same at any size. A profile keeps only its newest
:data:`KEPT_PLAYED_EVENTS` events played here and its newest :data:`KEPT_IMPORTED_EVENTS`
imported ones (older ones are deleted; the totals of play here still count them), so the
export of a long-time player stays one importable document.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable
from typing import Final

from sqlalchemy import delete, select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session
from sqlalchemy.orm.attributes import flag_modified

from cardtable.storage import record_totals
from cardtable.storage.database import Database
from cardtable.storage.models import RecordEventRow, RecordTotalsRow, utc_now

# The event is declared beside the totals that count it, so that neither module imports the
# other; it is named here too, where events are stored.
from cardtable.storage.record_totals import RecordEvent as RecordEvent
from cardtable.storage.record_totals import StoredDetail

KEPT_PLAYED_EVENTS: Final = 5_000
"""Events played on this server that a profile keeps (the newest)."""
KEPT_IMPORTED_EVENTS: Final = 5_000
"""Imported events that a profile keeps (the newest): with the played ones, an export never
holds more than an import accepts."""
PRUNE_SLACK: Final = 100
"""Events past a cap before the oldest are deleted, so pruning runs once per so many deals."""


IMPORTED_DETAIL = "imported"


def _stored_details(event: RecordEvent) -> dict[str, StoredDetail]:
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
    batch = list(events)
    try:
        with db.session() as session:
            return add_events_in(session, profile_id, batch)
    except IntegrityError:
        # Another transaction stored the profile's first totals meanwhile: once more, now
        # that they exist (and locked while this one adds to them).
        with db.session() as session:
            return add_events_in(session, profile_id, batch)


def add_events_in(session: Session, profile_id: int, events: Iterable[RecordEvent]) -> int:
    """:func:`add_events` inside the caller's transaction; the totals count the new events
    and the oldest events past a cap are deleted."""
    batch: dict[str, RecordEvent] = {}
    for event in events:
        batch.setdefault(event.key, event)
    if not batch:
        return 0
    totals = _totals_row(session, profile_id)
    known = set(
        session.scalars(
            select(RecordEventRow.key).where(
                RecordEventRow.profile_id == profile_id, RecordEventRow.key.in_(list(batch))
            )
        )
    )
    counted = copy.deepcopy(totals.totals)
    added = 0
    for event in batch.values():
        if event.key in known:
            continue
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
        record_totals.add_event(counted, event)
        if event.imported:
            totals.imported_kept += 1
        else:
            totals.played_kept += 1
        added += 1
    totals.totals = counted
    flag_modified(totals, "totals")
    if (
        totals.played_kept > KEPT_PLAYED_EVENTS + PRUNE_SLACK
        or totals.imported_kept > KEPT_IMPORTED_EVENTS
    ):
        session.flush()
        _prune(session, totals)
    return added


def totals_of_profile(db: Database, profile_id: int) -> record_totals.Totals:
    """A profile's running record totals (built from its events the first time)."""
    for _attempt in range(2):
        try:
            with db.session() as session:
                return dict(_totals_row(session, profile_id, lock=False).totals)
        except IntegrityError:
            # Another transaction built the same profile's first totals meanwhile: read them.
            continue
    with db.session() as session:
        return dict(_totals_row(session, profile_id, lock=False).totals)


def _totals_row(session: Session, profile_id: int, *, lock: bool = True) -> RecordTotalsRow:
    """The profile's totals row, locked for this transaction where the database can; built
    from every stored event when the profile has none yet (events stored before totals
    were kept)."""
    query = select(RecordTotalsRow).where(RecordTotalsRow.profile_id == profile_id)
    row = session.scalars(query.with_for_update() if lock else query).one_or_none()
    if row is not None:
        return row
    stored = _events_in(session, profile_id)
    row = RecordTotalsRow(
        profile_id=profile_id,
        totals=record_totals.totals_of(stored),
        played_kept=sum(1 for event in stored if not event.imported),
        imported_kept=sum(1 for event in stored if event.imported),
    )
    session.add(row)
    session.flush()
    if row.played_kept > KEPT_PLAYED_EVENTS or row.imported_kept > KEPT_IMPORTED_EVENTS:
        _prune(session, row)
    return row


def _prune(session: Session, totals: RecordTotalsRow) -> None:
    """Delete the oldest events past each cap; imported totals become those of the imported
    events kept (played totals keep counting the deleted ones)."""
    rows = session.execute(
        select(RecordEventRow.id, RecordEventRow.details)
        .where(RecordEventRow.profile_id == totals.profile_id)
        .order_by(RecordEventRow.created_at.desc(), RecordEventRow.id.desc())
    ).all()
    played = [row.id for row in rows if not (row.details or {}).get(IMPORTED_DETAIL)]
    imported = [row.id for row in rows if (row.details or {}).get(IMPORTED_DETAIL)]
    doomed = played[KEPT_PLAYED_EVENTS:] + imported[KEPT_IMPORTED_EVENTS:]
    for start in range(0, len(doomed), 500):
        session.execute(
            delete(RecordEventRow).where(RecordEventRow.id.in_(doomed[start : start + 500]))
        )
    totals.played_kept = min(len(played), KEPT_PLAYED_EVENTS)
    if len(imported) > KEPT_IMPORTED_EVENTS:
        kept = record_totals.totals_of(
            event for event in _events_in(session, totals.profile_id) if event.imported
        )
        counted = {
            game: {part: kinds for part, kinds in parts.items() if part != "imported"}
            for game, parts in totals.totals.items()
        }
        for game, parts in kept.items():
            counted.setdefault(game, {})["imported"] = parts["imported"]
        totals.totals = counted
        flag_modified(totals, "totals")
    totals.imported_kept = min(len(imported), KEPT_IMPORTED_EVENTS)


def events_of(db: Database, profile_id: int) -> list[RecordEvent]:
    """Every event a profile keeps, oldest first."""
    with db.session() as session:
        return _events_in(session, profile_id)


def _events_in(session: Session, profile_id: int) -> list[RecordEvent]:
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
