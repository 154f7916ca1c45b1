"""Exact meld search for Indian Rummy hands: two decks, printed jokers and a wild rank.

This module owns the group rules of RULES.md 2.4 and the three-way scoring of 2.8 as pure
functions over card ints; :mod:`cardtable.games.indian_rummy.scoring` wraps them in the game's
public API (input checks, the points cap, explanations).

Jokers are the printed jokers (card 52) and every card of the wild rank. A wild-rank card may
also stand as itself, which keeps a sequence pure in its natural place. Jokers are counted as
interchangeable *fillers*: a group needs so many of them, and only at the end of the search is
it checked that the printed jokers plus the wild-rank cards not used as themselves cover the
fillers, and that any jokers left over fit somewhere (grown into a group, or as a group of their
own). Only the other cards, the *naturals*, are searched one by one.

How the search goes. Every group that can hold a natural is listed once per call, as a bitmask
over the hand's positions plus its filler count (the fewest fillers that make the group: more
never helps, and extra jokers are placed at the end). The sequences of a suit come from a table
keyed by the suit's 13-bit rank pattern and the filler budget alone, filled as patterns are met.
A depth-first search then takes the lowest natural not yet placed and tries each group whose
lowest natural it is (or leaves it loose, when scoring), memoising on ``(positions left,
fillers used, sequences so far capped at 2, pure seen)`` plus, for a show, the room left in
groups for extra jokers. Two copies of one card are interchangeable, so a group may take the
second copy only once the first is gone, and leaving one copy loose leaves both loose. Nothing
about a hand is kept between calls. A show needs a pure sequence, so a hand with no suit
holding three ranks in a row is turned down before any group is listed. The show search
reads each natural's groups fewest fillers first and stops at the first that needs more
jokers than are left; its groups are plain tuples, as it needs no group values.

* :func:`solve` arranges a hand to its best advantage (category A, B or C of 2.8) and
  reconstructs the groups, saying what each joker stands for.
* :func:`raw_points` is the same count without the arrangement, for bots.
* :func:`is_valid_show` says whether the cards can all be laid with two sequences, one pure.
* :func:`show_discards` lists the cards of a 14-card hand whose put-down leaves a valid show,
  from one search that allows a single card out and stops looking wherever every card still
  held is already known to work.

>>> from cardtable.cards import parse_cards
>>> hand = parse_cards("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C", deck=None)
>>> solve(hand, wild_rank=1).raw_points
23
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import accumulate, combinations
from operator import itemgetter
from typing import Final, Literal, NamedTuple

from cardtable.cards import PRINTED_JOKER, Card, format_card
from cardtable.errors import CardError

__all__ = [
    "CATEGORY_NO_PURE",
    "CATEGORY_PURE_ONLY",
    "CATEGORY_TWO_SEQUENCES",
    "Group",
    "GroupKind",
    "Solution",
    "card_value",
    "is_valid_show",
    "raw_points",
    "show_discards",
    "solve",
    "surely_no_show",
]

GroupKind = Literal["pure sequence", "sequence", "set"]
Category = Literal["two sequences", "pure sequence only", "no pure sequence"]

CATEGORY_TWO_SEQUENCES: Final[Category] = "two sequences"
"""Category A: two sequences, one pure; only the cards left out of groups count."""
CATEGORY_PURE_ONLY: Final[Category] = "pure sequence only"
"""Category B: a pure sequence but no second sequence; all but one pure sequence count."""
CATEGORY_NO_PURE: Final[Category] = "no pure sequence"
"""Category C: no pure sequence; every card counts."""

_SET, _SEQUENCE, _PURE = 0, 1, 2
# Sequence/purity state: 0 none, 1 one impure, 2 one pure, 3 two impure, 4 two incl. pure.
_NEXT_STATE: Final = (
    (0, 1, 2),
    (1, 3, 4),
    (2, 4, 4),
    (3, 3, 4),
    (4, 4, 4),
)
_DONE: Final = 4
_ONE_PURE: Final = 2
_FEASIBLE: Final = 1 << 60
"""Result bit of the show search meaning "feasible" once the card out is already chosen."""
_PRINTED_OUT: Final = 1 << 58
"""Result bit of the show search meaning "a printed joker can be the card put down" (the card
types take the low bits of their count fields, at most 2 x 14 bits)."""
_IMPOSSIBLE: Final = -(1 << 20)


def _rank_distance(rank: int, other: int) -> int:
    """Distance of two ranks in a sequence, the ace counting as 1 or as 14."""
    places = (0, 13) if rank == 0 else (rank,)
    other_places = (0, 13) if other == 0 else (other,)
    return min(abs(a - b) for a in places for b in other_places)


_NEAR_RANKS: Final = tuple(
    tuple(sum(1 << r for r in range(13) if _rank_distance(rank, r) <= reach) for rank in range(13))
    for reach in range(5)
)
"""``_NEAR_RANKS[reach][rank]``: the ranks at most ``reach`` places from ``rank``."""
NATURAL_VALUES: Final = tuple(10 if rank == 0 or rank >= 10 else rank + 1 for rank in range(13))
"""Points of a natural card left out of groups, by rank: ace and pictures 10, else its number."""


def is_joker(card: Card, wild_rank: int | None) -> bool:
    """True for a printed joker and every card of the wild rank (RULES.md 2.4).

    >>> is_joker(52, None), is_joker(6, 6), is_joker(19, 6), is_joker(7, 6)
    (True, True, True, False)
    """
    return card == PRINTED_JOKER or (wild_rank is not None and card % 13 == wild_rank)


def card_value(card: Card, wild_rank: int | None) -> int:
    """Points of a card left out of groups: J Q K A 10, number cards their number, jokers 0.

    >>> card_value(0, None), card_value(8, None), card_value(6, 6), card_value(52, None)
    (10, 9, 0, 0)
    """
    return 0 if is_joker(card, wild_rank) else NATURAL_VALUES[card % 13]


@dataclass(frozen=True, slots=True)
class Group:
    """One laid group: its kind, its cards, and the card each of them stands as.

    ``represented[i]`` is the regular card that ``cards[i]`` stands for: the card itself for a
    natural, the card filled in for a joker.

    >>> Group("sequence", (4, 52, 6), (4, 5, 6)).describe()
    'Sequence 5S PJ(6S) 7S'
    """

    kind: GroupKind
    cards: tuple[Card, ...]
    represented: tuple[Card, ...]

    def describe(self) -> str:
        """The group in the game's words, a joker followed by what it stands for."""
        labels = [
            format_card(card) if card == stands else f"{format_card(card)}({format_card(stands)})"
            for card, stands in zip(self.cards, self.represented, strict=True)
        ]
        return f"{self.kind.capitalize()} {' '.join(labels)}"


@dataclass(frozen=True, slots=True)
class Solution:
    """The best arrangement of a hand under RULES.md 2.8 (before any points cap).

    ``groups`` are the groups that count for the category: for category A every group laid,
    for B the one pure sequence kept out of the count, for C none. ``loose`` are the cards that
    count; ``raw_points`` their value. ``valid_show`` says whether the hand, as it is, would be a
    valid declaration (every card in a group, two sequences, one pure).
    """

    category: Category
    groups: tuple[Group, ...]
    loose: tuple[Card, ...]
    raw_points: int
    valid_show: bool


def _field_sums() -> tuple[int, ...]:
    """Total of the 2-bit count fields of every 8-bit pattern (the wild-rank part of a mask)."""
    return tuple(sum((pattern >> shift) & 3 for shift in (0, 2, 4, 6)) for pattern in range(256))


_FIELD_SUM: Final = _field_sums()


class _Option(NamedTuple):
    """A group that can hold the card type it is listed under (the lowest natural in it).

    ``unit`` has a 1 in the count field of every card type the group takes a copy of, so
    ``mask - unit`` lays the group. ``start`` is the first position of a sequence's window
    (positions are ranks, 13 standing for the high ace), or the rank of a set.
    """

    unit: int
    fillers: int
    kind: int
    value: int
    room: int
    suit: int
    start: int


_new_option = tuple.__new__
_option_value = itemgetter(3)

_ShowRow = tuple[int, int, int, int]
"""A group as the show search reads it: ``(unit, fillers, kind, room)`` as in :class:`_Option`."""
_row_fillers = itemgetter(1)


_Window = tuple[int, int, tuple[int, ...], int, int]


@lru_cache(maxsize=4096)
def _suit_windows(pattern: int, budget: int) -> tuple[_Window, ...]:
    """The sequences one suit's cards can make, for a 13-bit pattern of its ranks.

    Each is ``(low, high, left_out, fillers, start)``: the sequence takes the suit's places
    ``low`` to ``high - 1`` in rank order (the ace at 0 and again at 13 after the king) except
    the places ``left_out``, with the fewest fillers; ``start`` is the first position of the
    window. Windows run from a card to a card with no more gaps than ``budget``; up to
    ``budget - fillers`` cards inside may be left out. The same cards taken through the low and
    the high ace are listed once, with the fewer fillers, after the others. A pure function of
    two small numbers, so kept across calls.
    """
    occupied = [rank for rank in range(13) if pattern >> rank & 1]
    if occupied and occupied[0] == 0:
        occupied.append(13)
    count_occupied = len(occupied)
    if not occupied or count_occupied < 3 - budget:
        return ()
    found: list[_Window] = []
    with_ace: dict[int, _Window] = {}
    for first in range(count_occupied):
        start = occupied[first]
        for last in range(first, count_occupied):
            span = occupied[last] - start + 1
            if span > 13:
                break
            count = last - first + 1
            if span - count > budget:
                break  # the gaps inside the window only grow from here
            fillers = max(3, span) - count
            if fillers > budget:
                continue
            choices: list[tuple[tuple[int, ...], int]] = [((), fillers)]
            if fillers < budget and count > 2:
                inside = range(first + 1, last)
                for dropped in range(1, min(budget - fillers, count - 2) + 1):
                    for left_out in combinations(inside, dropped):
                        choices.append((left_out, fillers + dropped))
            for left_out, group_fillers in choices:
                ranks = 0
                for k in range(first, last + 1):
                    if k not in left_out:
                        ranks |= 1 << (occupied[k] % 13)
                entry = (first, last + 1, left_out, group_fillers, start)
                if ranks & 1:
                    known = with_ace.get(ranks)
                    if known is None or group_fillers < known[3]:
                        with_ace[ranks] = entry
                else:
                    found.append(entry)
    found.extend(with_ace.values())
    return tuple(found)


class _Hand:
    """Everything about one hand that the searches read, built once per call.

    The hand is a mask of 2-bit count fields, one per distinct card (a *type*): first the
    naturals, then the wild-rank cards; printed jokers are just counted. The naturals likely to
    fit the fewest groups (few cards of their rank, few near them in their suit) take the
    lowest fields, so that the search, which always places the lowest natural next, meets dead
    ends early.
    """

    def __init__(
        self,
        cards: Sequence[Card],
        wild_rank: int | None,
        limit: int | None,
        all_joker_groups: bool,
        show_only: bool = False,
    ) -> None:
        counts = Counter(cards)
        for card in counts:
            if not isinstance(card, int) or not 0 <= card <= PRINTED_JOKER:
                raise CardError(f"not an Indian Rummy card: {card!r}")
        if wild_rank is not None and not (isinstance(wild_rank, int) and 0 <= wild_rank < 13):
            raise CardError(f"the wild rank must be 0..12 or None, not {wild_rank!r}")
        if counts and max(counts.values()) > 2:
            raise CardError("no card can be held more than twice (two decks, two printed jokers)")
        self.cards = tuple(cards)
        self.wild_rank = wild_rank
        self.limit = limit
        self.all_joker_groups = all_joker_groups
        self.printed = counts.pop(PRINTED_JOKER, 0)
        wild_types = sorted(c for c in counts if c % 13 == wild_rank)
        self.wild_total = sum(counts[c] for c in wild_types)

        # Ranks held per suit, as 13-bit patterns, and suits held per rank.
        held = [0, 0, 0, 0]
        suits_of_rank = [0] * 13
        for card in counts:
            held[card // 13] |= 1 << (card % 13)
            suits_of_rank[card % 13] += 1
        # Some suit holds three ranks in a row (the ace also after the king): the only way
        # to a pure sequence, which every show needs.
        self.has_pure = any(p & p >> 1 & p >> 2 for p in (h | (h & 1) << 13 for h in held))
        if show_only and not self.has_pure:
            return  # no show: the searches are not needed
        self.show_only = show_only
        """Only the show search will run: it needs no group values."""

        jokers = self.printed + self.wild_total
        near_ranks = _NEAR_RANKS[2 + min(2, jokers if limit is None else min(jokers, limit))]

        # Roughly how many groups hold each natural: subsets of its rank for sets, windows
        # over its suit's cards within reach (two places, plus what jokers can bridge).
        estimates = []
        for card in counts:
            rank = card % 13
            if rank != wild_rank:
                near = (held[card // 13] & near_ranks[rank]).bit_count()
                estimates.append(((1 << (suits_of_rank[rank] - 1)) + near * (near + 1) // 2, card))
        estimates.sort()
        natural_types = [card for _, card in estimates]
        self.types = natural_types + wild_types
        self.n = n = len(natural_types)
        self.wild_shift = 2 * n
        self.natural_fields = (1 << self.wild_shift) - 1
        self.values = [NATURAL_VALUES[c % 13] for c in natural_types]
        self.start = sum(counts[c] << (2 * t) for t, c in enumerate(self.types))
        self.low_bits = ((1 << (2 * len(self.types))) - 1) // 3  # 01 in every field
        self.total_value = sum(
            v * counts[c] for v, c in zip(self.values, natural_types, strict=True)
        )
        self.suit_places: list[list[tuple[int, int]]] = [[], [], [], []]
        """Per suit, (position, type) of each card in rank order, the ace at 0 and at 13."""
        for card, type_index in sorted((card, t) for t, card in enumerate(self.types)):
            self.suit_places[card // 13].append((card % 13, type_index))
        for places in self.suit_places:
            if places and places[0][0] == 0:
                places.append((13, places[0][1]))
        self.options: list[list[_Option]] = [] if show_only else [[] for _ in range(n)]
        """Per natural, the groups whose lowest natural it is, in the order listed."""
        self.show_rows: list[list[_ShowRow]] = [[] for _ in range(n)] if show_only else []
        """The same groups for a hand that only the show search reads (``show_only``): plain
        ``(unit, fillers, kind, room)`` tuples, fewest fillers first."""
        self.placeable = self._list_options()
        """Unit bits of the naturals some group could hold; the others are always loose."""
        if show_only and jokers:
            for row in self.show_rows:
                row.sort(key=_row_fillers)

    @property
    def jokers(self) -> int:
        """Printed jokers plus wild-rank cards: the most fillers a hand could ever supply."""
        return self.printed + self.wild_total

    def count(self, mask: int, type_index: int) -> int:
        return (mask >> (2 * type_index)) & 3

    def places(self, option: _Option) -> list[tuple[int, int]]:
        """(type, position) of each natural of a group: in a sequence the ace sits at 13 when
        the window does not start at 0; in a set the position is the rank."""
        found = []
        unit = option.unit
        while unit:
            low = unit & -unit
            unit ^= low
            type_index = (low.bit_length() - 1) >> 1
            rank = self.types[type_index] % 13
            high_ace = rank == 0 and option.kind != _SET and option.start > 0
            found.append((type_index, 13 if high_ace else rank))
        return found

    def _list_options(self) -> int:
        """List every group holding a natural, each with the fewest fillers it needs, under
        its lowest natural; returns the unit bits of the naturals some group holds."""
        budget = self.jokers if self.limit is None else min(self.jokers, self.limit)
        placeable = 0
        for suit in range(4):
            placeable |= self._suit_sequences(suit, budget)
        return placeable | self._sets()

    def _suit_sequences(self, suit: int, budget: int) -> int:
        """Windows of one suit from a card to a card, every choice of the cards inside them,
        with no more gaps than ``budget`` (the fillers a sequence may use)."""
        places = self.suit_places[suit]
        if not places:
            return 0
        pattern = 0
        for position, _ in places:
            pattern |= 1 << position
        windows = _suit_windows(pattern & 0x1FFF, budget)
        if not windows:
            return 0
        n, values, natural_fields, options = self.n, self.values, self.natural_fields, self.options
        room = 99 if self.limit is None else self.limit
        show_rows = self.show_rows
        valued = not self.show_only
        # Running totals over the places in rank order: a window's cards are a difference of
        # two of them, less the places left out. The two ace places never meet in one window,
        # so a sum is the union.
        units = [1 << (2 * t) for _, t in places]
        worth = [values[t] if t < n else 0 for _, t in places]
        unit_upto = [0, *accumulate(units)]
        worth_upto = [0, *accumulate(worth)]
        placeable = 0
        for low, high, left_out, fillers, start in windows:
            unit = unit_upto[high] - unit_upto[low]
            for k in left_out:
                unit -= units[k]
            natural = unit & natural_fields
            if not natural:
                continue  # only jokers: placed at the end of the search
            placeable |= natural
            lowest = ((natural & -natural).bit_length() - 1) >> 1
            kind = _PURE if fillers == 0 else _SEQUENCE
            if not valued:
                show_rows[lowest].append((unit, fillers, kind, room - fillers))
                continue
            value = worth_upto[high] - worth_upto[low]
            for k in left_out:
                value -= worth[k]
            options[lowest].append(
                _new_option(
                    _Option,
                    (
                        unit,
                        fillers,
                        kind,
                        value,
                        room - fillers,
                        suit,
                        start,
                    ),
                )
            )
        return placeable

    def _sets(self) -> int:
        """Every set of a non-wild rank: 1-4 naturals of different suits, fillers up to 3.

        Without a joker limit a lone natural with two jokers is better laid as a sequence
        (same cards, and it counts as a sequence), so that set is left out then.
        """
        by_rank: dict[int, list[int]] = {}
        for type_index in range(self.n):
            by_rank.setdefault(self.types[type_index] % 13, []).append(type_index)
        smallest = max(1, 3 - self.jokers)
        if self.limit is None:
            smallest = max(smallest, 2)
        options, show_rows, show_only = self.options, self.show_rows, self.show_only
        placeable = 0
        for rank, suits in by_rank.items():
            worth = NATURAL_VALUES[rank]
            for size in range(smallest, len(suits) + 1):
                fillers = max(0, 3 - size)
                for chosen in combinations(suits, size):
                    unit = 0
                    for type_index in chosen:
                        unit |= 1 << (2 * type_index)
                    placeable |= unit
                    # ``chosen`` is in ascending type order: its first is the lowest natural.
                    if show_only:
                        show_rows[chosen[0]].append((unit, fillers, _SET, 4 - size - fillers))
                        continue
                    options[chosen[0]].append(
                        _new_option(
                            _Option,
                            (unit, fillers, _SET, worth * size, 4 - size - fillers, -1, rank),
                        )
                    )
        return placeable

    # ----------------------------------------------------------------------------------------
    # What the jokers left after the naturals are placed can still do.

    def leftover(self, mask: int, fillers: int) -> tuple[int, int]:
        """(jokers not used, wild-rank cards among them) once the naturals are all placed.

        Fillers are taken from the printed jokers first, so that wild-rank cards, which can
        stand as themselves in a group of jokers, stay over when possible.
        """
        wilds_left = _FIELD_SUM[mask >> self.wild_shift]
        spare = self.printed + wilds_left - fillers
        return spare, wilds_left - max(0, fillers - self.printed)

    def joker_sequence_possible(self, spare: int, spare_wilds: int) -> bool:
        """Can three of the leftover jokers make a sequence on their own?"""
        if spare < 3:
            return False
        limit = self.limit
        if spare_wilds >= 1 and (limit is None or limit >= 2):
            return True
        return self.all_joker_groups and (limit is None or limit >= 3)

    def leftovers_fit(self, state: int, spare: int, spare_wilds: int, room: int) -> bool:
        """Can every leftover joker be laid, ending with two sequences, one pure?"""
        if state != _DONE and state != _ONE_PURE:
            return False
        return (
            _joker_plan(
                1 if state == _ONE_PURE else 0,
                spare,
                spare_wilds,
                self._free_room(room),
                self.limit,
                self.all_joker_groups,
            )
            is not None
        )

    def _free_room(self, room: int) -> int:
        """Room for extra jokers, less that of the one pure sequence that must stay pure."""
        if self.limit is None:
            return 99
        return room - self.limit


@lru_cache(maxsize=4096)
def _joker_plan(
    sequences_needed: int,
    spare: int,
    spare_wilds: int,
    room: int,
    limit: int | None,
    all_joker_groups: bool,
) -> tuple[tuple[str, int, bool], ...] | None:
    """How to lay ``spare`` leftover jokers: groups of their own, the rest grown into groups.

    Returns the groups of jokers to form as ``(kind, size, with a wild card as itself)``, the
    remaining jokers going into groups with ``room``; ``None`` if no way exists. A pure
    function of small numbers, so it is memoised across calls.
    """
    if sequences_needed == 0 and spare <= room:
        return ()
    longest_with_wild = 13 if limit is None else limit + 1
    longest_all_jokers = (13 if limit is None else limit) if all_joker_groups else 0
    for size in range(3, spare + 1):
        for kind in ("sequence", "set"):
            if kind == "set" and size > 4:
                continue
            for with_wild in (True, False):
                if with_wild and spare_wilds < 1:
                    continue
                if not with_wild and not all_joker_groups:
                    continue
                if kind == "sequence":
                    longest = longest_with_wild if with_wild else longest_all_jokers
                    if size > longest:
                        continue
                needed = max(0, sequences_needed - (kind == "sequence"))
                rest = _joker_plan(
                    needed,
                    spare - size,
                    spare_wilds - with_wild,
                    room,
                    limit,
                    all_joker_groups,
                )
                if rest is not None:
                    return ((kind, size, with_wild), *rest)
    return None


# --------------------------------------------------------------------------------------------
# The searches.


class _CoverSearch:
    """Largest value of naturals laid in groups with two sequences, one pure (category A).

    ``best(mask, fillers, state, left)`` answers for the naturals of ``mask`` (``left`` is
    their total value, which lets a branch stop as soon as everything is laid); it returns a
    negative number when the two sequences cannot be reached. The search is a closure over
    locals: this is the hot loop of every count.
    """

    def __init__(self, hand: _Hand) -> None:
        self.hand = hand
        # The most valuable groups first: a branch stops once everything left is laid.
        self.rows = rows = [
            sorted(listed, key=_option_value, reverse=True) for listed in hand.options
        ]
        memo: dict[int, int] = {}
        # A natural no group can hold is loose whatever happens: drop it from the start.
        unplaceable = hand.natural_fields & ~(hand.placeable * 3)
        self.start = hand.start & ~unplaceable
        self.start_value = sum(hand.values[t] * hand.count(self.start, t) for t in range(hand.n))
        natural_fields, low_bits = hand.natural_fields, hand.low_bits
        printed, wild_shift, values = hand.printed, hand.wild_shift, hand.values
        field_sum, next_states = _FIELD_SUM, _NEXT_STATE
        leftover, joker_sequence_possible = hand.leftover, hand.joker_sequence_possible

        def best(mask: int, fillers: int, state: int, left: int) -> int:
            natural = mask & natural_fields
            if not natural:
                if state == _DONE or (
                    state == _ONE_PURE and joker_sequence_possible(*leftover(mask, fillers))
                ):
                    return 0
                return _IMPOSSIBLE
            key = mask | fillers << 40 | state << 48
            found = memo.get(key)
            if found is not None:
                return found
            type_index = ((natural & -natural).bit_length() - 1) >> 1
            nonzero = (mask | mask >> 1) & low_bits
            result = _IMPOSSIBLE
            next_state = next_states[state]
            for unit, group_fillers, kind, value, _, _, _ in rows[type_index]:
                if unit & nonzero != unit:
                    continue
                rest = mask - unit
                total_fillers = fillers + group_fillers
                if total_fillers > printed + field_sum[rest >> wild_shift]:
                    continue
                laid = best(rest, total_fillers, next_state[kind], left - value) + value
                if laid > result:
                    result = laid
                    if result == left:
                        break
            if result != left:
                shift = 2 * type_index
                copies = (mask >> shift) & 3
                laid = best(
                    mask & ~(3 << shift), fillers, state, left - copies * values[type_index]
                )
                if laid > result:
                    result = laid
            memo[key] = result
            return result

        self.best = best

    def walk(self) -> tuple[list[_Option], list[Card], int, int, int]:
        """Groups of one best arrangement, loose naturals, and the final mask/fillers/state."""
        hand, best = self.hand, self.best
        loose: list[Card] = []
        for type_index in range(hand.n):
            if not hand.placeable >> (2 * type_index) & 1:
                loose += [hand.types[type_index]] * hand.count(hand.start, type_index)
        mask, fillers, state, left = self.start, 0, 0, self.start_value
        target = best(mask, fillers, state, left)
        chosen: list[_Option] = []
        while mask & hand.natural_fields:
            natural = mask & hand.natural_fields
            type_index = ((natural & -natural).bit_length() - 1) >> 1
            nonzero = (mask | mask >> 1) & hand.low_bits
            for option in self.rows[type_index]:
                unit, group_fillers, kind, value = option[:4]
                if unit & nonzero != unit:
                    continue
                rest = mask - unit
                total_fillers = fillers + group_fillers
                if total_fillers > hand.printed + _FIELD_SUM[rest >> hand.wild_shift]:
                    continue
                next_state = _NEXT_STATE[state][kind]
                if best(rest, total_fillers, next_state, left - value) + value == target:
                    chosen.append(option)
                    mask, fillers, state = rest, total_fillers, next_state
                    left, target = left - value, target - value
                    break
            else:
                # No group reaches the optimum: this natural (every copy of it) is loose.
                copies = hand.count(mask, type_index)
                loose += [hand.types[type_index]] * copies
                mask &= ~(3 << (2 * type_index))
                left -= copies * hand.values[type_index]
        return chosen, loose, mask, fillers, state


class _ShowSearch:
    """Exact cover with two sequences, one pure; optionally with one card left out.

    ``search(mask, fillers, state, room, out_free)`` returns, when no card is out yet, which
    cards can be the one left out, as the low bit of each such card type's count field plus
    :data:`_PRINTED_OUT` for a printed joker; else :data:`_FEASIBLE` or 0. ``room`` (tracked
    under a joker limit only) is how many extra jokers the groups laid so far could take.

    Every card found to be a possible put-down is also recorded for the whole search
    (:meth:`found`). A branch with one card out looks no further once every card it still
    holds (and a printed joker) has been found, and it skips putting down a card already
    found: nothing below could add to the answer. Its memo entry may then miss cards found
    elsewhere, which is harmless because the record only grows and the answer is the record.
    """

    def __init__(self, hand: _Hand) -> None:
        self.hand = hand
        rows = hand.show_rows
        if not hand.show_only:
            rows = [
                sorted(((o.unit, o.fillers, o.kind, o.room) for o in listed), key=_row_fillers)
                for listed in hand.options
            ]
        self.track_room = track_room = hand.limit is not None
        known = 0  # every card found so far to be a possible put-down (see the class doc)
        memo: dict[int, int] = {}
        natural_fields, low_bits = hand.natural_fields, hand.low_bits
        printed, wild_shift = hand.printed, hand.wild_shift
        field_sum, next_states, end = _FIELD_SUM, _NEXT_STATE, self._end
        # What "every card found" means besides the card types held: a printed joker, if any.
        printed_out = _PRINTED_OUT if printed else 0

        def search(mask: int, fillers: int, state: int, room: int, out_free: bool) -> int:
            nonlocal known
            natural = mask & natural_fields
            if not natural:
                if state == _DONE and not out_free and not track_room:
                    return _FEASIBLE  # without a joker limit, spare jokers always fit
                if state != _DONE and state != _ONE_PURE:
                    return 0
                result = end(mask, fillers, state, room, out_free)
                if out_free:
                    known |= result
                return result
            key = mask | fillers << 40 | state << 48 | room << 52 | out_free << 60
            found = memo.get(key)
            if found is not None:
                return found
            return expand(mask, natural, fillers, state, room, out_free, key)

        def expand(
            mask: int, natural: int, fillers: int, state: int, room: int, out_free: bool, key: int
        ) -> int:
            nonlocal known
            # The memo lookups of the children are made here, saving a call on every hit.
            type_index = ((natural & -natural).bit_length() - 1) >> 1
            nonzero = (mask | mask >> 1) & low_bits
            result = 0
            everything = nonzero | printed_out
            # The most fillers a group could take here; the rows list the fewest first.
            spare = printed + field_sum[mask >> wild_shift] - fillers
            if out_free:
                if known & everything == everything:
                    memo[key] = 0
                    return 0
                # This card could be the one put down.
                out = 1 << (2 * type_index)
                if not known & out and search(mask - out, fillers, state, room, False):
                    result = out
                    known |= out
            next_state = next_states[state]
            out_bit = out_free << 60
            for unit, group_fillers, kind, group_room in rows[type_index]:
                if group_fillers > spare:
                    break
                if unit & nonzero != unit:
                    continue
                rest = mask - unit
                total_fillers = fillers + group_fillers
                if total_fillers > printed + field_sum[rest >> wild_shift]:
                    continue  # the group takes wild-rank cards as themselves
                next_room = min(room + group_room, 31) if track_room else 0
                state_after = next_state[kind]
                rest_natural = rest & natural_fields
                if rest_natural:
                    child_key = (
                        rest | total_fillers << 40 | state_after << 48 | next_room << 52 | out_bit
                    )
                    found = memo.get(child_key)
                    if found is None:
                        found = expand(
                            rest,
                            rest_natural,
                            total_fillers,
                            state_after,
                            next_room,
                            out_free,
                            child_key,
                        )
                    result |= found
                elif state_after == _DONE and not out_free and not track_room:
                    result |= _FEASIBLE  # as in search: spare jokers always fit
                else:
                    result |= search(rest, total_fillers, state_after, next_room, out_free)
                if out_free:
                    if known & everything == everything:
                        break
                elif result:
                    break
            memo[key] = result
            return result

        def found() -> int:
            return known

        self.search = search
        self.found = found
        """The cards found so far to be possible put-downs, as ``search`` returns them."""

    def _end(self, mask: int, fillers: int, state: int, room: int, out_free: bool) -> int:
        hand = self.hand
        if state != _DONE and state != _ONE_PURE:
            return 0
        spare, spare_wilds = hand.leftover(mask, fillers)
        if not out_free:
            return _FEASIBLE if hand.leftovers_fit(state, spare, spare_wilds, room) else 0
        # The card left out must be a joker: a printed one, or a wild-rank card not used as itself.
        found = 0
        wilds_left = _FIELD_SUM[mask >> hand.wild_shift]
        if hand.printed and fillers <= hand.printed - 1 + wilds_left:
            fewer_printed_wilds = wilds_left - max(0, fillers - hand.printed + 1)
            if hand.leftovers_fit(state, spare - 1, fewer_printed_wilds, room):
                found |= _PRINTED_OUT
        fewer_wilds = spare_wilds - 1 if spare_wilds else 0
        if wilds_left and spare >= 1 and hand.leftovers_fit(state, spare - 1, fewer_wilds, room):
            for type_index in range(hand.n, len(hand.types)):
                if hand.count(mask, type_index):
                    found |= 1 << (2 * type_index)
        return found

    def walk(self, mask: int) -> tuple[list[_Option], int, int, int, int]:
        """Groups of one valid show over ``mask`` (none out), and the final search state."""
        hand = self.hand
        fillers = state = room = 0
        chosen: list[_Option] = []
        while mask & hand.natural_fields:
            natural = mask & hand.natural_fields
            type_index = ((natural & -natural).bit_length() - 1) >> 1
            nonzero = (mask | mask >> 1) & hand.low_bits
            for option in hand.options[type_index]:
                unit, group_fillers, kind, _, group_room = option[:5]
                if unit & nonzero != unit:
                    continue
                rest = mask - unit
                total_fillers = fillers + group_fillers
                if total_fillers > hand.printed + _FIELD_SUM[rest >> hand.wild_shift]:
                    continue
                next_room = min(room + group_room, 31) if self.track_room else 0
                next_state = _NEXT_STATE[state][kind]
                if self.search(rest, total_fillers, next_state, next_room, False):
                    chosen.append(option)
                    mask, fillers, state, room = rest, total_fillers, next_state, next_room
                    break
            else:  # pragma: no cover - the memo guarantees one option matches
                raise AssertionError("show walk lost its way")
        return chosen, mask, fillers, state, room


# --------------------------------------------------------------------------------------------
# Laying the jokers and naming what each one stands for.


def _position_card(suit: int, position: int) -> Card:
    return suit * 13 + (0 if position == 13 else position)


class _Layout:
    """Turns the chosen groups plus the leftover jokers into :class:`Group` records."""

    def __init__(self, hand: _Hand, mask: int) -> None:
        self.hand = hand
        self.printed_pool = [PRINTED_JOKER] * hand.printed
        # The wild-rank cards not used as themselves by a group of naturals.
        self.wild_pool = [
            hand.types[t]
            for t in range(hand.n, len(hand.types))
            for _ in range(hand.count(mask, t))
        ]

    def take_filler(self) -> Card:
        """A joker to fill a gap: printed jokers first, keeping wild-rank cards for later."""
        return self.printed_pool.pop() if self.printed_pool else self.wild_pool.pop()

    def natural_group(self, option: _Option, extra: int) -> Group:
        """The group of ``option`` with its fillers, grown by ``extra`` more jokers."""
        hand = self.hand
        places = hand.places(option)
        if option.kind == _SET:
            rank = option.start
            cards = sorted(hand.types[t] for t, _ in places)
            represented = list(cards)
            missing = [s for s in range(4) if all(c // 13 != s for c in cards)]
            for suit in missing[: option.fillers + extra]:
                cards.append(self.take_filler())
                represented.append(suit * 13 + rank)
            return Group("set", tuple(cards), tuple(represented))
        by_position = {pos: hand.types[t] for t, pos in places}
        low, high = min(by_position), max(by_position)
        length = max(3, high - low + 1) + extra
        start = min(low, 14 - length)
        cards, represented = [], []
        for position in range(start, start + length):
            card = by_position.get(position)
            cards.append(self.take_filler() if card is None else card)
            represented.append(_position_card(option.suit, position))
        # A wild-rank card filling its own place stands as itself: still pure.
        pure = cards == represented
        return Group("pure sequence" if pure else "sequence", tuple(cards), tuple(represented))

    def joker_group(self, kind: str, size: int, anchor: Card | None) -> Group:
        """A group of jokers only: ``anchor`` (a wild-rank card) as itself, or (house rule) none."""
        if anchor is None:
            suit, rank = 0, self.hand.wild_rank or 0
        else:
            suit, rank = anchor // 13, anchor % 13
        cards: list[Card] = []
        represented: list[Card] = []
        if kind == "set":
            suits = [suit, *(s for s in range(4) if s != suit)]
            for slot in range(size):
                natural = anchor is not None and slot == 0
                cards.append(anchor if natural and anchor is not None else self.take_filler())
                represented.append(suits[slot] * 13 + rank)
            return Group("set", tuple(cards), tuple(represented))
        start = min(rank, 14 - size)
        for position in range(start, start + size):
            natural = anchor is not None and position == rank
            cards.append(anchor if natural and anchor is not None else self.take_filler())
            represented.append(_position_card(suit, position))
        return Group("sequence", tuple(cards), tuple(represented))


def _sequence_room(hand: _Hand, option: _Option, limit: int | None) -> int:
    """How many more jokers a sequence of naturals can take (13 cards make the longest)."""
    places = [pos for _, pos in hand.places(option)]
    window_room = 13 - max(3, max(places) - min(places) + 1)
    return window_room if limit is None else min(window_room, limit - option.fillers)


def _lay(
    hand: _Hand,
    chosen: list[_Option],
    mask: int,
    fillers: int,
    state: int,
    must_place_all: bool,
) -> tuple[list[Group], list[Card]]:
    """Lay the natural groups, then the leftover jokers: groups of their own and grown groups.

    Returns the groups and the jokers that found no place (only when ``must_place_all`` is
    false: a hand that is not a show may keep jokers loose, at no cost).
    """
    layout = _Layout(hand, mask)
    spare, spare_wilds = hand.leftover(mask, fillers)
    need = 1 if state == _ONE_PURE else 0
    rooms = []
    kept_pure = False
    for option in chosen:
        if option.kind == _SET:
            rooms.append(option.room)
        elif option.kind == _PURE and not kept_pure:
            kept_pure = True  # the pure sequence that must stay pure takes no joker
            rooms.append(0)
        else:
            rooms.append(_sequence_room(hand, option, hand.limit))
    limit, all_jokers = hand.limit, hand.all_joker_groups
    plan = _joker_plan(need, spare, spare_wilds, sum(rooms), limit, all_jokers)
    if plan is None:
        if must_place_all:  # pragma: no cover - callers only lay shows that exist
            raise AssertionError("no place for the leftover jokers")
        # Not a show: lay the one group of jokers the category needs, if any; keep the rest.
        plan = _joker_plan(need, 3, spare_wilds, 0, limit, all_jokers) if need else ()
        plan = plan or ()
    extra_total = min(spare - sum(size for _, size, _ in plan), sum(rooms))
    extras = []
    for room in rooms:
        take = min(room, extra_total)
        extras.append(take)
        extra_total -= take
    # Wild-rank cards that stand as themselves in groups of jokers are set aside first.
    anchors = [layout.wild_pool.pop(0) if with_wild else None for _, _, with_wild in plan]
    groups = [
        layout.natural_group(option, extra) for option, extra in zip(chosen, extras, strict=True)
    ]
    for (kind, size, _), anchor in zip(plan, anchors, strict=True):
        groups.append(layout.joker_group(kind, size, anchor))
    return groups, layout.printed_pool + layout.wild_pool


# --------------------------------------------------------------------------------------------
# Public functions.

_KIND_ORDER: Final = {"pure sequence": 0, "sequence": 1, "set": 2}


def _group_order(group: Group) -> tuple[int, int, int]:
    first = group.represented[0]
    return (_KIND_ORDER[group.kind], first // 13, first % 13)


def _display_order(card: Card) -> tuple[int, int]:
    return (4, card) if card == PRINTED_JOKER else (card // 13, card % 13)


def _best_pure(hand: _Hand) -> _Option | None:
    """The pure sequence of highest value (then the longest, then the first found)."""
    best: _Option | None = None
    for listed in hand.options:
        for option in listed:
            if option.kind == _PURE and (
                best is None
                or (option.value, option.unit.bit_count()) > (best.value, best.unit.bit_count())
            ):
                best = option
    return best


def _check_size(cards: Sequence[Card], allowed: range, what: str) -> None:
    if len(cards) not in allowed:
        raise CardError(
            f"{what} takes {allowed.start} to {allowed.stop - 1} cards, not {len(cards)}"
        )


def solve(
    cards: Iterable[Card],
    wild_rank: int | None,
    *,
    jokers_per_sequence: int | None = None,
    all_joker_groups: bool = False,
) -> Solution:
    """Arrange up to 13 cards to their best advantage and count them (RULES.md 2.8, no cap).

    ``wild_rank`` is the rank index (0 = ace … 12 = king) whose cards are jokers, or ``None``.

    >>> from cardtable.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H QS QD QC 2S 9D 4C KD 3C 8S 10H", deck=None)
    >>> solution = solve(hand, wild_rank=10)
    >>> solution.category, solution.raw_points
    ('pure sequence only', 76)
    >>> [group.describe() for group in solution.groups]
    ['Pure sequence 5H 6H 7H']
    """
    hand_cards = tuple(cards)
    _check_size(hand_cards, range(14), "an arrangement")
    hand = _Hand(hand_cards, wild_rank, jokers_per_sequence, all_joker_groups)
    total = hand.total_value
    best_pure = _best_pure(hand) if hand.has_pure else None
    if best_pure is None:
        return Solution(
            CATEGORY_NO_PURE, (), tuple(sorted(hand_cards, key=_display_order)), total, False
        )
    cover = _CoverSearch(hand)
    laid = cover.best(cover.start, 0, 0, cover.start_value)
    if laid < 0:
        layout = _Layout(hand, hand.start)
        group = layout.natural_group(best_pure, 0)
        loose = list(hand_cards)
        for card in group.cards:
            loose.remove(card)
        return Solution(
            CATEGORY_PURE_ONLY,
            (group,),
            tuple(sorted(loose, key=_display_order)),
            total - best_pure.value,
            False,
        )
    raw = total - laid
    # Without a joker limit, laying every natural with two sequences, one pure, is a show:
    # spare jokers always fit in a sequence (RULES.md 2.4 sets no limit on jokers in one).
    valid = raw == 0 and (hand.limit is None or _show_exists(hand))
    if valid and hand.limit is None:
        chosen, _, mask, fillers, state = cover.walk()
        groups, loose_cards = _lay(hand, chosen, mask, fillers, state, must_place_all=True)
    elif valid:
        show = _ShowSearch(hand)
        chosen, mask, fillers, state, _ = show.walk(hand.start)
        groups, loose_cards = _lay(hand, chosen, mask, fillers, state, must_place_all=True)
    else:
        chosen, loose_naturals, mask, fillers, state = cover.walk()
        groups, loose_cards = _lay(hand, chosen, mask, fillers, state, must_place_all=False)
        loose_cards += loose_naturals
    return Solution(
        CATEGORY_TWO_SEQUENCES,
        tuple(sorted(groups, key=_group_order)),
        tuple(sorted(loose_cards, key=_display_order)),
        raw,
        valid,
    )


def raw_points(
    cards: Iterable[Card],
    wild_rank: int | None,
    *,
    jokers_per_sequence: int | None = None,
    all_joker_groups: bool = False,
) -> int:
    """The points of :func:`solve` without building the arrangement (no cap applied).

    >>> from cardtable.cards import parse_cards
    >>> raw_points(parse_cards("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S"), wild_rank=1)
    96
    """
    hand_cards = tuple(cards)
    _check_size(hand_cards, range(14), "counting a hand")
    hand = _Hand(hand_cards, wild_rank, jokers_per_sequence, all_joker_groups)
    total = hand.total_value
    best_pure = _best_pure(hand) if hand.has_pure else None
    if best_pure is None:
        return total
    cover = _CoverSearch(hand)
    laid = cover.best(cover.start, 0, 0, cover.start_value)
    return total - (best_pure.value if laid < 0 else laid)


def _show_exists(hand: _Hand) -> bool:
    if not hand.has_pure:
        return False
    if hand.placeable * 3 & hand.start & hand.natural_fields != hand.start & hand.natural_fields:
        return False
    return bool(_ShowSearch(hand).search(hand.start, 0, 0, 0, False))


def is_valid_show(
    cards: Iterable[Card],
    wild_rank: int | None,
    *,
    jokers_per_sequence: int | None = None,
    all_joker_groups: bool = False,
) -> bool:
    """Can every card be laid in groups, with two sequences at least and one of them pure?

    >>> from cardtable.cards import parse_cards
    >>> is_valid_show(parse_cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S"), wild_rank=6)
    True
    """
    hand_cards = tuple(cards)
    _check_size(hand_cards, range(14), "a show")
    return _show_exists(
        _Hand(hand_cards, wild_rank, jokers_per_sequence, all_joker_groups, show_only=True)
    )


_SUIT_OF_CARD: Final = (*(c // 13 for c in range(PRINTED_JOKER)), 4)
_RANK_OF_CARD: Final = (*(c % 13 for c in range(PRINTED_JOKER)), -1)
_RANK_BIT: Final = (*(1 << (c % 13) for c in range(PRINTED_JOKER)), 0)


def surely_no_show(cards: Sequence[Card], wild_rank: int | None) -> bool:
    """True when these 13 or 14 cards certainly hold no valid show (for 14: whichever card is
    put down); ``False`` means "maybe". A few bit tests instead of the exact search, for
    callers that ask of many hands, most of them far from a show (random playouts).

    The tests are necessary conditions of RULES.md 2.4/2.7; with 14 cards each allows for the
    card put down:

    * some suit holds three consecutive ranks (a pure sequence; ace low or high, no K-A-2);
    * a natural card with no pure three-card window of its suit around it and fewer than two
      other suits of its rank must share a group with a joker: with no joker, at most the card
      put down may be such a card;
    * a card with no card of its suit within two ranks and none of its rank needs two jokers;
    * the cards needing a joker lie in groups of one suit or one rank each, so the jokers must
      number at least the fewest suits and ranks covering them (one fewer with 14 cards).

    >>> from cardtable.cards import parse_cards
    >>> no_run = parse_cards("5H 6H 9H 9S 10S 2C 2D 2S 4H 4D 4C 4S KD PJ", deck=None)
    >>> surely_no_show(no_run, wild_rank=None)
    True
    >>> surely_no_show(parse_cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD"), wild_rank=6)
    False
    """
    spare = 1 if len(cards) > 13 else 0
    suit_of = _SUIT_OF_CARD
    rank_bit = _RANK_BIT
    masks = [0, 0, 0, 0, 0]  # the fifth collects printed jokers, which belong to no suit
    for c in cards:
        masks[suit_of[c]] |= rank_bit[c]
    # Bit 13 is the ace played high (Q-K-A).
    high = [m | ((m & 1) << 13) for m in masks[:4]]
    sp, he, di, cl = high
    if not (
        sp & (sp >> 1) & (sp >> 2)
        or he & (he >> 1) & (he >> 2)
        or di & (di >> 1) & (di >> 2)
        or cl & (cl >> 1) & (cl >> 2)
    ):
        return True
    rank_of = _RANK_OF_CARD
    jokers = 0
    stuck = 0
    lonely = 0
    needing = [0, 0, 0, 0]  # per suit, the ranks of cards that need a joker in their group
    for c in cards:
        rank = rank_of[c]
        if rank < 0 or rank == wild_rank:
            jokers += 1
            continue
        suit = suit_of[c]
        same_rank = 0
        for other in range(4):
            if other != suit and masks[other] >> rank & 1:
                same_rank += 1
        if same_rank >= 2:
            continue
        m = high[suit]
        # Window bits 0..4 are ranks rank-2 .. rank+2 of the suit; bit 2 is the card itself.
        if rank >= 2:
            window = (m >> (rank - 2)) & 0b11111
            in_run = (window & 7) == 7 or (window & 14) == 14 or (window & 28) == 28
        elif rank == 1:
            window = (m << 1) & 0b11111
            in_run = (window & 14) == 14 or (window & 28) == 28
        else:  # the ace: Q K on one side (bits 0, 1), 2 3 on the other (bits 3, 4); no K-A-2
            window = ((m >> 11) & 0b11) | ((m & 0b111) << 2)
            in_run = (window & 7) == 7 or (window & 28) == 28
        if in_run:
            continue
        stuck += 1
        if not same_rank and not window & 0b11011:
            lonely += 1
        needing[suit] |= 1 << rank
    if not jokers:
        return stuck > spare
    lonely -= spare
    if lonely > 0 and jokers < max(2, lonely):
        return True
    if not any(needing):
        return False
    fewest = 99
    for suits_taken in range(16):
        ranks = 0
        for suit in range(4):
            if not suits_taken >> suit & 1:
                ranks |= needing[suit]
        fewest = min(fewest, suits_taken.bit_count() + ranks.bit_count())
    return jokers < fewest - spare


def show_discards(
    cards: Iterable[Card],
    wild_rank: int | None,
    *,
    jokers_per_sequence: int | None = None,
    all_joker_groups: bool = False,
) -> tuple[Card, ...]:
    """The distinct cards whose put-down leaves a valid show of the others (ascending ids).

    Meant for the 14 cards held after drawing; one search lays every card but one.

    >>> from cardtable.cards import parse_cards, format_cards
    >>> hand = parse_cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD")
    >>> format_cards(show_discards(hand, wild_rank=6))
    'KD'
    """
    hand_cards = tuple(cards)
    _check_size(hand_cards, range(1, 15), "finding a show")
    hand = _Hand(hand_cards, wild_rank, jokers_per_sequence, all_joker_groups, show_only=True)
    if not hand.has_pure:
        return ()
    stuck = [t for t in range(hand.n) if not hand.placeable >> (2 * t) & 1]
    search = _ShowSearch(hand)
    if len(stuck) > 1 or (stuck and hand.count(hand.start, stuck[0]) > 1):
        return ()
    if stuck:
        card = hand.types[stuck[0]]
        feasible = search.search(hand.start - (1 << (2 * stuck[0])), 0, 0, 0, False)
        return (card,) if feasible else ()
    search.search(hand.start, 0, 0, 0, True)
    found = search.found()
    cards = [card for t, card in enumerate(hand.types) if found >> (2 * t) & 1]
    if found & _PRINTED_OUT:
        cards.append(PRINTED_JOKER)
    return tuple(sorted(cards))
