"""Observation vectors: one seat's view of a game as a fixed-length ``float32`` array.

Each game's vector is a concatenation of named segments (:class:`Layout`); ``describe()`` lists
them with their offsets. This module holds what every game's encoder shares (the layout, the
public history since the deal, a writer of the non-zero cells, relative seats); each game's
research module (``cardtable.envs.<game>``) lays out and encodes its own view and documents
its segments. Only the seat's view is read, so the vector holds nothing the seat may not know.
Seats are **relative**: segment entry ``k`` of a per-seat block is the seat ``k`` places after
the observer (``0`` is the observer). Card blocks are indexed by card id and hold the number of
copies (0-2 in Indian Rummy, up to 3 WILDCARDs in Declaration Rummy) unless said otherwise.
Public history since the deal is encoded compactly as, per seat, the cards it discarded and the
cards it is known to hold (taken face up from the pile and not discarded since).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardtable.games.contract import PublicEvent

Vector = npt.NDArray[np.float32]

_TAKE_VERBS: Final = frozenset({"take-discard", "take-extra"})
_PUT_VERBS: Final = frozenset({"discard", "declare"})
_RESET_VERBS: Final = frozenset({"deal", "next-game"})


class Layout:
    """Named segments of an observation vector, in order."""

    def __init__(self, segments: Sequence[tuple[str, int]]) -> None:
        self.segments = tuple(segments)
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, size in self.segments:
            self.offsets[name] = offset
            offset += size
        self.size = offset

    def describe(self) -> list[str]:
        """One line per segment: ``name: start-end``."""
        return [
            f"{name}: {self.offsets[name]}-{self.offsets[name] + size - 1}"
            for name, size in self.segments
        ]


def history(
    events: Sequence[PublicEvent], me: int, players: int, cards: int
) -> tuple[list[dict[int, int]], list[dict[int, int]]]:
    """Per relative seat: cards discarded since the deal, and cards known to be held."""
    discarded: list[dict[int, int]] = [{} for _ in range(players)]
    known: list[dict[int, int]] = [{} for _ in range(players)]
    for event in events:
        verb = event.verb
        if verb in _RESET_VERBS:
            discarded = [{} for _ in range(players)]
            known = [{} for _ in range(players)]
            continue
        if not event.cards or not 0 <= event.seat < players:
            continue
        rel = (event.seat - me) % players
        if verb in _TAKE_VERBS:
            held = known[rel]
            for card in event.cards:
                held[card] = held.get(card, 0) + 1
        elif verb in _PUT_VERBS:
            card = event.cards[0]
            if card < cards:
                thrown = discarded[rel]
                thrown[card] = thrown.get(card, 0) + 1
                held = known[rel]
                if held.get(card, 0) > 0:
                    held[card] -= 1
    return discarded, known


class Writer:
    """Collects the non-zero cells of a vector segment by segment (in layout order), then
    builds the array in one step: most cells are zero, and one numpy call per cell would cost
    more than the whole encoding."""

    __slots__ = ("cells", "pos", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells: dict[int, float] = {}
        self.pos = 0

    def cards(self, cards: Sequence[int], width: int) -> None:
        cells, pos = self.cells, self.pos
        for card in cards:
            key = pos + card
            cells[key] = cells.get(key, 0.0) + 1.0
        self.pos = pos + width

    def counts(self, counts: dict[int, int], width: int) -> None:
        cells, pos = self.cells, self.pos
        for card, count in counts.items():
            if count:
                cells[pos + card] = float(count)
        self.pos = pos + width

    def one(self, index: int | None, width: int) -> None:
        if index is not None and 0 <= index < width:
            self.cells[self.pos + index] = 1.0
        self.pos += width

    def values(self, values: Sequence[float]) -> None:
        cells, pos = self.cells, self.pos
        for offset, value in enumerate(values):
            if value:
                cells[pos + offset] = value
        self.pos = pos + len(values)

    def done(self) -> Vector:
        out: Vector = np.zeros(self.size, dtype=np.float32)
        if self.cells:
            out[list(self.cells)] = list(self.cells.values())
        return out


def rel(seat: int | None, me: int, players: int) -> int:
    """A seat's place after ``me``, or ``players`` for no seat."""
    return players if seat is None or seat < 0 else (seat - me) % players


def rotate(values: Sequence[Any], me: int) -> list[Any]:
    """Per-seat ``values`` in relative order: ``me``'s first, then the seats after it."""
    return [*values[me:], *values[:me]]
