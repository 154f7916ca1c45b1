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
it fills a C ``float`` array (:attr:`Layout.blank`) cell by cell (most cells are zero, and one
item write there costs a fraction of a numpy call) and wraps it as a numpy array without a copy
(:func:`as_vector`). Storing a Python float in that array rounds it to ``float32`` exactly as a
numpy write does, so the vectors are the same as any other way of filling them. The parts that
grow with a deal (the public history, a pile that keeps every card) are tallied from what the
position adds to the last one encoded, which is what an environment asks for next: an
observation's cost does not grow with the length of the deal.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Sequence
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
        # Never written: blank() hands out copies. An array's own copy is a bare memcpy, half
        # the cost of building one from bytes, and binding it here saves a call per vector.
        self._zeros = array("f", bytes(4 * offset))
        self.blank: Callable[[], array[float]] = self._zeros.__copy__
        """An all-zero vector of this layout to fill cell by cell (see the module docstring)."""

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


class _Tally:
    """The public history of one ``events`` tuple, per **absolute** seat: copies of each card
    discarded and known to be held (``players x cards`` cells each). Never changed once made,
    so a tally may be shared freely."""

    __slots__ = ("discarded", "events", "known")

    def __init__(
        self, events: tuple[PublicEvent, ...], discarded: array[float], known: array[float]
    ):
        self.events = events
        self.discarded = discarded
        self.known = known


_LAST_TALLY: dict[tuple[int, int], _Tally] = {}
"""The last tally made per ``(players, cards)``. An environment's next observation is of a
state whose events extend the last one's by an event or two, so only those are read: without
this, every observation would read the whole deal's events again, and an Indian Rummy deal of
several hundred turns would cost quadratic time. A lookup that does not extend the last tally
(another game, a search jumping between states) reads its events from the start."""


def _fold(
    discarded: array[float],
    known: array[float],
    events: Sequence[PublicEvent],
    players: int,
    cards: int,
) -> None:
    """Add ``events`` to the absolute-seat tallies ``discarded`` and ``known`` in place."""
    kinds = _VERB_KINDS.get
    for event in events:
        kind = kinds(event.verb)
        if kind is None:
            continue
        if kind == _RESET:
            # Only the events since the last deal count (a view may keep older ones).
            blank = bytes(4 * players * cards)
            discarded[:] = array("f", blank)
            known[:] = array("f", blank)
            continue
        shown, seat = event.cards, event.seat
        if not shown or not 0 <= seat < players:
            continue
        row = seat * cards
        if kind == _TAKE:
            for card in shown:
                known[row + card] += 1.0
        else:
            card = shown[0]
            if card < cards:
                discarded[row + card] += 1.0
                if known[row + card] > 0.0:
                    known[row + card] -= 1.0


def _tally(events: Sequence[PublicEvent], players: int, cards: int) -> _Tally:
    """The tally of ``events``, extending the last one made when ``events`` begins with its."""
    held = tuple(events)
    key = (players, cards)
    last = _LAST_TALLY.get(key)
    if last is not None:
        if held is last.events:
            return last
        done = len(last.events)
        # Tuple comparison checks identity before equality, item by item in C: successive
        # states share their earlier events, so this costs a few nanoseconds an event.
        if len(held) >= done and held[:done] == last.events:
            discarded, known = last.discarded.__copy__(), last.known.__copy__()
            _fold(discarded, known, held[done:], players, cards)
            tally = _LAST_TALLY[key] = _Tally(held, discarded, known)
            return tally
    blank = bytes(4 * players * cards)
    discarded, known = array("f", blank), array("f", blank)
    _fold(discarded, known, held, players, cards)
    tally = _LAST_TALLY[key] = _Tally(held, discarded, known)
    return tally


def write_history(
    cells: array[float],
    events: Sequence[PublicEvent],
    me: int,
    players: int,
    cards: int,
    discarded: int,
    known: int,
) -> None:
    """Write the public history since the deal into ``cells`` (whose history blocks are still
    zero): per relative seat, the copies of each card it discarded (the block of
    ``players x cards`` cells at ``discarded``) and of each card it is known to hold (at
    ``known``), as the layouts document. A discard of a card the seat is known to hold lets one
    known copy go."""
    tally = _tally(events, players, cards)
    # Relative seats are the absolute rows rotated by ``me``: the rows from ``me`` on, then
    # those before it (the observer at seat 0 takes each block whole, with no copy).
    size = players * cards
    if me == 0:
        cells[discarded : discarded + size] = tally.discarded
        cells[known : known + size] = tally.known
        return
    cut = me * cards
    head = size - cut
    cells[discarded : discarded + head] = tally.discarded[cut:]
    cells[discarded + head : discarded + size] = tally.discarded[:cut]
    cells[known : known + head] = tally.known[cut:]
    cells[known + head : known + size] = tally.known[:cut]


class _Counts:
    """The copies of each card id in one tuple of cards (never changed once made)."""

    __slots__ = ("cards", "counts")

    def __init__(self, cards: tuple[int, ...], counts: array[float]) -> None:
        self.cards = cards
        self.counts = counts


_LAST_COUNTS: dict[int, _Counts] = {}
"""The last count made per block width: as with the history, a pile that grew or lost its top
since the last observation is counted from the difference, not card by card again (an Indian
Rummy pile keeps every card of a long deal)."""


def _counted(cards: tuple[int, ...], width: int) -> array[float]:
    """Copies of each card id below ``width`` in ``cards``."""
    last = _LAST_COUNTS.get(width)
    if last is not None:
        if cards is last.cards:
            return last.counts
        done, now = len(last.cards), len(cards)
        # As in _tally: C-level comparisons that meet the shared cards by identity.
        if now >= done and cards[:done] == last.cards:
            counts, change, step = last.counts.__copy__(), cards[done:], 1.0
        elif now < done and last.cards[:now] == cards:
            counts, change, step = last.counts.__copy__(), last.cards[now:], -1.0
        else:
            counts, change, step = array("f", bytes(4 * width)), cards, 1.0
    else:
        counts, change, step = array("f", bytes(4 * width)), cards, 1.0
    for card in change:
        if 0 <= card < width:
            counts[card] += step
    _LAST_COUNTS[width] = _Counts(cards, counts)
    return counts


def write_counts(cells: array[float], start: int, cards: Sequence[int], width: int) -> None:
    """Write the copies of each card in ``cards`` into the still-zero block of ``width`` cells
    at ``start`` (card ids outside the block are left out)."""
    cells[start : start + width] = _counted(tuple(cards), width)


def rel(seat: int | None, me: int, players: int) -> int:
    """A seat's place after ``me``, or ``players`` for no seat."""
    return players if seat is None or seat < 0 else (seat - me) % players
