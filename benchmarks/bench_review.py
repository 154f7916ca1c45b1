"""The move-by-move analysis: time per decision and per whole hand (deal) at the default budget
(median and 95th percentile), and the noise of the estimated cost between two sampler seeds.

For each game it plays a few seeded games between Normal players (Indian Rummy: one deal per
game), analyses every decision of seat 0 with sampler seeds 0 and 1, and prints:

* the time of one decision's analysis and of one whole hand's (the sum of its decisions), p50
  and p95, in milliseconds;
* the noise: the absolute difference of a decision's cost between the two seeds (p50, p95, in
  the game's unit), the share of decisions whose label (none, inaccuracy, mistake, blunder)
  changes between the seeds, the same share among the decisions either seed marks, and the
  share whose best move is the same.

    python -m benchmarks.bench_review                  # 3 games each, the default budget
    python -m benchmarks.bench_review --games 1 --game indecision

It never fails on time: it prints what it measured.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import defaultdict

from cardtable.bots import make_bot
from cardtable.driver import play
from cardtable.registry import get_engine
from cardtable.replay import record_of, replay_steps
from cardtable.review import DEFAULT_BUDGET, lens_of, review_decision
from cardtable.review.sampler import distinct

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
PRESETS = {"indecision": "short", "indian-rummy": "single-deal", "declaration-rummy": "default"}


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def measure(game: str, games: int) -> None:
    """Print one game's figures (see the module docstring)."""
    engine = get_engine(game)
    lens = lens_of(game)
    rules = engine.presets()[PRESETS[game]]
    per_decision: list[float] = []
    per_hand: dict[tuple[int, int], float] = defaultdict(float)
    noise: list[float] = []
    same_label = same_best = marked = marked_changed = 0
    for number in range(games):
        seed = 1000 + number
        played = play(engine, rules, seed, [make_bot(game, "normal") for _ in range(rules.players)])
        record = record_of(game, rules, seed, played.actions)
        for step in replay_steps(record):
            if step.seat != 0 or len(distinct(engine.legal_actions(step.before, 0))) < 2:
                continue
            start = time.perf_counter()
            first = review_decision(game, step.before, 0, step.action, index=step.index)
            elapsed = time.perf_counter() - start
            second = review_decision(
                game, step.before, 0, step.action, index=step.index, sampler_seed=1
            )
            per_decision.append(elapsed * 1000)
            per_hand[(number, lens.hand_of(step.before))] += elapsed * 1000
            noise.append(abs(first.cost - second.cost))
            same_label += first.label == second.label
            if first.label is not None or second.label is not None:
                marked += 1
                marked_changed += first.label != second.label
            same_best += first.best == second.best
    hands = list(per_hand.values())
    count = len(per_decision)
    unit = lens.thresholds.unit
    print(
        f"{game}: {count} decisions in {len(hands)} hands; "
        f"per decision p50 {statistics.median(per_decision):.0f} ms, "
        f"p95 {percentile(per_decision, 0.95):.0f} ms; "
        f"per hand p50 {statistics.median(hands):.0f} ms, p95 {percentile(hands, 0.95):.0f} ms"
    )
    print(
        f"  noise between sampler seeds 0 and 1: |cost difference| p50 "
        f"{statistics.median(noise):.2f}, p95 {percentile(noise, 0.95):.2f} {unit}; "
        f"label changes {100 * (count - same_label) / count:.0f}% of decisions "
        f"({marked_changed} of the {marked} either seed marks); "
        f"same best move {100 * same_best / count:.0f}%"
    )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3, help="games per game type")
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games")
    options = parser.parse_args()
    budget = DEFAULT_BUDGET
    print(
        f"budget: {budget.samples} samples per decision ({budget.screen} screening every move, "
        f"{budget.finalists} finalists), lookahead {budget.lookahead} own turns"
    )
    for game in options.game or GAMES:
        measure(game, options.games)


if __name__ == "__main__":
    main()
