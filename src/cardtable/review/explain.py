"""Explanations of costly moves in the game's own terms, from the coach's reading of the same
view: what the move made did (or left) against what the best move would have done, and what the
difference was worth.

Each kind of decision is told in its own words: a discard by what it leaves of the hand; a draw
by the pile's card, which near-meld it completes or that it fits none (and that the stock is
drawn blind); a drop by its penalty against what the hand counts (Indian Rummy) or by the
chance to win it gives up (Declaration Rummy); a tie vote by the share of the game a tie gives
against playing on for the win.

Whether a pile card completes a meld is asked of the solver the count uses (Indian Rummy's
:func:`~cardtable.games.indian_rummy.scoring.arrange`, Declaration Rummy's
:func:`~cardtable.games.declaration_rummy.scoring.count_hand`): the hand with the card, less its
best discard, is laid out and the group holding the card is named; where the count lays no
group (an Indian Rummy hand without its sequences counts every card), the coach's hand model
names it. Amounts are rounded as a player reads them: whole points from 10 up, one decimal
below, whole percentages; a cost under the "inaccuracy" threshold reads "about the same". A
warning of the coach is repeated only when it is about the move analysed (it names its card, or
its kind of move and no other card).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any, Final, Protocol, runtime_checkable

from cardtable.cards import format_card
from cardtable.coach import CoachReport, coach
from cardtable.registry import Part, get_spec
from cardtable.review.model import Thresholds

_CARD_CODE = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


@runtime_checkable
class GameWords(Protocol):
    """A game's own words for the explanations (its spec's ``explain``, in
    ``cardtable.review.<game>``)."""

    def counts_fit(self, view: Any) -> bool:
        """Whether the game's count can lay out ``view``'s hand with a pile card."""
        ...

    def pile_fit(self, view: Any, card: int) -> str | None:
        """The group ``card`` joins in the count's best layout, in words, or ``None``."""
        ...

    def move_words(self, view: Any, name: str, word: str) -> tuple[str, str] | None:
        """The game's own telling of a move named ``name`` (verb ``word``): as the move made
        and as the better move; ``None`` for the common telling."""
        ...


WORDS: Final[Part[GameWords]] = Part("explain", GameWords)


def _words(game: str) -> GameWords | None:
    spec = get_spec(game)
    return None if spec.explain is None else WORDS.load(spec)


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


def _near_fit(report: CoachReport, card: int) -> str | None:
    """The coach's near-meld that ``card`` completes, in words, or ``None``."""
    for near in report.near_melds:
        if card in near.completing:
            kind = f"{near.kind} " if near.kind else ""
            return f"your near {kind}{_cards(near.cards)}"
    return None


def _fit(game: str, view: Any, report: CoachReport, card: int) -> str | None:
    """What ``card`` from the pile would complete, in words, or ``None``: the game's count
    where it can lay out the hand, else the coach's near-melds."""
    words = _words(game)
    if words is not None and words.counts_fit(view):
        return words.pile_fit(view, card)
    return _near_fit(report, card)


def _number(value: float) -> str:
    """Whole from 10 up, one decimal below (``4.5``, ``12``, ``3``)."""
    if abs(value) >= 10:
        return f"{value:.0f}"
    return f"{value:.1f}".removesuffix(".0")


def _unit(number: str, unit: str) -> str:
    """``unit`` as it reads after ``number``: "1 point", "2 points"."""
    return unit.removesuffix("s") if number == "1" else unit


def amount(value: float, unit: str) -> str:
    """An amount as a player reads it: ``4.5 points``, ``1 point``, ``12 points``, ``27% chance
    to win`` (percentages whole; points whole from 10 up, one decimal below)."""
    if unit.startswith("%"):
        return f"{value:.0f}{unit}"
    number = _number(value)
    return f"{number} {_unit(number, unit)}"


def _values(best: float, played: float, unit: str) -> str:
    """The two moves' estimated values side by side in the unit's words: chances to win, or
    points; a game whose values are negated penalties (Indian Rummy) says what each loses."""
    if unit.startswith("%"):
        return f"{best:.0f}% against {played:.0f}%{unit[1:]}"
    if best <= 0 and played <= 0:
        return f"losing {_number(max(0.0, -best))} against {_number(max(0.0, -played))} {unit}"
    return f"{_number(best)} against {_number(played)} {unit}"


def _more(cost: float, unit: str) -> str:
    """``12 points more``, ``27% more chance to win``."""
    if unit.startswith("%"):
        return f"{cost:.0f}% more{unit[1:]}"
    number = _number(cost)
    return f"{number} {_unit(number, unit)} more"


def about_move(warning: str, label: str | None, kind: str) -> bool:
    """Whether a coach's ``warning`` is about the move analysed (see the module docstring)."""
    named = set(_CARD_CODE.findall(warning))
    if label is not None and label in named:
        return True
    others = named - ({label} if label is not None else set())
    # The kind by its stem, so that "declare" finds "a declaration now".
    return not others and kind.rstrip("e") in warning.lower()


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
        fit = _fit(game, view, report, top)
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
    words = _words(game)
    told = None if words is None else words.move_words(view, name, word)
    if told is not None:
        return told
    if word == "drop":
        return f"{name} gave up any chance to win this game", "dropping out"
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
    the candidates' estimated values by notation (in the thresholds' unit), when known. Where the
    move made was the coach's hint, the text says that the analysis overrules it."""
    report = coach(game, view, legal)
    parts: list[str] = []
    mine = _what(game, view, legal, report, played)
    better = _what(game, view, legal, report, best)
    parts.append(mine[0] if mine is not None else f"You chose '{played}'")
    card = _card_of(played)
    label = format_card(card) if card is not None else None
    kind = str(played).split(" ", 1)[0]
    for warning in report.warnings:
        if about_move(warning, label, kind):
            parts.append(warning.rstrip("."))
            break
    named = f"'{best}'"
    if better is not None:
        named += f", {better[1]},"
    unit = thresholds.unit
    detail = []
    if values is not None and str(best) in values and str(played) in values:
        detail.append(_values(values[str(best)], values[str(played)], unit))
    if error > 0:
        detail.append(f"give or take {amount(error, unit)}")
    noted = f" ({', '.join(detail)}, over the imagined deals)" if detail else ""
    if cost < thresholds.inaccuracy:
        parts.append(f"{named} was worth about the same{noted}")
    else:
        parts.append(f"{named} was worth about {_more(cost, unit)}{noted}")
    sentence = "; ".join(parts)
    text = sentence[0].upper() + sentence[1:] + "."
    hinted = report.hint.action if report.hint is not None else None
    if hinted is not None and str(hinted) == str(played) and str(best) != str(played):
        # The analysis overrules the hint only by a clear margin: say so, with the reason above.
        text += (
            f" The coach's hint was '{played}' too, but over the imagined deals '{best}' did "
            "clearly better, by more than twice the noise."
        )
    return text
