"""The coach: hints and explanations for a player, from that player's view only.

``hint(game, view, legal)`` suggests one of the legal actions with a one-line reason (the
Hard level's policy, the player the move-by-move analysis judges by, so hint and analysis agree);
``coach(game, view, legal)`` returns a :class:`CoachReport`: tips, near-melds with the cards
that complete them and how many are unseen, what each discard would leave, and warnings (a show
that would be wrong, a stop that would forfeit, a discard that feeds the next player's pickups,
a declaration likely to lose). Each game speaks its own terms in its own module
(:mod:`cardtable.coach.indecision`, :mod:`cardtable.coach.indian_rummy`,
:mod:`cardtable.coach.declaration_rummy`), named by the game's spec.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, Protocol, runtime_checkable

from cardtable.coach.report import CoachReport, DiscardOption, Hint, NearMeld
from cardtable.errors import IllegalActionError, RuleKey
from cardtable.registry import Part


@runtime_checkable
class GameCoach(Protocol):
    """A game's coach module (its spec's ``coach``)."""

    def hint(self, view: Any, legal: Sequence[Any]) -> Hint:
        """The suggested action among ``legal`` and why."""
        ...

    def coach(self, view: Any, legal: Sequence[Any]) -> CoachReport:
        """The tips, near-melds, discard options and warnings for ``view``."""
        ...


COACH: Final[Part[GameCoach]] = Part("coach", GameCoach)


def _module(game: str) -> GameCoach:
    return COACH.load(game)


def hint(game: str, view: Any, legal: Sequence[Any]) -> Hint:
    """The suggested action for ``view`` among ``legal`` and why.

    Raises :class:`IllegalActionError` when the seat has nothing to do.
    """
    if not legal:
        raise IllegalActionError(
            "there is nothing to do now: it is not your turn", rule=RuleKey.NO_MOVE
        )
    result = _module(game).hint(view, legal)
    return result


def coach(game: str, view: Any, legal: Sequence[Any]) -> CoachReport:
    """The coach's full report on ``view`` (``legal`` may be empty when it is not the seat's
    turn: the report then explains the hand without a hint)."""
    result = _module(game).coach(view, legal)
    return result


__all__ = ["CoachReport", "DiscardOption", "Hint", "NearMeld", "coach", "hint"]
