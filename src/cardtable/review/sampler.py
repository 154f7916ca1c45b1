"""The evaluation of one decision from one seat's view: determinized rollouts, seeded and
counted in samples.

The hidden cards are dealt ``budget.samples`` times from the view alone
(``engine.determinize``), each deal from a generator seeded by the sampler seed, the decision's
place in the record and the sample's number, so that the analysis of a decision depends only on
what the seat saw and on that seed: never on the real hidden cards, nor on the clock. Each
candidate move is played in the same deals with the same rollout dice (common random numbers),
so their differences are not drowned by the luck of the deal. Every legal move is screened on
the first ``budget.screen`` deals; the best ``budget.finalists`` and the move made are then
played in all of them, and the best finalist is the best move.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.review.lenses import Lens
from cardtable.review.model import MoveValue, ReviewBudget


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every candidate's value, the best candidate's index, the played one's, and the noise of
    the difference between them (standard error over the shared samples)."""

    moves: tuple[MoveValue, ...]
    best: int
    played: int
    error: float


def _rollout(
    engine: AnyEngine,
    lens: Lens,
    start: Any,
    state: Any,
    seat: int,
    dice: random.Random,
    budget: ReviewBudget,
) -> tuple[float, float | None]:
    own_turns = 0
    over = False
    for _ in range(budget.max_steps):
        if lens.hand_over(start, state):
            over = True
            break
        player = engine.current_player(state)
        if player == TERMINAL:
            over = True
            break
        if player == CHANCE:
            state = engine.chance_step(state)
            continue
        if player == seat:
            own_turns += 1
            if not lens.to_end_of_hand and own_turns > 2 * budget.lookahead:
                break  # a turn is a draw and a discard: two decisions
        legal = engine.legal_actions(state, player)
        if not legal:
            break
        action = lens.policy.choose(engine.view(state, player), legal, dice)
        state = engine.apply_unchecked(state, action, player)
    return lens.value(start, state, seat, over)


def distinct(actions: Sequence[Any]) -> list[Any]:
    """The actions with duplicates (same notation) removed, in order."""
    seen: dict[str, Any] = {}
    for action in actions:
        seen.setdefault(str(action), action)
    return list(seen.values())


def evaluate(
    engine: AnyEngine,
    lens: Lens,
    view: Any,
    candidates: Sequence[Any],
    played: int,
    *,
    budget: ReviewBudget,
    key: str,
) -> Evaluation:
    """Value ``candidates`` (moves legal in ``view``) for the view's seat; ``played`` is the
    index of the move made and ``key`` names the decision in the sampler's seeds."""
    seat: int = view.seat
    count = len(candidates)
    values: list[list[float]] = [[] for _ in range(count)]
    wins: list[list[float]] = [[] for _ in range(count)]
    deals: list[Any] = []

    def play(sample: int, index: int) -> None:
        while len(deals) <= sample:
            deals.append(engine.determinize(view, random.Random(f"{key}:deal:{len(deals)}")))
        start = deals[sample]
        dice = random.Random(f"{key}:dice:{sample}")
        after = engine.apply_unchecked(start, candidates[index], seat)
        value, win = _rollout(engine, lens, start, after, seat, dice, budget)
        values[index].append(value)
        if win is not None:
            wins[index].append(win)

    for sample in range(budget.screen):
        for index in range(count):
            play(sample, index)

    def mean(index: int) -> float:
        return sum(values[index]) / len(values[index])

    ranked = sorted(range(count), key=lambda i: (-mean(i), i))
    finalists = sorted(set(ranked[: budget.finalists]) | {played})
    for sample in range(budget.screen, budget.samples):
        for index in finalists:
            play(sample, index)
    best = max(finalists, key=lambda i: (mean(i), i == played, -i))
    diffs = [b - p for b, p in zip(values[best], values[played], strict=True)]
    error = 0.0
    if len(diffs) > 1:
        centre = sum(diffs) / len(diffs)
        variance = sum((d - centre) ** 2 for d in diffs) / (len(diffs) - 1)
        error = math.sqrt(variance / len(diffs))
    moves = tuple(
        MoveValue(
            action=str(candidates[i]),
            value=mean(i),
            win=sum(wins[i]) / len(wins[i]) if wins[i] else None,
            samples=len(values[i]),
        )
        for i in range(count)
    )
    return Evaluation(moves=moves, best=best, played=played, error=error)
