"""A Declaration Rummy hand counted and explained (RULES.md 3.6-3.8, 3.10 items 1 and 3).

This module owns the game's public scoring answer for one hand: its count (the least total of
unmelded cards), one arrangement reaching it with each meld named, whether the hand can go out
(in the base game and under Going Out Major or Minor) and whether it may declare. The search
itself lives in :mod:`cardtable.melds.declaration`; this layer validates the hand against the
Declaration Rummy pack, applies the rule options and words the result for players, the CLI
and the web app.

>>> hand = count_hand("2H 3H 4H 4S 4C")
>>> hand.count
5
>>> print(hand.explain())
Group 4S 4H 4C; unmelded 2H 3H = 2 + 3 = count 5; can go out: no; can declare: yes
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from cardtable.cards import (
    CANT_DECLARE_0,
    DECLARATION_RUMMY_DECK,
    WILDCARD,
    Card,
    check_hand,
    format_card,
    format_cards,
    parse_cards,
)
from cardtable.errors import CardError, HandSizeError
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.melds.declaration import (
    MeldKind,
    card_count,
    dr_best,
    dr_can_go_out,
    dr_go_out_arrangement,
    meld_shape,
)

MAX_HAND: Final = 24
"""Largest hand counted: far above any hand the game can produce (deal 10, draw, pick-ups)."""

DEFAULT_RULES: Final = Rules()
"""The rules a hand is counted under when none are given."""

_KIND_TITLES: Final = {"group": "Group", "sequence": "Sequence", "count group": "COUNT group"}


@dataclass(frozen=True, slots=True)
class NamedMeld:
    """One meld of an arrangement: its kind, its cards in display order, and what each of its
    wildcards stands for (a rank in a group, a card in a sequence, ``COUNT`` in a COUNT group,
    ``any`` in a group of wildcards only)."""

    kind: MeldKind
    cards: tuple[Card, ...]
    wildcards_as: tuple[str, ...]

    def label(self) -> str:
        """``Sequence 5H 6H W(7H)``: the kind, then the cards with each wildcard's stand-in.

        >>> print(count_hand("5H 6H W").melds[0].label())
        Sequence 5H 6H W(7H)
        """
        stand_ins = iter(self.wildcards_as)
        shown: list[str] = []
        for card in self.cards:
            if card == WILDCARD:
                stands_for = next(stand_ins)
                shown.append("W" if stands_for in ("any", "COUNT") else f"W({stands_for})")
            else:
                shown.append(format_card(card))
        return f"{_KIND_TITLES[self.kind]} {' '.join(shown)}"

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "cards", "wildcards_as"}`` with card labels."""
        return {
            "kind": self.kind,
            "cards": [format_card(card) for card in self.cards],
            "wildcards_as": list(self.wildcards_as),
        }


def _named(cards: tuple[Card, ...]) -> NamedMeld:
    shape = meld_shape(cards)
    if shape is None:  # pragma: no cover - the solver only returns valid melds
        raise AssertionError(f"solver returned a non-meld {format_cards(cards)}")
    return NamedMeld(shape.kind, shape.cards, shape.wildcards_as)


@dataclass(frozen=True, slots=True)
class HandCount:
    """Everything the rules say about one hand's count.

    * ``count``: least total of unmelded cards; ``melds`` and ``unmelded``: one arrangement
      reaching it.
    * ``can_go_out_base``: every card melded but at most one; ``can_go_out_single_meld``: the
      melded cards form one single meld (Going Out Major or Minor); ``can_go_out``: the one
      that applies under the rules counted with.
    * ``going_out`` and ``going_out_loose``: how the hand goes out under those rules (``None``
      and ``None`` when it cannot; the loose card is ``None`` when every card melds).
    * ``can_declare``: not holding CAN'T DECLARE 0, and with the Gin Rummy variation a count
      of at most its limit; ``declare_blocked_by`` says why not.
    """

    cards: tuple[Card, ...]
    count: int
    melds: tuple[NamedMeld, ...]
    unmelded: tuple[Card, ...]
    can_go_out: bool
    can_go_out_base: bool
    can_go_out_single_meld: bool
    going_out: tuple[NamedMeld, ...] | None
    going_out_loose: Card | None
    single_meld_rule: bool
    can_declare: bool
    declare_blocked_by: str | None

    def explain(self) -> str:
        """One line: the melds, the unmelded cards added up, going out and declaring.

        >>> print(count_hand("C12 W W 5H").explain())
        COUNT group C12 W W; unmelded 5H = count 5; can go out: yes, loose 5H; can declare: yes
        >>> print(count_hand("W KS CD0").explain())
        no melds; unmelded KS W CD0 = 13 + 20 + 0 = count 33; can go out: no; can declare: no, \
holds CAN'T DECLARE 0
        """
        parts = [meld.label() for meld in self.melds] or ["no melds"]
        values = [str(card_count(card)) for card in self.unmelded]
        if not self.unmelded:
            parts.append(f"nothing unmelded = count {self.count}")
        elif len(values) == 1:
            parts.append(f"unmelded {format_cards(self.unmelded)} = count {self.count}")
        else:
            parts.append(
                f"unmelded {format_cards(self.unmelded)} = {' + '.join(values)} "
                f"= count {self.count}"
            )
        rule = " (Going Out Major or Minor)" if self.single_meld_rule else ""
        if self.going_out is None:
            parts.append(f"can go out{rule}: no")
        else:
            loose = self.going_out_loose
            loose_text = "" if loose is None else f", loose {format_card(loose)}"
            as_counted = self.going_out == self.melds and self.unmelded == (
                () if loose is None else (loose,)
            )
            shown = "" if as_counted else " with " + " + ".join(m.label() for m in self.going_out)
            parts.append(f"can go out{rule}: yes{shown}{loose_text}")
        if self.can_declare:
            parts.append("can declare: yes")
        else:
            parts.append(f"can declare: no, {self.declare_blocked_by}")
        return "; ".join(parts)

    def to_json(self) -> dict[str, Any]:
        """A JSON-ready dict: ``count``, ``melds``, ``unmelded``, ``can_go_out`` and the rest.

        >>> data = count_hand("7S 7H 7D 7C W").to_json()
        >>> data["count"], data["melds"], data["unmelded"], data["can_go_out"]
        (0, [{'kind': 'group', 'cards': ['7S', '7H', '7D', '7C', 'W'], 'wildcards_as': ['7']}], \
[], True)
        """
        return {
            "cards": [format_card(card) for card in self.cards],
            "count": self.count,
            "melds": [meld.to_json() for meld in self.melds],
            "unmelded": [format_card(card) for card in self.unmelded],
            "can_go_out": self.can_go_out,
            "can_go_out_base": self.can_go_out_base,
            "can_go_out_single_meld": self.can_go_out_single_meld,
            "going_out": None
            if self.going_out is None
            else {
                "melds": [meld.to_json() for meld in self.going_out],
                "loose": None
                if self.going_out_loose is None
                else format_card(self.going_out_loose),
            },
            "single_meld_rule": self.single_meld_rule,
            "can_declare": self.can_declare,
            "declare_blocked_by": self.declare_blocked_by,
        }


def read_hand(cards: str | Iterable[Card]) -> tuple[Card, ...]:
    """A hand from labels (``"7S W C12"``) or card ids, checked against the Declaration Rummy
    pack (52 regular cards, one of each optional card, three WILDCARDs) and sized 1 to 24.

    >>> read_hand("7S 7S")
    Traceback (most recent call last):
    ...
    cardtable.errors.CardError: duplicate card 7S: this game plays with one deck
    >>> read_hand("")
    Traceback (most recent call last):
    ...
    cardtable.errors.HandSizeError: an empty hand has no count: give 1 to 24 cards
    """
    if isinstance(cards, str):
        hand = parse_cards(cards, deck=DECLARATION_RUMMY_DECK)
    else:
        hand = tuple(cards)
        for card in hand:
            if not isinstance(card, int) or isinstance(card, bool):
                raise CardError(f"a card must be a card id or a label, not {card!r}")
        hand = check_hand(hand, DECLARATION_RUMMY_DECK)
    if not hand:
        raise HandSizeError(f"an empty hand has no count: give 1 to {MAX_HAND} cards")
    if len(hand) > MAX_HAND:
        raise HandSizeError(
            f"a Declaration Rummy hand has at most {MAX_HAND} cards here, not {len(hand)}"
        )
    return hand


def count_hand(cards: str | Iterable[Card], rules: Rules = DEFAULT_RULES) -> HandCount:
    """Count a hand and say whether it can go out or declare under ``rules``.

    The hand is checked against the whole Declaration Rummy pack, whichever optional cards
    ``rules`` puts in play (a count is a property of the cards alone).

    >>> count_hand("KH AH 2H").count, count_hand("QH KH AH").count
    (16, 0)
    >>> single = Rules(going_out_single_meld=True)
    >>> hand = count_hand("2H 3H 4H 9S 9D 9C", single)
    >>> hand.can_go_out_base, hand.can_go_out_single_meld, hand.can_go_out
    (True, False, False)
    >>> count_hand("8S 8H 8D KC", Rules(gin_rummy=True)).can_declare
    False
    """
    hand = read_hand(cards)
    count, melds, unmelded = dr_best(hand)
    base = dr_can_go_out(hand)
    single = base and dr_can_go_out(hand, single_meld=True)
    applies = single if rules.going_out_single_meld else base
    going_out: tuple[NamedMeld, ...] | None = None
    loose: Card | None = None
    if applies:
        found = dr_go_out_arrangement(hand, single_meld=rules.going_out_single_meld)
        if found is None:  # pragma: no cover - the flags and the arrangement agree
            raise AssertionError("going-out flag without an arrangement")
        going_out = tuple(_named(meld) for meld in found[0])
        loose = found[1]
    blocked: str | None = None
    if CANT_DECLARE_0 in hand:
        blocked = "holds CAN'T DECLARE 0"
    elif rules.gin_rummy and count > rules.gin_threshold:
        blocked = f"count {count} is above the Gin Rummy limit of {rules.gin_threshold}"
    return HandCount(
        cards=hand,
        count=count,
        melds=tuple(_named(meld) for meld in melds),
        unmelded=unmelded,
        can_go_out=applies,
        can_go_out_base=base,
        can_go_out_single_meld=single,
        going_out=going_out,
        going_out_loose=loose,
        single_meld_rule=rules.going_out_single_meld,
        can_declare=blocked is None,
        declare_blocked_by=blocked,
    )


def score_cards(
    tokens: Sequence[str], rules: Rules, wild: str | None = None
) -> tuple[str, dict[str, Any]]:
    """``cardtable score declaration-rummy``: the explanation and JSON of a hand's count
    (``wild`` is not used in Declaration Rummy)."""
    hand = count_hand(parse_cards(tokens, deck=DECLARATION_RUMMY_DECK), rules=rules)
    return hand.explain(), hand.to_json()
