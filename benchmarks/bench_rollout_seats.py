"""Indian Rummy's rollout seats side by side: the playing seat and the improving seat.

Both seats of each seeded two-player deal follow one filter of :mod:`cardtable.playouts`
(``playing_actions``, ``improving_actions``), a uniform pick among what it offers. The two
filters take turns run by run, in one process, over the same deals. Printed per seat: the
filter's cost per seat decision and the whole decision's (the legal list, the filter, the
random pick and applying it; chance steps left out), medians of the runs; the share of deals
a valid show ends within ``--decisions`` seat decisions (a search rollout's horizon) and in
the whole deal (400-turn cap), the median turns to that show; and the mean hand points (best
arrangement, capped) of both seats at the start of turn ``--turns``, over the deals that last
that long. It never fails on time::

    nice -n 10 python -m benchmarks.bench_rollout_seats --deals 200 --runs 3
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from dataclasses import dataclass, field

from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy.engine import ENGINE, hand_points
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import Phase
from cardtable.playouts import Choices, improving_actions, playing_actions

SEATS: dict[str, Choices] = {
    "playing": playing_actions(ENGINE),
    "improving": improving_actions(ENGINE),
}


@dataclass
class Run:
    """One pass of a seat over the deals."""

    seconds: float = 0.0
    """In the filter."""
    decision_seconds: float = 0.0
    """In whole seat decisions."""
    decisions: int = 0
    shown_within: int = 0
    shown: int = 0
    turns_to_show: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)


def run(choices: Choices, deals: int, decisions: int, turns: int, seed: int) -> Run:
    """Every deal played to its end by two seats following ``choices``."""
    rng = random.Random(seed)
    rules = Rules(players=2, deals=1)
    out = Run()
    for deal in range(deals):
        state = ENGINE.new_game(rules, seed + deal)
        made = 0
        counted = False
        while (seat := ENGINE.current_player(state)) != TERMINAL:
            if seat == CHANCE:
                state = ENGINE.chance_step(state)
                continue
            if not counted and state.turns >= turns and state.phase is Phase.DRAW:
                out.points.extend(hand_points(h, state.wild_rank, rules) for h in state.hands)
                counted = True
            began = time.perf_counter()
            legal = ENGINE.legal_actions(state, seat)
            started = time.perf_counter()
            offered = choices(state, seat, legal)
            action = offered[rng.randrange(len(offered))]
            out.seconds += time.perf_counter() - started
            state = ENGINE.apply_unchecked(state, action, seat)
            out.decision_seconds += time.perf_counter() - began
            made += 1
        out.decisions += made
        last = state.last_deal
        if last is not None and last.outcome == "valid-show":
            out.shown += 1
            out.shown_within += made <= decisions
            out.turns_to_show.append(state.turns)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decisions", type=int, default=40)
    parser.add_argument("--turns", type=int, default=8)
    parser.add_argument("--seed", type=int, default=1000)
    args = parser.parse_args(argv)
    runs: dict[str, list[Run]] = {name: [] for name in SEATS}
    for _ in range(args.runs):
        for name, choices in SEATS.items():
            runs[name].append(run(choices, args.deals, args.decisions, args.turns, args.seed))
    for name, done in runs.items():
        cost = statistics.median(r.seconds / r.decisions * 1e6 for r in done)
        whole = statistics.median(r.decision_seconds / r.decisions * 1e6 for r in done)
        last = done[-1]
        to_show = statistics.median(last.turns_to_show) if last.turns_to_show else float("nan")
        points = statistics.fmean(last.points) if last.points else float("nan")
        within = last.shown_within / args.deals
        print(
            f"{name:<10} {cost:6.1f} us per decision in the filter, {whole:6.1f} in all; "
            f"valid show within {args.decisions} decisions {within:6.1%}, "
            f"in the deal {last.shown / args.deals:6.1%} (median turn {to_show:.0f}); "
            f"hand points at turn {args.turns} {points:.1f} ({len(last.points) // 2} deals)"
        )


if __name__ == "__main__":
    main()
