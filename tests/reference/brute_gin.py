"""A slow, independent gin rummy deadwood counter to check :mod:`cardtable.melds.gin` against.

No tables and no set layouts: every run (of any length) and every set of the hand is listed
as a set of positions, and a recursive partition decides the lowest undecided card: deadwood,
or part of one of the melds that hold it. The best discard tries each card in turn.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations


def value(card: int) -> int:
    """Ace 1, two to ten their number, J Q K 10."""
    return min(card % 13 + 1, 10)


def all_melds(cards: tuple[int, ...]) -> list[int]:
    """Every run of 3+ cards of one suit in rank order (ace low only) and every 3-4 card set."""
    position = {card: i for i, card in enumerate(cards)}
    melds = []
    for suit in range(4):
        for start in range(13):
            for end in range(start + 2, 13):
                ranks = range(start, end + 1)
                if all(suit * 13 + r in position for r in ranks):
                    melds.append(sum(1 << position[suit * 13 + r] for r in ranks))
    for rank in range(13):
        held = [position[s * 13 + rank] for s in range(4) if s * 13 + rank in position]
        for size in (3, 4):
            for chosen in combinations(held, size):
                melds.append(sum(1 << i for i in chosen))
    return melds


def brute_deadwood(cards: tuple[int, ...]) -> int:
    """Least value of the cards left out of melds."""
    melds = all_melds(cards)
    values = [value(c) for c in cards]

    @cache
    def least(left: int) -> int:
        if not left:
            return 0
        lowest = (left & -left).bit_length() - 1
        best = values[lowest] + least(left & ~(1 << lowest))
        for meld in melds:
            if meld >> lowest & 1 and meld & left == meld:
                best = min(best, least(left & ~meld))
        return best

    return least((1 << len(cards)) - 1)


def brute_best_discard(cards: tuple[int, ...]) -> int:
    """Least deadwood after discarding one card, each card tried on its own."""
    return min(brute_deadwood(cards[:i] + cards[i + 1 :]) for i in range(len(cards)))


def is_meld(cards: tuple[int, ...]) -> bool:
    """A run of 3+ (ace low) or a set of 3-4, checked from scratch."""
    if len(cards) < 3:
        return False
    ranks = sorted(c % 13 for c in cards)
    suits = {c // 13 for c in cards}
    if len(set(ranks)) == 1:
        return len(cards) <= 4 and len(suits) == len(cards)
    return len(suits) == 1 and ranks == list(range(ranks[0], ranks[0] + len(cards)))
