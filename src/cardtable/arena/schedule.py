"""Who plays whom in the arena, on which deals, in which seats.

Duplicate play removes the luck of the deal: every deal is played once per seat rotation of its
lineup, so each bot sits in each seat of the same deal. All lineups play the same numbered deals.

* Heads-up (``players=2``): one lineup per pair of bots, two rotations per deal.
* More seats: every combination of ``players`` bots when there are enough bots, otherwise the
  bots repeated in order to fill the table; ``players`` cyclic rotations per deal.

>>> [lineup.bots for lineup in lineups(("hard", "normal", "easy"), 2)]
[('hard', 'normal'), ('hard', 'easy'), ('normal', 'easy')]
>>> rotations(("a", "b", "c"))
[('a', 'b', 'c'), ('c', 'a', 'b'), ('b', 'c', 'a')]
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass

from cardtable.errors import RulesError


@dataclass(frozen=True, slots=True)
class Lineup:
    """The bots at one table, by label, in the seat order of the first rotation."""

    index: int
    bots: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Task:
    """One unit of work: deals ``first_deal .. first_deal+deals-1`` of one lineup, each played
    in every rotation."""

    lineup: Lineup
    first_deal: int
    deals: int


def unique_labels(levels: Sequence[str]) -> tuple[str, ...]:
    """Labels for the requested bots; a level asked for twice becomes ``normal``, ``normal#2``.

    >>> unique_labels(["normal", "normal", "easy"])
    ('normal', 'normal#2', 'easy')
    """
    seen: dict[str, int] = {}
    labels = []
    for level in levels:
        seen[level] = seen.get(level, 0) + 1
        labels.append(level if seen[level] == 1 else f"{level}#{seen[level]}")
    return tuple(labels)


def level_of(label: str) -> str:
    """The level a label names (``normal#2`` -> ``normal``)."""
    return label.split("#", 1)[0]


def lineups(labels: Sequence[str], players: int) -> list[Lineup]:
    """Every table the arena plays (see the module docstring)."""
    if len(labels) < 2:
        raise RulesError("the arena needs at least two bots")
    if players < 2:
        raise RulesError(f"the arena needs at least two seats, not {players}")
    if len(labels) >= players:
        tables = list(itertools.combinations(labels, players))
    else:
        tables = [tuple(labels[i % len(labels)] for i in range(players))]
    return [Lineup(index, bots) for index, bots in enumerate(tables)]


def rotations(bots: Sequence[str]) -> list[tuple[str, ...]]:
    """The cyclic seatings of a lineup: in rotation ``r`` seat ``s`` holds ``bots[s - r]``."""
    size = len(bots)
    return [tuple(bots[(seat - shift) % size] for seat in range(size)) for shift in range(size)]


def deals_for(games: int, players: int) -> int:
    """Deals needed so that each lineup plays at least ``games`` games."""
    return max(1, -(-games // players))


def derived_seed(*parts: object) -> int:
    """A 63-bit seed that depends only on ``parts`` (stable across platforms and runs)."""
    digest = hashlib.sha256(":".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def deal_seed(master: int, deal: int) -> int:
    """The game seed of deal number ``deal`` of an arena seeded with ``master``."""
    return derived_seed("arena-deal", master, deal)


def tasks(table: Sequence[Lineup], deals: int, chunk: int) -> list[Task]:
    """The work split into tasks of at most ``chunk`` deals each, deals interleaved across
    lineups so that partial results stay balanced."""
    out = []
    for start in range(0, deals, chunk):
        for lineup in table:
            out.append(Task(lineup, start, min(chunk, deals - start)))
    return out
