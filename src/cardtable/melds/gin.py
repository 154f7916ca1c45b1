"""Standard gin rummy deadwood, the preset that cross-checks the meld search against other engines.

Gin rummy here means the usual rules with one 52-card deck: aces are low only (A-2-3 is a run,
Q-K-A is not), runs are 3 or more cards of one suit in rank order, sets are 3 or 4 cards of one
rank, and an unmelded card counts its face value with the ace 1 and J, Q, K 10. The deadwood of
a hand is the smallest count of unmelded cards over every way of laying its melds.

The search works on 52-bit masks. Each suit is a 13-bit block, so a table built once at import
lists the runs of every possible suit pattern (runs of 3 to 5 cards are enough: a longer run
lays off the same cards as two shorter ones). The melds present in a hand are then a few table
look-ups, and a depth-first search over them, always branching on the lowest card that some
meld still covers, finds the largest melded value. The best discard of an 11-card hand comes
out of the same search: every arrangement of the 10 cards left after a discard is an
arrangement of the 11 with the discarded card unmelded, so the answer is the least
``deadwood - highest unmelded card`` over the 11-card arrangements, found in one pass instead
of eleven.

>>> from cardtable.cards import parse_cards
>>> hand = parse_cards("AS 2S JS AC 2C 2D JD AH 2H 3H JH")
>>> gin_deadwood(hand)  # run AH 2H 3H, the 2s and the jacks: AS AC unmelded
2
>>> deadwood, card = gin_best_discard(hand)
>>> deadwood, format_card(card)
(0, '3H')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from cardtable.cards import RANK_LABELS, Card, format_card, format_cards, sort_key
from cardtable.errors import CardError, HandSizeError

__all__ = [
    "GinArrangement",
    "gin_arrangement",
    "gin_best_discard",
    "gin_card_value",
    "gin_deadwood",
]

_SUIT_BITS: Final = 0x1FFF
_RANK_VALUES: Final = tuple(min(rank + 1, 10) for rank in range(13))
_CARD_BITS: Final = {card: 1 << card for card in range(52)}
_RANK_BITS: Final = 1 | 1 << 13 | 1 << 26 | 1 << 39
"""The ace of every suit; shifted left by a rank, every card of that rank."""


def gin_card_value(card: Card) -> int:
    """Deadwood value of a card: ace 1, two to ten their number, J Q K 10.

    >>> gin_card_value(0), gin_card_value(9), gin_card_value(51)
    (1, 10, 10)
    """
    return _RANK_VALUES[card % 13]


class _SuitTables:
    """Answers for every 13-bit suit pattern, so a hand's runs cost four look-ups.

    ``deadwood[p]``: the value of the cards of ``p`` left out of its best runs.
    ``after_discard[p]``: the same after the best discard from ``p`` (no value for the empty
    pattern), and ``discard_rank[p]`` that card's rank, the higher-valued card and then the
    lower rank on ties.
    """

    __slots__ = (
        "after_discard",
        "deadwood",
        "discard_key",
        "discard_keys_by_suit",
        "discard_rank",
    )

    def __init__(self) -> None:
        size = 1 << 13
        value = [0] * size
        runs = [0] * size
        for pattern in range(1, size):
            low = pattern & -pattern
            rank = low.bit_length() - 1
            value[pattern] = value[pattern ^ low] + _RANK_VALUES[rank]
            # The lowest card either lies outside every run, or starts a run of 3 or more.
            best = runs[pattern ^ low]
            run, run_value, length, following = low, _RANK_VALUES[rank], 1, low << 1
            while pattern & following:
                run |= following
                run_value += _RANK_VALUES[rank + length]
                length += 1
                following <<= 1
                if length >= 3:
                    best = max(best, run_value + runs[pattern & ~run])
            runs[pattern] = best
        deadwood = [v - r for v, r in zip(value, runs, strict=True)]
        after_discard = [0] * size
        discard_rank = [0] * size
        for pattern in range(1, size):
            least, least_rank, rest = value[pattern] + 1, 0, pattern
            while rest:
                low = rest & -rest
                rest ^= low
                rank = low.bit_length() - 1
                left = deadwood[pattern ^ low]
                if left < least or (
                    left == least and _RANK_VALUES[rank] > _RANK_VALUES[least_rank]
                ):
                    least, least_rank = left, rank
            after_discard[pattern] = least
            discard_rank[pattern] = least_rank
        self.deadwood: tuple[int, ...] = tuple(deadwood)
        self.after_discard: tuple[int, ...] = tuple(after_discard)
        self.discard_rank: tuple[int, ...] = tuple(discard_rank)
        # The whole discard answer of a pattern packed in one int, ordered like
        # (change in deadwood, -value, rank); adding ``13 * suit`` to it gives the card id and
        # adding ``total << 12`` the deadwood of the hand. The empty pattern never wins.
        keys = [1 << 40] * size
        for pattern in range(1, size):
            rank = discard_rank[pattern]
            change = after_discard[pattern] - deadwood[pattern]
            keys[pattern] = (change << 12) + ((10 - _RANK_VALUES[rank]) << 6) + rank
        self.discard_key: tuple[int, ...] = tuple(keys)
        self.discard_keys_by_suit: tuple[tuple[int, ...], ...] = tuple(
            tuple(k + 13 * suit for k in keys) for suit in range(4)
        )


_tables: _SuitTables | None = None
_deadwood_table: tuple[int, ...] = ()
_discard_key_table: tuple[int, ...] = ()
_heart_keys: tuple[int, ...] = ()
_diamond_keys: tuple[int, ...] = ()
_club_keys: tuple[int, ...] = ()


def _suit_tables() -> _SuitTables:
    """The suit tables, built on first use rather than at import (their cost:
    benchmarks/README.md, "Figures the modules' docstrings refer to")."""
    global _tables, _deadwood_table, _discard_key_table, _heart_keys, _diamond_keys, _club_keys
    if _tables is None:
        _tables = _SuitTables()
        _deadwood_table = _tables.deadwood
        _discard_key_table = _tables.discard_key
        _, _heart_keys, _diamond_keys, _club_keys = _tables.discard_keys_by_suit
    return _tables


_card_bit: Final = _CARD_BITS.__getitem__
_SEQUENCES: Final = (tuple, list)


def _hand_mask(cards: Iterable[Card]) -> tuple[int, int]:
    """The hand as a mask and its size; :class:`CardError` for a foreign or repeated card."""
    hand = cards if isinstance(cards, _SEQUENCES) else tuple(cards)
    try:
        mask = sum(map(_card_bit, hand))
    except (KeyError, TypeError):
        _reject(hand)
    if mask.bit_count() != len(hand):
        _reject(hand)
    return mask, len(hand)


def _reject(hand: Sequence[object]) -> NoReturn:
    """Raise the :class:`CardError` naming the first foreign or repeated card of ``hand``."""
    for i, card in enumerate(hand):
        if not isinstance(card, int) or card not in _CARD_BITS:
            raise CardError(f"gin rummy uses the 52 regular cards only, not {card!r}")
        if card in hand[:i]:
            raise CardError(f"duplicate card {format_card(card)}: gin rummy plays with one deck")
    raise AssertionError("unreachable: the hand was rejected for no reason")


def _set_ranks(spades: int, hearts: int, diamonds: int, clubs: int) -> int:
    """Ranks (as a 13-bit pattern) held in at least three suits: the only ones that can set."""
    return (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)


_Layout = tuple[int, int, int, int, int]
"""Spades, hearts, diamonds and clubs left for runs, and the mask of the cards laid in sets."""


def _set_layouts(spades: int, hearts: int, diamonds: int, clubs: int, sets: int) -> list[_Layout]:
    """Every way to lay sets: each rank held in 3+ suits is laid or not, a 4-suit one as 4 or 3.

    The suit patterns that remain then lay their best runs independently, read from the tables.
    """
    layouts: list[_Layout] = [(spades, hearts, diamonds, clubs, 0)]
    while sets:
        low = sets & -sets
        sets ^= low
        grown = list(layouts)
        for s, h, d, c, set_cards in layouts:
            cards = (s & low) | (h & low) << 13 | (d & low) << 26 | (c & low) << 39
            grown.append((s & ~low, h & ~low, d & ~low, c & ~low, set_cards | cards))
            if cards.bit_count() == 4:
                # Any three of the four, the fourth left free for a run.
                grown.append((s, h ^ low, d ^ low, c ^ low, set_cards | (cards ^ low)))
                grown.append((s ^ low, h, d ^ low, c ^ low, set_cards | (cards ^ low << 13)))
                grown.append((s ^ low, h ^ low, d, c ^ low, set_cards | (cards ^ low << 26)))
                grown.append((s ^ low, h ^ low, d ^ low, c, set_cards | (cards ^ low << 39)))
        layouts = grown
    return layouts


def _split_suits(hand: int) -> tuple[int, int, int, int]:
    return hand & _SUIT_BITS, (hand >> 13) & _SUIT_BITS, (hand >> 26) & _SUIT_BITS, hand >> 39


_MAX_LAYOUTS: Final = 1024
"""Above this many ways to lay the sets, the rank-by-rank sweep takes over."""


def _too_many_layouts(spades: int, hearts: int, diamonds: int, clubs: int, sets: int) -> bool:
    four_suits = (spades & hearts & diamonds & clubs).bit_count()
    layouts = 1 << (sets.bit_count() - four_suits)
    for _ in range(four_suits):
        layouts *= 6  # a rank held in all four suits: no set, the four, or any three
    return layouts > _MAX_LAYOUTS


_RUN, _SET, _DEAD, _DISCARD, _ABSENT = range(5)
_PENDING: Final = tuple(
    tuple(
        sum(_RANK_VALUES[rank - k] for k in range(1, length + 1)) if length in (1, 2) else 0
        for rank in range(14)
    )
    for length in range(4)
)
"""Value of a run of ``length`` cards that stops short of three just before ``rank``."""

_SweepLayer = dict[int, tuple[int, int, tuple[int, ...]]]
_SCALE: Final = 1 << 10


def _sweep(hand: int, with_discard: bool) -> tuple[int, list[int], list[int], int]:
    """Exact deadwood of any hand, rank by rank: (deadwood, melds, deadwood cards, discard).

    The state is the length of the run open in each suit (0, 1, 2, or 3 meaning "3 or more")
    and whether the one discard is spent; each card of a rank joins its suit's run, a set of
    that rank, the deadwood, or is the discard. A run that stops at 1 or 2 cards turns into
    deadwood. Ranks are processed one suit at a time, counting the cards of the rank's set so
    far, so a step never branches more than four ways. Used for hands whose sets could be laid
    in too many ways for :func:`_set_layouts`; ``discard`` is -1 without ``with_discard``.

    Costs are scaled by :data:`_SCALE` so that the discard's rank in the tie-break order
    (higher value first, then lower id) rides along in the low bits.
    """
    layers: list[_SweepLayer] = []
    states: _SweepLayer = {0: (0, -1, ())}
    set_field = 3 << 9
    for rank in range(13):
        value = _RANK_VALUES[rank]
        partial: _SweepLayer = {key: (cost, key, ()) for key, (cost, _, _) in states.items()}
        for suit in range(4):
            shift = 2 * suit
            held = hand >> (13 * suit + rank) & 1
            grown: _SweepLayer = {}
            for key, (cost, origin, roles) in partial.items():
                length = (key >> shift) & 3
                pending = _PENDING[length][rank]
                broken = key & ~(3 << shift)
                if held:
                    set_count = min(((key >> 9) & 3) + 1, 3)
                    choices = [
                        (broken | min(length + 1, 3) << shift, cost, _RUN),
                        (broken, cost + (pending + value) * _SCALE, _DEAD),
                        ((broken & ~set_field) | set_count << 9, cost + pending * _SCALE, _SET),
                    ]
                    if with_discard and not key >> 8 & 1:
                        tie_break = (10 - value) * 64 + 13 * suit + rank
                        choices.append(
                            (broken | 1 << 8, cost + pending * _SCALE + tie_break, _DISCARD)
                        )
                else:
                    choices = [(broken, cost + pending * _SCALE, _ABSENT)]
                for new_key, new_cost, role in choices:
                    kept = grown.get(new_key)
                    if kept is None or new_cost < kept[0]:
                        grown[new_key] = (new_cost, origin, (*roles, role))
            partial = grown
        states = {}
        for key, entry in partial.items():
            if (key >> 9) & 3 in (1, 2):
                continue  # one or two cards cannot make a set
            final = key & ~set_field
            kept = states.get(final)
            if kept is None or entry[0] < kept[0]:
                states[final] = entry
        layers.append(states)
    best_key, best_cost = -1, 1 << 40
    for key, (cost, _, _) in states.items():
        if with_discard and not key >> 8 & 1:
            continue
        total = cost + sum(_PENDING[(key >> (2 * s)) & 3][13] for s in range(4)) * _SCALE
        if total < best_cost:
            best_key, best_cost = key, total
    # Walk back to the roles of every card, then read the melds off them.
    roles_by_rank: list[tuple[int, ...]] = [()] * 13
    key = best_key
    for rank in range(12, -1, -1):
        _, origin, roles = layers[rank][key]
        roles_by_rank[rank] = roles
        key = origin
    melds: list[int] = []
    deadwood_cards: list[int] = []
    discard = -1
    for rank in range(13):
        set_cards = 0
        for suit, role in enumerate(roles_by_rank[rank]):
            card = 13 * suit + rank
            if role == _SET:
                set_cards |= 1 << card
            elif role == _DEAD:
                deadwood_cards.append(card)
            elif role == _DISCARD:
                discard = card
        if set_cards:
            melds.append(set_cards)
    for suit in range(4):
        run: list[int] = []
        for rank in range(14):
            if rank < 13 and roles_by_rank[rank][suit] == _RUN:
                run.append(13 * suit + rank)
                continue
            if len(run) >= 3:
                melds.append(sum(1 << c for c in run))
            else:
                deadwood_cards.extend(run)
            run = []
    return best_cost // _SCALE, melds, deadwood_cards, discard


def gin_deadwood(cards: Iterable[Card]) -> int:
    """Smallest deadwood count of a gin rummy hand of 0 to 52 distinct cards.

    Cards are ids 0..51; anything else raises :class:`CardError` (for speed, numbers equal
    to a card id, such as ``2.0``, are read as that id).

    >>> from cardtable.cards import parse_cards
    >>> gin_deadwood(parse_cards("5S 6S 7S 7H 7D 7C 8S 9S KD QD"))
    20
    """
    # The hot path of every gin search: _hand_mask inlined, and the usual cases (no rank or
    # a single rank held in three suits or more) spelled out before the general enumeration.
    hand = cards if isinstance(cards, _SEQUENCES) else tuple(cards)
    try:
        mask = sum(map(_card_bit, hand))
    except (KeyError, TypeError):
        _reject(hand)
    if mask.bit_count() != len(hand):
        _reject(hand)
    deadwood = _deadwood_table or _suit_tables().deadwood
    spades = mask & 0x1FFF
    hearts = (mask >> 13) & 0x1FFF
    diamonds = (mask >> 26) & 0x1FFF
    clubs = mask >> 39
    sets = (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)
    if not sets:
        return deadwood[spades] + deadwood[hearts] + deadwood[diamonds] + deadwood[clubs]
    if sets & (sets - 1) == 0:
        keep = ~sets
        s, h, d, c = spades & keep, hearts & keep, diamonds & keep, clubs & keep
        best = min(
            deadwood[spades] + deadwood[hearts] + deadwood[diamonds] + deadwood[clubs],
            deadwood[s] + deadwood[h] + deadwood[d] + deadwood[c],
        )
        if spades & hearts & diamonds & clubs:
            best = min(
                best,
                deadwood[spades] + deadwood[h] + deadwood[d] + deadwood[c],
                deadwood[s] + deadwood[hearts] + deadwood[d] + deadwood[c],
                deadwood[s] + deadwood[h] + deadwood[diamonds] + deadwood[c],
                deadwood[s] + deadwood[h] + deadwood[d] + deadwood[clubs],
            )
        return best
    if _too_many_layouts(spades, hearts, diamonds, clubs, sets):
        return _sweep(mask, with_discard=False)[0]
    return _least_with_sets(spades, hearts, diamonds, clubs, sets, deadwood)


def _least_with_sets(
    spades: int, hearts: int, diamonds: int, clubs: int, sets: int, deadwood: tuple[int, ...]
) -> int:
    """Least deadwood when the lowest rank of ``sets`` is laid as a set or not, recursively."""
    low = sets & -sets
    later = sets ^ low
    keep = ~low
    s, h, d, c = spades & keep, hearts & keep, diamonds & keep, clubs & keep
    options = [(spades, hearts, diamonds, clubs), (s, h, d, c)]
    if spades & hearts & diamonds & clubs & low:
        options += [
            (spades, h, d, c),
            (s, hearts, d, c),
            (s, h, diamonds, c),
            (s, h, d, clubs),
        ]
    if later:
        return min(_least_with_sets(*option, later, deadwood) for option in options)
    return min(deadwood[s] + deadwood[h] + deadwood[d] + deadwood[c] for s, h, d, c in options)


def _discard_key(
    spades: int, hearts: int, diamonds: int, clubs: int, deadwood: Sequence[int], key: Sequence[int]
) -> int:
    """The packed (deadwood after the best discard, -value, card id) of one way to lay sets."""
    return (deadwood[spades] + deadwood[hearts] + deadwood[diamonds] + deadwood[clubs] << 12) + min(
        key[spades], key[hearts] + 13, key[diamonds] + 26, key[clubs] + 39
    )


def _best_discard(hand: int) -> tuple[int, int]:
    """(least deadwood after one discard, that discard) for a non-empty hand mask."""
    # The hot path of every gin bot: the usual cases (no rank or a single rank held in three
    # suits or more) are spelled out before the general enumeration of set layouts.
    deadwood = _deadwood_table or _suit_tables().deadwood
    key = _discard_key_table
    spades = hand & 0x1FFF
    hearts = (hand >> 13) & 0x1FFF
    diamonds = (hand >> 26) & 0x1FFF
    clubs = hand >> 39
    sets = (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs)
    if not sets:
        best = key[spades]
        other = key[hearts] + 13
        if other < best:
            best = other
        other = key[diamonds] + 26
        if other < best:
            best = other
        other = key[clubs] + 39
        if other < best:
            best = other
        best += deadwood[spades] + deadwood[hearts] + deadwood[diamonds] + deadwood[clubs] << 12
    elif sets & (sets - 1) == 0:
        # One rank can set: lay it or not, and with four suits any three of them.
        keep = ~sets
        s, h, d, c = spades & keep, hearts & keep, diamonds & keep, clubs & keep
        heart_keys, diamond_keys, club_keys = _heart_keys, _diamond_keys, _club_keys
        all_s, all_h = deadwood[spades], deadwood[hearts]
        all_d, all_c = deadwood[diamonds], deadwood[clubs]
        rest_s, rest_h, rest_d, rest_c = deadwood[s], deadwood[h], deadwood[d], deadwood[c]
        key_all_s, key_all_h = key[spades], heart_keys[hearts]
        key_all_d, key_all_c = diamond_keys[diamonds], club_keys[clubs]
        key_s, key_h, key_d, key_c = key[s], heart_keys[h], diamond_keys[d], club_keys[c]
        best = min(
            (all_s + all_h + all_d + all_c << 12) + min(key_all_s, key_all_h, key_all_d, key_all_c),
            (rest_s + rest_h + rest_d + rest_c << 12) + min(key_s, key_h, key_d, key_c),
        )
        if spades & hearts & diamonds & clubs:
            best = min(
                best,
                (all_s + rest_h + rest_d + rest_c << 12) + min(key_all_s, key_h, key_d, key_c),
                (rest_s + all_h + rest_d + rest_c << 12) + min(key_s, key_all_h, key_d, key_c),
                (rest_s + rest_h + all_d + rest_c << 12) + min(key_s, key_h, key_all_d, key_c),
                (rest_s + rest_h + rest_d + all_c << 12) + min(key_s, key_h, key_d, key_all_c),
            )
    elif _too_many_layouts(spades, hearts, diamonds, clubs, sets):
        deadwood_left, _, _, discard = _sweep(hand, with_discard=True)
        return deadwood_left, discard
    else:
        best = min(
            _discard_key(s, h, d, c, deadwood, key)
            for s, h, d, c, _ in _set_layouts(spades, hearts, diamonds, clubs, sets)
        )
    return best >> 12, best & 63


def gin_best_discard(cards: Iterable[Card]) -> tuple[int, Card]:
    """The least deadwood reachable by discarding one card, and the card to discard.

    Meant for the 11 cards held after drawing, but any hand of 1 to 52 cards is accepted.
    Among equally good discards the highest-valued card is chosen, then the lowest card id
    (spades before hearts before diamonds before clubs, low ranks first).

    >>> from cardtable.cards import parse_cards
    >>> deadwood, card = gin_best_discard(parse_cards("2C 3C 4C 5C 9S 9H 9D KS QH JD 10C"))
    >>> deadwood, format_card(card)
    (30, 'KS')
    """
    hand = cards if isinstance(cards, _SEQUENCES) else tuple(cards)
    try:
        mask = sum(map(_card_bit, hand))
    except (KeyError, TypeError):
        _reject(hand)
    if mask.bit_count() != len(hand):
        _reject(hand)
    if not mask:
        raise HandSizeError("an empty hand has no card to discard")
    # The most common case, no rank held in three suits, inlined from _best_discard.
    deadwood = _deadwood_table or _suit_tables().deadwood
    spades = mask & 0x1FFF
    hearts = (mask >> 13) & 0x1FFF
    diamonds = (mask >> 26) & 0x1FFF
    clubs = mask >> 39
    if (spades & hearts & (diamonds | clubs)) | ((spades | hearts) & diamonds & clubs):
        return _best_discard(mask)
    best = _discard_key_table[spades]
    other = _heart_keys[hearts]
    if other < best:
        best = other
    other = _diamond_keys[diamonds]
    if other < best:
        best = other
    other = _club_keys[clubs]
    if other < best:
        best = other
    best += deadwood[spades] + deadwood[hearts] + deadwood[diamonds] + deadwood[clubs] << 12
    return best >> 12, best & 63


def _trace_runs(pattern: int, shift: int) -> list[int]:
    """The runs (as 52-bit masks) of one best way to lay a suit pattern."""
    deadwood = (_tables or _suit_tables()).deadwood
    laid: list[int] = []
    while pattern:
        low = pattern & -pattern
        rank = low.bit_length() - 1
        if deadwood[pattern] == deadwood[pattern ^ low] + _RANK_VALUES[rank]:
            pattern ^= low
            continue
        # The lowest card starts a run: find a length that the table's optimum agrees with.
        run, length = low | low << 1 | low << 2, 3
        while deadwood[pattern & ~run] != deadwood[pattern]:
            run |= low << length
            length += 1
        laid.append(run << shift)
        pattern &= ~run
    return laid


def _sorted_meld(mask: int) -> tuple[Card, ...]:
    cards = []
    while mask:
        low = mask & -mask
        mask ^= low
        cards.append(low.bit_length() - 1)
    return tuple(sorted(cards, key=lambda c: (c % 13, c // 13)))


@dataclass(frozen=True, slots=True)
class GinArrangement:
    """One best way to lay a gin rummy hand: its melds, the unmelded cards and their count.

    ``best_discard`` and ``deadwood_after_best_discard`` are filled for an 11-card hand (the
    moment after drawing) and are ``None`` otherwise.
    """

    melds: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]
    deadwood: int
    best_discard: Card | None = None
    deadwood_after_best_discard: int | None = None

    def explain(self) -> str:
        """A readable account in gin rummy terms.

        >>> from cardtable.cards import parse_cards
        >>> print(gin_arrangement(parse_cards("AS 2S 3S 7H 7D 7C KD")).explain())
        Run AS 2S 3S; Set of 7s 7H 7D 7C; deadwood KD = 10
        """
        parts = []
        for meld in self.melds:
            is_set = len({card % 13 for card in meld}) == 1
            label = f"Set of {RANK_LABELS[meld[0] % 13]}s" if is_set else "Run"
            parts.append(f"{label} {format_cards(meld)}")
        if not self.deadwood_cards:
            parts.append("no deadwood (gin)")
        elif len(self.deadwood_cards) == 1:
            parts.append(f"deadwood {format_cards(self.deadwood_cards)} = {self.deadwood}")
        else:
            values = " + ".join(str(gin_card_value(c)) for c in self.deadwood_cards)
            parts.append(
                f"deadwood {format_cards(self.deadwood_cards)} = {values} = {self.deadwood}"
            )
        text = "; ".join(parts)
        if self.best_discard is not None:
            text += (
                f"; best discard {format_card(self.best_discard)} leaves "
                f"{self.deadwood_after_best_discard}"
            )
        return text

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready summary with card labels.

        >>> from cardtable.cards import parse_cards
        >>> gin_arrangement(parse_cards("AS 2S 3S 9D")).to_json()
        {'deadwood': 9, 'melds': [['AS', '2S', '3S']], 'deadwood_cards': ['9D']}
        """
        data: dict[str, Any] = {
            "deadwood": self.deadwood,
            "melds": [[format_card(c) for c in meld] for meld in self.melds],
            "deadwood_cards": [format_card(c) for c in self.deadwood_cards],
        }
        if self.best_discard is not None:
            data["best_discard"] = format_card(self.best_discard)
            data["deadwood_after_best_discard"] = self.deadwood_after_best_discard
        return data


def gin_arrangement(cards: Iterable[Card]) -> GinArrangement:
    """The melds and deadwood of one best arrangement (plus the best discard for 11 cards).

    >>> from cardtable.cards import parse_cards
    >>> print(gin_arrangement(parse_cards("AS 2S JS AC 2C 2D JD AH 2H 3H JH")).explain())
    ... # doctest: +NORMALIZE_WHITESPACE
    Run AH 2H 3H; Set of 2s 2S 2D 2C; Set of Js JS JH JD; deadwood AS AC = 1 + 1 = 2;
    best discard 3H leaves 0
    """
    hand, size = _hand_mask(cards)
    tables = _tables or _suit_tables()
    spades, hearts, diamonds, clubs = _split_suits(hand)
    sets = _set_ranks(spades, hearts, diamonds, clubs)
    meld_masks: list[int] = []
    if _too_many_layouts(spades, hearts, diamonds, clubs, sets):
        meld_masks = _sweep(hand, with_discard=False)[1]
    else:
        best = min(
            _set_layouts(spades, hearts, diamonds, clubs, sets),
            key=lambda layout: sum(tables.deadwood[p] for p in layout[:4]),
        )
        set_cards = best[4]
        while set_cards:
            rank_cards = set_cards & (_RANK_BITS << ((set_cards & -set_cards).bit_length() - 1))
            meld_masks.append(rank_cards)
            set_cards ^= rank_cards
        for suit, pattern in enumerate(best[:4]):
            meld_masks.extend(_trace_runs(pattern, 13 * suit))
    melded = 0
    for mask in meld_masks:
        melded |= mask
    melds = sorted((_sorted_meld(m) for m in meld_masks), key=lambda m: (m[0] % 13, m[0] // 13))
    deadwood_cards = tuple(sorted(_sorted_meld(hand & ~melded), key=sort_key))
    best_discard = after = None
    if size == 11:
        after, best_discard = _best_discard(hand)
    return GinArrangement(
        melds=tuple(melds),
        deadwood_cards=deadwood_cards,
        deadwood=sum(_RANK_VALUES[c % 13] for c in deadwood_cards),
        best_discard=best_discard,
        deadwood_after_best_discard=after,
    )
