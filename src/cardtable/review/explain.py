"""Explanations of costly moves in the game's own terms, from the coach's reading of the same
view: what the move made did (or left) against what the best move would have done, and what the
difference was worth.

Each kind of decision is told in its own words: a discard by what it leaves of the hand; a draw
by the pile's card, which near-meld it completes or that it fits none (and that the stock is
drawn blind); a drop by its penalty against what the hand counts (Indian Rummy) or by the
chance to win it gives up (Declaration Rummy); a tie vote by the share of the game a tie gives
against playing on for the win.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.cards import format_card
from cardtable.coach import CoachReport, coach
from cardtable.review.model import Thresholds


def _card_of(action: Any) -> int | None:
    card = getattr(action, "card", None)
    return card if isinstance(card, int) else None


def _cards(cards: Sequence[int]) -> str:
    return " ".join(format_card(card) for card in cards)


def _leaves(report: CoachReport, action: Any) -> str | None:
    card = _card_of(action)
    if card is None:
        return None
    for option in report.discards:
        if option.card == card:
            return option.leaves
    return None


def _from_pile(action: Any) -> bool:
    words = str(action).split()
    return words[0] in ("draw", "take") and words[1] in ("pile", "discard", "extra")


def _is_draw(action: Any) -> bool:
    return str(action).split(" ", 1)[0] in ("draw", "take")


def _fit(report: CoachReport, card: int) -> str | None:
    """The near-meld of the hand that ``card`` completes, in words, or ``None``."""
    for near in report.near_melds:
        if card in near.completing:
            kind = f"{near.kind} " if near.kind else ""
            return f"your near {kind}{_cards(near.cards)}"
    return None


def _indian_points(view: Any) -> int:
    from cardtable.melds.indian import raw_points

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


def _tie_share(view: Any) -> float:
    """Each remaining player's share of an agreed tie, in percent."""
    remaining = sum(1 for dropped in view.dropped if not dropped)
    return 100.0 / max(1, remaining)


def _what(
    game: str, view: Any, legal: Sequence[Any], report: CoachReport, action: Any
) -> tuple[str, str] | None:
    """What ``action`` does, as the move made (a clause with the move as its subject) and as
    the better move (a phrase set after its name), or ``None`` for the plain name."""
    name = f"'{action}'"
    word = str(action).split(" ", 1)[0]
    leaves = _leaves(report, action)
    if leaves is not None:
        return f"{name} left {leaves}", f"leaving {leaves}"
    if _is_draw(action):
        top = view.pile_top
        if top is None or not any(_from_pile(other) for other in legal):
            return None  # no choice of pile: nothing to say about it
        label = format_card(top)
        fit = _fit(report, top)
        if _from_pile(action):
            if fit is not None:
                return (
                    f"{name} took the {label}, which completed {fit}",
                    f"taking the {label} into {fit}",
                )
            return (
                f"{name} took the {label}, which completed none of your near-melds",
                f"taking the {label}",
            )
        if fit is not None:
            return (
                f"{name} drew blind and left the pile's {label}, which completed {fit}",
                "drawing blind",
            )
        return (
            f"{name} drew blind, the pile's {label} completing none of your near-melds",
            f"drawing blind (the pile's {label} completed none of your near-melds)",
        )
    if word == "drop" and game == "indian-rummy":
        penalty, when = _indian_drop(view)
        points = _indian_points(view)
        return (
            f"{name} cost the {when} drop's {penalty} points with a hand that counted {points}",
            f"paying the {when} drop's {penalty} points for a hand that counted {points}",
        )
    if word == "drop":
        return f"{name} gave up any chance to win this game", "dropping out"
    if game == "declaration-rummy" and word in ("accept", "reject", "propose"):
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
    values: Mapping[str, float] | None = None,
) -> str:
    """One or two sentences on why ``played`` cost ``cost`` against ``best``; ``values`` are
    the candidates' estimated values by notation (in the thresholds' unit), when known."""
    report = coach(game, view, legal)
    parts: list[str] = []
    mine = _what(game, view, legal, report, played)
    better = _what(game, view, legal, report, best)
    parts.append(mine[0] if mine is not None else f"You chose '{played}'")
    card = _card_of(played)
    label = format_card(card) if card is not None else None
    kind = str(played).split(" ", 1)[0]
    for warning in report.warnings:
        if (label is not None and label in warning) or kind in warning.lower():
            parts.append(warning.rstrip("."))
            break
    named = f"'{best}'"
    if better is not None:
        named += f", {better[1]},"
    against = ""
    if values is not None and str(best) in values and str(played) in values:
        against = f"{values[str(best)]:.1f} against {values[str(played)]:.1f}; "
    parts.append(
        f"{named} was worth about {cost:.1f} {thresholds.unit} more "
        f"({against}±{error:.1f} over the imagined deals)"
    )
    sentence = "; ".join(parts)
    return sentence[0].upper() + sentence[1:] + "."
