"""The record: per game, what a profile's stored events add up to.

Every game reports games played and won, deals (hands, in Indecision; games, in Declaration
Rummy, where one deal is a game) played and won, points per deal with the best and worst, and
its own facts: drops, valid and wrong shows in Indian Rummy; stops and forfeits in Indecision;
games and matches won, declarations and goings-out in Declaration Rummy. Points are good in
Indecision and bad (penalties, counts) in the two rummies, so "best" follows the game. What a
deal is called, whether points are good and each game's own lines come from its spec.

Results imported from an exported profile are counted apart, under ``imported`` (``None``
when there are none): nobody can add wins to the record of play on this server by import.
Results of games at tables shared with other people are counted apart too, under ``shared``
(``None`` when there are none), with the games and deals in which a computer player moved for
the person (a turn timed out, they were away, or they left): the top-level statistics are
games against computer players only.

A game played in several formats (Indian Rummy's free play, Pool 101, Deals) also lists its
record by format, under ``formats``: every game played on this server in that format, against
computer players and at shared tables together (imported results are not), made from the
``format:<key>`` parts of the totals (:mod:`cardtable.storage.record_totals`).

A hand of Indecision is "won" by the one seat that scored its most points (more than zero); a
hand where two or more seats share the most points is tied (counted apart, never as won); a deal
of Indian Rummy by the valid declarer or the last player left.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from cardtable.games.spec import GameSpec
from cardtable.registry import format_title, specs
from cardtable.storage import RecordEvent
from cardtable.storage.record_totals import FORMAT_PART, Totals, empty_counters, totals_of


def aggregate(events: Iterable[RecordEvent]) -> dict[str, dict[str, Any]]:
    """Per game name, the record of some events (:func:`record_of` their totals).

    >>> record = aggregate([
    ...     RecordEvent(key="a", game="indian-rummy", kind="deal", won=False, points=23,
    ...                 details={"dropped": False}),
    ...     RecordEvent(key="b", game="indian-rummy", kind="deal", won=True, points=0),
    ... ])
    >>> ir = record["indian-rummy"]
    >>> ir["deals_played"], ir["deals_won"], ir["points_per_deal"], ir["best"], ir["worst"]
    (2, 1, 11.5, 0, 23)
    >>> ir["imported"] is None
    True
    >>> ir["formats"]
    []
    """
    return record_of(totals_of(events))


def record_of(totals: Totals) -> dict[str, dict[str, Any]]:
    """Per game name, the record made from a profile's running totals (every known game
    appears, with zeros if never played). Its cost does not grow with the number of events."""
    return {spec.name: _game_record(spec, totals.get(spec.name, {})) for spec in specs()}


def _game_record(terms: GameSpec, parts: dict[str, dict[str, dict[str, Any]]]) -> dict[str, Any]:
    return {
        "game": terms.name,
        "title": terms.title,
        "deal_word": terms.deal_word,
        "points_word": terms.points_word,
        "points_are": "good" if terms.points_good else "bad",
        **_stats(terms, parts.get("here", {})),
        "imported": _stats(terms, parts["imported"]) if parts.get("imported") else None,
        "shared": _shared_stats(terms, parts["shared"]) if parts.get("shared") else None,
        "formats": _format_stats(terms, parts),
    }


def _format_stats(
    terms: GameSpec, parts: dict[str, dict[str, dict[str, Any]]]
) -> list[dict[str, Any]]:
    """The game's record by format (empty for a game played in one format), the most played
    format first (games, then deals), then by title."""
    shown = [
        {
            "format": part.removeprefix(FORMAT_PART),
            "title": format_title(terms.name, part.removeprefix(FORMAT_PART)),
            **_stats(terms, kinds),
        }
        for part, kinds in parts.items()
        if part.startswith(FORMAT_PART)
    ]
    return sorted(shown, key=lambda row: (-row["games_played"], -row["deals_played"], row["title"]))


def _shared_stats(terms: GameSpec, kinds: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The statistics of shared tables, and how many games and deals a computer player
    helped with."""
    return {
        **_stats(terms, kinds),
        "assisted_games": _kind(kinds, "game")["assisted"],
        "assisted_deals": _kind(kinds, terms.deal_kind)["assisted"],
    }


def _kind(kinds: dict[str, dict[str, Any]], kind: str) -> dict[str, Any]:
    return kinds.get(kind) or empty_counters()


def _stats(terms: GameSpec, kinds: dict[str, dict[str, Any]]) -> dict[str, Any]:
    deals, games, matches = (_kind(kinds, kind) for kind in (terms.deal_kind, "game", "match"))
    best, worst = (
        (deals["max"], deals["min"]) if terms.points_good else (deals["min"], deals["max"])
    )
    extras = [
        {
            "key": extra.key,
            "label": extra.label,
            "value": _kind(kinds, extra.kind)["won"]
            if extra.flag == "won"
            else _kind(kinds, extra.kind)["flags"].get(extra.flag, 0),
        }
        for extra in terms.record_extras
    ]
    scored = deals["scored"]
    return {
        "games_played": games["n"],
        "games_won": games["won"],
        "deals_played": deals["n"],
        "deals_won": deals["won"],
        "matches_played": matches["n"],
        "matches_won": matches["won"],
        "points_per_deal": round(deals["sum"] / scored, 2) if scored else None,
        "total_points": deals["sum"],
        "best": best,
        "worst": worst,
        "extras": extras,
    }
