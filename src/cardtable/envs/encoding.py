"""Observation vectors: one seat's view of a game as a fixed-length ``float32`` array.

Each game's vector is a concatenation of named segments (:class:`Layout`); ``describe()`` lists
them with their offsets. This module holds what every game's encoder shares (the layout and its
blank vector, the wrapping of a filled one as a numpy array, the public history since the deal,
relative seats); each game's research module (``cardtable.envs.<game>``) lays out and encodes
its own view and documents its segments. Only the seat's view is read, so the vector holds
nothing the seat may not know. Seats are **relative**: segment entry ``k`` of a per-seat block
is the seat ``k`` places after the observer (``0`` is the observer). Card blocks are indexed by
card id and hold the number of copies (0-2 in Indian Rummy, up to 3 WILDCARDs in Declaration
Rummy) unless said otherwise. Public history since the deal is encoded compactly as, per seat,
the cards it discarded and the cards it is known to hold (taken face up from the pile and not
discarded since).

An encoder runs for every observation an environment hands out, so it is written for speed:
it fills a C ``float`` array (:meth:`Layout.blank`) cell by cell (most cells are zero, and one
item write there costs a fraction of a numpy call) and wraps it as a numpy array without a copy
(:func:`as_vector`). Storing a Python float in that array rounds it to ``float32`` exactly as a
numpy write does, so the vectors are the same as any other way of filling them.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from typing import Final

import numpy as np
import numpy.typing as npt

from cardtable.games.contract import PublicEvent

Vector = npt.NDArray[np.float32]

if array("f").itemsize != 4:  # pragma: no cover - every platform numpy supports
    raise ImportError("observation vectors need 4-byte C floats")

_FLOAT32: Final = np.dtype(np.float32)
_TAKE, _PUT, _RESET = 1, 2, 3
_VERB_KINDS: Final = {
    "take-discard": _TAKE, "take-extra": _TAKE,
    "discard": _PUT, "declare": _PUT,
    "deal": _RESET, "next-game": _RESET,
}  # fmt: skip
"""The verbs the public history follows: cards taken face up, cards put down, a new deal."""


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
        self.starts: tuple[int, ...] = tuple(self.offsets[name] for name, _ in self.segments)
        """Each segment's first cell, in layout order (an encoder unpacks them at once)."""
        self._zeros = bytes(4 * offset)

    def blank(self) -> array[float]:
        """An all-zero vector of this layout to fill cell by cell (see the module docstring)."""
        return array("f", self._zeros)

    def describe(self) -> list[str]:
        """One line per segment: ``name: start-end``."""
        return [
            f"{name}: {self.offsets[name]}-{self.offsets[name] + size - 1}"
            for name, size in self.segments
        ]


def as_vector(cells: array[float]) -> Vector:
    """The filled ``cells`` as a ``float32`` numpy array sharing their memory (no copy)."""
    # dtype passed by position: numpy's keyword parsing would cost as much as the wrapping.
    return np.frombuffer(cells, _FLOAT32)


def write_history(
    cells: array[float],
    events: Sequence[PublicEvent],
    me: int,
    players: int,
    cards: int,
    discarded: int,
    known: int,
) -> None:
    """Add the public history since the deal to ``cells``: per relative seat, the copies of
    each card it discarded (the block of ``players x cards`` cells at ``discarded``) and of
    each card it is known to hold (at ``known``), as the layouts document. A discard of a card
    the seat is known to hold lets one known copy go."""
    kinds = _VERB_KINDS.get
    for event in events:
        kind = kinds(event.verb)
        if kind is None:
            continue
        if kind == _RESET:
            # Only the events since the last deal count (a view may keep older ones).
            width = players * cards
            cells[discarded : discarded + width] = array("f", bytes(4 * width))
            cells[known : known + width] = array("f", bytes(4 * width))
            continue
        shown, seat = event.cards, event.seat
        if not shown or not 0 <= seat < players:
            continue
        row = (seat - me) % players * cards
        if kind == _TAKE:
            held = known + row
            for card in shown:
                cells[held + card] += 1.0
        else:
            card = shown[0]
            if card < cards:
                cells[discarded + row + card] += 1.0
                held = known + row + card
                if cells[held] > 0.0:
                    cells[held] -= 1.0


def rel(seat: int | None, me: int, players: int) -> int:
    """A seat's place after ``me``, or ``players`` for no seat."""
    return players if seat is None or seat < 0 else (seat - me) % players
