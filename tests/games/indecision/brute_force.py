"""An independent, deliberately slow reference for the Indecision counting rules (RULES.md 1.6).

It shares no code with :mod:`cardtable.melds.indecision`: it enumerates every subset of the five
cards, classifies each subset as every meld type it could be, and then applies the suppression
rules C1-C3 (and the ``bike_inside_longer_run_counts`` alternative) literally, subset by subset.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

RANKS = 13


def _rank(card: int) -> int:
    return card % 13


def _suit(card: int) -> int:
    return card // 13


def _circular_consecutive(ranks: list[int]) -> bool:
    """True when the distinct ranks form one unbroken arc of the 13-rank circle."""
    if len(set(ranks)) != len(ranks):
        return False
    present = set(ranks)
    # An arc has exactly one member whose predecessor is absent.
    starts = [r for r in present if (r - 1) % RANKS not in present]
    return len(starts) == 1


def _extends(hand: tuple[int, ...], ranks: set[int]) -> bool:
    """True when some card of the hand continues the rank arc at either end."""
    hand_ranks = {_rank(c) for c in hand}
    start = next(r for r in ranks if (r - 1) % RANKS not in ranks)
    end = next(r for r in ranks if (r + 1) % RANKS not in ranks)
    return (start - 1) % RANKS in hand_ranks or (end + 1) % RANKS in hand_ranks


def reference_melds(
    hand: tuple[int, ...], values: Any, bike_inside_longer_run_counts: bool = False
) -> list[tuple[str, frozenset[int], int]]:
    """Every counted meld as (name, cards, points)."""
    counted: list[tuple[str, frozenset[int], int]] = []
    sequences: list[tuple[frozenset[int], bool]] = []  # maximal-interval picks: (cards, bike?)
    same_suit_arcs: list[frozenset[int]] = []
    for size in range(2, 6):
        for subset in combinations(hand, size):
            ranks = [_rank(c) for c in subset]
            suits = {_suit(c) for c in subset}
            cards = frozenset(subset)
            # C1: a same-rank group counts only when it is all cards of that rank in the hand.
            if len(set(ranks)) == 1 and sum(1 for c in hand if _rank(c) == ranks[0]) == size:
                if size == 2:
                    counted.append(("Pair", cards, values.pair))
                elif size == 3:
                    counted.append(("Prile of 3", cards, values.prile_3))
                else:
                    counted.append(("Prile of 4", cards, values.prile_4))
            if size >= 3 and _circular_consecutive(ranks):
                if len(suits) == 1:
                    same_suit_arcs.append(cards)
                # C2: only picks spanning a maximal arc count.
                if not _extends(hand, set(ranks)):
                    sequences.append((cards, len(suits) == 1))
            # C3: one flush of all the suit's cards, unless those cards are one arc.
            if size >= 3 and len(suits) == 1:
                suit = next(iter(suits))
                if sum(1 for c in hand if _suit(c) == suit) == size and not _circular_consecutive(
                    ranks
                ):
                    counted.append((f"Flush of {size}", cards, getattr(values, f"flush_{size}")))
    for cards, bike in sequences:
        n = len(cards)
        if bike:
            counted.append((f"Run on a Bike of {n}", cards, getattr(values, f"bike_{n}")))
        else:
            counted.append((f"Run of {n}", cards, getattr(values, f"run_{n}")))
    if bike_inside_longer_run_counts:
        mixed_runs = [cards for cards, bike in sequences if not bike]
        bikes = [cards for cards, bike in sequences if bike]
        for arc in same_suit_arcs:
            inside_mixed = any(arc < run for run in mixed_runs)
            inside_bike = any(arc <= bike for bike in bikes)
            maximal = not any(arc < other for other in same_suit_arcs)
            if inside_mixed and not inside_bike and maximal:
                n = len(arc)
                counted.append((f"Run on a Bike of {n}", arc, getattr(values, f"bike_{n}")))
    return counted


def reference_count(
    hand: tuple[int, ...], values: Any, bike_inside_longer_run_counts: bool = False
) -> tuple[int, bool, list[tuple[str, frozenset[int], int]]]:
    """(score, all cards used, melds) by the reference rules."""
    melds = reference_melds(hand, values, bike_inside_longer_run_counts)
    used = frozenset().union(*(cards for _, cards, _ in melds)) if melds else frozenset()
    prile_4 = any(name == "Prile of 4" for name, _, _ in melds)
    return sum(points for _, _, points in melds), prile_4 or used == frozenset(hand), melds
