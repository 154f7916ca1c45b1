"""A player's own groups of an Indian Rummy hand, labelled and counted as the count reads them.

The page lets a player arrange the hand into groups of their own; this module owns what those
groups are worth under RULES.md 2.4 and 2.8, so that the page labels them without knowing the
rules, and the best arrangement the count and a declaration use (:func:`best_groups`, from the
exact solver of :mod:`cardtable.melds.indian`).

* :func:`group_kind` says what one group is: ``"pure sequence"``, ``"sequence"``, ``"set"``, or
  ``None`` when it is no group at all (the page shows it as loose).
* :func:`evaluate` labels a whole arrangement and counts it as 2.8 would if these were the
  groups laid: with two sequences, one pure, only the loose groups count; with a pure sequence
  but no second sequence everything but one pure sequence counts (sets too); with no pure
  sequence every card counts.
* :func:`place` puts the cards a player has not placed yet (a card just drawn) into the group
  they complete or extend, else into a group of their own at the end.
* :func:`best_groups` is the solver's arrangement of 13 cards, or of 14 after drawing: the
  put-down that leaves a valid show (else the fewest points) and the other 13 arranged.

A player's groups never decide a declaration: the engine checks a show with the solver, so a
valid hand is a valid show however it was arranged here.

>>> from cardtable.cards import parse_cards
>>> group_kind(parse_cards("5H 6H 7H"), wild_rank=6), group_kind(parse_cards("5H 6H 7D"), 6)
('pure sequence', 'sequence')
>>> group_kind(parse_cards("QS QD PJ", deck=None), 6), group_kind(parse_cards("5H 9C"), None)
('set', None)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Any, Final, Literal

from cardtable.cards import PRINTED_JOKER, Card, format_card
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.scoring import HAND_SIZE, arrange, show_discards
from cardtable.melds.indian import (
    CATEGORY_NO_PURE,
    CATEGORY_PURE_ONLY,
    CATEGORY_TWO_SEQUENCES,
    Category,
    GroupKind,
    card_value,
    is_joker,
    raw_points,
)

__all__ = [
    "BestGroups",
    "Evaluation",
    "LabelledGroup",
    "best_groups",
    "evaluate",
    "group_kind",
    "place",
    "same_groups",
    "show_put_down",
]

Label = Literal["pure sequence", "sequence", "set", "loose"]
_STRENGTH: Final = {"pure sequence": 3, "sequence": 2, "set": 1}
_LONGEST_SEQUENCE: Final = 13
"""A sequence runs from the ace low to the ace high at most (RULES.md 2.4)."""


def _sequence_fits(naturals: Sequence[Card], jokers: int) -> bool:
    """Can these cards of one suit, all as themselves, and ``jokers`` fillers make a sequence?"""
    if len({card // 13 for card in naturals}) != 1:
        return False
    ranks = [card % 13 for card in naturals]
    if len(set(ranks)) != len(ranks):
        return False
    size = len(ranks) + jokers
    if size > _LONGEST_SEQUENCE:
        return False
    # The ace stands low (position 0) or high (position 13), never both: K-A-2 is no sequence.
    for high_ace in (False, True):
        places = [13 if high_ace and rank == 0 else rank for rank in ranks]
        if max(places) - min(places) + 1 <= size:
            return True
    return False


def _set_fits(naturals: Sequence[Card], jokers: int) -> bool:
    """Can these cards, all as themselves, and ``jokers`` fillers make a set (3-4 cards of one
    rank, every suit different)?"""
    if len({card % 13 for card in naturals}) != 1:
        return False
    suits = [card // 13 for card in naturals]
    return len(set(suits)) == len(suits) and len(naturals) + jokers <= 4


def group_kind(
    cards: Sequence[Card], wild_rank: int | None, rules: Rules | None = None
) -> GroupKind | None:
    """What these cards make as one group (RULES.md 2.4 and the rules' joker options), the
    strongest reading first: a pure sequence, a sequence, a set; ``None`` when none.

    A wild-rank card may stand as itself or as a joker: every choice is tried.

    >>> from cardtable.cards import parse_cards
    >>> group_kind(parse_cards("QH KH AH"), None), group_kind(parse_cards("KH AH 2H"), None)
    ('pure sequence', None)
    >>> group_kind(parse_cards("KH PJ PJ", deck=None), None)
    'sequence'
    """
    rules = rules or Rules()
    if len(cards) < 3:
        return None
    printed = sum(1 for card in cards if card == PRINTED_JOKER)
    wilds = [card for card in cards if card != PRINTED_JOKER and is_joker(card, wild_rank)]
    plain = [card for card in cards if not is_joker(card, wild_rank)]
    best: GroupKind | None = None
    for as_jokers in range(len(wilds) + 1):
        # Which copies act as jokers matters only by count: the rest stand as themselves.
        for chosen in set(combinations(sorted(wilds), as_jokers)):
            left = list(wilds)
            for card in chosen:
                left.remove(card)
            naturals = plain + left
            jokers = printed + as_jokers
            kind = _kind(naturals, jokers, rules)
            if kind is not None and (best is None or _STRENGTH[kind] > _STRENGTH[best]):
                best = kind
    return best


def _kind(naturals: list[Card], jokers: int, rules: Rules) -> GroupKind | None:
    if not naturals:
        if not rules.all_joker_groups:
            return None
        limit = rules.jokers_per_sequence
        return "sequence" if limit is None or jokers <= limit else "set" if jokers <= 4 else None
    limit = rules.jokers_per_sequence
    if (limit is None or jokers <= limit) and _sequence_fits(naturals, jokers):
        return "pure sequence" if jokers == 0 else "sequence"
    if _set_fits(naturals, jokers):
        return "set"
    return None


@dataclass(frozen=True, slots=True)
class LabelledGroup:
    """One of the player's groups: its cards, what it is (``"loose"`` when no group), and the
    points it adds to the count; ``counts`` is true when its cards count although it is a
    group (a set or second pure sequence while the hand lacks its two sequences)."""

    cards: tuple[Card, ...]
    label: Label
    points: int
    counts: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, cards as labels."""
        return {
            "cards": [format_card(card) for card in self.cards],
            "label": self.label,
            "points": self.points,
            "counts": self.counts,
        }


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A whole arrangement labelled and counted (RULES.md 2.8, capped by the rules)."""

    groups: tuple[LabelledGroup, ...]
    category: Category
    points: int
    valid_show: bool

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, cards as labels."""
        return {
            "groups": [group.to_json() for group in self.groups],
            "category": self.category,
            "points": self.points,
            "valid_show": self.valid_show,
        }


def _value(cards: Sequence[Card], wild_rank: int | None) -> int:
    return sum(card_value(card, wild_rank) for card in cards)


def evaluate(
    groups: Sequence[Sequence[Card]], wild_rank: int | None, rules: Rules | None = None
) -> Evaluation:
    """Label each group and count the arrangement as if these were the groups laid.

    >>> from cardtable.cards import parse_cards
    >>> hand = [parse_cards(g, deck=None) for g in ("5H 6H 7H", "QS QD QC", "KS 9D")]
    >>> result = evaluate(hand, wild_rank=None)
    >>> [(g.label, g.points) for g in result.groups], result.category, result.points
    ([('pure sequence', 0), ('set', 30), ('loose', 19)], 'pure sequence only', 49)
    """
    rules = rules or Rules()
    kinds = [group_kind(group, wild_rank, rules) for group in groups]
    values = [_value(group, wild_rank) for group in groups]
    pure = [i for i, kind in enumerate(kinds) if kind == "pure sequence"]
    sequences = sum(1 for kind in kinds if kind in ("pure sequence", "sequence"))
    free: set[int]
    if pure and sequences >= 2:
        category: Category = CATEGORY_TWO_SEQUENCES
        free = {i for i, kind in enumerate(kinds) if kind is not None}
    elif pure:
        category = CATEGORY_PURE_ONLY
        # Every card counts but one pure sequence's: the count keeps the one worth the most.
        free = {max(pure, key=lambda i: values[i])}
    else:
        category = CATEGORY_NO_PURE
        free = set()
    labelled = tuple(
        LabelledGroup(
            cards=tuple(group),
            label="loose" if kind is None else kind,
            points=0 if i in free else values[i],
            counts=kind is not None and i not in free,
        )
        for i, (group, kind) in enumerate(zip(groups, kinds, strict=True))
    )
    raw = sum(group.points for group in labelled)
    cap = rules.max_points
    cards = sum(len(group) for group in groups)
    valid = (
        category == CATEGORY_TWO_SEQUENCES
        and cards == HAND_SIZE
        and all(k is not None for k in kinds)
    )
    return Evaluation(labelled, category, raw if cap is None else min(raw, cap), valid)


def place(
    groups: Sequence[Sequence[Card]],
    unplaced: Sequence[Card],
    wild_rank: int | None,
    rules: Rules | None = None,
) -> list[list[Card]]:
    """The groups with each unplaced card put where it helps most: into the group it makes a
    group of (or a stronger one), else into a group of its own at the end.

    >>> from cardtable.cards import parse_cards, format_cards
    >>> placed = place([parse_cards("5H 6H"), parse_cards("QS QD QC")], parse_cards("7H 2C"), None)
    >>> [format_cards(group) for group in placed]
    ['5H 6H 7H', 'QS QD QC', '2C']
    """
    rules = rules or Rules()
    result = [list(group) for group in groups if group]
    for card in unplaced:
        best_at, best_gain = -1, 0
        for at, group in enumerate(result):
            before = group_kind(group, wild_rank, rules)
            after = group_kind([*group, card], wild_rank, rules)
            if after is None:
                continue
            gain = _STRENGTH[after] - (0 if before is None else _STRENGTH[before]) + 1
            if gain > best_gain:
                best_at, best_gain = at, gain
        if best_at >= 0:
            result[best_at].append(card)
        else:
            result.append([card])
    return result


def show_put_down(
    groups: Sequence[Sequence[Card]], wild_rank: int | None, rules: Rules | None = None
) -> Card | None:
    """For 14 cards in groups: a card whose put-down leaves the other 13 a valid show as they are
    grouped (the card taken out of its group), or ``None``.

    >>> from cardtable.cards import parse_cards, format_card
    >>> hand = [parse_cards(g) for g in ("5H 6H 7H", "9S 10S JS", "2C 2D 2S", "4H 4D 4C 4S KD")]
    >>> format_card(show_put_down(hand, 6))
    'KD'
    """
    if sum(len(group) for group in groups) != HAND_SIZE + 1:
        return None
    for at, group in enumerate(groups):
        for card in dict.fromkeys(group):
            rest = list(group)
            rest.remove(card)
            shown = [*groups[:at], *([rest] if rest else []), *groups[at + 1 :]]
            if evaluate(shown, wild_rank, rules).valid_show:
                return card
    return None


@dataclass(frozen=True, slots=True)
class BestGroups:
    """The solver's arrangement: its groups (each with its kind and what its jokers stand for),
    the loose cards, the card to put down (14 cards held) and the count."""

    groups: tuple[tuple[GroupKind, tuple[Card, ...], tuple[Card, ...]], ...]
    loose: tuple[Card, ...]
    put_down: Card | None
    category: Category
    points: int
    valid_show: bool

    def partition(self) -> list[list[Card]]:
        """The arrangement as the page lays it: the groups, the loose cards, the put-down."""
        parts = [list(cards) for _, cards, _ in self.groups]
        if self.loose:
            parts.append(list(self.loose))
        if self.put_down is not None:
            parts.append([self.put_down])
        return parts

    def to_json(self) -> dict[str, Any]:
        """JSON-ready, cards as labels."""
        return {
            "groups": [
                {
                    "kind": kind,
                    "cards": [format_card(card) for card in cards],
                    "represents": [format_card(card) for card in stands],
                }
                for kind, cards, stands in self.groups
            ],
            "loose": [format_card(card) for card in self.loose],
            "put_down": None if self.put_down is None else format_card(self.put_down),
            "category": self.category,
            "points": self.points,
            "valid_show": self.valid_show,
        }


def best_groups(hand: Sequence[Card], wild_rank: int | None, rules: Rules) -> BestGroups:
    """The solver's arrangement of 13 cards, or of 14 (the put-down chosen as above).

    >>> from cardtable.cards import parse_cards, format_card
    >>> cards = parse_cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD")
    >>> best = best_groups(cards, 6, Rules())
    >>> format_card(best.put_down), best.valid_show, best.points
    ('KD', True, 0)
    """
    return _best(tuple(sorted(hand)), wild_rank, rules)


def _without(hand: tuple[Card, ...], card: Card) -> tuple[Card, ...]:
    rest = list(hand)
    rest.remove(card)
    return tuple(rest)


@lru_cache(maxsize=1024)
def _best(hand: tuple[Card, ...], wild_rank: int | None, rules: Rules) -> BestGroups:
    put_down: Card | None = None
    cards = hand
    if len(hand) == HAND_SIZE + 1:
        shows = show_discards(hand, wild_rank, rules)
        candidates = shows[:1] or tuple(dict.fromkeys(hand))
        # The fewest points left; a tie goes to the higher card put down (it would count).
        put_down = min(
            candidates,
            key=lambda card: (
                raw_points(
                    _without(hand, card),
                    wild_rank,
                    jokers_per_sequence=rules.jokers_per_sequence,
                    all_joker_groups=rules.all_joker_groups,
                ),
                -card_value(card, wild_rank),
            ),
        )
        cards = _without(hand, put_down)
    solution = arrange(cards, wild_rank, rules)
    loose = list(cards)
    for group in solution.groups:
        for card in group.cards:
            loose.remove(card)
    return BestGroups(
        groups=tuple((g.kind, g.cards, g.represented) for g in solution.groups),
        loose=tuple(sorted(loose, key=lambda c: (c == PRINTED_JOKER, c // 13, c % 13))),
        put_down=put_down,
        category=solution.category,
        points=solution.points,
        valid_show=solution.valid_show,
    )


def same_groups(mine: Sequence[Sequence[Card]], theirs: Sequence[Sequence[Card]]) -> bool:
    """True when two arrangements hold the same groups, whatever their order.

    >>> same_groups([[1, 2, 3], [9]], [[9], [3, 2, 1]]), same_groups([[1, 2], [3]], [[1, 2, 3]])
    (True, False)
    """

    def key(groups: Sequence[Sequence[Card]]) -> Counter[tuple[Card, ...]]:
        return Counter(tuple(sorted(group)) for group in groups if group)

    return key(mine) == key(theirs)
