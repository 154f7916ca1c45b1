"""Declaration Rummy's words in the explanations of costly moves
(:mod:`cardtable.review.explain`): the meld a pile card joins in the count's best layout, and a
tie vote told by the share of the game a tie gives."""

from __future__ import annotations

from typing import Any

from cardtable.cards import NO_MELD_2, without
from cardtable.games.declaration_rummy.scoring import count_hand


def counts_fit(view: Any) -> bool:
    """The count lays out any hand (with the pile's card, less the best discard)."""
    return bool(getattr(view, "hand", None))


def pile_fit(view: Any, card: int) -> str | None:
    """Declaration Rummy: the meld that ``card`` joins in the count's best layout of the hand
    with it, less the discard that leaves the lowest count."""
    grown = (*view.hand, card)
    spares = [c for c in dict.fromkeys(view.hand) if c != NO_MELD_2] or list(view.hand)
    counted = [count_hand(without(grown, spare), view.rules) for spare in spares]
    best = min(counted, key=lambda hand: hand.count)
    for meld in best.melds:
        if card in meld.cards:
            label = meld.label()
            return f"the {label[0].lower()}{label[1:]}"
    return None


def _tie_share(view: Any) -> float:
    """Each remaining player's share of an agreed tie, in percent."""
    remaining = sum(1 for dropped in view.dropped if not dropped)
    return 100.0 / max(1, remaining)


def move_words(view: Any, name: str, word: str) -> tuple[str, str] | None:
    """A tie vote by the share of the game a tie gives against playing on for the win."""
    if word not in ("accept", "reject", "propose"):
        return None
    share = _tie_share(view)
    if word == "accept":
        return (
            f"{name} settled for a tie, a {share:.0f}% share of the game",
            f"settling for a {share:.0f}% share of the game",
        )
    if word == "reject":
        return (
            f"{name} played on for the win instead of a {share:.0f}% share of a tie",
            "playing on for the win",
        )
    return (
        f"{name} offered a tie ({share:.0f}% of the game each if everyone accepts)",
        f"offering a tie ({share:.0f}% of the game each if everyone accepts)",
    )
