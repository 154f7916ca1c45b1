"""The evaluation of one decision from one seat's view: determinized rollouts, seeded and
counted in samples, judged against the game's strong player.

The hidden cards are dealt from the view alone (the lens's determinizer, by default
``engine.determinize``), each deal from a generator seeded by the sampler seed, the decision's
place in the record and the sample's number, so that the analysis of a decision depends only on
what the seat saw and on that seed: never on the real hidden cards, nor on the clock. Each
candidate move is played in the same deals with the same rollout dice (common random numbers),
so their differences are not drowned by the luck of the deal.

Every legal move is screened on the first ``budget.screen`` deals; the best
``budget.finalists``, the move made and the **judge's** choice (the game's Hard player as the
coach hints it, asked with the seat's view) are then played in ``budget.samples`` deals. The
judge's choice is the best move unless another finalist beats it by more than twice the
standard error of their difference and by at least the game's "inaccuracy" threshold (the
"blunder" one for a move a strong player makes only with good cause: a drop, a tie proposal): the
maximum of several noisy means is biased upward, and without that margin the luck of the deals
picked moves no player would make (a drop, a tie proposal). Where the verdict is close (the
margin's test within one standard error of deciding the other way, or the cost within one and a
half standard errors of a label's threshold), more deals are played, ``budget.step`` at a time
up to ``budget.max_samples``, so that a decision's label does not hang on the sampler's seed.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine
from cardtable.review.lenses import Lens
from cardtable.review.model import MoveValue, ReviewBudget, Thresholds

MARGIN = 2.0
"""How many standard errors another move must beat the judge's choice by to be the best."""


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every candidate's value, the best candidate's index, the played one's, the judge's,
    and the noise of the difference between best and played (standard error over the shared
    samples)."""

    moves: tuple[MoveValue, ...]
    best: int
    played: int
    error: float
    judged: int = 0


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
        if not lens.to_end_of_hand:
            if lens.cut is not None:
                if lens.cut(start, state, budget.lookahead):
                    break
            elif player == seat:
                own_turns += 1
                if own_turns > 2 * budget.lookahead:
                    break  # a turn is a draw and a discard: two decisions
        legal = engine.legal_actions(state, player)
        if not legal:
            break
        action = lens.policy(state, player, legal, dice)
        state = engine.apply_unchecked(state, action, player)
    return lens.value(start, state, seat, over)


def distinct(actions: Sequence[Any]) -> list[Any]:
    """The actions with duplicates (same notation) removed, in order."""
    seen: dict[str, Any] = {}
    for action in actions:
        seen.setdefault(str(action), action)
    return list(seen.values())


def _difference(first: Sequence[float], second: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the paired differences ``first - second``."""
    diffs = [a - b for a, b in zip(first, second, strict=False)]
    if not diffs:
        return 0.0, 0.0
    centre = sum(diffs) / len(diffs)
    if len(diffs) < 2:
        return centre, 0.0
    variance = sum((d - centre) ** 2 for d in diffs) / (len(diffs) - 1)
    return centre, math.sqrt(variance / len(diffs))


def judge_choice(lens: Lens, view: Any, candidates: Sequence[Any]) -> int:
    """The index among ``candidates`` of the judge's choice for ``view`` (its dice depend on
    the view alone, never on the sampler's seed)."""
    choice = lens.judge(view, candidates)
    notations = [str(c) for c in candidates]
    return notations.index(str(choice))


def evaluate(
    engine: AnyEngine,
    lens: Lens,
    view: Any,
    candidates: Sequence[Any],
    played: int,
    *,
    budget: ReviewBudget,
    key: str,
    judged: int | None = None,
) -> Evaluation:
    """Value ``candidates`` (moves legal in ``view``) for the view's seat; ``played`` is the
    index of the move made, ``judged`` the judge's choice (asked here when not given) and
    ``key`` names the decision in the sampler's seeds."""
    seat: int = view.seat
    count = len(candidates)
    if judged is None:
        judged = judge_choice(lens, view, candidates)
    thresholds = lens.thresholds
    values: list[list[float]] = [[] for _ in range(count)]
    wins: list[list[float]] = [[] for _ in range(count)]
    deals: list[Any] = []
    deal = lens.determinizer if lens.determinizer is not None else engine.determinize

    def play(sample: int, index: int) -> None:
        while len(deals) <= sample:
            deals.append(deal(view, random.Random(f"{key}:deal:{len(deals)}")))
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
    finalists = sorted(set(ranked[: budget.finalists]) | {played, judged})
    played_to = budget.screen

    def extend(upto: int) -> None:
        nonlocal played_to
        for sample in range(played_to, upto):
            for index in finalists:
                play(sample, index)
        played_to = max(played_to, upto)

    extend(budget.samples)
    while True:
        best, unsettled = _verdict(
            finalists,
            judged,
            played,
            values,
            mean,
            thresholds,
            lambda index: lens.reluctant(candidates[index]),
        )
        if not unsettled or played_to >= budget.most:
            break
        extend(min(budget.most, played_to + budget.step))
    _, error = _difference(values[best], values[played])
    moves = tuple(
        MoveValue(
            action=str(candidates[i]),
            value=mean(i),
            win=sum(wins[i]) / len(wins[i]) if wins[i] else None,
            samples=len(values[i]),
        )
        for i in range(count)
    )
    return Evaluation(moves=moves, best=best, played=played, error=error, judged=judged)


def _verdict(
    finalists: Sequence[int],
    judged: int,
    played: int,
    values: Sequence[Sequence[float]],
    mean: Callable[[int], float],
    thresholds: Thresholds,
    reluctant: Callable[[int], bool],
) -> tuple[int, bool]:
    """The best move (the judge's choice unless clearly beaten) and whether the verdict, or
    the played move's label, is close enough to deserve more samples."""
    top = max(finalists, key=lambda i: (mean(i), i == judged, i == played, -i))
    best = judged
    unsettled = False
    if top != judged:
        gain, error = _difference(values[top], values[judged])
        least = thresholds.blunder if reluctant(top) else thresholds.inaccuracy
        if gain > MARGIN * error and gain >= least:
            best = top
        # Close to the line either way: the verdict could turn with other deals.
        unsettled = abs(gain - max(MARGIN * error, least)) < error
    if best != played:
        cost, error = _difference(values[best], values[played])
        spread = 1.5 * error
        labels = {
            thresholds.label(max(0.0, c), error) for c in (cost - spread, cost, cost + spread)
        }
        if len(labels) > 1:
            unsettled = True
    return best, unsettled
