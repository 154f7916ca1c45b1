"""Determinized rollout search over the engine contract: the engine of every Hard level.

A bot sees only its view, so it cannot search the real game tree. Instead it deals the hidden
cards at random many times in ways consistent with its view (``ENGINE.determinize``), plays each
candidate action in each of these imagined deals, finishes the deal (or the hand) with a fast
rollout policy, and keeps the candidate with the best mean value. The same imagined deals and
the same rollout dice are used for every candidate (common random numbers), so differences
between candidates are not drowned by the luck of the sampling; successive halving spends most
of the budget on the candidates that still look best.

The budget is counted in work, never in time: a number of rollouts, a cap on the seat actions
of each, and a cap on the seat actions of the whole search (what bounds a decision's cost when
rollouts run long). A search is therefore deterministic given the bot's ``rng``, however busy
the machine: seeded tests and arena runs give the same choices under any load.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots.base import Bot
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine

RolloutPolicy = Callable[[Any, int, Sequence[Any], random.Random], Any]
"""``(state, seat, legal_actions, rng) -> action``: how every seat plays inside a rollout."""
LeafValue = Callable[[Any, int], float]
"""``(state, seat) -> value`` for a rollout that reached its horizon or the end of the game."""
Horizon = Callable[[Any], bool]
"""``state -> True`` when a rollout should stop and be valued."""
Determinizer = Callable[[Any, random.Random], Any]
"""``(view, rng) -> state``: how hidden cards are dealt for the search (by default the engine's
``determinize``; a bot may bias the deal with what it infers from play)."""


@dataclass(frozen=True, slots=True)
class SearchBudget:
    """How much a search may spend: ``rollouts`` in total over all candidates, at most
    ``max_steps`` seat actions per rollout, and at most ``work`` seat actions over the whole
    search (``None``: only the first two bound it). All three count work, not time."""

    rollouts: int = 240
    max_steps: int = 400
    work: int | None = None


def policy_of_bot(engine: AnyEngine, bot: Bot[Any, Any]) -> RolloutPolicy:
    """A rollout policy that asks ``bot`` with the seat's view, as in a real game."""

    def choose(state: Any, seat: int, legal: Sequence[Any], rng: random.Random) -> Any:
        return bot.choose(engine.view(state, seat), legal, rng)

    return choose


def rollout(
    engine: AnyEngine,
    state: Any,
    policy: RolloutPolicy,
    rng: random.Random,
    *,
    horizon: Horizon | None,
    max_steps: int,
) -> Any:
    """Play ``state`` on with ``policy`` for every seat until the game ends, the horizon is
    reached or ``max_steps`` seat actions were taken; return the state reached."""
    return _play_on(engine, state, policy, rng, horizon=horizon, max_steps=max_steps)[0]


def _play_on(
    engine: AnyEngine,
    state: Any,
    policy: RolloutPolicy,
    rng: random.Random,
    *,
    horizon: Horizon | None,
    max_steps: int,
) -> tuple[Any, int]:
    """:func:`rollout` that also returns the seat actions it took."""
    steps = 0
    while steps < max_steps:
        if horizon is not None and horizon(state):
            break
        seat = engine.current_player(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        legal = engine.legal_actions(state, seat)
        if not legal:
            break
        state = engine.apply_unchecked(state, policy(state, seat, legal, rng), seat)
        steps += 1
    return state, steps


def default_leaf_value(engine: AnyEngine) -> LeafValue:
    """Value a finished game by the seat's utility; an unfinished one as neutral (0)."""

    def value(state: Any, seat: int) -> float:
        result = engine.result(state)
        if result is None:
            return 0.0
        return float(result.utilities[seat])

    return value


@dataclass(frozen=True, slots=True)
class SearchOutcome:
    """What a search found: each candidate's mean rollout value (``None`` if the work budget
    ran out before it got a rollout), its number of rollouts, the indices of the candidates that
    survived successive halving (the only ones worth choosing from), and the seat actions spent."""

    values: tuple[float | None, ...]
    visits: tuple[int, ...]
    survivors: tuple[int, ...]
    work: int = 0


def search_values(
    engine: AnyEngine,
    view: Any,
    candidates: Sequence[Any],
    rng: random.Random,
    *,
    policy: RolloutPolicy,
    leaf_value: LeafValue,
    horizon: Horizon | None = None,
    budget: SearchBudget = SearchBudget(),
    determinizer: Determinizer | None = None,
) -> SearchOutcome:
    """Mean rollout value of each candidate action for the view's seat (see the module)."""
    seat: int = view.seat
    count = len(candidates)
    totals = [0.0] * count
    visits = [0] * count
    if count == 0:
        return SearchOutcome((), (), ())
    base = rng.getrandbits(62)
    work = 0
    work_cap = budget.work if budget.work is not None else math.inf
    deals: list[Any] = []
    make_deal = determinizer if determinizer is not None else engine.determinize

    def deal(index: int) -> Any:
        while len(deals) <= index:
            deals.append(make_deal(view, random.Random(base + 7919 * len(deals))))
        return deals[index]

    survivors = list(range(count))
    rounds = max(1, math.ceil(math.log2(count))) if count > 1 else 1
    next_deal = 0
    for _ in range(rounds):
        per_candidate = max(1, budget.rollouts // (rounds * len(survivors)))
        for sample in range(next_deal, next_deal + per_candidate):
            start = deal(sample)
            for index in survivors:
                dice = random.Random(base + 104729 * (sample + 1))
                after = engine.apply_unchecked(start, candidates[index], seat)
                end, steps = _play_on(
                    engine, after, policy, dice, horizon=horizon, max_steps=budget.max_steps
                )
                work += steps + 1
                totals[index] += leaf_value(end, seat)
                visits[index] += 1
            # Checked after a whole sample, so every survivor saw the same deals.
            if work >= work_cap:
                break
        next_deal += per_candidate
        if len(survivors) <= 2 or work >= work_cap:
            break
        survivors.sort(key=lambda i: totals[i] / visits[i] if visits[i] else -math.inf)
        survivors = survivors[len(survivors) // 2 :]
    return SearchOutcome(
        values=tuple(totals[i] / visits[i] if visits[i] else None for i in range(count)),
        visits=tuple(visits),
        survivors=tuple(sorted(survivors)),
        work=work,
    )


def best_by_search(
    engine: AnyEngine,
    view: Any,
    candidates: Sequence[Any],
    rng: random.Random,
    *,
    policy: RolloutPolicy,
    leaf_value: LeafValue,
    horizon: Horizon | None = None,
    budget: SearchBudget = SearchBudget(),
    prior: Sequence[float] | None = None,
    determinizer: Determinizer | None = None,
) -> Any:
    """The candidate with the best mean rollout value (ties go to the higher ``prior``, then to
    the earlier candidate)."""
    if len(candidates) == 1:
        return candidates[0]
    outcome = search_values(
        engine,
        view,
        candidates,
        rng,
        policy=policy,
        leaf_value=leaf_value,
        horizon=horizon,
        budget=budget,
        determinizer=determinizer,
    )
    priors = prior if prior is not None else [0.0] * len(candidates)

    def key(index: int) -> tuple[float, float, int]:
        value = outcome.values[index]
        return (-math.inf if value is None else value, priors[index], -index)

    return candidates[max(outcome.survivors, key=key)]
