"""Exact meld and count solver for Declaration Rummy (RULES.md 3.6-3.8).

This module owns what a Declaration Rummy meld is (a group, a sequence or a COUNT group, with
WILDCARDs standing in anywhere) and the search for a hand's **count**: the smallest total of the
cards left out of melds, over every way of forming disjoint melds. It also answers whether a
hand can go out (every card melded but at most one), in the base game and under Going Out Major
or Minor (the melded cards form one single meld), and the Four 7's test. It is pure and made for
hot loops: the engine and search bots call :func:`dr_count` and :func:`dr_can_go_out` many
thousands of times a second.

How the search works, and why it is exact:

* NO MELD 0, NO MELD 2 and CAN'T DECLARE 0 never meld, so they are always counted.
* COUNT cards meld only with each other and wildcards, and one COUNT group may hold all of them,
  so they are either all melded (short of three, wildcards top them up) or all left out.
* Regular cards are bits ``4 * rank + suit`` of a mask (rank-major, so a group is one nibble and
  a meld never reaches far past the card being decided, which keeps the memo small for long
  hands). A depth-first search decides the lowest remaining card: leave it out, or meld it with
  one of the candidate melds whose lowest card it is. Each candidate is a set of regular cards
  with the fewest wildcards it needs (gaps in a sequence, or the top-up to three cards).
* A wildcard is worth 20 when left out, so spare wildcards join any meld that has room: a group
  or COUNT group takes any number, a sequence can grow to 14 cards (A low to A high). Three spare
  wildcards form a group of their own. The search carries how much room its melds have (enough
  to know whether the spares fit), so every way to place a wildcard is covered.
* States ``(remaining cards, wildcards left, room)`` are memoised, which makes the search
  polynomial in practice while staying exhaustive.

>>> from cardtable.cards import parse_cards
>>> hand = parse_cards("2H 3H 4H 4S 4C")
>>> dr_count(hand)
5
>>> dr_count(parse_cards("C12 W W 5H", deck=None))
5
>>> dr_can_go_out(parse_cards("2H 3H 4H 9S 9D 9C")), dr_can_go_out(
...     parse_cards("2H 3H 4H 9S 9D 9C"), single_meld=True)
(True, False)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations
from typing import Final, Literal

from cardtable.cards import (
    CANT_DECLARE_0,
    COUNT_CARD_VALUES,
    NO_MELD_0,
    NO_MELD_2,
    RANK_LABELS,
    WILDCARD,
    Card,
    format_card,
    make_card,
)
from cardtable.errors import CardError

MeldKind = Literal["group", "sequence", "count group"]

WILDCARD_UNMELDED_COUNT: Final = 20
"""What a WILDCARD counts when it is not in a meld (0 when it is)."""
MAX_WILDCARDS: Final = 3
"""WILDCARDs in the Declaration Rummy pack."""
LONGEST_SEQUENCE: Final = 14
"""A sequence runs at most from a low ace to a high ace."""

UNMELDABLE_COUNTS: Final = {NO_MELD_0: 0, NO_MELD_2: 2, CANT_DECLARE_0: 0}
"""The cards that never meld, with their counts."""

SEVENS: Final = (6, 19, 32, 45)
"""The four natural sevens (7S 7H 7D 7C)."""

_UNBOUNDED_ROOM: Final = 99
"""Room for extra wildcards in a group or COUNT group: any number fits."""
_ROOM_CLIP: Final = 2
"""Room beyond two never matters: three spare wildcards make their own group."""

# Rank-major bit of each regular card, and each bit's card and count.
_BIT_OF_CARD: Final = tuple(4 * (card % 13) + card // 13 for card in range(52))
_CARD_OF_BIT: Final = tuple(make_card(bit // 4, bit % 4) for bit in range(52))
_COUNT_OF_BIT: Final = tuple(bit // 4 + 1 for bit in range(52))
_PER_LOOSE_CARD: Final = 1000
"""Going-out weights: a loose card costs this plus its count, so the search leaves the fewest
cards out first and, among those arrangements, the lowest count."""
_GO_OUT_OF_BIT: Final = tuple(_PER_LOOSE_CARD + count for count in _COUNT_OF_BIT)

Candidate = tuple[int, int, int]
"""A candidate meld: (mask of its regular cards, wildcards it needs, room for more wildcards)."""
Arrangement = tuple[tuple[tuple[Card, ...], ...], tuple[Card, ...]]
"""Melds (each a tuple of cards in display order) and the unmelded cards."""


def card_count(card: Card) -> int:
    """What ``card`` counts when it is left out of melds (a WILDCARD counts 20 there).

    >>> from cardtable.cards import parse_card
    >>> [card_count(parse_card(t)) for t in ("AS", "10H", "KD", "C12", "NM2", "CD0", "W")]
    [1, 10, 13, 12, 2, 0, 20]
    """
    if 0 <= card < 52:
        return card % 13 + 1
    if card == WILDCARD:
        return WILDCARD_UNMELDED_COUNT
    value = COUNT_CARD_VALUES.get(card)
    if value is None:
        value = UNMELDABLE_COUNTS.get(card)
    if value is None:
        raise CardError(f"{_label(card)} is not a Declaration Rummy card")
    return value


def has_four_natural_sevens(cards: Iterable[Card]) -> bool:
    """True when ``cards`` hold all four regular 7s (the Four 7's variation; wildcards never count).

    >>> from cardtable.cards import parse_cards
    >>> has_four_natural_sevens(parse_cards("7S 7H 7D 7C 2H")), has_four_natural_sevens(
    ...     parse_cards("7S 7H 7D W", deck=None))
    (True, False)
    """
    held = set(cards)
    return all(seven in held for seven in SEVENS)


# --------------------------------------------------------------------------------------------
# Single melds


def is_meld(cards: Sequence[Card]) -> bool:
    """True when ``cards`` form one valid meld: group, sequence or COUNT group (RULES.md 3.6).

    >>> from cardtable.cards import parse_cards
    >>> def meld(text: str) -> bool:
    ...     return is_meld(parse_cards(text, deck=None))
    >>> meld("7S 7H 7D 7C W"), meld("W W W"), meld("QH KH AH"), meld("KH AH 2H")
    (True, True, True, False)
    >>> meld("5H W 7H"), meld("C1 C7 W"), meld("C1 7S W"), meld("NM0 W W")
    (True, True, False, False)
    """
    size = len(cards)
    if size < 3:
        return False
    wilds = 0
    count_cards = 0
    ranks = 0
    suits = 0
    naturals = 0
    regular = 0
    for card in cards:
        if 0 <= card < 52:
            bit = 1 << card
            if naturals & bit:
                return False
            naturals |= bit
            regular += 1
            ranks |= 1 << (card % 13)
            suits |= 1 << (card // 13)
        elif card == WILDCARD:
            wilds += 1
        elif card in COUNT_CARD_VALUES:
            count_cards += 1
        else:
            return False
    if count_cards:
        return regular == 0 and count_cards <= len(COUNT_CARD_VALUES)
    if regular == 0 or ranks & (ranks - 1) == 0:
        return True  # all wildcards, or one rank: a group
    if suits & (suits - 1) or ranks.bit_count() != regular:
        return False
    return _sequence_span(ranks) <= size <= LONGEST_SEQUENCE


def _sequence_span(ranks: int) -> int:
    """Positions a set of ranks of one suit covers, with the ace placed low or high (best)."""
    low_first = (ranks & -ranks).bit_length()  # ace low: position = rank + 1
    span = ranks.bit_length() - low_first + 1
    if ranks & 1:
        rest = ranks ^ 1
        if rest:  # ace high, at position 14
            span = min(span, LONGEST_SEQUENCE - (rest & -rest).bit_length() + 1)
    return span


@dataclass(frozen=True, slots=True)
class MeldShape:
    """A meld named and laid out: its kind, its cards in display order (wildcards in place,
    sequences by rank) and, for each wildcard in that order, what it stands for: a rank label
    (``7``) in a group, a card label (``8H``) in a sequence, ``COUNT`` in a COUNT group and
    ``any`` in a group of wildcards only."""

    kind: MeldKind
    cards: tuple[Card, ...]
    wildcards_as: tuple[str, ...]


def meld_shape(cards: Sequence[Card]) -> MeldShape | None:
    """Name and lay out a meld; ``None`` when ``cards`` are not one valid meld.

    >>> from cardtable.cards import parse_cards, format_cards
    >>> shape = meld_shape(parse_cards("KH W QH", deck=None))
    >>> shape.kind, format_cards(shape.cards), shape.wildcards_as
    ('sequence', 'QH KH W', ('AH',))
    >>> shape = meld_shape(parse_cards("AD W 2D", deck=None))
    >>> format_cards(shape.cards), shape.wildcards_as
    ('AD 2D W', ('3D',))
    """
    if not is_meld(cards):
        return None
    wilds = sum(1 for card in cards if card == WILDCARD)
    naturals = sorted(card for card in cards if 0 <= card < 52)
    count_cards = sorted(card for card in cards if card in COUNT_CARD_VALUES)
    if count_cards:
        return MeldShape("count group", (*count_cards, *(WILDCARD,) * wilds), ("COUNT",) * wilds)
    if not naturals:
        return MeldShape("group", (WILDCARD,) * wilds, ("any",) * wilds)
    ranks = {card % 13 for card in naturals}
    if len(ranks) == 1:
        label = RANK_LABELS[naturals[0] % 13]
        return MeldShape("group", (*naturals, *(WILDCARD,) * wilds), (label,) * wilds)
    suit = naturals[0] // 13
    by_position = _sequence_positions(naturals, len(cards))
    laid_out: list[Card] = []
    stands_for: list[str] = []
    for position in sorted(by_position):
        card = by_position[position]
        laid_out.append(card)
        if card == WILDCARD:
            stands_for.append(format_card(make_card((position - 1) % 13, suit)))
    return MeldShape("sequence", tuple(laid_out), tuple(stands_for))


def _sequence_positions(naturals: Sequence[Card], size: int) -> dict[int, Card]:
    """Place a valid sequence's natural cards and wildcards on positions 1 (low ace) to 14."""
    low = {card % 13 + 1: card for card in naturals}
    high = {(14 if card % 13 == 0 else card % 13 + 1): card for card in naturals}
    for placed in (low, high):  # the ace goes low unless only high fits
        first, last = min(placed), max(placed)
        if last - first + 1 <= size:
            # Spare wildcards extend upwards, then downwards once the high ace is reached.
            start = first if first + size - 1 <= LONGEST_SEQUENCE else LONGEST_SEQUENCE - size + 1
            return {p: placed.get(p, WILDCARD) for p in range(start, start + size)}
    raise AssertionError("not a sequence")  # pragma: no cover - callers check is_meld first


# --------------------------------------------------------------------------------------------
# Hands


def _split(
    cards: Iterable[Card],
) -> tuple[int, list[int], int, list[Card], list[Card]]:
    """Sort a hand into regular cards (rank-major mask and per-suit rank patterns), wildcards,
    COUNT cards and never-melding cards, rejecting what the Declaration Rummy pack cannot deal."""
    naturals = 0
    patterns = [0, 0, 0, 0]
    wilds = 0
    count_cards: list[Card] = []
    unmeldable: list[Card] = []
    for card in cards:
        if 0 <= card < 52:
            bit = 1 << _BIT_OF_CARD[card]
            if naturals & bit:
                raise CardError(
                    f"duplicate card {format_card(card)}: this game plays with one deck"
                )
            naturals |= bit
            patterns[card // 13] |= 1 << (card % 13)
        elif card == WILDCARD:
            wilds += 1
        elif card in COUNT_CARD_VALUES:
            count_cards.append(card)
        elif card in UNMELDABLE_COUNTS:
            unmeldable.append(card)
        else:
            raise CardError(f"{_label(card)} is not in the Declaration Rummy pack")
    if wilds > MAX_WILDCARDS:
        raise CardError(
            f"too many W: the Declaration Rummy pack has {MAX_WILDCARDS}, the hand has {wilds}"
        )
    for specials in (count_cards, unmeldable):
        if len(specials) > 1 and len(set(specials)) != len(specials):
            duplicate = next(c for c in specials if specials.count(c) > 1)
            raise CardError(f"too many {format_card(duplicate)}: the Declaration Rummy pack has 1")
    return naturals, patterns, wilds, count_cards, unmeldable


def _label(card: object) -> str:
    try:
        return format_card(card)  # type: ignore[arg-type]
    except (CardError, TypeError):
        return f"card id {card!r}"


@cache
def _sequence_candidates(pattern: int, wilds: int) -> tuple[Candidate, ...]:
    """Every sequence from one suit's ranks ``pattern`` (bit = rank) using at most ``wilds``
    wildcards: natural cards as a suit-0 rank-major mask, wildcards needed, room to grow.

    A candidate holds at least two natural cards (one card and wildcards is a group). Natural
    cards inside the span may be skipped, a wildcard taking their place, because the skipped
    card may be wanted in a group.
    """
    positions = [rank + 1 for rank in range(13) if pattern >> rank & 1]
    if pattern & 1:
        positions.append(LONGEST_SEQUENCE)  # the ace again, high
    fewest_needed: dict[int, int] = {}
    for i, low in enumerate(positions):
        for j in range(i + 1, len(positions)):
            high = positions[j]
            span = high - low + 1
            if span >= LONGEST_SEQUENCE:
                break  # one ace cannot sit at both ends
            inner = positions[i + 1 : j]
            holes = span - 2 - len(inner)
            if holes > wilds:
                break
            for skipped in range(min(len(inner), wilds - holes) + 1):
                for skip in combinations(inner, skipped):
                    chosen = [low, high, *(p for p in inner if p not in skip)]
                    needed = max(span - len(chosen), 3 - len(chosen))
                    if needed > wilds:
                        continue
                    ranks = 0
                    for position in chosen:
                        ranks |= 1 << (position - 1) % 13
                    if needed < fewest_needed.get(ranks, LONGEST_SEQUENCE):
                        fewest_needed[ranks] = needed
    out: list[Candidate] = []
    for ranks, needed in fewest_needed.items():
        mask = 0
        for rank in range(13):
            if ranks >> rank & 1:
                mask |= 1 << (4 * rank)
        out.append((mask, needed, LONGEST_SEQUENCE - ranks.bit_count() - needed))
    out.sort(key=lambda candidate: -candidate[0].bit_count())  # larger melds first
    return tuple(out)


def _group_table() -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """[wildcards 0..2][suits nibble] -> (suit subset, wildcards needed) of every group."""
    table = []
    for wilds in range(3):
        per_nibble = []
        for nibble in range(16):
            options = []
            for subset in range(1, 16):
                if subset & nibble == subset:
                    needed = max(0, 3 - subset.bit_count())
                    if needed <= wilds:
                        options.append((subset, needed))
            options.sort(key=lambda option: -option[0].bit_count())  # larger melds first
            per_nibble.append(tuple(options))
        table.append(tuple(per_nibble))
    return tuple(table)


_GROUPS: Final = _group_table()


def _candidates(
    naturals: int, patterns: list[int], wilds: int
) -> tuple[dict[int, list[Candidate]], int]:
    """Candidate melds of a hand's regular cards, keyed by their lowest bit, and the mask of
    cards that fit in at least one candidate (the others are always unmelded)."""
    by_low: dict[int, list[Candidate]] = {}
    covered = 0
    group_options = _GROUPS[min(wilds, 2)]
    for rank in range(13):
        nibble = naturals >> (4 * rank) & 15
        if nibble:
            for subset, needed in group_options[nibble]:
                mask = subset << (4 * rank)
                covered |= mask
                low = (mask & -mask).bit_length() - 1
                by_low.setdefault(low, []).append((mask, needed, _UNBOUNDED_ROOM))
    sequence_wilds = min(wilds, 11)
    for suit in range(4):
        pattern = patterns[suit]
        if pattern & (pattern - 1):
            for mask, needed, room in _sequence_candidates(pattern, sequence_wilds):
                mask <<= suit
                covered |= mask
                low = (mask & -mask).bit_length() - 1
                by_low.setdefault(low, []).append((mask, needed, room))
    return by_low, covered


def _unmelded_total(mask: int, weights: Sequence[int]) -> int:
    total = 0
    while mask:
        low = mask & -mask
        total += weights[low.bit_length() - 1]
        mask ^= low
    return total


# --------------------------------------------------------------------------------------------
# The search


Solver = Callable[[int, int, int], int]


def _plain_solver(
    by_low: dict[int, list[Candidate]], weights: Sequence[int], memo: dict[int, int]
) -> Callable[[int], int]:
    """Least unmelded weight of a set of regular cards with no wildcards to place."""

    def best(mask: int) -> int:
        if not mask:
            return 0
        known = memo.get(mask)
        if known is not None:
            return known
        low = mask & -mask
        bit = low.bit_length() - 1
        result = weights[bit] + best(mask ^ low)
        for meld, _, _ in by_low.get(bit, ()):
            if meld & mask == meld:
                value = best(mask ^ meld)
                if value < result:
                    result = value
                    if not value:
                        break
        memo[mask] = result
        return result

    return best


def _wild_solver(
    by_low: dict[int, list[Candidate]],
    weights: Sequence[int],
    wild_weight: int,
    memo: dict[int, int],
) -> Solver:
    """Least unmelded weight of regular cards plus ``wilds`` wildcards, given ``room`` for
    spare wildcards in melds already formed (clipped to 2)."""

    def best(mask: int, wilds: int, room: int) -> int:
        if not mask:
            if wilds >= 3 or wilds <= room:
                return 0
            return (wilds - room) * wild_weight
        if not wilds:
            room = 0
        key = (mask << 4) | (wilds << 2) | room
        known = memo.get(key)
        if known is not None:
            return known
        low = mask & -mask
        bit = low.bit_length() - 1
        result = weights[bit] + best(mask ^ low, wilds, room)
        for meld, needed, extra in by_low.get(bit, ()):
            if needed <= wilds and meld & mask == meld:
                grown = room + extra
                value = best(mask ^ meld, wilds - needed, grown if grown < 2 else 2)
                if value < result:
                    result = value
                    if not value:
                        break
        memo[key] = result
        return result

    return best


class _Search:
    """One hand's search, shared by the count, best-arrangement and going-out questions."""

    __slots__ = ("by_low", "count_cards", "dead", "live", "unmeldable", "wilds")

    def __init__(self, cards: Iterable[Card]) -> None:
        naturals, patterns, wilds, count_cards, unmeldable = _split(cards)
        self.wilds = wilds
        self.count_cards = count_cards
        self.unmeldable = unmeldable
        self.by_low, covered = _candidates(naturals, patterns, wilds)
        self.live = naturals & covered
        self.dead = naturals & ~covered

    def count_options(self) -> list[tuple[bool, int]]:
        """Ways to treat the COUNT cards: (melded?, wildcards it takes)."""
        held = len(self.count_cards)
        options: list[tuple[bool, int]] = []
        if held and held + self.wilds >= 3:
            options.append((True, max(0, 3 - held)))
        if held < 3:
            options.append((False, 0))
        return options

    def least(
        self, weights: Sequence[int], wild_weight: int, count_weights: Sequence[int]
    ) -> tuple[int, Solver, bool]:
        """Least unmelded weight, the solver used (to walk back an arrangement) and whether the
        COUNT cards are melded in a best arrangement."""
        fixed = _unmelded_total(self.dead, weights)
        if not self.wilds:
            plain = _plain_solver(self.by_low, weights, {})
            held = len(self.count_cards)
            melded = held >= 3
            cost = fixed + plain(self.live) + (0 if melded else sum(count_weights))

            def as_wild(mask: int, wilds: int, room: int) -> int:
                return plain(mask)

            return cost, as_wild, melded
        solver = _wild_solver(self.by_low, weights, wild_weight, {})
        best_cost = -1
        best_melded = False
        for melded, taken in self.count_options():
            if melded:
                cost = solver(self.live, self.wilds - taken, _ROOM_CLIP)
            else:
                cost = sum(count_weights) + solver(self.live, self.wilds, 0)
            if best_cost < 0 or cost < best_cost:
                best_cost, best_melded = cost, melded
        return fixed + best_cost, solver, best_melded


def _walk(
    search: _Search,
    solver: Solver,
    weights: Sequence[int],
    count_melded: bool,
) -> Arrangement:
    """Walk the memoised search back to one arrangement reaching its optimum."""
    wilds = search.wilds
    room = 0
    chosen: list[list[int]] = []  # [mask, wildcards, room left] per meld of regular cards
    count_group: list[Card] = []
    if count_melded:
        taken = max(0, 3 - len(search.count_cards))
        count_group = [*search.count_cards, *(WILDCARD,) * taken]
        wilds -= taken
        room = _ROOM_CLIP
    unmelded_bits = search.dead
    mask = search.live
    while mask:
        target = solver(mask, wilds, room)
        low = mask & -mask
        bit = low.bit_length() - 1
        if weights[bit] + solver(mask ^ low, wilds, room) == target:
            unmelded_bits |= low
            mask ^= low
            continue
        for meld, needed, extra in search.by_low.get(bit, ()):
            if needed <= wilds and meld & mask == meld:
                grown = min(room + extra, _ROOM_CLIP)
                if solver(mask ^ meld, wilds - needed, grown) == target:
                    chosen.append([meld, needed, extra])
                    mask ^= meld
                    wilds -= needed
                    room = grown
                    break
        else:  # pragma: no cover - the memo always holds a matching step
            raise AssertionError("search walk found no optimal step")
    melds: list[tuple[Card, ...]] = []
    if wilds >= 3:
        melds.append((WILDCARD,) * wilds)  # spare wildcards form their own group
        wilds = 0
    if count_group:
        count_group.extend((WILDCARD,) * wilds)
        wilds = 0
    for entry in chosen:
        added = min(wilds, entry[2])
        entry[1] += added
        wilds -= added
    spare_wilds = wilds
    if count_group:
        shape = meld_shape(count_group)
        assert shape is not None
        melds.append(shape.cards)
    for meld, needed, _ in chosen:
        natural_cards = [_CARD_OF_BIT[b] for b in _bits(meld)]
        shape = meld_shape([*natural_cards, *(WILDCARD,) * needed])
        assert shape is not None
        melds.append(shape.cards)
    unmelded: list[Card] = [_CARD_OF_BIT[b] for b in _bits(unmelded_bits)]
    if not count_melded:
        unmelded.extend(search.count_cards)
    unmelded.extend(search.unmeldable)
    unmelded.extend((WILDCARD,) * spare_wilds)
    return tuple(melds), tuple(sorted(unmelded, key=_display_key))


def _bits(mask: int) -> list[int]:
    out: list[int] = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _display_key(card: Card) -> tuple[int, int]:
    return (card // 13, card % 13) if 0 <= card < 52 else (4, card)


# --------------------------------------------------------------------------------------------
# Public questions


def dr_count(cards: Iterable[Card]) -> int:
    """The hand's count: least total of unmelded cards over every way of melding (RULES.md 3.7).

    >>> from cardtable.cards import parse_cards
    >>> [dr_count(parse_cards(t, deck=None)) for t in ("W KS", "7S 7D W", "NM2 NM0 CD0 AH")]
    [33, 0, 3]
    """
    search = _Search(cards)
    count_values = [COUNT_CARD_VALUES[c] for c in search.count_cards]
    cost, _, _ = search.least(_COUNT_OF_BIT, WILDCARD_UNMELDED_COUNT, count_values)
    return cost + sum(UNMELDABLE_COUNTS[c] for c in search.unmeldable)


def dr_best(cards: Iterable[Card]) -> tuple[int, tuple[tuple[Card, ...], ...], tuple[Card, ...]]:
    """The count and one arrangement reaching it: ``(count, melds, unmelded)``.

    Melds are tuples of cards in display order (a sequence by rank with its wildcards in
    place); the unmelded cards are in display order too.

    >>> from cardtable.cards import parse_cards, format_cards
    >>> count, melds, unmelded = dr_best(parse_cards("2H 3H 4H 4S 4C"))
    >>> count, [format_cards(m) for m in melds], format_cards(unmelded)
    (5, ['4S 4H 4C'], '2H 3H')
    """
    search = _Search(cards)
    count_values = [COUNT_CARD_VALUES[c] for c in search.count_cards]
    cost, solver, count_melded = search.least(_COUNT_OF_BIT, WILDCARD_UNMELDED_COUNT, count_values)
    melds, unmelded = _walk(search, solver, _COUNT_OF_BIT, count_melded)
    return cost + sum(UNMELDABLE_COUNTS[c] for c in search.unmeldable), melds, unmelded


def _runs_through(rank: int) -> tuple[int, ...]:
    """Three-rank windows holding ``rank``, as masks of a suit's ranks with the ace also at 13."""
    places = (0, 13) if rank == 0 else (rank,)
    return tuple(7 << low for low in range(12) for place in places if low <= place <= low + 2)


_RUNS_THROUGH: Final = tuple(_runs_through(rank) for rank in range(13))


def surely_unmelded(cards: Sequence[Card]) -> int:
    """How many of these cards certainly stay out of every meld: a few bit tests instead of the
    search, for the many hands of random playouts that are far from melding.

    Only hands of regular cards are judged (with a wildcard, COUNT or never-melding card the
    answer is 0, nothing known). Without wildcards a card melds only with two more of its rank
    or in three consecutive ranks of its suit, the ace low or high (RULES.md 3.6).

    >>> from cardtable.cards import parse_cards
    >>> surely_unmelded(parse_cards("2H 3H 9S")), surely_unmelded(parse_cards("2H 3H 4H 9S"))
    (3, 1)
    """
    suits = [0, 0, 0, 0]
    for card in cards:
        if not 0 <= card < 52:
            return 0
        suits[card // 13] |= 1 << (card % 13)
    spades, hearts, diamonds, clubs = suits
    unmelded = 0
    for card in cards:
        rank = card % 13
        if (spades >> rank & 1) + (hearts >> rank & 1) + (diamonds >> rank & 1) + (
            clubs >> rank & 1
        ) >= 3:
            continue
        held = suits[card // 13]
        held |= (held & 1) << 13
        if any(held & run == run for run in _RUNS_THROUGH[rank]):
            continue
        unmelded += 1
    return unmelded


def surely_cannot_go_out(cards: Sequence[Card]) -> bool:
    """True when these cards certainly cannot go out (more than one of them surely stays
    unmelded, :func:`surely_unmelded`); ``False`` means "maybe".

    >>> from cardtable.cards import parse_cards
    >>> surely_cannot_go_out(parse_cards("2H 3H 9S")), surely_cannot_go_out(parse_cards("2H 3H 4H"))
    (True, False)
    """
    return surely_unmelded(cards) > 1


def dr_can_go_out(cards: Iterable[Card], *, single_meld: bool = False) -> bool:
    """True when the hand can go out: every card melded, or every card but one (RULES.md 3.8).

    With ``single_meld`` (Going Out Major or Minor, 3.10 item 3) the melded cards must form one
    single meld. Going out lays down at least one meld, so a lone card never goes out.

    >>> from cardtable.cards import parse_cards
    >>> dr_can_go_out(parse_cards("2H 3H 4H 5H 6H KS"), single_meld=True)
    True
    >>> dr_can_go_out(parse_cards("2H 3H 4H NM2 NM0", deck=None))
    False
    """
    hand = tuple(cards)
    if single_meld:
        _split(hand)
        return _single_meld_go_out(hand) is not None
    search = _Search(hand)
    budget = 1 - len(search.unmeldable) - search.dead.bit_count()
    if budget < 0 or len(hand) < 3:
        return False
    room_solver = _go_out_solver(search.by_low)
    for melded, taken in search.count_options():
        left = budget if melded else budget - len(search.count_cards)
        if left < 0:
            continue
        if room_solver(search.live, search.wilds - taken, _ROOM_CLIP if melded else 0, left):
            return True
    return False


def _go_out_solver(by_low: dict[int, list[Candidate]]) -> Callable[[int, int, int, int], bool]:
    """Whether regular cards and wildcards can be melded leaving at most ``budget`` cards."""
    failed: set[int] = set()

    def fits(mask: int, wilds: int, room: int, budget: int) -> bool:
        if not mask:
            return wilds >= 3 or wilds - room <= budget
        if not wilds:
            room = 0
        key = (mask << 5) | (wilds << 3) | (room << 1) | budget
        if key in failed:
            return False
        low = mask & -mask
        bit = low.bit_length() - 1
        for meld, needed, extra in by_low.get(bit, ()):
            if needed <= wilds and meld & mask == meld:
                grown = room + extra
                if fits(mask ^ meld, wilds - needed, grown if grown < 2 else 2, budget):
                    return True
        if budget and fits(mask ^ low, wilds, room, budget - 1):
            return True
        failed.add(key)
        return False

    return fits


def _single_meld_go_out(hand: tuple[Card, ...]) -> Arrangement | None:
    """One meld of the whole hand, or else of all but one card (the lowest-counting loose one)."""
    if is_meld(hand):
        return (hand,), ()
    best: Arrangement | None = None
    for card in _loose_card_candidates(hand):
        index = hand.index(card)
        rest = hand[:index] + hand[index + 1 :]
        if is_meld(rest) and (best is None or card_count(card) < card_count(best[1][0])):
            best = (rest,), (card,)
    return best


def _loose_card_candidates(hand: tuple[Card, ...]) -> set[Card]:
    """Cards whose removal could leave one meld: the rest (wildcards aside) must share one rank
    or one suit, or be COUNT cards only, so at most one card may break that pattern."""
    others = [card for card in hand if card != WILDCARD]
    candidates: set[Card] = set()
    for key in (_rank_key, _suit_key):
        keys = [key(card) for card in others]
        for shared, held in Counter(keys).items():
            if held < len(others) - 1:
                continue
            odd = [card for card, k in zip(others, keys, strict=True) if k != shared]
            if not odd:
                return set(hand)  # any card may be the loose one
            if len(odd) == 1:
                candidates.add(odd[0])
    return candidates


def _rank_key(card: Card) -> int:
    """Cards that may share a group or COUNT group have the same key; never-melding cards
    get keys of their own."""
    if card < 52:
        return card % 13
    return 100 if card in COUNT_CARD_VALUES else card


def _suit_key(card: Card) -> int:
    """Cards that may share a sequence or COUNT group have the same key."""
    if card < 52:
        return card // 13
    return 100 if card in COUNT_CARD_VALUES else card


def dr_go_out_arrangement(
    cards: Iterable[Card], *, single_meld: bool = False
) -> tuple[tuple[tuple[Card, ...], ...], Card | None] | None:
    """How the hand goes out: ``(melds, loose card or None)``, or ``None`` when it cannot.

    Every card is melded when possible; otherwise the loose card is the lowest-counting one
    any going-out arrangement can leave (it does not matter to the rules, but it shows best).

    >>> from cardtable.cards import parse_cards, format_cards, format_card
    >>> melds, loose = dr_go_out_arrangement(parse_cards("2H 3H 4H 9S 9D 9C NM2", deck=None))
    >>> [format_cards(m) for m in melds], format_card(loose)
    (['2H 3H 4H', '9S 9D 9C'], 'NM2')
    """
    hand = tuple(cards)
    if single_meld:
        _split(hand)
        found = _single_meld_go_out(hand)
        if found is None:
            return None
        (meld,), loose = found
        shape = meld_shape(meld)
        assert shape is not None
        return (shape.cards,), (loose[0] if loose else None)
    search = _Search(hand)
    if len(hand) < 3 or len(search.unmeldable) + search.dead.bit_count() > 1:
        return None
    count_weights = [_PER_LOOSE_CARD + COUNT_CARD_VALUES[c] for c in search.count_cards]
    cost, solver, count_melded = search.least(
        _GO_OUT_OF_BIT, _PER_LOOSE_CARD + WILDCARD_UNMELDED_COUNT, count_weights
    )
    if cost + _PER_LOOSE_CARD * len(search.unmeldable) >= 2 * _PER_LOOSE_CARD:
        return None
    melds, unmelded = _walk(search, solver, _GO_OUT_OF_BIT, count_melded)
    return melds, (unmelded[0] if unmelded else None)
