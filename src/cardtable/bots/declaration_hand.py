"""Declaration Rummy hand arithmetic shared by the computer players, the rival model and the
coach: counts (cached by the engine), which cards could share a meld, a count that credits
near-melds, and the discard leaving the lowest count."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from cardtable.cards import WILDCARD, Card, is_regular, without
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.actions import Action
from cardtable.games.declaration_rummy.engine import hand_count
from cardtable.melds.declaration import card_count, dr_best


def sorted_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A hand in the engine's sorted order (the count cache's key)."""
    return tuple(sorted(cards))


def count_of(cards: Sequence[Card]) -> int:
    """The count of a hand (cached by the engine)."""
    return hand_count(sorted_hand(cards))


def legal_discards(legal: Sequence[Action]) -> list[Card]:
    """Cards that may be discarded now."""
    return [a.card for a in legal if isinstance(a, act.Discard)]


def touches(card: Card, other: Card) -> bool:
    """Two regular cards that could share a meld: same rank, or same suit at most two ranks
    apart (no wrap: K-A-2 is no sequence, but Q-K-A is)."""
    if not (is_regular(card) and is_regular(other)) or card == other:
        return False
    if card % 13 == other % 13:
        return True
    if card // 13 != other // 13:
        return False
    low, high = sorted((card % 13, other % 13))
    return high - low <= 2 or (low == 0 and high >= 11)


@lru_cache(maxsize=1 << 15)
def shaped_count(hand: tuple[Card, ...], keep_weight: float) -> float:
    """The count, less a share of the unmelded cards that touch another card of the hand (they
    are one card from a meld, so the count is likely to drop)."""
    count, _, unmelded = dr_best(hand)
    promising = 0
    for card in unmelded:
        if card == WILDCARD:
            continue
        if any(touches(card, other) for other in hand):
            promising += card_count(card)
    return count - keep_weight * promising


def best_discard(
    hand: Sequence[Card], allowed: Sequence[Card], keep_weight: float = 0.0
) -> tuple[float, Card]:
    """The discard leaving the lowest (shaped) count: ``(value, card)``; ties throw the card
    counting most."""
    best: tuple[float, int, Card] | None = None
    for card in dict.fromkeys(allowed):
        rest = sorted_hand(without(hand, card))
        value = shaped_count(rest, keep_weight) if keep_weight else float(hand_count(rest))
        key = (value, -card_count(card), card)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[0], best[2]
