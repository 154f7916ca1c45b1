"""Running totals of a profile's record: what its events add up to, kept as they are stored.

A record read then costs the same however many deals a profile played: it reads one small
row instead of every event. The totals are counters per game, per part of the record
(``here``: against computer players on this server; ``shared``: at tables with other people;
``imported``: from an exported profile) and per kind of event (``deal``, ``game``, ``match``):
how many, how many won (a tie is not a win), how many a computer player helped with, how many
carried points with their sum, smallest and largest, and how many set each of the game's own
record flags (its spec's ``record_extras``). Events of games this server does not know are
not counted (the record shows known games only).

A game played in several formats (Indian Rummy's free play, Pool 101, Deals) is counted once
more by format: an event of play on this server (against computer players or at a shared
table, not imported) whose details name its ``format`` is counted under the part
``format:<key>`` as well (``format:pool-101``). Events stored before formats were recorded
name none and count only in their own part.

Totals of play on this server are never lowered when old events are pruned
(:mod:`cardtable.storage.records` keeps only the newest ones), so the record still counts a
long-time player's first deal. Imported totals are those of the imported events kept, which
are recomputed when some are pruned: importing the same document again never counts twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final, Literal, TypeAlias

from cardtable.errors import RulesError
from cardtable.registry import get_spec

RecordDetail: TypeAlias = str | int | bool | None
"""One fact of a result as this server records it: a flat value (text, a whole number, yes/no,
nothing)."""
RecordDetails: TypeAlias = dict[str, RecordDetail]
"""The facts of a result by name, as this server records them: the game's own (``dropped``,
``tied``, ``ending``), the table's marks (``format``, ``shared``, ``assisted``), or the flat
facts an exported profile brought. An import accepts any name, and the games' record flags
come from their specs, so there is no fixed set of keys (no ``TypedDict``)."""
StoredDetail: TypeAlias = (
    "str | int | float | bool | list[StoredDetail] | dict[str, StoredDetail] | None"
)
"""One fact of a stored result: any JSON value, since a row may predate the flat rule (an
export flattens them, :func:`cardtable.storage.portable.flat_details`)."""


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
    details: Mapping[str, StoredDetail] = field(default_factory=dict)
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


Part = Literal["here", "shared", "imported"]
PARTS: Final[tuple[Part, ...]] = ("here", "shared", "imported")
FORMAT_PART: Final = "format:"
"""The prefix of the parts that count a game's events by format (``format:pool-101``)."""

Totals = dict[str, dict[str, dict[str, dict[str, Any]]]]
"""``totals[game][part][kind]`` is one :func:`empty_counters` dict."""


def part_of(event: RecordEvent) -> Part:
    """Which part of the record an event counts in."""
    if event.imported:
        return "imported"
    return "shared" if event.details.get("shared") else "here"


def empty_counters() -> dict[str, Any]:
    """The counters of one kind of event before any was counted."""
    return {
        "n": 0,
        "won": 0,
        "assisted": 0,
        "scored": 0,
        "sum": 0,
        "min": None,
        "max": None,
        "flags": {},
    }


def _game_of(game: str) -> tuple[str, frozenset[str]] | None:
    """The game's own name and its record flags, or ``None`` for a game this server lacks."""
    try:
        spec = get_spec(game)
    except RulesError:
        return None
    return spec.name, frozenset(extra.flag for extra in spec.record_extras if extra.flag != "won")


def add_event(totals: Totals, event: RecordEvent) -> None:
    """Count one event into ``totals`` (in place); an unknown game's event is left out.

    >>> from cardtable.storage.record_totals import RecordEvent
    >>> totals: Totals = {}
    >>> add_event(totals, RecordEvent(key="a", game="indian-rummy", kind="deal", won=True,
    ...                               points=0))
    >>> add_event(totals, RecordEvent(key="b", game="indian-rummy", kind="deal", won=False,
    ...                               points=40, details={"dropped": True}))
    >>> deals = totals["indian-rummy"]["here"]["deal"]
    >>> deals["n"], deals["won"], deals["sum"], deals["min"], deals["max"], deals["flags"]
    (2, 1, 40, 0, 40, {'dropped': 1})
    """
    known = _game_of(event.game)
    if known is None:
        return
    game, flags = known
    part = part_of(event)
    _count(totals.setdefault(game, {}).setdefault(part, {}), event, flags)
    shown = event.details.get("format")
    if part != "imported" and isinstance(shown, str) and shown:
        _count(totals[game].setdefault(FORMAT_PART + shown, {}), event, flags)


def _count(kinds: dict[str, dict[str, Any]], event: RecordEvent, flags: frozenset[str]) -> None:
    """Count one event into one part's counters (in place)."""
    counters = kinds.setdefault(event.kind, empty_counters())
    details = event.details
    counters["n"] += 1
    # A tie shares the best result without winning it (an Indecision hand tied on points).
    if event.won and not details.get("tied"):
        counters["won"] += 1
    if details.get("assisted"):
        counters["assisted"] += 1
    if event.points is not None and not details.get("abandoned"):
        points = event.points
        counters["scored"] += 1
        counters["sum"] += points
        counters["min"] = points if counters["min"] is None else min(counters["min"], points)
        counters["max"] = points if counters["max"] is None else max(counters["max"], points)
    for flag in flags:
        if details.get(flag):
            counters["flags"][flag] = counters["flags"].get(flag, 0) + 1


def totals_of(events: Iterable[RecordEvent]) -> Totals:
    """The totals of some events."""
    totals: Totals = {}
    for event in events:
        add_event(totals, event)
    return totals
