"""The results of an analysis as data: one decision, one hand, one game, the thresholds that
mark costly moves and the accuracy formula, each with a JSON form for the browser.

Accuracy: a decision that cost ``c`` (in the game's unit) scores ``100 * 2 ** (-c / m)``, where
``m`` is the game's "mistake" threshold: the best move scores 100, a mistake 50, twice a
mistake 25. A hand's (and the game's) accuracy is the mean over its analysed decisions.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Thresholds:
    """Costs (in the game's ``unit``) from which a move is an inaccuracy, a mistake, a
    blunder. A move is marked only when its cost is also more than twice its standard error
    (the noise of the sampling), so that luck of the imagined deals marks nothing."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float
    noise: float | None = None
    """The median difference of a move's cost between two analyses drawing different deals
    (measured by ``benchmarks/bench_judge.py``), so that a reader can weigh the thresholds."""
    noise_p95: float | None = None
    """The same difference's 95th percentile: one move in twenty differs by this or more."""

    def label(self, cost: float, error: float = 0.0) -> str | None:
        """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for ``cost``; a cost
        within twice its standard ``error`` is not marked (it may be the sampling's luck)."""
        if cost < 2.0 * error:
            return None
        if cost >= self.blunder:
            return "blunder"
        if cost >= self.mistake:
            return "mistake"
        if cost >= self.inaccuracy:
            return "inaccuracy"
        return None

    def accuracy(self, cost: float) -> float:
        """A decision's accuracy in percent (see the module docstring)."""
        return float(100.0 * 2.0 ** (-max(0.0, cost) / self.mistake))

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "unit": self.unit,
            "inaccuracy": self.inaccuracy,
            "mistake": self.mistake,
            "blunder": self.blunder,
            "noise": self.noise,
            "noise_p95": self.noise_p95,
            "accuracy_formula": "100 * 2^(-cost / mistake)",
        }


@dataclass(frozen=True, slots=True)
class ReviewBudget:
    """How much the analysis may spend, counted in work so that results are reproducible:
    ``samples`` imagined deals of the hidden cards per decision; every legal move is first
    played in the first ``screen`` of them, then the ``finalists`` best (with the move made and
    the judge's choice) in all of them, and where the verdict is close in ``step`` more at a
    time, up to ``max_samples`` (``None``: four times ``samples``). ``lookahead`` bounds a
    rollout to that many of the seat's own turns (or the end of the hand, whichever comes first)
    where the game values a hand before its end."""

    samples: int = 16
    screen: int = 4
    finalists: int = 2
    lookahead: int = 3
    max_steps: int = 240
    max_samples: int | None = None
    step: int = 16

    def __post_init__(self) -> None:
        if not 1 <= self.screen <= self.samples:
            raise ValueError("the budget needs 1 <= screen <= samples")
        if self.finalists < 1 or self.lookahead < 1 or self.max_steps < 1 or self.step < 1:
            raise ValueError("finalists, lookahead, max_steps and step must be positive")
        if self.max_samples is not None and self.max_samples < self.samples:
            raise ValueError("the budget needs max_samples >= samples")

    @property
    def most(self) -> int:
        """The most samples a decision may take."""
        return self.max_samples if self.max_samples is not None else 4 * self.samples


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One candidate move: its notation, mean value over its samples (in the game's unit,
    higher is better), mean chance to win (0-1, ``None`` where the game does not estimate it)
    and how many samples it was played in."""

    action: str
    value: float
    win: float | None
    samples: int

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "action": self.action,
            "value": round(self.value, 3),
            "win": None if self.win is None else round(self.win, 4),
            "samples": self.samples,
        }


@dataclass(frozen=True, slots=True)
class DecisionReview:
    """One analysed decision: where it is in the record (``index``), its ``hand``, ``kind``
    (draw, discard, stop…), the move ``played`` and the ``best`` one, the ``cost`` of the move
    made (value of the best minus value of the move made, never negative), its noise
    (``error``: standard error of that difference over the samples), the ``label`` and the
    ``accuracy``, every candidate's value, an ``explanation`` in the game's terms, and the
    ``judge``'s choice."""

    index: int
    hand: int
    kind: str
    played: str
    best: str
    cost: float
    error: float
    win_cost: float | None
    label: str | None
    accuracy: float
    candidates: tuple[MoveValue, ...]
    explanation: str = ""
    judge: str | None = None
    """The judge's (the game's Hard player's) choice, the best move unless clearly beaten."""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        return {
            "index": self.index,
            "hand": self.hand,
            "kind": self.kind,
            "played": self.played,
            "best": self.best,
            "cost": round(self.cost, 3),
            "error": round(self.error, 3),
            "win_cost": None if self.win_cost is None else round(self.win_cost, 4),
            "label": self.label,
            "accuracy": round(self.accuracy, 1),
            "candidates": [c.to_json() for c in self.candidates],
            "explanation": self.explanation,
            "judge": self.judge,
        }


@dataclass(frozen=True, slots=True)
class HandReview:
    """The analysed decisions of one hand (deal) and their mean accuracy."""

    hand: int
    decisions: tuple[DecisionReview, ...]

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy of the hand's decisions (``None`` if it had none to analyse)."""
        if not self.decisions:
            return None
        return sum(d.accuracy for d in self.decisions) / len(self.decisions)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        accuracy = self.accuracy
        return {
            "hand": self.hand,
            "accuracy": None if accuracy is None else round(accuracy, 1),
            "decisions": [d.to_json() for d in self.decisions],
        }


@dataclass(frozen=True, slots=True)
class GameReview:
    """A whole game's analysis for one ``seat``: per hand, the thresholds used, the sampler's
    seed and budget, and the top three costly moves explained."""

    game: str
    seat: int
    thresholds: Thresholds
    sampler_seed: int
    budget: ReviewBudget
    hands: tuple[HandReview, ...]
    top: tuple[DecisionReview, ...] = field(default=())

    @property
    def decisions(self) -> tuple[DecisionReview, ...]:
        """Every analysed decision, in play order."""
        return tuple(d for hand in self.hands for d in hand.decisions)

    @property
    def accuracy(self) -> float | None:
        """Mean accuracy over the game's analysed decisions."""
        decisions = self.decisions
        if not decisions:
            return None
        return sum(d.accuracy for d in decisions) / len(decisions)

    def counts(self) -> dict[str, int]:
        """How many decisions got each label."""
        out = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
        for decision in self.decisions:
            if decision.label is not None:
                out[decision.label] += 1
        return out

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data."""
        accuracy = self.accuracy
        budget = self.budget
        return {
            "game": self.game,
            "seat": self.seat,
            "accuracy": None if accuracy is None else round(accuracy, 1),
            "counts": self.counts(),
            "thresholds": self.thresholds.to_json(),
            "sampler_seed": self.sampler_seed,
            "budget": {
                "samples": budget.samples,
                "screen": budget.screen,
                "finalists": budget.finalists,
                "lookahead": budget.lookahead,
                "max_steps": budget.max_steps,
                "max_samples": budget.most,
                "step": budget.step,
            },
            "hands": [h.to_json() for h in self.hands],
            "top": [d.to_json() for d in self.top],
        }
