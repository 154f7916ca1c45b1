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
    python -m benchmarks.bench_judge --game indian-rummy --games 25 --first 25 --out b.jsonl
    python -m benchmarks.bench_judge --summarize a.jsonl b.jsonl   # figures of saved runs

It never fails on time: it prints what it measured.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, TextIO

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


def decisions_of(game: str, games: int, first: int = 0) -> Iterator[dict[str, Any]]:
    """One record per decision of the hint-follower in games ``first`` to ``first + games - 1``
    (see the module docstring for what is measured)."""
    engine = get_engine(game)
    rules = engine.presets()[PRESETS[game]]
    hard = make_bot(game, "hard")
    lens = lens_of(game)
    for number in range(first, first + games):
        seed = 2000 + number
        seats = [HintFollower(game)] + [make_bot(game, "normal") for _ in range(rules.players - 1)]
        played = play(engine, rules, seed, seats)
        record = record_of(game, rules, seed, played.actions)
        for step in replay_steps(record):
            legal = distinct(engine.legal_actions(step.before, 0)) if step.seat == 0 else []
            if len(legal) < 2:
                continue
            view = engine.view(step.before, 0)
            start = time.perf_counter()
            one = review_decision(game, step.before, 0, step.action, index=step.index)
            elapsed = (time.perf_counter() - start) * 1000
            two = review_decision(
                game, step.before, 0, step.action, index=step.index, sampler_seed=1
            )
            choice = hard.choose(view, legal, random.Random(f"hard:{seed}:{step.index}"))
            yield {
                "game": game,
                "number": number,
                "hand": lens.hand_of(step.before),
                "index": step.index,
                "played": one.played,
                "best": one.best,
                "hard": str(choice),
                "cost": one.cost,
                "error": one.error,
                "label": one.label,
                "accuracy": one.accuracy,
                "cost_seed_1": two.cost,
                "label_seed_1": two.label,
                "ms": elapsed,
            }


def summary(game: str, rows: list[dict[str, Any]]) -> list[str]:
    """The figures of one game's decision records, as lines of text."""
    by_game: dict[int, list[float]] = {}
    for row in rows:
        by_game.setdefault(row["number"], []).append(row["accuracy"])
    accuracies = [sum(acc) / len(acc) for acc in by_game.values()]
    labels = Counter(row["label"] for row in rows if row["label"] is not None)
    count = len(rows)
    changed = sum(row["label"] != row["label_seed_1"] for row in rows)
    noise = [abs(row["cost"] - row["cost_seed_1"]) for row in rows]
    times = [row["ms"] for row in rows]
    hands = {(row["number"], row["hand"]) for row in rows}
    unit = lens_of(game).thresholds.unit
    hard = sum(row["best"] == row["hard"] for row in rows)
    hinted = sum(row["best"] == row["played"] for row in rows)
    return [
        f"{game}: {len(by_game)} games ({len(hands)} hands), {count} decisions of the "
        f"hint-follower; accuracy mean {statistics.fmean(accuracies):.1f}%, lowest game "
        f"{min(accuracies):.1f}%; marked {labels['inaccuracy']} inaccuracies, "
        f"{labels['mistake']} mistakes, {labels['blunder']} blunders ({unit})",
        f"  best move = Hard's choice {100 * hard / count:.0f}%, = the hint "
        f"{100 * hinted / count:.0f}%; label "
        f"changes between sampler seeds 0 and 1 {100 * changed / count:.1f}% ({changed} of "
        f"{count}), |cost difference| p50 {statistics.median(noise):.2f}, p95 "
        f"{percentile(noise, 0.95):.2f}; per decision p50 {statistics.median(times):.0f} ms, "
        f"p95 {percentile(times, 0.95):.0f} ms",
    ]


def main() -> None:
    """Run the benchmark."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=50, help="games per game type")
    parser.add_argument("--first", type=int, default=0, help="number of the first game")
    parser.add_argument("--game", choices=GAMES, action="append", help="only these games")
    parser.add_argument("--show", action="store_true", help="print every marked decision")
    parser.add_argument("--out", help="also write each decision as a JSON line to this file")
    parser.add_argument(
        "--summarize", nargs="+", metavar="FILE", help="only summarize the --out files given"
    )
    options = parser.parse_args()
    if options.summarize:
        rows = [
            json.loads(line)
            for name in options.summarize
            for line in Path(name).read_text().splitlines()
        ]
        for game in GAMES:
            mine = [row for row in rows if row["game"] == game]
            if mine:
                print("\n".join(summary(game, mine)))
        return
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(Path(options.out).open("a")) if options.out else None
        run(options, out)


def run(options: argparse.Namespace, out: TextIO | None) -> None:
    """Measure the games asked for, writing each decision to ``out`` as it is analysed."""
    for game in options.game or GAMES:
        rows: list[dict[str, Any]] = []
        for row in decisions_of(game, options.games, options.first):
            rows.append(row)
            if out is not None:
                out.write(json.dumps(row) + "\n")
                out.flush()
            if options.show and row["label"] is not None:
                print(
                    f"  game {row['number']} move {row['index']}: {row['label']} "
                    f"{row['played']} (best {row['best']}, cost {row['cost']:.1f} "
                    f"±{row['error']:.1f}; Hard: {row['hard']})",
                    flush=True,
                )
        print("\n".join(summary(game, rows)), flush=True)


if __name__ == "__main__":
    main()
