"""Who sits at a table: checking the seats a client asks for, naming them, finding the creator.

A client asks for seats as ``{"kind": "human"}`` or ``{"kind": "bot", "level": ...}`` (a
:class:`SeatRequest` each); the server keeps each as a frozen
:class:`Seat` (kind, display name, level), stored as JSON. Computer players are named after
the players of the rule book's examples and friends, so that announcements read as a story
("Ruby took 7H from the pile").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from cardtable.errors import RulesError
from cardtable.server.people.names import BOT_NAMES

# The levels of cardtable.bots.Level, spelled out because requests are strict (a Level field
# would refuse the JSON string); tests/test_registry.py keeps the two the same.
BotLevel = Literal["random", "easy", "normal", "hard"]


class SeatRequest(BaseModel):
    """One seat of a new table: a person, or a computer player at a level (the profile's
    difficulty when left out). The request's seats are read as this model, so its kind and
    level are checked once, where they are read (unknown fields and loose types refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    kind: Literal["human", "bot"]
    level: BotLevel | None = None


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat of a table: a person or a computer player (with its level), and its name."""

    kind: Literal["human", "bot"]
    name: str
    level: str | None = None
    """Computer players only."""

    @property
    def is_bot(self) -> bool:
        """Whether a computer player sits here."""
        return self.kind == "bot"

    def named(self, name: str) -> Seat:
        """The same seat under another name (a person sitting down)."""
        return replace(self, name=name)

    def to_json(self) -> dict[str, Any]:
        """The stored form.

        >>> Seat("bot", "Ruby", "easy").to_json()
        {'kind': 'bot', 'name': 'Ruby', 'level': 'easy'}
        """
        stored: dict[str, Any] = {"kind": self.kind, "name": self.name}
        if self.level is not None:
            stored["level"] = self.level
        return stored

    @classmethod
    def from_json(cls, data: Mapping[str, Any], index: int) -> Seat:
        """A stored seat (older rows may lack a name or a bot's level).

        >>> Seat.from_json({"kind": "bot"}, 2)
        Seat(kind='bot', name='Seat 2', level='random')
        """
        if data.get("kind") == "bot":
            return cls(
                "bot", str(data.get("name", f"Seat {index}")), str(data.get("level", "random"))
            )
        return cls("human", str(data.get("name", f"Seat {index}")))


def seats_from_json(stored: Sequence[Mapping[str, Any]]) -> list[Seat]:
    """Stored seats as :class:`Seat` values."""
    return [Seat.from_json(seat, index) for index, seat in enumerate(stored)]


def check_seats(
    choices: Sequence[SeatRequest] | None, players: int | None, default_level: str
) -> list[Seat]:
    """The seats as stored (kind, level for bots, name), or ``RulesError`` naming the problem.
    Each choice's kind and level were read by the request's model: what is left to check is
    what needs the rules (as many seats as players) and a seat for the creator.

    ``choices`` may be ``None``: the creator plays seat 0 against bots at ``default_level``.

    >>> human, bot = SeatRequest(kind="human"), SeatRequest(kind="bot")
    >>> [seat.name for seat in check_seats([human, bot], 2, "easy")]
    ['Player', 'Ruby']
    >>> check_seats([bot], 1, "easy")
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: at least one seat must be {"kind": "human"} for you to sit at
    """
    if choices is None:
        count = players if players is not None else 2
        choices = [SeatRequest(kind="human")] + [SeatRequest(kind="bot")] * (count - 1)
    if players is not None and len(choices) != players:
        raise RulesError(f"the rules are for {players} players but {len(choices)} seats were given")
    seats: list[Seat] = []
    bots = 0
    for choice in choices:
        if choice.kind == "human":
            seats.append(Seat("human", "Player"))
        else:
            level = default_level if choice.level is None else choice.level
            seats.append(Seat("bot", BOT_NAMES[bots % len(BOT_NAMES)], level))
            bots += 1
    if all(seat.is_bot for seat in seats):
        raise RulesError('at least one seat must be {"kind": "human"} for you to sit at')
    return seats


def first_human_seat(seats: Sequence[Seat]) -> int:
    """The seat the table's creator takes."""
    return next(index for index, seat in enumerate(seats) if not seat.is_bot)


def public_seats(
    seats: Sequence[Seat | Mapping[str, Any]], seated: Mapping[int, int]
) -> list[dict[str, Any]]:
    """Seats as clients see them: kind, level, name, and whether a human seat is taken."""
    shown = []
    for index, raw in enumerate(seats):
        seat = raw if isinstance(raw, Seat) else Seat.from_json(raw, index)
        entry: dict[str, Any] = {"seat": index, "kind": seat.kind, "name": seat.name}
        if seat.is_bot:
            entry["level"] = seat.level
        else:
            entry["taken"] = index in seated
        shown.append(entry)
    return shown
