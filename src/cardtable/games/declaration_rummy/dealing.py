"""Dealing Declaration Rummy (RULES.md 3.3, 3.4, 3.10 items 8-10): the Preliminary that
chooses the first dealer, the Seating variation, the dealer's shuffle with the Missing Cards and
the Shuffle Option, the cut and the deal. Pure functions of cards and an injected generator; the
engine runs them as chance steps.

Packs are sequences whose **last** card is the top.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from cardtable.cards import random_below, rank_of, shuffled, suit_of
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import optional_card_ids

SEVEN_PILES: Final = 7
"""Piles of the Shuffle Option."""
_PRELIMINARY_SUIT_ORDER: Final = (3, 0, 1, 2)
"""Tie order of suits in the Preliminary, indexed by suit (S H D C): spades > clubs >
diamonds > hearts."""
_REGULAR: Final = tuple(range(52))


def preliminary_key(card: int) -> tuple[int, int]:
    """Order of Preliminary cards: rank (A lowest, K highest), then suit (hearts lowest).

    >>> from cardtable.cards import parse_card
    >>> preliminary_key(parse_card("KS")) > preliminary_key(parse_card("KH"))
    True
    """
    return (rank_of(card), _PRELIMINARY_SUIT_ORDER[suit_of(card)])


_PRELIMINARY_ORDER: Final = tuple(rank * 4 + suit for rank, suit in map(preliminary_key, _REGULAR))
""":func:`preliminary_key` of each regular card as one int, in the same order."""


def cut_pack(pack: tuple[int, ...], rng: random.Random) -> tuple[int, ...]:
    """Cut at a random depth (depth 0: the player chose not to cut)."""
    depth = random_below(rng, len(pack)) if pack else 0
    return pack[-depth:] + pack[:-depth] if depth else pack


def seven_piles(pack: list[int]) -> list[int]:
    """The Shuffle Option: deal the pack (top is last) one card at a time into seven piles,
    then stack them with the first pile on top.

    >>> seven_piles(list(range(14)))
    [7, 0, 8, 1, 9, 2, 10, 3, 11, 4, 12, 5, 13, 6]
    """
    piles: list[list[int]] = [[] for _ in range(SEVEN_PILES)]
    for index, card in enumerate(reversed(pack)):
        piles[index % SEVEN_PILES].append(card)
    stacked: list[int] = []
    for pile in reversed(piles):
        stacked.extend(pile)
    return stacked


class RandomDraws:
    """A shuffled pack dealt from the top, drawn lazily: each ``pop()`` is a uniformly random
    card not drawn yet (one step of a Fisher-Yates shuffle). The Preliminary deals from it."""

    def __init__(self, cards: Sequence[int], rng: random.Random) -> None:
        self._cards = list(cards)
        self._rng = rng

    def pop(self) -> int:
        cards = self._cards
        index = random_below(self._rng, len(cards))
        cards[index], cards[-1] = cards[-1], cards[index]
        return cards.pop()


def preliminary_deal(
    order: Sequence[int], dropped: Sequence[bool], pack: RandomDraws | Sequence[int]
) -> tuple[tuple[tuple[int, ...], ...], int]:
    """The Preliminary (RULES.md 3.3): deal ``pack`` (top card last) face up, clockwise from the
    left of the shuffler at table position 0, to each player still in until that player gets a
    regular card. Returns each seat's face-up cards (its regular card last) and the first
    dealer: the highest regular card, K high, A low, ties by suit spades > clubs > diamonds >
    hearts (DR14).

    >>> from cardtable.cards import parse_cards
    >>> dealt, dealer = preliminary_deal((0, 1), (False, False), parse_cards("KS KH", deck=None))
    >>> dealer, dealt[1]
    (0, (25,))
    """
    pop = (pack if isinstance(pack, RandomDraws) else list(pack)).pop
    n = len(order)
    dealt: list[tuple[int, ...]] = [()] * n
    # The highest card so far; regular cards are all different, so no two seats tie.
    dealer = best = -1
    for step in range(1, n + 1):
        seat = order[step % n]
        if dropped[seat]:
            continue
        card = pop()
        if card < 52:
            dealt[seat] = (card,)
        else:
            received = [card]
            card = pop()
            while card >= 52:  # optional cards are passed over
                received.append(card)
                card = pop()
            received.append(card)
            dealt[seat] = tuple(received)
        if _PRELIMINARY_ORDER[card] > best:
            dealer, best = seat, _PRELIMINARY_ORDER[card]
    if dealer < 0:
        raise ValueError("the Preliminary needs a player still in the game")
    return tuple(dealt), dealer


def choose_places(
    preliminary: Sequence[tuple[int, ...]], dealer: int, rng: random.Random
) -> tuple[int, ...]:
    """The Seating variation (RULES.md 3.10 item 9) with every choice made at random: the
    lowest Preliminary card takes any place, the first dealer the place to its right, then each
    next-lowest card a free place. Players without a Preliminary card (dropped before it) fill
    the places left. Returns the seat at each table position."""
    n = len(preliminary)
    choosers = sorted(
        (seat for seat in range(n) if preliminary[seat] and seat != dealer),
        key=lambda seat: preliminary_key(preliminary[seat][-1]),
    )
    place: dict[int, int] = {choosers[0]: random_below(rng, n)}
    place[dealer] = (place[choosers[0]] - 1) % n
    for seat in choosers[1:]:
        free = [p for p in range(n) if p not in place.values()]
        place[seat] = free[random_below(rng, len(free))]
    free = [p for p in range(n) if p not in place.values()]
    for seat in range(n):
        if seat not in place:
            place[seat] = free.pop(0)
    order = [0] * n
    for seat, position in place.items():
        order[position] = seat
    return tuple(order)


def deal_hands(
    order: Sequence[int],
    dealer: int,
    dropped: Sequence[bool],
    size: int,
    pack: Sequence[int],
) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
    """Deal ``size`` cards to each player still in, one at a time, clockwise from the dealer's
    left, from the top of ``pack`` (its last card). Returns the sorted hands and the stock.

    >>> hands, stock = deal_hands((0, 1, 2), 2, (False,) * 3, 2, (9, 8, 7, 6, 5, 4, 3))
    >>> hands, stock  # seat 0, left of dealer 2, gets the top card 3 first
    (((3, 6), (4, 7), (5, 8)), (9,))
    """
    n = len(order)
    start = order.index(dealer) + 1
    if True not in dropped:
        # Everybody is in: the k-th player from the dealer's left gets every n-th card from
        # the top, starting with the k-th.
        dealt = size * n
        rest = len(pack) - dealt
        from_top = pack[rest:][::-1]
        by_seat: list[tuple[int, ...]] = [()] * n
        for step in range(n):
            by_seat[order[(start + step) % n]] = tuple(sorted(from_top[step::n]))
        return tuple(by_seat), tuple(pack[:rest])
    cards = list(pack)
    hands: list[list[int]] = [[] for _ in range(n)]
    for _ in range(size):
        for step in range(n):
            seat = order[(start + step) % n]
            if not dropped[seat]:
                hands[seat].append(cards.pop())
    return tuple(tuple(sorted(h)) for h in hands), tuple(cards)


def shuffled_pack(rules: Rules, rng: random.Random) -> tuple[list[int], list[int]]:
    """The dealer's pack for a game, shuffled, and the cards removed unseen.

    With Missing Cards the chosen optional cards are shuffled and the top ``missing_optional``
    of them removed (at most as many as were chosen), then the rest is shuffled into the 52
    regular cards and the top ``missing_regular`` cards removed. The dealer then shuffles, and
    the Shuffle Option deals the pack into seven piles and stacks them.
    """
    if not rules.missing_cards and not rules.shuffle_option:
        return list(shuffled(_dealer_pack(rules.optional_cards), rng)), []
    optional = list(optional_card_ids(rules.optional_cards))
    removed: list[int] = []
    if rules.missing_cards:
        optional = list(shuffled(optional, rng))
        out = min(rules.missing_optional, len(optional))
        if out:
            removed.extend(optional[-out:])
            del optional[-out:]
        pack = [*_REGULAR, *optional]
        pack = list(shuffled(pack, rng))
        if rules.missing_regular:
            removed.extend(pack[-rules.missing_regular :])
            del pack[-rules.missing_regular :]
    else:
        pack = [*_REGULAR, *optional]
    pack = list(shuffled(pack, rng))
    if rules.shuffle_option:
        pack = seven_piles(pack)
    return pack, removed


@lru_cache(maxsize=64)
def _dealer_pack(labels: tuple[str, ...]) -> tuple[int, ...]:
    """The pack the dealer shuffles without Missing Cards: the regular cards, then the
    optional ones in the order the rules list them (the order the shuffle draws keys in)."""
    return (*_REGULAR, *optional_card_ids(labels))
