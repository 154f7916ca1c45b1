"""What the coach hands to a player: a hint (one action and why) and a full report (tips,
near-melds, what each discard leaves, warnings), each with a JSON form for the browser.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardtable.cards import format_card


@dataclass(frozen=True, slots=True)
class Hint:
    """The suggested ``action`` and a one-line ``reason`` in the game's own terms."""

    action: Any
    reason: str

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (the action in its text notation)."""
        return {"action": str(self.action), "reason": self.reason}


@dataclass(frozen=True, slots=True)
class NearMeld:
    """Cards one step from a meld: the ``cards`` held, the ``completing`` cards that would make
    the meld, and how many copies of those are still ``unseen`` (not in this hand, not known to
    be on the pile, in another hand or out of play)."""

    cards: tuple[int, ...]
    completing: tuple[int, ...]
    unseen: int
    kind: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as labels)."""
        return {
            "kind": self.kind,
            "cards": [format_card(c) for c in self.cards],
            "completing": [format_card(c) for c in self.completing],
            "unseen": self.unseen,
        }


@dataclass(frozen=True, slots=True)
class DiscardOption:
    """What discarding ``card`` leaves: ``leaves`` says it in the game's terms (points or count
    after it, melds kept), ``value`` is the number behind it (lower is better in the rummies,
    higher in Indecision), and ``note`` adds a remark (it feeds the next player, it is the best
    choice…)."""

    card: int
    leaves: str
    value: float
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (the card as a label)."""
        return {
            "card": format_card(self.card),
            "leaves": self.leaves,
            "value": self.value,
            "note": self.note,
        }


@dataclass(frozen=True, slots=True)
class CoachReport:
    """Everything the coach says about one position."""

    tips: list[str] = field(default_factory=list)
    near_melds: list[NearMeld] = field(default_factory=list)
    discards: list[DiscardOption] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    hint: Hint | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "tips": list(self.tips),
            "near_melds": [m.to_json() for m in self.near_melds],
            "discards": [d.to_json() for d in self.discards],
            "warnings": list(self.warnings),
            "hint": None if self.hint is None else self.hint.to_json(),
        }
