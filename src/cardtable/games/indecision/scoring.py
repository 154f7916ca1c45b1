"""An Indecision hand's score in the game's own terms: :func:`score_hand` and :class:`HandScore`.

The counting itself lives in :mod:`cardtable.melds.indecision`; this module ties it to a
:class:`~cardtable.games.indecision.rules.Rules` object and explains the result the way players
announce it.

>>> hand = score_hand("5H 6H 7H 7C 7S")
>>> hand.score, hand.all_cards_used
(23, True)
>>> print(hand.explain())
Prile of 3 7S 7H 7C = 12; Run on a Bike of 3 5H 6H 7H = 5; Run of 3 x2 = 6; total 23, all cards used
>>> print(score_hand("QS KH AD 4C 8S").explain())
Run of 3 QS KH AD = 3; total 3, not all cards used (4C 8S unused)
>>> score_hand("5H 6H 7H 8C 2D", Rules(bike_inside_longer_run_counts=True)).score
11
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from cardtable.cards import INDECISION_DECK, format_card, format_cards, parse_cards
from cardtable.games.indecision.rules import Rules
from cardtable.melds.indecision import IndecisionScorer, Meld, scorer_for

__all__ = ["HandScore", "Meld", "hand_scorer", "score_hand"]


@dataclass(frozen=True, slots=True)
class HandScore:
    """A scored 5-card hand: ``score``, ``all_cards_used`` (stop requirement 2, with the Prile
    of 4 exemption) and the counted ``melds``, each with ``name``, ``cards`` and ``points``."""

    cards: tuple[int, ...]
    score: int
    all_cards_used: bool
    melds: tuple[Meld, ...]

    @property
    def unused_cards(self) -> tuple[int, ...]:
        """Cards of the hand that no counted meld uses."""
        used = {card for meld in self.melds for card in meld.cards}
        return tuple(card for card in self.cards if card not in used)

    def explain(self) -> str:
        """The count as a player would announce it: melds (repeats grouped), total, all-used."""
        parts: list[str] = []
        index = 0
        melds = self.melds
        while index < len(melds):
            meld = melds[index]
            same = 1
            while (
                index + same < len(melds)
                and melds[index + same].name == meld.name
                and melds[index + same].points == meld.points
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


def hand_scorer(rules: Rules) -> IndecisionScorer:
    """The shared fast scorer for ``rules`` (its meld values and counting variant)."""
    return scorer_for(rules.meld_values, rules.bike_inside_longer_run_counts)


_DEFAULT_RULES = Rules()


def score_hand(cards: str | Iterable[int], rules: Rules = _DEFAULT_RULES) -> HandScore:
    """Score five cards (card ints, or text such as ``"10C JD QC KC KH"``) under ``rules``.

    Raises :class:`~cardtable.errors.CardError` (or its ``HandSizeError``) for anything but five
    distinct cards of one standard deck.

    >>> score_hand("10C JD QC KC KH").to_json()["melds"][0]
    {'name': 'Pair', 'cards': ['KH', 'KC'], 'points': 2}
    >>> score_hand("7S 7H 7D 7C")
    Traceback (most recent call last):
    ...
    cardtable.errors.HandSizeError: an Indecision hand has exactly 5 cards, not 4
    """
    hand = parse_cards(cards, deck=INDECISION_DECK) if isinstance(cards, str) else tuple(cards)
    counted = hand_scorer(rules).count(hand)
    return HandScore(
        cards=counted.cards,
        score=counted.score,
        all_cards_used=counted.all_cards_used,
        melds=counted.melds,
    )
