"""Cards as small ints: encoding, parsing, formatting, decks and card sets.

A regular card is ``suit * 13 + rank`` with ranks ``0..12`` = A, 2 … 10, J, Q, K and suits
``0..3`` = spades, hearts, diamonds, clubs, so each suit is a contiguous 13-bit block of a
bitmask (which the sequence searches in :mod:`cardtable.melds` rely on). The printed joker of
Indian Rummy and the twelve optional cards of Declaration Rummy follow as ids 52..62.

A hand is a tuple of card ints. Indian Rummy plays with two decks and Declaration Rummy has three
WILDCARDs, so a hand may hold the same id more than once; :class:`Deck` says how many copies of
each id a game's pack holds and :func:`check_hand` rejects what a pack cannot produce.

Every spelling players use is read by :func:`parse_card`, and only there:

>>> parse_cards("10H TH 10♥ qs")
Traceback (most recent call last):
...
cardtable.errors.CardError: duplicate card 10H: this game plays with one deck
>>> [format_card(c) for c in parse_cards("10H qs PJ JK W C12 NM2", deck=None)]
['10H', 'QS', 'PJ', 'PJ', 'W', 'C12', 'NM2']
>>> format_cards(parse_cards("7♥ a♠ kd"), symbols=True)
'7♥ A♠ K♦'
"""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Iterable, Mapping, MutableSequence, Sequence
from dataclasses import dataclass, field
from itertools import repeat
from operator import itemgetter
from typing import Final

from cardtable.errors import CardError

Card = int
"""A card id: 0..51 regular cards, then the printed joker and the Declaration Rummy specials."""

SPADES: Final = 0
HEARTS: Final = 1
DIAMONDS: Final = 2
CLUBS: Final = 3
SUIT_LETTERS: Final = "SHDC"
SUIT_SYMBOLS: Final = "♠♥♦♣"
SUIT_NAMES: Final = ("spades", "hearts", "diamonds", "clubs")

ACE: Final = 0
JACK: Final = 10
QUEEN: Final = 11
KING: Final = 12
RANK_LABELS: Final = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES: Final = (
    "ace", "two", "three", "four", "five", "six", "seven",
    "eight", "nine", "ten", "jack", "queen", "king",
)  # fmt: skip
RANK_PLURALS: Final = (
    "aces", "twos", "threes", "fours", "fives", "sixes", "sevens",
    "eights", "nines", "tens", "jacks", "queens", "kings",
)  # fmt: skip

PRINTED_JOKER: Final = 52
WILDCARD: Final = 53
COUNT_1: Final = 54
COUNT_2: Final = 55
COUNT_3: Final = 56
COUNT_4: Final = 57
COUNT_7: Final = 58
COUNT_12: Final = 59
NO_MELD_0: Final = 60
NO_MELD_2: Final = 61
CANT_DECLARE_0: Final = 62
CARD_IDS: Final = 63

COUNT_CARDS: Final = (COUNT_1, COUNT_2, COUNT_3, COUNT_4, COUNT_7, COUNT_12)
COUNT_CARD_VALUES: Final = {
    COUNT_1: 1,
    COUNT_2: 2,
    COUNT_3: 3,
    COUNT_4: 4,
    COUNT_7: 7,
    COUNT_12: 12,
}
OPTIONAL_CARDS: Final = (*COUNT_CARDS, NO_MELD_0, NO_MELD_2, CANT_DECLARE_0, WILDCARD)
"""The Declaration Rummy optional card kinds (WILDCARD comes three times in the pack)."""

SPECIAL_LABELS: Final = {
    PRINTED_JOKER: "PJ",
    WILDCARD: "W",
    COUNT_1: "C1",
    COUNT_2: "C2",
    COUNT_3: "C3",
    COUNT_4: "C4",
    COUNT_7: "C7",
    COUNT_12: "C12",
    NO_MELD_0: "NM0",
    NO_MELD_2: "NM2",
    CANT_DECLARE_0: "CD0",
}
SPECIAL_NAMES: Final = {
    PRINTED_JOKER: "printed joker",
    WILDCARD: "WILDCARD",
    COUNT_1: "COUNT 1",
    COUNT_2: "COUNT 2",
    COUNT_3: "COUNT 3",
    COUNT_4: "COUNT 4",
    COUNT_7: "COUNT 7",
    COUNT_12: "COUNT 12",
    NO_MELD_0: "NO MELD 0",
    NO_MELD_2: "NO MELD 2",
    CANT_DECLARE_0: "CAN'T DECLARE 0",
}

_SPECIAL_SPELLINGS: Final = {
    "PJ": PRINTED_JOKER,
    "JK": PRINTED_JOKER,
    "JOKER": PRINTED_JOKER,
    "W": WILDCARD,
    "WILD": WILDCARD,
    "WILDCARD": WILDCARD,
    "C1": COUNT_1,
    "C2": COUNT_2,
    "C3": COUNT_3,
    "C4": COUNT_4,
    "C7": COUNT_7,
    "C12": COUNT_12,
    "NM0": NO_MELD_0,
    "NM2": NO_MELD_2,
    "CD0": CANT_DECLARE_0,
}
_RANK_SPELLINGS: Final = {
    "A": ACE, "1": ACE, "2": 1, "3": 2, "4": 3, "5": 4, "6": 5, "7": 6, "8": 7, "9": 8,
    "10": 9, "T": 9, "J": JACK, "Q": QUEEN, "K": KING,
}  # fmt: skip
_SUIT_SPELLINGS: Final = {
    "S": SPADES, "♠": SPADES, "♤": SPADES,
    "H": HEARTS, "♥": HEARTS, "♡": HEARTS,
    "D": DIAMONDS, "♦": DIAMONDS, "♢": DIAMONDS,
    "C": CLUBS, "♣": CLUBS, "♧": CLUBS,
}  # fmt: skip
_REGULAR_PATTERN: Final = re.compile(r"^(10|[2-9AKQJT1])([SHDC♠♤♥♡♦♢♣♧])$")
_SEPARATORS: Final = re.compile(r"[\s,]+")


def make_card(rank: int, suit: int) -> Card:
    """The id of the regular card of ``rank`` (0 = ace … 12 = king) and ``suit`` (0..3)."""
    return suit * 13 + rank


def is_regular(card: Card) -> bool:
    """True for the 52 ranked and suited cards."""
    return 0 <= card < 52


def rank_of(card: Card) -> int:
    """Rank index of a regular card: 0 = ace, 1 = two, …, 12 = king."""
    return card % 13


def suit_of(card: Card) -> int:
    """Suit index of a regular card: 0 spades, 1 hearts, 2 diamonds, 3 clubs."""
    return card // 13


def parse_rank(text: str) -> int:
    """Read a rank such as ``7``, ``10``, ``T`` or ``q`` (as for a wild rank).

    >>> parse_rank("q"), parse_rank("10"), parse_rank("A")
    (11, 9, 0)
    """
    key = text.strip().upper()
    if key in _RANK_SPELLINGS:
        return _RANK_SPELLINGS[key]
    raise CardError(f"unknown rank {text!r}: expected A, 2-10, J, Q or K")


def parse_card(text: str) -> Card:
    """Read one card in any accepted spelling; raise :class:`CardError` naming it otherwise.

    >>> parse_card("10♥") == parse_card("TH") == parse_card("th")
    True
    >>> parse_card("1X")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.errors.CardError: unknown card '1X': expected a rank (A 2-10 J Q K) and a suit ...
    """
    key = text.strip().upper()
    special = _SPECIAL_SPELLINGS.get(key)
    if special is not None:
        return special
    match = _REGULAR_PATTERN.match(key)
    if match is None:
        raise CardError(
            f"unknown card {text!r}: expected a rank (A 2-10 J Q K) and a suit (S H D C), "
            "or PJ, W, C1-C12, NM0, NM2, CD0"
        )
    return make_card(_RANK_SPELLINGS[match.group(1)], _SUIT_SPELLINGS[match.group(2)])


def format_card(card: Card, *, symbols: bool = False) -> str:
    """The short label of a card: ``10H``, ``QS``, ``PJ``, ``C12``; suit symbols on request."""
    if not symbols:
        # Read from a table: views label every card of every pile after every move.
        label = _LABELS.get(card)
        if label is not None:
            return label
    if is_regular(card):
        suit = SUIT_SYMBOLS[suit_of(card)] if symbols else SUIT_LETTERS[suit_of(card)]
        return RANK_LABELS[rank_of(card)] + suit
    try:
        return SPECIAL_LABELS[card]
    except KeyError:
        raise CardError(f"no card has the id {card}") from None


_LABELS: Final[dict[Card, str]] = {
    card: RANK_LABELS[rank_of(card)] + SUIT_LETTERS[suit_of(card)] for card in range(52)
} | dict(SPECIAL_LABELS)


def card_labels(cards: Iterable[Card]) -> list[str]:
    """The short labels of several cards, as :func:`format_card` writes them, in order.

    >>> card_labels([0, 22, 35, 52])
    ['AS', '10H', '10D', 'PJ']
    """
    labels = _LABELS
    return [labels[card] if card in labels else format_card(card) for card in cards]


def card_name(card: Card) -> str:
    """The spoken name of a card, for screen readers and explanations: ``ten of hearts``."""
    if is_regular(card):
        return f"{RANK_NAMES[rank_of(card)]} of {SUIT_NAMES[suit_of(card)]}"
    return SPECIAL_NAMES[card]


def format_cards(cards: Iterable[Card], *, symbols: bool = False) -> str:
    """Labels of several cards, separated by spaces."""
    return " ".join(format_card(card, symbols=symbols) for card in cards)


@dataclass(frozen=True)
class Deck:
    """How many copies of each card id one game's pack holds, and the game's name for errors."""

    name: str
    copies: Mapping[Card, int] = field(hash=False)

    @property
    def size(self) -> int:
        """Number of physical cards in the pack."""
        return sum(self.copies.values())

    def cards(self) -> tuple[Card, ...]:
        """Every physical card of the pack, in id order (duplicates repeated)."""
        return tuple(card for card, n in sorted(self.copies.items()) for _ in range(n))


def _regular_copies(decks: int) -> dict[Card, int]:
    return dict.fromkeys(range(52), decks)


ONE_DECK: Final = Deck("one deck", _regular_copies(1))
INDECISION_DECK: Final = Deck("Indecision", _regular_copies(1))
INDIAN_RUMMY_DECK: Final = Deck("Indian Rummy", {**_regular_copies(2), PRINTED_JOKER: 2})
DECLARATION_RUMMY_DECK: Final = Deck(
    "Declaration Rummy",
    {**_regular_copies(1), **dict.fromkeys(OPTIONAL_CARDS, 1), WILDCARD: 3},
)


def check_hand(cards: Iterable[Card], deck: Deck) -> tuple[Card, ...]:
    """Return ``cards`` as a tuple if ``deck`` could deal them, else raise :class:`CardError`.

    >>> check_hand(parse_cards("7S 7S", deck=None), INDIAN_RUMMY_DECK) == (6, 6)
    True
    >>> check_hand(parse_cards("W", deck=None), INDIAN_RUMMY_DECK)
    Traceback (most recent call last):
    ...
    cardtable.errors.CardError: card W is not in the Indian Rummy pack
    """
    hand = tuple(cards)
    for card, n in Counter(hand).items():
        allowed = deck.copies.get(card, 0)
        if allowed == 0:
            raise CardError(f"card {format_card(card)} is not in the {deck.name} pack")
        if n > allowed:
            if allowed == 1 and is_regular(card):
                raise CardError(
                    f"duplicate card {format_card(card)}: this game plays with one deck"
                )
            raise CardError(
                f"too many {format_card(card)}: the {deck.name} pack has {allowed}, "
                f"the hand has {n}"
            )
    return hand


def parse_cards(text: str | Iterable[str], *, deck: Deck | None = ONE_DECK) -> tuple[Card, ...]:
    """Read a hand from a string (spaces or commas between cards) or from a list of labels.

    With ``deck`` (one standard deck by default) the hand is also checked against that pack;
    ``deck=None`` accepts any multiset of valid cards.

    >>> parse_cards(["AS", "2s", "3♠"])
    (0, 1, 2)
    """
    tokens = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    cards = tuple(parse_card(token) for token in tokens)
    return cards if deck is None else check_hand(cards, deck)


def cards_mask(cards: Iterable[Card]) -> int:
    """A bitmask with bit ``card`` set for each card (multiplicity is lost)."""
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


def mask_cards(mask: int) -> tuple[Card, ...]:
    """The card ids whose bits are set in ``mask``, ascending."""
    out: list[Card] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return tuple(out)


def sort_key(card: Card) -> tuple[int, int]:
    """Display order: by suit (S H D C), then rank; specials last."""
    if is_regular(card):
        return (suit_of(card), rank_of(card))
    return (4, card)


def sorted_cards(cards: Iterable[Card]) -> tuple[Card, ...]:
    """Cards in display order."""
    return tuple(sorted(cards, key=sort_key))


def without(cards: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """``cards`` with one copy of ``card`` taken out (``ValueError`` if it holds none).

    >>> format_cards(without(parse_cards("7H 8H 7H", deck=None), parse_card("7H")))
    '8H 7H'
    """
    held = tuple(cards)
    index = held.index(card)
    return held[:index] + held[index + 1 :]


def shuffled(cards: Sequence[Card], rng: random.Random) -> tuple[Card, ...]:
    """``cards`` in a uniformly random order drawn from ``rng``: the shuffle of every game that
    sorts by random keys (Indian Rummy's and Declaration Rummy's packs and reshuffles).

    Each card gets the next ``rng.random()`` in turn and the cards are sorted by these keys, so
    every order has the same chance (two equal keys, the only departure, have odds near 1e-12
    for a pack). The sort runs in C: a third cheaper than ``random.shuffle``, whose loop runs in
    Python, and the deal is most of a random playout.

    >>> shuffled((10, 20, 30, 40), random.Random(2))
    (30, 40, 20, 10)
    >>> shuffled((), random.Random(5)), shuffled((7,), random.Random(5))
    ((), (7,))

    A generator with a ``card_order`` method orders the cards itself: the OpenSpiel adapter's
    does, choosing them one at a time as chance outcomes.
    """
    order = getattr(rng, "card_order", None)
    if order is not None:
        return tuple(order(cards))
    if type(rng) is random.Random:
        # The same keys drawn without a Python-level call per card.
        keys = list(map(_RANDOM, repeat(rng, len(cards))))
    else:
        draw = rng.random
        keys = [draw() for _ in cards]
    if len(keys) < 2:
        return tuple(cards)
    dealt: tuple[Card, ...] = itemgetter(*sorted(range(len(keys)), key=keys.__getitem__))(cards)
    return dealt


# Seeded games must deal the same cards forever, and a generator's draws are what define them.
# For a plain ``random.Random`` the helpers below make exactly the draws of its own
# ``randrange`` and ``shuffle`` (the same ``getrandbits`` calls in the same order, so the same
# results and the same generator state after), without their Python-level layers: those two
# methods draw ``getrandbits(n.bit_length())`` until the number is below ``n``. Any other
# generator (a subclass, the OpenSpiel adapter's scripted one) is asked through its methods.
_RANDOM: Final = random.Random.random
_BELOW_BITS: Final = tuple((size, size.bit_length()) for size in range(256))
"""For each size up to 255: ``(size, size.bit_length())``, the draw ``randrange(size)`` makes."""
_SHUFFLE_STEPS: Final = tuple((i, i + 1, (i + 1).bit_length()) for i in range(255))
"""Fisher-Yates steps: position ``i`` swaps with ``randrange(i + 1)``."""


def random_below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: the same number from the same draws, more cheaply (the cost:
    benchmarks/README.md), for a plain ``random.Random`` (a cut, a first dealer, one card of a
    lazy shuffle).

    >>> a, b = random.Random(9), random.Random(9)
    >>> [random_below(a, 52) for _ in range(5)] == [b.randrange(52) for _ in range(5)]
    True
    """
    if type(rng) is not random.Random or not 0 < n < 256:
        return rng.randrange(n)
    size, bits = _BELOW_BITS[n]
    getrandbits = rng.getrandbits
    number = getrandbits(bits)
    while number >= size:
        number = getrandbits(bits)
    return number


def shuffle_in_place(cards: MutableSequence[Card], rng: random.Random) -> None:
    """``rng.shuffle(cards)``: the same order from the same draws, in about a third of the time
    for a plain ``random.Random`` (Indecision's deals and reshuffles).

    >>> a, b = list(range(10)), list(range(10))
    >>> shuffle_in_place(a, random.Random(4)); random.Random(4).shuffle(b); a == b
    True
    """
    n = len(cards)
    if type(rng) is not random.Random or n > len(_SHUFFLE_STEPS):
        rng.shuffle(cards)
        return
    if n < 2:
        return
    getrandbits = rng.getrandbits
    # Fisher-Yates from the end, as random.shuffle: position i swaps with one of 0..i.
    for i, size, bits in _SHUFFLE_STEPS[n - 1 : 0 : -1]:
        j = getrandbits(bits)
        while j >= size:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
