"""Who sits at a table: checking the seats a client asks for, naming them, finding the creator.

A seat is ``{"kind": "human"}`` or ``{"kind": "bot", "level": ...}``; the stored form adds a
display ``name``. Computer players are named after the players of the rule book's examples and
friends, so that announcements read as a story ("Ruby took 7H from the pile").
"""

from __future__ import annotations

from typing import Any

from cardtable.errors import RulesError
from cardtable.server.names import BOT_NAMES
from cardtable.server.options import BOT_LEVELS


def check_seats(raw: Any, players: int | None, default_level: str) -> list[dict[str, Any]]:
    """The seats as stored (kind, level for bots, name), or ``RulesError`` naming the problem.

    ``raw`` may be ``None``: the creator plays seat 0 against bots at ``default_level``.

    >>> [seat["name"] for seat in check_seats([{"kind": "human"}, {"kind": "bot"}], 2, "easy")]
    ['Player', 'Ruby']
    >>> check_seats([{"kind": "bot"}], 1, "easy")
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: at least one seat must be {"kind": "human"} for you to sit at
    """
    if raw is None:
        count = players if players is not None else 2
        raw = [{"kind": "human"}] + [{"kind": "bot"}] * (count - 1)
    if not isinstance(raw, list) or not raw:
        raise RulesError("seats must be a non-empty list of {kind: human|bot}")
    if players is not None and len(raw) != players:
        raise RulesError(f"the rules are for {players} players but {len(raw)} seats were given")
    seats: list[dict[str, Any]] = []
    bots = 0
    for index, seat in enumerate(raw):
        if not isinstance(seat, dict):
            raise RulesError(f'seat {index} must be an object such as {{"kind": "human"}}')
        kind = seat.get("kind")
        if kind == "human":
            seats.append({"kind": "human", "name": "Player"})
        elif kind == "bot":
            level = seat.get("level", default_level)
            if level not in BOT_LEVELS:
                raise RulesError(
                    f"seat {index}: bot level must be one of {', '.join(BOT_LEVELS)}, not {level!r}"
                )
            seats.append({"kind": "bot", "level": level, "name": BOT_NAMES[bots % len(BOT_NAMES)]})
            bots += 1
        else:
            raise RulesError(f'seat {index}: kind must be "human" or "bot", not {kind!r}')
    if all(seat["kind"] == "bot" for seat in seats):
        raise RulesError('at least one seat must be {"kind": "human"} for you to sit at')
    return seats


def first_human_seat(seats: list[dict[str, Any]]) -> int:
    """The seat the table's creator takes."""
    return next(index for index, seat in enumerate(seats) if seat["kind"] == "human")


def public_seats(
    seats: list[dict[str, Any]] | tuple[dict[str, Any], ...], seated: dict[int, int]
) -> list[dict[str, Any]]:
    """Seats as clients see them: kind, level, name, and whether a human seat is taken."""
    shown = []
    for index, seat in enumerate(seats):
        entry = {"seat": index, "kind": seat["kind"], "name": seat.get("name", f"Seat {index}")}
        if seat["kind"] == "bot":
            entry["level"] = seat.get("level", "random")
        else:
            entry["taken"] = index in seated
        shown.append(entry)
    return shown
