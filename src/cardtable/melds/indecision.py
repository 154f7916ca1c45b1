"""The Indecision hand scorer: counting rules C1-C4 of RULES.md 1.6 over one 5-card hand.

A hand scores the sum of its counted melds, and the families are independent (C4):

* **same rank (C1)**: per rank only the largest group counts, a Pair, a Prile of 3 or a Prile
  of 4, never the smaller groups inside it;
* **sequences (C2)**: the one maximal circular interval of present ranks of length 3-5 (K-A-2
  wraps) counts once per way of picking one card of each of its ranks, as a Run on a Bike when
  the pick is all one suit and as a Run otherwise; shorter sequences inside it do not count,
  unless ``bike_inside_longer_run_counts`` is set, which adds the longest same-suit consecutive
  stretch (3+ cards) of a suit that does not cover the whole interval, as a Run on a Bike;
* **flushes (C3)**: a suit holding 3+ cards counts one Flush of all of them, unless those cards
  are by themselves consecutive (a bike), in which case no flush counts.

A hand has "all cards used" (stop requirement 2) when every card is in a counted meld or a
Prile of 4 is present.

Speed: five cards hold at most five distinct ranks and at most one suit with three or more
cards, so every structural fact is looked up in tables built once, keyed by sums of per-card
bit fields. :meth:`IndecisionScorer.value` (score and all-used only) is the hot path used by
the engine and the bots; :meth:`IndecisionScorer.count` lists the melds for explanations.

>>> from cardtable.cards import parse_cards
>>> scorer = IndecisionScorer()
>>> scorer.value(parse_cards("10C JD QC KC KH"))
(17, True)
>>> [meld.name for meld in scorer.count(parse_cards("5C 6C 7C 7D 10C")).melds]
['Pair', 'Run on a Bike of 3', 'Run of 3', 'Flush of 4']
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations_with_replacement, product
from typing import Any, Final, NamedTuple

from cardtable.cards import format_card, format_cards
from cardtable.errors import CardError, HandSizeError
from cardtable.rule_options import check_options, option

HAND_SIZE: Final = 5
REMEMBERED_MELDS: Final = 16384
"""How many meld lists of each kind (groups, sequences, flushes) a scorer keeps for reuse."""
_RANKS: Final = 13
_ALL_RANKS: Final = (1 << _RANKS) - 1


@dataclass(frozen=True, kw_only=True, slots=True)
class MeldValues:
    """Points for each meld (RULES.md 1.6); the five [GUESS] cells are defaults to change.

    It lives here, beside the scorer that reads it, and the game's rules carry one as their
    ``meld_values`` setting.
    """

    pair: int = option(
        2, label="Pair", help="Points for a pair: two cards of one rank.", low=0, high=1000
    )
    prile_3: int = option(
        12,
        label="Prile of three",
        help="Points for a prile of three: three cards of one rank.",
        low=0,
        high=1000,
    )
    prile_4: int = option(
        24,
        label="Prile of four",
        help="Points for a prile of four: four cards of one rank.",
        low=0,
        high=1000,
    )
    run_3: int = option(
        3,
        label="Run of three",
        help="Points for a run of three: three cards in rank order, suits mixed.",
        low=0,
        high=1000,
    )
    run_4: int = option(
        6,
        label="Run of four",
        help="Points for a run of four: four cards in rank order, suits mixed.",
        low=0,
        high=1000,
    )
    run_5: int = option(
        9,
        label="Run of five",
        help="Points for a run of five: five cards in rank order, suits mixed.",
        low=0,
        high=1000,
    )
    bike_3: int = option(
        5,
        label="Run on a Bike of three",
        help="Points for a Run on a Bike of three: three cards in rank order, all of one suit.",
        low=0,
        high=1000,
    )
    bike_4: int = option(
        10,
        label="Run on a Bike of four",
        help="Points for a Run on a Bike of four: four cards in rank order, all of one suit.",
        low=0,
        high=1000,
    )
    bike_5: int = option(
        15,
        label="Run on a Bike of five",
        help="Points for a Run on a Bike of five: five cards in rank order, all of one suit.",
        low=0,
        high=1000,
    )
    flush_3: int = option(
        3,
        label="Flush of three",
        help="Points for a flush of three: three cards of one suit.",
        low=0,
        high=1000,
    )
    flush_4: int = option(
        4,
        label="Flush of four",
        help="Points for a flush of four: four cards of one suit.",
        low=0,
        high=1000,
    )
    flush_5: int = option(
        5,
        label="Flush of five",
        help="Points for a flush of five: five cards of one suit.",
        low=0,
        high=1000,
    )

    def __post_init__(self) -> None:
        check_options(self)

    def run(self, length: int) -> int:
        """Value of a mixed-suit run of ``length`` (3-5)."""
        return (self.run_3, self.run_4, self.run_5)[length - 3]

    def bike(self, length: int) -> int:
        """Value of a Run on a Bike of ``length`` (3-5)."""
        return (self.bike_3, self.bike_4, self.bike_5)[length - 3]

    def flush(self, length: int) -> int:
        """Value of a Flush of ``length`` (3-5)."""
        return (self.flush_3, self.flush_4, self.flush_5)[length - 3]


DEFAULT_VALUES: Final = MeldValues()

_MELD_NAMES: Final = {
    "pair": "Pair",
    "prile": "Prile of {n}",
    "run": "Run of {n}",
    "bike": "Run on a Bike of {n}",
    "flush": "Flush of {n}",
}


@dataclass(frozen=True, slots=True)
class Meld:
    """One counted meld: its ``kind`` (pair, prile, run, bike, flush), cards and points."""

    kind: str
    cards: tuple[int, ...]
    points: int

    @property
    def name(self) -> str:
        """The meld's name in the game's terms: ``Prile of 3``, ``Run on a Bike of 4``…"""
        return _MELD_NAMES[self.kind].format(n=len(self.cards))

    def __str__(self) -> str:
        return f"{self.name} {format_cards(self.cards)} = {self.points}"

    def to_json(self) -> dict[str, Any]:
        """The meld as JSON-ready data (cards as labels)."""
        return {
            "name": self.name,
            "cards": [format_card(c) for c in self.cards],
            "points": self.points,
        }


class IndecisionCount(NamedTuple):
    """A counted hand: total ``score``, the counted ``melds`` (each with ``name``, ``cards`` and
    ``points``) and whether all cards are used (stop requirement 2, with the Prile of 4
    exemption). :class:`cardtable.games.indecision.scoring.HandScore` is this class.

    A named tuple rather than a frozen dataclass: just as immutable, and built in one step,
    which is a third of the cost of scoring a hand with its meld list.
    """

    cards: tuple[int, ...]
    score: int
    melds: tuple[Meld, ...]
    all_cards_used: bool

    @property
    def unused_cards(self) -> tuple[int, ...]:
        """Cards of the hand that no counted meld uses."""
        used = {card for meld in self.melds for card in meld.cards}
        return tuple(card for card in self.cards if card not in used)

    def explain(self) -> str:
        """The count as a player would announce it: melds (repeats grouped), total, all-used.

        >>> from cardtable.cards import parse_cards
        >>> print(count_hand(parse_cards("5S 5H 6D 6C 7S")).explain())
        Pair 5S 5H = 2; Pair 6D 6C = 2; Run of 3 x4 = 12; total 16, all cards used
        """
        parts: list[str] = []
        melds = self.melds
        index = 0
        while index < len(melds):
            meld = melds[index]
            same = 1
            while (
                index + same < len(melds)
                and melds[index + same].kind == meld.kind
                and len(melds[index + same].cards) == len(meld.cards)
                and melds[index + same].points == meld.points
                and meld.kind in _GROUPED_KINDS
            ):
                same += 1
            if same == 1:
                parts.append(str(meld))
            else:
                parts.append(f"{meld.name} x{same} = {meld.points * same}")
            index += same
        if not parts:
            parts.append("no melds")
        unused = self.unused_cards
        if self.all_cards_used and unused:
            used_note = f"all cards used (Prile of 4: {format_cards(unused)} may stay unused)"
        elif self.all_cards_used:
            used_note = "all cards used"
        else:
            used_note = f"not all cards used ({format_cards(unused)} unused)"
        return "; ".join(parts) + f"; total {self.score}, {used_note}"

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data: ``score``, ``all_cards_used``, ``melds`` (and the ``cards``)."""
        return {
            "cards": [format_card(c) for c in self.cards],
            "score": self.score,
            "all_cards_used": self.all_cards_used,
            "melds": [meld.to_json() for meld in self.melds],
        }


_GROUPED_KINDS: Final = frozenset(("run",))
"""Repeated melds of these kinds are announced as "Run of 3 x2"; pairs are listed one by one."""


# ---------------------------------------------------------------------------------------------
# Structural tables (independent of the meld values), built once on first use.


def _circular_runs(mask: int) -> list[tuple[int, int]]:
    """Maximal circular runs of set bits in a 13-bit rank mask, as (start rank, length)."""
    if mask == _ALL_RANKS:
        return [(0, _RANKS)]
    runs = []
    for start in range(_RANKS):
        if mask >> start & 1 and not mask >> ((start - 1) % _RANKS) & 1:
            length = 1
            while mask >> ((start + length) % _RANKS) & 1:
                length += 1
            runs.append((start, length))
    return runs


def _interval_mask(start: int, length: int) -> int:
    mask = 0
    for offset in range(length):
        mask |= 1 << ((start + offset) % _RANKS)
    return mask


@cache
def _suit_tables() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Per 13-bit rank mask of one suit: the longest circular stretch, and the flush length
    (the card count when 3+ cards are not one consecutive stretch, else 0)."""
    longest = []
    flush = []
    for mask in range(1 << _RANKS):
        runs = _circular_runs(mask)
        best = max((length for _, length in runs), default=0)
        count = mask.bit_count()
        longest.append(best)
        flush.append(count if count >= 3 and not (len(runs) == 1 and best == count) else 0)
    return tuple(longest), tuple(flush)


# Per-card key fields: three bits per rank (or suit) hold how many of the five cards have it.
_RANK_KEY: Final = tuple(1 << (3 * (card % 13)) for card in range(52))
_SUIT_KEY: Final = tuple(1 << (3 * (card // 13)) for card in range(52))


@dataclass(frozen=True, slots=True)
class _RankShape:
    """Everything C1 and C2 need that depends only on the ranks of the five cards."""

    counts: tuple[int, ...]
    interval_start: int
    interval_length: int
    interval_mask: int
    combinations: int
    uncovered: int
    """Ranks held once and outside the interval: cards no same-rank or sequence meld uses."""
    groups: tuple[tuple[int, int], ...]
    """(rank, count) of every rank held 2-4 times, larger groups first, then by rank."""
    interval_ranks: tuple[int, ...]
    """The interval's ranks in circular order."""
    prile_4: bool


@cache
def _rank_shapes() -> dict[int, _RankShape]:
    shapes = {}
    for ranks in combinations_with_replacement(range(_RANKS), HAND_SIZE):
        counts = [0] * _RANKS
        for rank in ranks:
            counts[rank] += 1
        if max(counts) > 4:
            continue
        present = sum(1 << r for r in range(_RANKS) if counts[r])
        long_runs = [run for run in _circular_runs(present) if run[1] >= 3]
        start, length = long_runs[0] if long_runs else (0, 0)
        imask = _interval_mask(start, length) if length else 0
        combinations = 1
        for offset in range(length):
            combinations *= counts[(start + offset) % _RANKS]
        multiples = sum(1 << r for r in range(_RANKS) if counts[r] >= 2)
        key = sum(1 << (3 * rank) for rank in ranks)
        shapes[key] = _RankShape(
            counts=tuple(counts),
            interval_start=start,
            interval_length=length,
            interval_mask=imask,
            combinations=combinations if length else 0,
            uncovered=present & ~(multiples | imask),
            groups=tuple(
                sorted(
                    ((r, counts[r]) for r in range(_RANKS) if counts[r] >= 2),
                    key=lambda group: -group[1],
                )
            ),
            interval_ranks=tuple((start + i) % _RANKS for i in range(length)),
            prile_4=4 in counts,
        )
    return shapes


@cache
def _big_suit_table() -> tuple[int, ...]:
    """Suit-count key -> the suit holding 3+ of the five cards, or -1 (at most one can)."""
    table = [-1] * (1 << 12)
    for key in range(1 << 12):
        for suit in range(4):
            if (key >> (3 * suit)) & 7 >= 3:
                table[key] = suit
    return tuple(table)


# ---------------------------------------------------------------------------------------------


def check_indecision_hand(cards: Iterable[int]) -> tuple[int, ...]:
    """Return ``cards`` as a tuple if they are 5 distinct regular cards, else raise.

    >>> check_indecision_hand([0, 1, 2, 3])
    Traceback (most recent call last):
    ...
    cardtable.errors.HandSizeError: an Indecision hand has exactly 5 cards, not 4
    """
    hand = tuple(cards)
    if (
        len(hand) == HAND_SIZE
        and _DECK.issuperset(hand)
        and len(set(hand)) == HAND_SIZE
        and set(map(type, hand)) == {int}
    ):
        return hand
    if len(hand) != HAND_SIZE:
        raise HandSizeError(f"an Indecision hand has exactly 5 cards, not {len(hand)}")
    for card in hand:
        if type(card) is not int or not 0 <= card < 52:
            raise CardError(f"{card!r} is not a card of the standard 52-card deck")
    seen: set[int] = set()
    for card in hand:
        if card in seen:
            raise CardError(f"duplicate card {format_card(card)}: Indecision plays with one deck")
        seen.add(card)
    return hand


_DECK: Final = frozenset(range(52))


class IndecisionScorer:
    """Scores 5-card Indecision hands under one meld value table and one counting variant.

    Build one per rules object and reuse it: the constructor folds the values into tables.
    """

    __slots__ = (
        "_alt",
        "_bike",
        "_by_ranks",
        "_by_ranks_listed",
        "_flush",
        "_flush_melds",
        "_group_melds",
        "_run",
        "_same_rank",
        "_seq_melds",
        "_values",
        "bike_inside",
    )

    def __init__(
        self,
        values: MeldValues = DEFAULT_VALUES,
        *,
        bike_inside_longer_run_counts: bool = False,
    ) -> None:
        self._values = values
        self.bike_inside = bike_inside_longer_run_counts
        self._alt = bike_inside_longer_run_counts
        self._run = (0, 0, 0, values.run_3, values.run_4, values.run_5)
        self._bike = (0, 0, 0, values.bike_3, values.bike_4, values.bike_5)
        self._flush = (0, 0, 0, values.flush_3, values.flush_4, values.flush_5)
        self._same_rank = (0, 0, values.pair, values.prile_3, values.prile_4)
        self._by_ranks = self._fold_values()
        self._by_ranks_listed = {
            key: (*folded, *_FAMILIES[key]) for key, folded in self._by_ranks.items()
        }
        # Melds met so far, keyed by the rank-major bits of their cards (see count()).
        self._group_melds: dict[int, tuple[Meld, ...]] = {}
        self._seq_melds: dict[int, tuple[Meld, ...]] = {}
        self._flush_melds: dict[int, Meld] = {}

    # Game states carry their scorer as a cache: two scorers of the same values and variant
    # score every hand alike, so they compare (and hash) equal and equal games stay equal.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, IndecisionScorer):
            return NotImplemented
        return self is other or (self._values == other._values and self._alt == other._alt)

    def __hash__(self) -> int:
        return hash((self._values, self._alt))

    def __repr__(self) -> str:
        return f"IndecisionScorer({self._values!r}, bike_inside_longer_run_counts={self._alt})"

    def _fold_values(self) -> dict[int, tuple[int, int, int, int, int, bool]]:
        """Rank key -> (same-rank and all-run points, interval mask, interval length,
        bike bonus over a run, uncovered ranks, has a Prile of 4)."""
        v = self._values
        same_rank = (0, 0, v.pair, v.prile_3, v.prile_4)
        folded = {}
        for key, shape in _SHAPES.items():
            base = sum(same_rank[n] for n in shape.counts)
            length = shape.interval_length
            base += shape.combinations * self._run[length]
            bike_bonus = self._bike[length] - self._run[length]
            folded[key] = (
                base,
                shape.interval_mask,
                length,
                bike_bonus,
                shape.uncovered,
                shape.prile_4,
            )
        return folded

    def value(self, cards: Sequence[int]) -> tuple[int, bool]:
        """``(score, all_cards_used)`` of five distinct cards, unchecked (the fast path)."""
        a, b, c, d, e = cards
        rk = _RANK_KEY
        base, imask, length, bike_bonus, uncovered, prile_4 = self._by_ranks[
            rk[a] + rk[b] + rk[c] + rk[d] + rk[e]
        ]
        sk = _SUIT_KEY
        big = _BIG_SUIT[sk[a] + sk[b] + sk[c] + sk[d] + sk[e]]
        if big < 0:
            return base, prile_4 or not uncovered
        suit_mask = (((1 << a) | (1 << b) | (1 << c) | (1 << d) | (1 << e)) >> (13 * big)) & 0x1FFF
        flush = _FLUSH_LEN[suit_mask]
        score = base + self._flush[flush]
        if length:
            if suit_mask & imask == imask:
                score += bike_bonus
            elif self._alt:
                score += self._bike[_LONGEST_STRETCH[suit_mask & imask]]
        return score, prile_4 or not uncovered or (flush > 0 and not uncovered & ~suit_mask)

    def score(self, cards: Sequence[int]) -> int:
        """The score of five distinct cards, unchecked."""
        return self.value(cards)[0]

    def count(self, cards: Iterable[int]) -> IndecisionCount:
        """Check the hand and list its counted melds (in order: same rank, bikes, runs,
        flush), with the score and whether all cards are used.

        Melds are immutable, so the scorer keeps the meld lists it has built, keyed by the
        cards they are made of: a hand's pairs and priles by those cards (6,695 such sets in
        the deck), its runs and bike by the cards of its sequence interval (49,296), its flush
        by the suit's cards (8,996). A table is emptied when it reaches
        :data:`REMEMBERED_MELDS` entries, so a scorer holds about ten megabytes at most.
        :meth:`listed_count` builds the same list meld by meld and stays as its reference.
        """
        hand = tuple(cards)
        try:
            a, b, c, d, e = hand
            # Bools and other int-like types are not cards, hence the exact type test.
            if type(a) is type(b) is type(c) is type(d) is type(e) is int:
                fields = _CARD_FIELDS
                x = fields[a] + fields[b] + fields[c] + fields[d] + fields[e]
            else:
                x = 0
        except (ValueError, KeyError):
            x = 0
        m = x & _RANK_MAJOR_FIELD
        if m.bit_count() != HAND_SIZE or self._alt:
            # Not five distinct cards (the checker names the problem), or the variant whose
            # extra bike depends on more than the interval's cards.
            return self.listed_count(hand)
        base, imask, length, bike_bonus, uncovered, prile_4, seq, groups = self._by_ranks_listed[
            x >> _RANK_KEY_SHIFT & _RANK_KEY_FIELD
        ]
        # The score and all-cards-used as in value(); the tests check that they equal the sum
        # and the union of the melds listed.
        melds: tuple[Meld, ...] = ()
        if groups:
            key = m & groups
            melds = self._group_melds.get(key) or self._remember_groups(key)
        if seq:
            key = m & seq
            melds += self._seq_melds.get(key) or self._remember_sequences(key, seq)
        big = _BIG_SUIT[x >> _SUIT_KEY_SHIFT]
        score = base
        if big < 0:
            used = prile_4 or not uncovered
        else:
            suit_mask = x >> (_SUIT_MAJOR_SHIFT + 13 * big) & 0x1FFF
            flush = _FLUSH_LEN[suit_mask]
            if length and suit_mask & imask == imask:
                score += bike_bonus
            if flush:
                score += self._flush[flush]
                key = big << 13 | suit_mask
                melds += (self._flush_melds.get(key) or self._remember_flush(key),)
            used = prile_4 or not uncovered or (flush > 0 and not uncovered & ~suit_mask)
        # IndecisionCount(hand, score, melds, used) without the keyword handling of __new__.
        return _new_count(IndecisionCount, (hand, score, melds, used))

    def _remember_groups(self, groups_mask: int) -> tuple[Meld, ...]:
        """The Pairs and Priles of these rank-major nibbles, larger groups first, then by rank."""
        found = []
        for rank in range(_RANKS):
            cards = _GROUP_CARDS[16 * rank + (groups_mask >> 4 * rank & 15)]
            if len(cards) >= 2:
                found.append(
                    Meld("pair" if len(cards) == 2 else "prile", cards, self._same_rank[len(cards)])
                )
        found.sort(key=lambda meld: -len(meld.cards))
        if len(self._group_melds) >= REMEMBERED_MELDS:
            self._group_melds.clear()
        melds = self._group_melds[groups_mask] = tuple(found)
        return melds

    def _remember_sequences(self, cards_mask: int, interval: int) -> tuple[Meld, ...]:
        if len(self._seq_melds) >= REMEMBERED_MELDS:
            self._seq_melds.clear()
        melds = self._seq_melds[cards_mask] = self._sequence_melds(cards_mask, interval)
        return melds

    def _remember_flush(self, key: int) -> Meld:
        suit, suit_mask = key >> 13, key & 0x1FFF
        cards = tuple(suit * 13 + r for r in range(_RANKS) if suit_mask >> r & 1)
        if len(self._flush_melds) >= REMEMBERED_MELDS:
            self._flush_melds.clear()
        meld = self._flush_melds[key] = Meld("flush", cards, self._flush[_FLUSH_LEN[suit_mask]])
        return meld

    def _sequence_melds(self, cards_mask: int, interval: int) -> tuple[Meld, ...]:
        """The bike (if any) then the runs of the interval's cards, one of each rank per run,
        in the order :meth:`listed_count` gives them. ``cards_mask`` holds the interval's
        cards as rank-major bits; ``interval`` the interval's rank-major nibbles."""
        ranks = [shift >> 2 for shift in range(0, 52, 4) if interval >> shift & 15]
        start = _circular_runs(sum(1 << r for r in ranks))[0][0]
        ordered = sorted(ranks, key=lambda r: (r - start) % _RANKS)
        choices = [_GROUP_CARDS[16 * r + (cards_mask >> 4 * r & 15)] for r in ordered]
        length = len(ordered)
        bikes = []
        runs = []
        for combo in product(*choices):
            if len({card // 13 for card in combo}) == 1:
                bikes.append(Meld("bike", combo, self._bike[length]))
            else:
                runs.append(Meld("run", combo, self._run[length]))
        return (*bikes, *runs)

    def listed_count(self, cards: Iterable[int]) -> IndecisionCount:
        """:meth:`count` computed meld by meld from the hand (no shared meld objects): the
        reference the tests hold :meth:`count` to, and the way the bike-inside variant is
        counted."""
        hand = check_indecision_hand(cards)
        score, all_used = self.value(hand)
        shape = _SHAPES[sum(map(_RANK_KEY.__getitem__, hand))]
        ordered = sorted(hand)
        melds: list[Meld] = []
        for rank, size in shape.groups:
            group = tuple([c for c in ordered if c % 13 == rank])
            melds.append(Meld("pair" if size == 2 else "prile", group, self._same_rank[size]))
        big = _BIG_SUIT[sum(map(_SUIT_KEY.__getitem__, hand))]
        suited: tuple[int, ...] = ()
        suit_mask = 0
        if big >= 0:
            suited = tuple([c for c in ordered if c // 13 == big])
            for card in suited:
                suit_mask |= 1 << (card % 13)
        length = shape.interval_length
        if length:
            choices = [[c for c in ordered if c % 13 == rank] for rank in shape.interval_ranks]
            run_points = self._run[length]
            runs: list[Meld] = []
            bike_found = False
            for combo in product(*choices):
                if big >= 0 and all(c // 13 == big for c in combo):
                    melds.append(Meld("bike", combo, self._bike[length]))
                    bike_found = True
                else:
                    runs.append(Meld("run", combo, run_points))
            if self._alt and not bike_found:
                stretch = _longest_stretch_cards(suit_mask & shape.interval_mask)
                if len(stretch) >= 3:
                    in_order = tuple(big * 13 + rank for rank in stretch)
                    melds.append(Meld("bike", in_order, self._bike[len(stretch)]))
            melds += runs
        flush = _FLUSH_LEN[suit_mask]
        if flush:
            melds.append(Meld("flush", suited, self._flush[flush]))
        # The score and all-cards-used come from the table-driven fast path; the tests check
        # that they equal the sum and the union of the melds listed here.
        return IndecisionCount(hand, score, tuple(melds), all_used)

    def max_score(self) -> int:
        """An upper bound of any hand's score under these values (for declaration ranges)."""
        v = self._values
        same_rank = max(v.prile_4, v.prile_3 + v.pair, 2 * v.pair)
        sequences = max(
            4 * max(v.run_3, v.bike_3), 2 * max(v.run_4, v.bike_4), max(v.run_5, v.bike_5)
        )
        extra_bike = max(v.bike_3, v.bike_4) if self._alt else 0
        return same_rank + sequences + extra_bike + max(v.flush_3, v.flush_4, v.flush_5)


def _longest_stretch_cards(mask: int) -> list[int]:
    """Ranks of the longest circular consecutive stretch in ``mask``, in order."""
    runs = _circular_runs(mask)
    if not runs:
        return []
    start, length = max(runs, key=lambda run: run[1])
    return [(start + i) % _RANKS for i in range(length)]


_LONGEST_STRETCH, _FLUSH_LEN = _suit_tables()
_BIG_SUIT: Final = _big_suit_table()
_SHAPES: Final = _rank_shapes()

# For count(): each card's bit in rank-major order (bit 4 * rank + suit), so that one rank's
# suits are one nibble of a hand's mask; the cards of a rank for each nibble (16 * rank +
# nibble), in suit order; and per rank key the interval's nibbles as a mask (0 without one)
# and the nibbles of the ranks held 2-4 times.
_RANK_MAJOR_BIT: Final = tuple(1 << (4 * (card % 13) + card // 13) for card in range(52))
_GROUP_CARDS: Final = tuple(
    tuple(suit * 13 + rank for suit in range(4) if nibble >> suit & 1)
    for rank in range(_RANKS)
    for nibble in range(16)
)
# Everything count() reads of a card, in four fields of one int, so that one lookup per card
# and one sum give them all: the rank-major bit (bits 0-51), the card's own bit (52-103), its
# rank-key and suit-key fields (as _RANK_KEY and _SUIT_KEY). The bits of five cards add up
# without a carry exactly when the cards are distinct, so the low field then has five bits.
_RANK_MAJOR_FIELD: Final = (1 << 52) - 1
_SUIT_MAJOR_SHIFT: Final = 52
_RANK_KEY_SHIFT: Final = 104
_RANK_KEY_FIELD: Final = (1 << 39) - 1
_SUIT_KEY_SHIFT: Final = 143
_CARD_FIELDS: Final = {
    card: _RANK_MAJOR_BIT[card]
    | 1 << (_SUIT_MAJOR_SHIFT + card)
    | _RANK_KEY[card] << _RANK_KEY_SHIFT
    | _SUIT_KEY[card] << _SUIT_KEY_SHIFT
    for card in range(52)
}
_FAMILIES: Final[dict[int, tuple[int, int]]] = {
    key: (
        sum(15 << (4 * rank) for rank in shape.interval_ranks),
        sum(15 << (4 * rank) for rank, _ in shape.groups),
    )
    for key, shape in _SHAPES.items()
}


def count_hand(
    cards: Iterable[int],
    values: MeldValues = DEFAULT_VALUES,
    *,
    bike_inside_longer_run_counts: bool = False,
) -> IndecisionCount:
    """Count one hand (checked): score, melds and all-cards-used.

    >>> from cardtable.cards import parse_cards
    >>> counted = count_hand(parse_cards("5H 6H 7H 8C 2D"), bike_inside_longer_run_counts=True)
    >>> counted.score, [str(m) for m in counted.melds]
    (11, ['Run on a Bike of 3 5H 6H 7H = 5', 'Run of 4 5H 6H 7H 8C = 6'])
    """
    return scorer_for(values, bike_inside_longer_run_counts).count(cards)


_SCORERS: dict[tuple[MeldValues, bool], IndecisionScorer] = {}


def scorer_for(values: MeldValues, bike_inside_longer_run_counts: bool) -> IndecisionScorer:
    """A shared scorer for these values (values objects must be hashable, as frozen ones are)."""
    key = (values, bike_inside_longer_run_counts)
    scorer = _SCORERS.get(key)
    if scorer is None:
        if len(_SCORERS) > 64:
            _SCORERS.clear()
        scorer = _SCORERS[key] = IndecisionScorer(
            values, bike_inside_longer_run_counts=bike_inside_longer_run_counts
        )
    return scorer


_new_count: Final = tuple.__new__
"""Builds an :class:`IndecisionCount` from the tuple of its fields (see ``count``)."""
