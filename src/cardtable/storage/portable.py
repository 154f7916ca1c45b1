"""A profile and its record as one portable JSON document: export, validation and import.

Importing replaces the name and options and adds the document's results to the record, each
marked as imported (the record shows them apart from results played on this server). Events
already present (same key) are not counted twice, so importing the same document again changes
nothing. An import is one transaction: a document refused for any reason changes nothing.

Documents are checked field by field (the server checks them first against its strict request
model); what is exported is always importable: details are kept only as flat values.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Final

from cardtable.errors import CardtableError, NotFoundError
from cardtable.storage.database import Database
from cardtable.storage.models import ProfileRow
from cardtable.storage.profiles import get_profile
from cardtable.storage.record_totals import RecordDetails
from cardtable.storage.records import (
    KEPT_IMPORTED_EVENTS,
    KEPT_PLAYED_EVENTS,
    RecordEvent,
    add_events_in,
    events_of,
)

EXPORT_FORMAT: Final = "cardtable-profile"
EXPORT_VERSION: Final = 1
RECORD_KINDS: Final = ("deal", "game", "match")
MAX_EVENTS: Final = 10_000
assert KEPT_PLAYED_EVENTS + KEPT_IMPORTED_EVENTS <= MAX_EVENTS
MAX_DETAILS: Final = 16
MAX_DETAIL_TEXT: Final = 80


class ProfileImportError(CardtableError, ValueError):
    """An imported profile document is malformed or of an unknown version."""


def export_profile(db: Database, profile_id: int) -> dict[str, Any]:
    """The profile's name, options and record events as a JSON-ready document."""
    profile = get_profile(db, profile_id)
    if profile is None:
        raise NotFoundError(f"no profile {profile_id}")
    stored = events_of(db, profile_id)
    # At most the caps of each part (pruning lets a few more wait), newest kept, so that the
    # document never holds more events than an import accepts.
    played = [n for n, event in enumerate(stored) if not event.imported][-KEPT_PLAYED_EVENTS:]
    imported = [n for n, event in enumerate(stored) if event.imported][-KEPT_IMPORTED_EVENTS:]
    record = []
    for event in (stored[n] for n in sorted(played + imported)):
        entry = event.to_json()
        entry["details"] = flat_details(event.details)
        record.append(entry)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": profile.name,
        "options": dict(profile.options),
        "record": record,
    }


def flat_details(details: Mapping[str, Any]) -> RecordDetails:
    """Details as a document may carry them: at most 16 flat values (text, numbers, yes/no).

    >>> flat_details({"dropped": True, "nested": {"a": [1]}, "note": "x" * 100})["note"][-3:]
    'xxx'
    >>> sorted(flat_details({"dropped": True, "nested": {"a": [1]}}))
    ['dropped']
    """
    flat: RecordDetails = {}
    for key, value in details.items():
        if len(flat) == MAX_DETAILS or not isinstance(key, str) or len(key) > 40:
            continue
        if isinstance(value, str):
            flat[key] = value[:MAX_DETAIL_TEXT]
        elif value is None or (isinstance(value, bool | int) and abs(value) <= 10**9):
            flat[key] = value
    return flat


def parse_document(data: Any) -> tuple[str | None, dict[str, Any] | None, list[RecordEvent]]:
    """Check an exported document; return its name, options and events (marked imported).

    >>> parse_document({"format": "cardtable-profile", "version": 1, "record": []})
    (None, None, [])
    >>> parse_document([])
    Traceback (most recent call last):
    ...
    cardtable.storage.portable.ProfileImportError: not a cardtable profile (expected an object \
with "format": "cardtable-profile")
    """
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ProfileImportError(
            f'not a cardtable profile (expected an object with "format": "{EXPORT_FORMAT}")'
        )
    if data.get("version") != EXPORT_VERSION:
        raise ProfileImportError(
            f"profile document version {data.get('version')!r} is not supported "
            f"(this cardtable reads version {EXPORT_VERSION})"
        )
    name = data.get("name")
    if name is not None and (not isinstance(name, str) or not 0 < len(name.strip()) <= 40):
        raise ProfileImportError("profile name must be text of 1 to 40 characters")
    options = data.get("options")
    if options is not None and not isinstance(options, dict):
        raise ProfileImportError("profile options must be an object")
    raw_events = data.get("record", [])
    if not isinstance(raw_events, list):
        raise ProfileImportError("profile record must be a list of events")
    if len(raw_events) > MAX_EVENTS:
        raise ProfileImportError(f"profile record must have at most {MAX_EVENTS} events")
    events = [_parse_event(index, raw) for index, raw in enumerate(raw_events)]
    return (None if name is None else name.strip()), options, events


def import_profile(
    db: Database,
    profile_id: int,
    *,
    name: str | None,
    options: dict[str, Any] | None,
    events: Sequence[RecordEvent],
) -> int:
    """Apply a checked document to a profile in one transaction; the number of new events.

    ``options`` are the document's options after the caller validated them (the storage layer
    does not know which options exist); ``None`` keeps the stored ones. Every event is stored
    as imported, whatever it says.
    """
    with db.session() as session:
        row = session.get(ProfileRow, profile_id)
        if row is None:
            raise NotFoundError(f"no profile {profile_id}")
        if name is not None:
            row.name = name
        if options is not None:
            row.options = dict(options)
        marked = [
            RecordEvent(
                key=event.key,
                game=event.game,
                kind=event.kind,
                won=event.won,
                points=event.points,
                details=flat_details(event.details),
                at=event.at,
                imported=True,
            )
            for event in events
        ]
        return add_events_in(session, profile_id, marked)


def parse_time(text: str | None) -> datetime | None:
    """An event's ISO 8601 time (``None`` stays ``None``), or :class:`ProfileImportError`.

    >>> parse_time("2026-01-31T12:00:00+00:00").year
    2026
    """
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise ProfileImportError(f"{text[:40]!r} is not a date") from None


def _parse_event(index: int, raw: Any) -> RecordEvent:
    if not isinstance(raw, dict):
        raise ProfileImportError(f"record event {index} must be an object")
    key, game, kind = raw.get("key"), raw.get("game"), raw.get("kind")
    if not isinstance(key, str) or not key or len(key) > 120:
        raise ProfileImportError(f"record event {index} needs a text 'key' of 1-120 characters")
    if not isinstance(game, str) or not game or len(game) > 40:
        raise ProfileImportError(f"record event {index} needs a 'game'")
    if kind not in RECORD_KINDS:
        raise ProfileImportError(
            f"record event {index} has kind {kind!r}; expected one of {', '.join(RECORD_KINDS)}"
        )
    won = raw.get("won", False)
    points = raw.get("points")
    details = raw.get("details", {})
    if not isinstance(won, bool):
        raise ProfileImportError(f"record event {index}: 'won' must be true or false")
    if points is not None and (
        not isinstance(points, int) or isinstance(points, bool) or abs(points) > 10**6
    ):
        raise ProfileImportError(
            f"record event {index}: 'points' must be a whole number from -1000000 to 1000000, "
            "or null"
        )
    if not isinstance(details, dict):
        raise ProfileImportError(f"record event {index}: 'details' must be an object")
    at = raw.get("at")
    if at is not None and not isinstance(at, str):
        raise ProfileImportError(f"record event {index}: 'at' is not a date")
    return RecordEvent(
        key=key,
        game=game,
        kind=kind,
        won=won,
        points=points,
        details=flat_details(details),
        at=parse_time(at),
        imported=True,
    )
