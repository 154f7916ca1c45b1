"""A profile and its record as one portable JSON document: export, validation and import.

Importing replaces the name and options and merges the record: events already present (same
key) are not counted twice, so importing the same document again changes nothing.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, Final

from cardtable.errors import CardtableError
from cardtable.storage.database import Database
from cardtable.storage.profiles import get_profile, update_profile
from cardtable.storage.records import RecordEvent, add_events, events_of

EXPORT_FORMAT: Final = "cardtable-profile"
EXPORT_VERSION: Final = 1
RECORD_KINDS: Final = ("deal", "game", "match")


class ProfileImportError(CardtableError, ValueError):
    """An imported profile document is malformed or of an unknown version."""


def export_profile(db: Database, profile_id: int) -> dict[str, Any]:
    """The profile's name, options and record events as a JSON-ready document."""
    profile = get_profile(db, profile_id)
    if profile is None:
        raise LookupError(f"no profile {profile_id}")
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "name": profile.name,
        "options": dict(profile.options),
        "record": [event.to_json() for event in events_of(db, profile_id)],
    }


def parse_document(data: Any) -> tuple[str | None, dict[str, Any] | None, list[RecordEvent]]:
    """Check an exported document; return its name, options and events.

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
    events = [_parse_event(index, raw) for index, raw in enumerate(raw_events)]
    return (None if name is None else name.strip()), options, events


def import_profile(
    db: Database, profile_id: int, document: Any, *, options: dict[str, Any] | None = None
) -> int:
    """Apply a document to a profile; return the number of new record events.

    ``options`` are the document's options after the caller validated them (the storage layer
    does not know which options exist); ``None`` keeps the stored ones.
    """
    name, _raw_options, events = parse_document(document)
    update_profile(db, profile_id, name=name, options=options)
    return add_events(db, profile_id, events)


def _parse_event(index: int, raw: Any) -> RecordEvent:
    if not isinstance(raw, dict):
        raise ProfileImportError(f"record event {index} must be an object")
    key, game, kind = raw.get("key"), raw.get("game"), raw.get("kind")
    if not isinstance(key, str) or not key or len(key) > 120:
        raise ProfileImportError(f"record event {index} needs a text 'key' of 1-120 characters")
    if not isinstance(game, str) or not game:
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
    if points is not None and (not isinstance(points, int) or isinstance(points, bool)):
        raise ProfileImportError(f"record event {index}: 'points' must be a whole number or null")
    if not isinstance(details, dict):
        raise ProfileImportError(f"record event {index}: 'details' must be an object")
    at = None
    if raw.get("at") is not None:
        try:
            at = datetime.fromisoformat(str(raw["at"]))
        except ValueError:
            raise ProfileImportError(f"record event {index}: 'at' is not a date") from None
    return RecordEvent(
        key=key, game=game, kind=kind, won=won, points=points, details=details, at=at
    )
