"""Cached questions about one Declaration Rummy hand that the engine asks at every turn: its
count, whether it can go out, whether it may declare. The answers come from the exact solver in
:mod:`cardtable.melds.declaration`; hands are kept sorted, so a hand tuple is its own cache key,
and random playouts and search revisit the same hands often.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Final

from cardtable.cards import CANT_DECLARE_0
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.melds.declaration import (
    card_count,
    dr_can_go_out,
    dr_count,
    is_meld,
    surely_cannot_go_out,
    surely_unmelded,
)

CARD_COUNTS: Final = tuple(card_count(card) if card != 52 else 0 for card in range(63))
"""What each card id counts unmelded (the printed joker, id 52, is not in this game)."""


@lru_cache(maxsize=1 << 16)
def hand_count(hand: tuple[int, ...]) -> int:
    """The count of a sorted hand (cached :func:`~cardtable.melds.declaration.dr_count`).

    A meld needs three cards, so a smaller hand simply adds up its cards, and three cards
    count nothing when they form one meld and their sum otherwise (a test checks every
    three-card hand against the solver). Small hands are cached too: a ten-player game counts
    ten two-card hands at its end, and a cache hit costs less than the sum.
    """
    size = len(hand)
    if size == 3:
        return 0 if is_meld(hand) else sum(map(CARD_COUNTS.__getitem__, hand))
    if size < 3 or surely_unmelded(hand) == size:
        return sum(map(CARD_COUNTS.__getitem__, hand))  # no card can meld
    return dr_count(hand)


@lru_cache(maxsize=1 << 16)
def hand_can_go_out(hand: tuple[int, ...], single_meld: bool) -> bool:
    """Whether a sorted hand can go out (cached ``dr_can_go_out``, after a few bit tests that
    turn down most hands far from it).

    Three cards go out only as one meld of all three (two cards never meld), whether or not
    Going Out Major or Minor is in play: the hand of every turn with eight players or more,
    answered by :func:`~cardtable.melds.declaration.is_meld` without the search (a test checks
    every three-card hand against the solver)."""
    if len(hand) == 3:
        return is_meld(hand)
    if surely_cannot_go_out(hand):
        return False
    return dr_can_go_out(hand, single_meld=single_meld)


def may_declare(hand: tuple[int, ...], rules: Rules) -> bool:
    """Declaring is allowed with this hand (after drawing): no CAN'T DECLARE 0, and under the Gin
    Rummy variation a raw count of at most ``gin_threshold`` (DR12, DR13)."""
    if CANT_DECLARE_0 in hand:
        return False
    return not rules.gin_rummy or hand_count(hand) <= rules.gin_threshold
