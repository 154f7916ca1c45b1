"""The Hard search's budget is counted in work, so its choices do not depend on the machine's
speed or load: the same seeded decision gives the same rollouts whatever the clock says."""

from __future__ import annotations

import itertools
import random
import time

import pytest

from cardtable.bots.indecision import EasyBot
from cardtable.bots.search import SearchBudget, SearchOutcome, search_values
from cardtable.games.indecision.engine import ENGINE
from cardtable.games.indecision.state import State

from .positions import indecision


def _search(budget: SearchBudget) -> SearchOutcome:
    state = indecision(["5H 6H 7H 7C 7S 2D", "9C 9D KS QH 3C"], had_turn=(1, 1))
    view = ENGINE.view(state, 0)
    candidates = list(ENGINE.legal_actions(state, 0))
    easy = EasyBot()
    number = view.hand_number

    def policy(state: State, seat: int, legal: object, dice: random.Random) -> object:
        return easy.choose(ENGINE.view(state, seat), legal, dice)  # type: ignore[arg-type]

    def value(state: State, seat: int) -> float:
        return float(state.table.totals[seat])

    return search_values(
        ENGINE,
        view,
        candidates,
        random.Random(11),
        policy=policy,
        leaf_value=value,
        horizon=lambda s: s.table.hand_number != number,
        budget=budget,
    )


def test_a_search_spends_the_same_rollouts_when_the_clock_runs_a_minute_per_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A machine so busy that every clock reading is a minute later than the last: a wall-clock
    # deadline would cut the search short; a work budget does not notice.
    budget = SearchBudget(rollouts=60, max_steps=60)
    calm = _search(budget)
    ticks = itertools.count(0, 60)
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    monkeypatch.setattr(time, "monotonic", lambda: float(next(ticks)))
    monkeypatch.setattr(time, "time", lambda: float(next(ticks)))
    busy = _search(budget)
    assert busy == calm
    assert sum(calm.visits) >= 60 - len(calm.visits)


def test_the_work_cap_stops_a_search_after_a_whole_sample_and_repeats_exactly() -> None:
    full = _search(SearchBudget(rollouts=120, max_steps=60))
    capped = _search(SearchBudget(rollouts=120, max_steps=60, work=full.work // 4))
    assert full.work > capped.work >= full.work // 4
    assert sum(capped.visits) < sum(full.visits)
    # Every candidate still searched saw the same number of deals.
    assert len({capped.visits[i] for i in capped.survivors}) == 1
    assert _search(SearchBudget(rollouts=120, max_steps=60, work=full.work // 4)) == capped
