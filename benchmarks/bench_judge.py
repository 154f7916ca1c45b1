"""Whether the move-by-move analysis can be trusted: a seat that follows the coach's hint at
every decision should score high, the analysis's best move should be the Hard player's choice,
and a decision's label should not depend on the sampler's seed.

For each game it plays seeded games (Indecision ``short``, Indian Rummy one deal, Declaration
Rummy 4 players) in which seat 0 plays the coach's hint at every decision and the other seats
play Normal, then analyses each of seat 0's decisions (at the default budget, sampler seed 0,
and again with seed 1) and prints:

* the hint-follower's accuracy: the mean over its games of the game's accuracy, the lowest
  game's, and how many of its decisions were marked (inaccuracy, mistake, blunder);
* agreement: the share of decisions whose best move is the Hard player's choice, and the share
  whose best move is the hint;
* stability: the share of decisions whose label changes between the two sampler seeds, and the
  absolute difference of the cost between them (p50, p95: the noise the page states);
* time per decision, p50 and p95 in milliseconds (seed 0's analyses).

    python -m benchmarks.bench_judge                   # 50 games each
    python -m benchmarks.bench_judge --games 5 --game indian-rummy --show

It never fails on time: it prints what it measured.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from typing import Any

from cardtable.bots import make_bot
from cardtable.coach import hint
from cardtable.driver import play
from cardtable.registry import get_engine
from cardtable.replay import record_of, replay_steps
from cardtable.review import lens_of, review_decision
from cardtable.review.sampler import distinct

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
PRESETS = {"indecision": "short", "indian-rummy": "single-deal", "declaration-rummy": "default"}


class HintFollower:
    """A seat that plays the coach's hint at every decision."""

    name = "hint"
    version = "1"

    def __init__(self, game: str) -> None:
        self.game = game

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The coach's hint."""
        return hint(self.game, view, legal_actions).action


def percentile(values: list[float], share: float) -> float:
    """The value below which ``share`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * share))]


def measure(game: str, games: int, show: bool, first: int = 0) -> None:
    """Print one game's figures (see the module docstring)."""
    engine = get_engine(game)
    rules = engine.presets()[PRESETS[game]]
    hard = make_bot(game, "hard")
    accuracies: list[float] = []
    per_decision: list[float] = []
    noise: list[float] = []
    labels: Counter[str] = Counter()
    decisions = agree_hard = agree_hint = changed = 0
    hands: set[tuple[int, int]] = set()
    for number in range(first, first + games):
        seed = 2000 + number
        seats = [HintFollower(game)] + [make_bot(game, "normal") for _ in range(rules.players - 1)]
        played = play(engine, rules, seed, seats)
        record = record_of(game, rules, seed, played.actions)
        game_acc: list[float] = []
        lens = lens_of(game)
        for step in replay_steps(record):
            legal = distinct(engine.legal_actions(step.before, 0)) if step.seat == 0 else []
            if len(legal) < 2:
                continue
            view = engine.view(step.before, 0)
            start = time.perf_counter()
            first = review_decision(game, step.before, 0, step.action, index=step.index)
            per_decision.append((time.perf_counter() - start) * 1000)
            second = review_decision(
                game, step.before, 0, step.action, index=step.index, sampler_seed=1
            )
            choice = hard.choose(view, legal, random.Random(f"hard:{seed}:{step.index}"))
            decisions += 1
            agree_hard += first.best == str(choice)
            agree_hint += first.best == str(step.action)
            changed += first.label != second.label
            noise.append(abs(first.cost - second.cost))
            game_acc.append(first.accuracy)
            hands.add((number, lens.hand_of(step.before)))
            if first.label is not None:
                labels[first.label] += 1
                if show:
                    print(
                        f"  game {number} move {step.index}: {first.label} "
                        f"{first.played} (best {first.best}, cost {first.cost:.1f} "
                        f"±{first.error:.1f}; Hard: {choice})"
                    )
        if game_acc:
            accuracies.append(sum(game_acc) / len(game_acc))
    unit = lens_of(game).thresholds.unit
    print(
        f"{game}: {games} games ({len(hands)} hands), {decisions} decisions of the "
        f"hint-follower; accuracy mean "
        f"{statistics.fmean(accuracies):.1f}%, lowest game {min(accuracies):.1f}%; marked "
        f"{labels['inaccuracy']} inaccuracies, {labels['mistake']} mistakes, "
        f"{labels['blunder']} blunders ({unit})"
    )
    print(
        f"  best move = Hard's choice {100 * agree_hard / decisions:.0f}%, = the hint "
        f"{100 * agree_hint / decisions:.0f}%; label changes between sampler seeds 0 and 1 "
        f"{100 * changed / decisions:.1f}% ({changed} of {decisions}), |cost difference| p50 "
        f"{statistics.median(noise):.2f}, p95 {percentile(noise, 0.95):.2f}; per decision p50 "
        f"{statistics.median(per_decision):.0f} ms, p95 {percentile(per_decision, 0.95):.0f} ms"
    )


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per game type")
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games")
    parser.add_argument("--show", action="store_true", help="print every marked decision")
    options = parser.parse_args()
    for game in options.game or GAMES:
        measure(game, options.games, options.show, options.first)


if __name__ == "__main__":
    main()
