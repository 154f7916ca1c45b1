"""Counting an Indian Rummy hand: the public face of the meld search (RULES.md 2.4-2.8).

This module owns the checks and the words around :mod:`cardtable.melds.indian`: it accepts
cards from the Indian Rummy pack only, applies the house rules that touch counting (the cap on
a deal's points, the joker limit per sequence, groups made only of jokers, a pack without
printed jokers or without the wild joker cut) and explains a count in the game's own terms.

* :func:`arrange` lays 13 cards to their best advantage and counts them:
  category ``"two sequences"`` (A: two sequences, one pure; only the cards left out count),
  ``"pure sequence only"`` (B: every card counts except those of the best pure sequence;
  sets do not help) or ``"no pure sequence"`` (C: all 13 count), capped at ``max_points``.
* :func:`show_discards` lists the cards of a 14-card hand whose put-down leaves a valid show.
* :func:`card_points` is the value of one card; :func:`parse_wild_rank` reads a wild rank.

>>> from cardtable.cards import parse_cards
>>> hand = parse_cards("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C", deck=None)
>>> result = arrange(hand, wild_rank=parse_wild_rank("2"))
>>> result.points
23
>>> print(result.explain())
Pure sequence 3H 4H 5H 6H; Pure sequence 7H 8H 9H; Set QS QD QC; loose KS 9D 4C = 10 + 9 + 4 = 23 points
"""  # noqa: E501

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.cards import (
    INDIAN_RUMMY_DECK,
    PRINTED_JOKER,
    Card,
    check_hand,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    parse_rank,
    rank_of,
)
from cardtable.errors import CardError, HandSizeError, RulesError
from cardtable.games.indian_rummy.rules import Rules
from cardtable.melds import indian
from cardtable.melds.indian import (
    CATEGORY_NO_PURE,
    CATEGORY_PURE_ONLY,
    CATEGORY_TWO_SEQUENCES,
    Category,
    Group,
)

__all__ = [
    "CATEGORY_NO_PURE",
    "CATEGORY_PURE_ONLY",
    "CATEGORY_TWO_SEQUENCES",
    "Arrangement",
    "Category",
    "Group",
    "arrange",
    "card_points",
    "parse_wild_rank",
    "show_discards",
]

DEFAULT_RULES: Final = Rules()
"""The seed's rules, used when no house rules are given."""
HAND_SIZE: Final = 13
"""Cards shown in a declaration, and counted for every other player."""
DRAWN_HAND_SIZE: Final = 14
"""Cards held after drawing, one of which is put down when declaring."""

_NO_WILD: Final = frozenset({"NONE", "NO", "-", "OFF", ""})
_PRINTED_JOKER_CUT: Final = frozenset({"PJ", "JK", "JOKER", "PRINTED JOKER"})


def parse_wild_rank(text: str) -> int | None:
    """Read the wild rank: a rank (``7``, ``10``, ``Q``), a cut card (``2D``), or ``none``.

    A printed joker cut (``PJ``) makes the aces wild, so it reads as rank 0.

    >>> parse_wild_rank("7"), parse_wild_rank("Q"), parse_wild_rank("10"), parse_wild_rank("2D")
    (6, 11, 9, 1)
    >>> parse_wild_rank("PJ"), parse_wild_rank("none")
    (0, None)
    >>> parse_wild_rank("11")
    Traceback (most recent call last):
    ...
    cardtable.errors.CardError: unknown wild rank '11': expected A, 2-10, J, Q, K, a cut card such as 2D, PJ or none
    """  # noqa: E501
    key = text.strip().upper()
    if key in _NO_WILD:
        return None
    if key in _PRINTED_JOKER_CUT:
        return 0
    try:
        return parse_rank(key)
    except CardError:
        pass
    try:
        card = parse_card(key)
    except CardError:
        card = -1
    if 0 <= card < 52:
        return rank_of(card)
    raise CardError(
        f"unknown wild rank {text!r}: expected A, 2-10, J, Q, K, a cut card such as 2D, PJ or none"
    )


def card_points(card: Card, wild_rank: int | None) -> int:
    """Points of a card left out of groups: J Q K A 10, number cards their number, jokers 0.

    >>> card_points(parse_card("KS"), None), card_points(parse_card("7H"), 6)
    (10, 0)
    """
    _check_cards((card,), DEFAULT_RULES)
    _check_wild_rank(wild_rank, DEFAULT_RULES)
    return indian.card_value(card, wild_rank)


def _check_wild_rank(wild_rank: int | None, rules: Rules) -> None:
    if wild_rank is None:
        return
    if isinstance(wild_rank, bool) or not isinstance(wild_rank, int) or not 0 <= wild_rank < 13:
        raise CardError(
            f"the wild rank must be a rank index 0 (ace) to 12 (king) or None, not {wild_rank!r}"
        )
    if not rules.wild_joker_cut:
        raise RulesError("these house rules cut no wild joker, so the wild rank must be None")


def _check_cards(cards: tuple[Any, ...], rules: Rules) -> tuple[Card, ...]:
    for card in cards:
        if isinstance(card, bool) or not isinstance(card, int):
            raise CardError(f"a card is a card id (int), not {card!r}")
    hand = check_hand(cards, INDIAN_RUMMY_DECK)
    if rules.printed_jokers == 0 and PRINTED_JOKER in hand:
        raise CardError("card PJ is not in the pack: these house rules play without printed jokers")
    return hand


def _checked(
    cards: Iterable[Card], size: int, wild_rank: int | None, rules: Rules
) -> tuple[Card, ...]:
    hand = tuple(cards)
    if len(hand) != size:
        raise HandSizeError(f"an Indian Rummy hand here has {size} cards, not {len(hand)}")
    _check_wild_rank(wild_rank, rules)
    return _check_cards(hand, rules)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A 13-card hand laid to its best advantage and counted (RULES.md 2.8).

    * ``groups``: the groups that matter for the category: every group laid (A), the one pure
      sequence kept out of the count (B), none (C). Each :class:`Group` says what its jokers
      stand for.
    * ``loose``: the cards that count (in category A jokers may be loose at no cost).
    * ``category``: ``"two sequences"`` (A), ``"pure sequence only"`` (B) or
      ``"no pure sequence"`` (C).
    * ``raw_points``: the value of ``loose``; ``points``: the same after the cap of the rules.
    * ``valid_show``: these 13 cards would be a valid declaration.
    """

    groups: tuple[Group, ...]
    loose: tuple[Card, ...]
    category: Category
    raw_points: int
    points: int
    valid_show: bool
    wild_rank: int | None = None

    def explain(self) -> str:
        """The count in the game's own words.

        >>> from cardtable.cards import parse_cards
        >>> hand = parse_cards("AS KH QD JC 10S 9H 8D 7C 6S 5H 4D 4C 3S", deck=None)
        >>> print(arrange(hand, wild_rank=1).explain())  # doctest: +NORMALIZE_WHITESPACE
        No pure sequence, so all 13 cards count: AS 3S 6S 10S 5H 9H KH 4D 8D QD 4C 7C JC
        = 10 + 3 + 6 + 10 + 5 + 9 + 10 + 4 + 8 + 10 + 4 + 7 + 10 = 96 points, capped at 80
        """
        groups = "; ".join(group.describe() for group in self.groups)
        values = [indian.card_value(card, self.wild_rank) for card in self.loose]
        if len(values) > 1:
            count = f"{' + '.join(map(str, values))} = {self.raw_points} points"
        else:
            count = f"{self.raw_points} points"
        if self.points != self.raw_points:
            count += f", capped at {self.points}"
        loose = format_cards(self.loose)
        if self.category == CATEGORY_NO_PURE:
            return f"No pure sequence, so all {len(self.loose)} cards count: {loose} = {count}"
        if self.category == CATEGORY_PURE_ONLY:
            return (
                f"{groups}; no second sequence, so every other card counts, sets too: "
                f"{loose} = {count}"
            )
        if self.valid_show:
            return f"Valid show: {groups}; nothing loose = 0 points"
        if not self.loose:
            return f"{groups}; nothing loose = 0 points"
        return f"{groups}; loose {loose} = {count}"

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready record, cards as labels.

        >>> from cardtable.cards import parse_cards
        >>> hand = parse_cards("AH 2H 3H 5S 6S PJ 8S 9D 9C 9S KD KC KH", deck=None)
        >>> data = arrange(hand, wild_rank=3).to_json()
        >>> data["points"], data["valid_show"], data["groups"][1]
        (0, True, {'kind': 'sequence', 'cards': ['5S', '6S', 'PJ', '8S'], 'represents': ['5S', '6S', '7S', '8S']})
        """  # noqa: E501
        return {
            "points": self.points,
            "raw_points": self.raw_points,
            "valid_show": self.valid_show,
            "category": self.category,
            "groups": [
                {
                    "kind": group.kind,
                    "cards": [format_card(c) for c in group.cards],
                    "represents": [format_card(c) for c in group.represented],
                }
                for group in self.groups
            ],
            "loose": [format_card(c) for c in self.loose],
            "loose_points": [indian.card_value(c, self.wild_rank) for c in self.loose],
            "explanation": self.explain(),
        }


def arrange(
    cards: Iterable[Card], wild_rank: int | None, rules: Rules = DEFAULT_RULES
) -> Arrangement:
    """Lay 13 cards to their best advantage and count them under ``rules``.

    ``wild_rank`` is the rank index of the wild joker (0 = ace … 12 = king), ``None`` when no
    wild joker is cut; see :func:`parse_wild_rank`.

    >>> from cardtable.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H QS QD QC 2S 9D 4C KD 3C 8S 10H", deck=None)
    >>> result = arrange(hand, wild_rank=parse_wild_rank("J"))
    >>> result.category, result.points
    ('pure sequence only', 76)
    >>> arrange(hand[:12], wild_rank=None)
    Traceback (most recent call last):
    ...
    cardtable.errors.HandSizeError: an Indian Rummy hand here has 13 cards, not 12
    """
    hand = _checked(cards, HAND_SIZE, wild_rank, rules)
    solution = indian.solve(
        hand,
        wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )
    raw = solution.raw_points
    cap = rules.max_points
    return Arrangement(
        groups=solution.groups,
        loose=solution.loose,
        category=solution.category,
        raw_points=raw,
        points=raw if cap is None else min(raw, cap),
        valid_show=solution.valid_show,
        wild_rank=wild_rank,
    )


def show_discards(
    cards14: Iterable[Card], wild_rank: int | None, rules: Rules = DEFAULT_RULES
) -> tuple[Card, ...]:
    """The distinct cards of a 14-card hand whose put-down leaves a valid show (ascending ids).

    >>> from cardtable.cards import parse_cards
    >>> hand = parse_cards("5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD", deck=None)
    >>> format_cards(show_discards(hand, wild_rank=parse_wild_rank("7")))
    'KD'
    """
    hand = _checked(cards14, DRAWN_HAND_SIZE, wild_rank, rules)
    return indian.show_discards(
        hand,
        wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )


def score_cards(
    tokens: Sequence[str], rules: Rules, wild: str | None = None
) -> tuple[str, dict[str, Any]]:
    """``cardtable score indian-rummy``: 13 cards arranged for the fewest points, or 14 cards
    (after drawing) with the put-downs that make a valid show; ``wild`` is the wild rank."""
    if wild is None:
        raise RulesError(
            "Indian Rummy needs the wild rank: --wild RANK (A, 2-10, J, Q, K, PJ or none)"
        )
    wild_rank = parse_wild_rank(wild)
    cards = parse_cards(tokens, deck=INDIAN_RUMMY_DECK)
    if len(cards) == 13:
        arrangement = arrange(cards, wild_rank, rules=rules)
        return arrangement.explain(), arrangement.to_json()
    if len(cards) != 14:
        raise HandSizeError(f"Indian Rummy scores 13 cards (or 14 after drawing), not {len(cards)}")
    discards = show_discards(cards, wild_rank, rules=rules)
    # With a valid show, explain the show; otherwise the put-down that leaves fewest points.
    candidates = discards or tuple(dict.fromkeys(cards))
    best_card, best = None, None
    for card in candidates:
        rest = list(cards)
        rest.remove(card)
        arrangement = arrange(rest, wild_rank, rules=rules)
        if best is None or arrangement.points < best.points:
            best_card, best = card, arrangement
    assert best is not None and best_card is not None
    data = best.to_json()
    data["show_discards"] = [format_card(c) for c in discards]
    data["put_down"] = format_card(best_card)
    verdict = (
        f"valid show after putting down {', '.join(format_card(c) for c in discards)}"
        if discards
        else "no valid show with any put-down"
    )
    return f"{verdict}; putting down {format_card(best_card)}: {best.explain()}", data
