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

A hand of Indecision is "won" by the one seat that scored its most points (more than zero); a
hand where two or more seats share the most points is tied (counted apart, never as won); a deal
of Indian Rummy by the valid declarer or the last player left.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from cardtable.errors import RulesError
from cardtable.games.spec import GameSpec
from cardtable.registry import get_spec, specs
from cardtable.storage import RecordEvent


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
    >>> ir["imported"] is None
    True
    """
    known = {spec.name for spec in specs()}
    by_game: dict[str, list[RecordEvent]] = {name: [] for name in known}
    for event in events:
        by_game.setdefault(event.game, []).append(event)
    return {
        game: _game_record(game, game_events)
        for game, game_events in by_game.items()
        if game in known or _registered(game)
    }


def _registered(game: str) -> bool:
    try:
        get_spec(game)
    except RulesError:
        return False
    return True


def _game_record(game: str, events: Sequence[RecordEvent]) -> dict[str, Any]:
    terms = get_spec(game)
    here = [event for event in events if not event.imported and not event.details.get("shared")]
    shared = [event for event in events if not event.imported and event.details.get("shared")]
    imported = [event for event in events if event.imported]
    return {
        "game": game,
        "title": terms.title,
        "deal_word": terms.deal_word,
        "points_word": terms.points_word,
        "points_are": "good" if terms.points_good else "bad",
        **_stats(terms, here),
        "imported": _stats(terms, imported) if imported else None,
        "shared": _shared_stats(terms, shared) if shared else None,
    }


def _shared_stats(terms: GameSpec, events: Sequence[RecordEvent]) -> dict[str, Any]:
    """The statistics of shared tables, and how many games and deals a computer player
    helped with."""
    assisted = [event for event in events if event.details.get("assisted")]
    return {
        **_stats(terms, events),
        "assisted_games": sum(1 for event in assisted if event.kind == "game"),
        "assisted_deals": sum(1 for event in assisted if event.kind == terms.deal_kind),
    }


def _stats(terms: GameSpec, events: Sequence[RecordEvent]) -> dict[str, Any]:
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
            "key": extra.key,
            "label": extra.label,
            "value": _won(of_kind)
            if extra.flag == "won"
            else sum(1 for event in of_kind if event.details.get(extra.flag)),
        }
        for extra in terms.record_extras
        for of_kind in [[event for event in events if event.kind == extra.kind]]
    ]
    return {
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
