"""Explanations of costly moves in the game's own terms, from the coach's reading of the same
view: what the move made left (or why it was wrong) against what the best move would have left,
and what the difference was worth."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from cardtable.cards import format_card
from cardtable.coach import coach
from cardtable.review.model import Thresholds


def _card_of(action: Any) -> int | None:
    card = getattr(action, "card", None)
    return card if isinstance(card, int) else None


def _leaves(report: Any, action: Any) -> str | None:
    card = _card_of(action)
    if card is None:
        return None
    for option in report.discards:
        if option.card == card:
            text: str = option.leaves
            return text
    return None


def explain(
    game: str,
    view: Any,
    legal: Sequence[Any],
    played: Any,
    best: Any,
    cost: float,
    error: float,
    thresholds: Thresholds,
) -> str:
    """One or two sentences on why ``played`` cost ``cost`` against ``best``."""
    report = coach(game, view, legal)
    parts: list[str] = []
    played_leaves = _leaves(report, played)
    best_leaves = _leaves(report, best)
    if played_leaves:
        parts.append(f"'{played}' left {played_leaves}")
    else:
        parts.append(f"You chose '{played}'")
    card = _card_of(played)
    label = format_card(card) if card is not None else None
    kind = str(played).split(" ", 1)[0]
    for warning in report.warnings:
        if (label is not None and label in warning) or kind in warning.lower():
            parts.append(warning.rstrip("."))
            break
    better = f"'{best}'"
    if best_leaves:
        better += f", leaving {best_leaves},"
    parts.append(
        f"{better} was worth about {cost:.1f} {thresholds.unit} more "
        f"(±{error:.1f} over the imagined deals)"
    )
    sentence = "; ".join(parts)
    return sentence[0].upper() + sentence[1:] + "."
