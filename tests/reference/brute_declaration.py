"""Brute-force reference for Declaration Rummy counts and going out, written straight from the
rule text (RULES.md 3.6-3.8) and sharing no code with :mod:`cardtable.melds.declaration`.

It enumerates every partition of the hand into melds and single unmelded cards: the first card
is either left out or joined with every subset of the cards it could share a meld with, and each
candidate meld is checked by assigning every WILDCARD an explicit card it stands for (a rank for
a group, a position from low ace 1 to high ace 14 for a sequence). It is slow and only meant for
the small hands the tests compare against the solver.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache
from itertools import combinations, product

WILD = 53
COUNT_VALUES = {54: 1, 55: 2, 56: 3, 57: 4, 58: 7, 59: 12}
NEVER_MELD_VALUES = {60: 0, 61: 2, 62: 0}
WILD_LEFT_OUT = 20


def left_out_value(card: int) -> int:
    """Count of a card that is not in a meld (RULES.md 3.7)."""
    if card < 52:
        return card % 13 + 1
    if card == WILD:
        return WILD_LEFT_OUT
    if card in COUNT_VALUES:
        return COUNT_VALUES[card]
    return NEVER_MELD_VALUES[card]


def explicit_group(cards: Sequence[int]) -> list[int] | None:
    """The represented card ranks of ``cards`` read as a group, or None if they are not one."""
    if len(cards) < 3 or any(c != WILD and c >= 52 for c in cards):
        return None
    for rank in range(13):
        represented = [rank if c == WILD else c % 13 for c in cards]
        if all(r == rank for r in represented):
            return represented
    return None


def explicit_sequence(cards: Sequence[int]) -> list[int] | None:
    """Positions (1 = low ace … 14 = high ace) the cards take as one sequence, or None."""
    size = len(cards)
    if size < 3 or any(c != WILD and c >= 52 for c in cards):
        return None
    naturals = [c for c in cards if c != WILD]
    wild_count = size - len(naturals)
    if len({c // 13 for c in naturals}) > 1:
        return None
    for start in range(1, 15 - size + 1):
        window = set(range(start, start + size))
        choices = [[p for p in _positions(c) if p in window] for c in naturals]
        for placed in product(*choices):
            if len(set(placed)) == len(placed):
                free = sorted(window - set(placed))
                if len(free) == wild_count:
                    return [*placed, *free]
    return None


def _positions(card: int) -> list[int]:
    rank = card % 13
    return [1, 14] if rank == 0 else [rank + 1]


def is_count_group(cards: Sequence[int]) -> bool:
    """3+ cards, at least one COUNT card, no more than six, the rest WILDCARDs."""
    counts = [c for c in cards if c in COUNT_VALUES]
    return (
        len(cards) >= 3
        and 1 <= len(counts) <= 6
        and all(c in COUNT_VALUES or c == WILD for c in cards)
    )


def brute_is_meld(cards: Sequence[int]) -> bool:
    """A group, a sequence or a COUNT group (NO MELD / CAN'T DECLARE cards never meld)."""
    return (
        is_count_group(cards)
        or explicit_group(cards) is not None
        or explicit_sequence(cards) is not None
    )


def _may_share_meld(first: int, other: int) -> bool:
    """Whether two cards can ever sit in one meld (used only to skip hopeless subsets)."""
    if first in NEVER_MELD_VALUES or other in NEVER_MELD_VALUES:
        return False
    if first == WILD or other == WILD:
        return True
    if first in COUNT_VALUES or other in COUNT_VALUES:
        return first in COUNT_VALUES and other in COUNT_VALUES
    return first % 13 == other % 13 or first // 13 == other // 13


def _least(hand: tuple[int, ...], weight_of: dict[int, int]) -> int:
    @cache
    def least(rest: tuple[int, ...]) -> int:
        if not rest:
            return 0
        first, others = rest[0], rest[1:]
        best = weight_of[first] + least(others)
        partners = [i for i, c in enumerate(others) if _may_share_meld(first, c)]
        for size in range(2, len(partners) + 1):
            for chosen in combinations(partners, size):
                meld = [first, *(others[i] for i in chosen)]
                if brute_is_meld(meld):
                    remaining = tuple(c for i, c in enumerate(others) if i not in chosen)
                    best = min(best, least(remaining))
        return best

    return least(tuple(sorted(hand)))


def brute_count(hand: Iterable[int]) -> int:
    """Least total count of the unmelded cards over every partition into melds."""
    cards = tuple(hand)
    return _least(cards, {c: left_out_value(c) for c in cards})


def brute_can_go_out(hand: Iterable[int]) -> bool:
    """Some partition leaves at most one card unmelded and lays down at least one meld."""
    cards = tuple(hand)
    if len(cards) < 3:
        return False
    return _least(cards, dict.fromkeys(cards, 1)) <= 1


def brute_can_go_out_single_meld(hand: Iterable[int]) -> bool:
    """Going Out Major or Minor: the whole hand, or all of it but one card, is one meld."""
    cards = tuple(hand)
    if brute_is_meld(cards):
        return True
    return any(brute_is_meld(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))
