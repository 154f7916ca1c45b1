"""Small helpers shared by the meld benchmarks: seeded hand sets and per-hand median timing.

Timing: each hand is timed on its own (a short loop of calls, best of a few repeats, so a
single scheduler hiccup does not count), and a set's figure is the median over its hands in
microseconds per call. When several contenders are compared they are timed hand by hand, one
after another, so that the machine's load falls on all of them alike.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.cards import INDIAN_RUMMY_DECK, PRINTED_JOKER, Card

Hand = tuple[Card, ...]


@dataclass(frozen=True)
class Timing:
    """Per-hand microseconds of one contender over one hand set."""

    per_hand: tuple[float, ...]

    @property
    def median(self) -> float:
        return statistics.median(self.per_hand)

    @property
    def p90(self) -> float:
        ordered = sorted(self.per_hand)
        return ordered[min(len(ordered) - 1, int(len(ordered) * 0.9))]

    @property
    def mean(self) -> float:
        return statistics.fmean(self.per_hand)


def time_call(call: Callable[[], Any], loops: int, repeats: int) -> float:
    """Best of ``repeats`` runs of ``loops`` calls, in microseconds per call."""
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(loops):
            call()
        best = min(best, time.perf_counter() - start)
    return best / loops * 1e6


def time_side_by_side(
    contenders: Sequence[tuple[str, Callable[[Any], Any]]],
    inputs: Sequence[Sequence[Any]],
    loops: int = 5,
    repeats: int = 3,
) -> dict[str, Timing]:
    """Time every contender on each hand in turn: ``inputs[k][i]`` is contender k's form of
    hand i (engines number cards differently, so each gets its own converted copy)."""
    per_hand: dict[str, list[float]] = {name: [] for name, _ in contenders}
    for index in range(len(inputs[0])):
        for (name, function), forms in zip(contenders, inputs, strict=True):
            call = functools.partial(function, forms[index])
            per_hand[name].append(time_call(call, loops, repeats))
    return {name: Timing(tuple(values)) for name, values in per_hand.items()}


# ---------------------------------------------------------------------------------------------
# Gin rummy hands (one 52-card deck, card = suit * 13 + rank, suits S H D C).


def gin_random_hands(seed: int, size: int, count: int) -> list[Hand]:
    """Uniformly random hands of distinct cards."""
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), size)) for _ in range(count)]


def gin_meld_rich_hand(rng: random.Random, size: int) -> Hand:
    """Two or three disjoint melds (runs of 3-5 cards, sets of 3-4) plus random filler."""
    while True:
        cards: set[Card] = set()
        for _ in range(rng.choice((2, 3))):
            if rng.random() < 0.5:
                suit, length = rng.randrange(4), rng.choice((3, 4, 5))
                start = rng.randrange(14 - length)
                meld = {suit * 13 + start + k for k in range(length)}
            else:
                rank = rng.randrange(13)
                meld = {s * 13 + rank for s in rng.sample(range(4), rng.choice((3, 4)))}
            if not meld & cards:
                cards |= meld
        if len(cards) <= size:
            rest = [c for c in range(52) if c not in cards]
            cards |= set(rng.sample(rest, size - len(cards)))
            hand = list(cards)
            rng.shuffle(hand)
            return tuple(hand)


def gin_meld_rich_hands(seed: int, size: int, count: int) -> list[Hand]:
    """``count`` meld-rich hands from one seeded generator."""
    rng = random.Random(seed)
    return [gin_meld_rich_hand(rng, size) for _ in range(count)]


# ---------------------------------------------------------------------------------------------
# Indian Rummy hands (two decks and two printed jokers) with a wild rank each.

INDIAN_PACK: tuple[Card, ...] = INDIAN_RUMMY_DECK.cards()
WILD_CHOICES: tuple[int | None, ...] = (None, *range(13))


def indian_random_hands(seed: int, size: int, count: int) -> list[tuple[Hand, int | None]]:
    """Random deals from the 106-card pack, each with a random wild rank (or none)."""
    rng = random.Random(seed)
    return [(tuple(rng.sample(INDIAN_PACK, size)), rng.choice(WILD_CHOICES)) for _ in range(count)]


def indian_meld_rich_hand(rng: random.Random, size: int) -> Hand:
    """Runs of 3-6 and sets of 3-4 (overlaps give two-deck duplicates) with a few strays and
    printed jokers: close to a show, many ways to lay."""
    while True:
        cards: list[Card] = []
        while len(cards) < size:
            roll = rng.random()
            if roll < 0.45:
                suit, length = rng.randrange(4), rng.randint(3, 6)
                start = rng.randrange(14 - length)
                cards += [suit * 13 + (start + k) % 13 for k in range(length)]
            elif roll < 0.8:
                rank = rng.randrange(13)
                cards += [s * 13 + rank for s in rng.sample(range(4), rng.choice((3, 4)))]
            else:
                cards.append(PRINTED_JOKER if rng.random() < 0.4 else rng.randrange(52))
        hand = cards[:size]
        if max(Counter(hand).values()) <= 2:
            rng.shuffle(hand)
            return tuple(hand)


def indian_meld_rich_hands(seed: int, size: int, count: int) -> list[tuple[Hand, int | None]]:
    """``count`` meld-rich hands from one seeded generator, each with a random wild rank."""
    rng = random.Random(seed)
    return [(indian_meld_rich_hand(rng, size), rng.choice(WILD_CHOICES)) for _ in range(count)]


def format_row(cells: Sequence[object], widths: Sequence[int]) -> str:
    """One row of a plain-text table: text left-aligned, numbers right-aligned."""
    parts = []
    for cell, width in zip(cells, widths, strict=True):
        text = f"{cell:.1f}" if isinstance(cell, float) else str(cell)
        parts.append(text.ljust(width) if isinstance(cell, str) else text.rjust(width))
    return "  ".join(parts)
