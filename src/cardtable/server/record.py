"""The record: per game, what a profile's stored events add up to.

Every game reports games played and won, deals (hands, in Indecision; games, in Declaration
Rummy, where one deal is a game) played and won, points per deal with the best and worst, and
its own facts: drops, valid and wrong shows in Indian Rummy; stops and forfeits in Indecision;
games and matches won, declarations and goings-out in Declaration Rummy. Points are good in
Indecision and bad (penalties, counts) in the two rummies, so "best" follows the game.

A hand of Indecision is "won" by the one seat that scored its most points (more than zero); a
hand where two or more seats share the most points is tied (counted apart, never as won); a deal
of Indian Rummy by the valid declarer or the last player left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.storage import RecordEvent


@dataclass(frozen=True, slots=True)
class GameTerms:
    """How one game's record reads."""

    title: str
    deal_word: str
    deal_kind: str
    """The event kind that counts as one deal."""
    points_good: bool
    extras: tuple[tuple[str, str, str, str], ...]
    """(key, label, event kind, detail flag counted)."""


TERMS: Final = {
    "indecision": GameTerms(
        title="Indecision",
        deal_word="hand",
        deal_kind="deal",
        points_good=True,
        extras=(
            ("ties", "Hands tied on points", "deal", "tied"),
            ("stops", "Hands stopped", "deal", "stopped"),
            ("forfeits", "Stops forfeited", "deal", "forfeit"),
        ),
    ),
    "indian-rummy": GameTerms(
        title="Indian Rummy",
        deal_word="deal",
        deal_kind="deal",
        points_good=False,
        extras=(
            ("valid_shows", "Valid declarations", "deal", "valid_show"),
            ("wrong_shows", "Wrong shows", "deal", "wrong_show"),
            ("drops", "Drops", "deal", "dropped"),
        ),
    ),
    "declaration-rummy": GameTerms(
        title="Declaration Rummy",
        deal_word="game",
        deal_kind="game",
        points_good=False,
        extras=(
            ("declared", "Declarations", "game", "declared"),
            ("went_out", "Went out", "game", "went_out"),
            ("drops", "Drops", "game", "dropped"),
        ),
    ),
}


def aggregate(events: Iterable[RecordEvent]) -> dict[str, dict[str, Any]]:
    """Per game name, the record (every known game appears, with zeros if never played).

    >>> record = aggregate([
    ...     RecordEvent(key="a", game="indian-rummy", kind="deal", won=False, points=23,
    ...                 details={"dropped": False}),
    ...     RecordEvent(key="b", game="indian-rummy", kind="deal", won=True, points=0),
    ... ])
    >>> ir = record["indian-rummy"]
    >>> ir["deals_played"], ir["deals_won"], ir["points_per_deal"], ir["best"], ir["worst"]
    (2, 1, 11.5, 0, 23)
    """
    by_game: dict[str, list[RecordEvent]] = {name: [] for name in TERMS}
    for event in events:
        by_game.setdefault(event.game, []).append(event)
    return {game: _game_record(game, game_events) for game, game_events in by_game.items()}


def _game_record(game: str, events: Sequence[RecordEvent]) -> dict[str, Any]:
    terms = TERMS.get(game, GameTerms(game, "deal", "deal", False, ()))
    deals = [event for event in events if event.kind == terms.deal_kind]
    games = [event for event in events if event.kind == "game"]
    matches = [event for event in events if event.kind == "match"]
    scored = [
        event.points
        for event in deals
        if event.points is not None and not event.details.get("abandoned")
    ]
    best_first = sorted(scored, reverse=terms.points_good)
    extras = [
        {
            "key": key,
            "label": label,
            "value": sum(1 for event in events if event.kind == kind and event.details.get(flag)),
        }
        for key, label, kind, flag in terms.extras
    ]
    if game == "declaration-rummy":
        extras.append({"key": "matches_won", "label": "Matches won", "value": _won(matches)})
    return {
        "game": game,
        "title": terms.title,
        "deal_word": terms.deal_word,
        "points_are": "good" if terms.points_good else "bad",
        "games_played": len(games),
        "games_won": _won(games),
        "deals_played": len(deals),
        "deals_won": _won(deals),
        "matches_played": len(matches),
        "matches_won": _won(matches),
        "points_per_deal": round(sum(scored) / len(scored), 2) if scored else None,
        "total_points": sum(scored),
        "best": best_first[0] if best_first else None,
        "worst": best_first[-1] if best_first else None,
        "extras": extras,
    }


def _won(events: Sequence[RecordEvent]) -> int:
    # A tie shares the best result without winning it (an Indecision hand tied on points).
    return sum(1 for event in events if event.won and not event.details.get("tied"))
