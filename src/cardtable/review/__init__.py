"""Move-by-move analysis of a game record for one seat, from that seat's view only.

For each decision of the seat (draw source, discard, stop/declare/show/go out, drop, tie votes)
:func:`review_record` deals the hidden cards many times consistently with what the seat saw
(the engines' ``determinize``, as the search bots do), plays every legal move in each imagined
deal and on to the end of the hand with the game's Easy level for every seat, and compares the
move made with the best one: its cost in the game's unit (points of the hand or deal; chance to
win in Declaration Rummy, and in Indecision also the chance to win the game), a label
("inaccuracy", "mistake", "blunder") by the thresholds of :mod:`cardtable.review.lenses`, an
accuracy per decision, hand and game (:mod:`cardtable.review.model`), and the three costliest
moves explained in the game's terms. The sampler is seeded and its budget is counted in samples,
so an analysis is reproducible: the same record, seat, seed and budget give the same result.
"""

from __future__ import annotations

from cardtable.review.analyse import (
    DEFAULT_BUDGET,
    Progress,
    explain_decision,
    review_decision,
    review_record,
)
from cardtable.review.lenses import Lens, lens_of
from cardtable.review.model import (
    DecisionReview,
    GameReview,
    HandReview,
    MoveValue,
    ReviewBudget,
    Thresholds,
)

__all__ = [
    "DEFAULT_BUDGET",
    "DecisionReview",
    "GameReview",
    "HandReview",
    "Lens",
    "MoveValue",
    "Progress",
    "ReviewBudget",
    "Thresholds",
    "explain_decision",
    "lens_of",
    "review_decision",
    "review_record",
]
