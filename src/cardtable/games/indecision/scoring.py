"""An Indecision hand's score in the game's own terms: :func:`score_hand` and :class:`HandScore`.

The counting and its explanation live in :mod:`cardtable.melds.indecision`; this module ties
them to a :class:`~cardtable.games.indecision.rules.Rules` object and reads hands given as text.

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

from collections.abc import Iterable, Sequence
from typing import Any

from cardtable.cards import INDECISION_DECK, parse_cards
from cardtable.games.indecision.rules import Rules
from cardtable.melds.indecision import IndecisionCount, IndecisionScorer, Meld, scorer_for

__all__ = ["HandScore", "Meld", "hand_scorer", "score_hand"]


HandScore = IndecisionCount
"""A scored 5-card hand (frozen): ``cards``, ``score``, ``all_cards_used`` (stop requirement 2,
with the Prile of 4 exemption) and the counted ``melds``, each with ``name``, ``cards`` and
``points``; ``explain()`` and ``to_json()`` present it."""


_last_scorer: tuple[Rules, IndecisionScorer] | None = None


def hand_scorer(rules: Rules) -> IndecisionScorer:
    """The shared fast scorer for ``rules`` (its meld values and counting variant)."""
    global _last_scorer
    # Callers score many hands under one rules object: remember the last one by identity
    # rather than hashing the meld value table on every call.
    last = _last_scorer
    if last is not None and last[0] is rules:
        return last[1]
    scorer = scorer_for(rules.meld_values, rules.bike_inside_longer_run_counts)
    _last_scorer = (rules, scorer)
    return scorer


_DEFAULT_RULES = Rules()
_DEFAULT_SCORER = hand_scorer(_DEFAULT_RULES)
_default_count = _DEFAULT_SCORER.count


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
    if isinstance(cards, str):
        cards = parse_cards(cards, deck=INDECISION_DECK)
    if rules is _DEFAULT_RULES:
        return _default_count(cards)
    return hand_scorer(rules).count(cards)


def score_cards(
    tokens: Sequence[str], rules: Rules, wild: str | None = None
) -> tuple[str, dict[str, Any]]:
    """``cardtable score indecision``: the explanation and JSON of five cards' score (``wild``
    is not used in Indecision)."""
    hand = score_hand(parse_cards(tokens, deck=INDECISION_DECK), rules=rules)
    return hand.explain(), hand.to_json()
