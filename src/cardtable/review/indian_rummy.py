"""Indian Rummy's words in the explanations of costly moves (:mod:`cardtable.review.explain`):
the group a pile card joins in the count's best layout of a 13-card hand, and a drop told by its
penalty against what the hand counts."""

from __future__ import annotations

from typing import Any

from cardtable.bots.indian_shape import analyze
from cardtable.cards import format_card, without
from cardtable.games.indian_rummy.scoring import arrange
from cardtable.melds.indian import raw_points


def _cards(cards: Any) -> str:
    return " ".join(format_card(card) for card in cards)


def counts_fit(view: Any) -> bool:
    """The count lays out a hand of 13 (with the pile's card, less the best discard)."""
    return len(view.hand) == 13


def pile_fit(view: Any, card: int) -> str | None:
    """Indian Rummy: the group that ``card`` joins in the count's best layout of the hand with
    it (less the best discard), or in the coach's hand model where the count lays none."""
    grown = (*view.hand, card)
    layouts = [
        arrange(without(grown, spare), view.wild_rank, view.rules)
        for spare in dict.fromkeys(view.hand)
    ]
    best = min(layouts, key=lambda layout: layout.points)
    for group in best.groups:
        if card in group.cards:
            return f"the {group.describe()[0].lower()}{group.describe()[1:]}"
    for kind, cards in analyze(grown, view.wild_rank).groups:
        if card in cards and len(cards) >= 3:
            return f"the {kind} {_cards(cards)}"
    return None


def _indian_points(view: Any) -> int:
    rules = view.rules
    points = raw_points(
        view.hand[:13],
        view.wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )
    return points if rules.max_points is None else min(points, rules.max_points)


def _indian_drop(view: Any) -> tuple[int, str]:
    rules = view.rules
    if view.has_drawn[view.seat]:
        return rules.middle_drop, "middle"
    return rules.first_drop, "first"


def move_words(view: Any, name: str, word: str) -> tuple[str, str] | None:
    """A drop by its penalty against what the hand counts."""
    if word != "drop":
        return None
    penalty, when = _indian_drop(view)
    points = _indian_points(view)
    return (
        f"{name} cost the {when} drop's {penalty} points with a hand that counted {points}",
        f"paying the {when} drop's {penalty} points for a hand that counted {points}",
    )
