"""Random legal-move playouts of the Indian Rummy engine, beside OpenSpiel's gin_rummy.

Each playout is a whole game of one deal (``deals=1``) with every seat choosing uniformly among
its legal actions. Every step is counted: chance steps (first dealer, deal, reshuffles) and the
choice of the random policy are part of the cost; the figure reported is microseconds per seat
decision (all the work of the games divided by their seat decisions) and games per second.

Three loops are timed, each with its own seeded ``random.Random``:

* ``cardtable loop``: ``current_player`` / ``chance_step`` / ``legal_actions`` /
  ``apply_unchecked``, the way a search bot drives the engine;
* ``cardtable driver``: :func:`cardtable.driver.play` with :class:`cardtable.bots.RandomBot`
  seats, which also builds each seat's view before it chooses;
* ``open_spiel gin_rummy``: ``pyspiel.load_game("gin_rummy")`` driven the same way from Python,
  chance outcomes drawn uniformly (checked first to be its own distribution), when ``pyspiel``
  is importable.

Random Indian Rummy deals are short (a random seat soon drops or declares, mostly a wrong show),
so the deal itself (two shuffles, 26-52 cards dealt) weighs on the per-decision cost; gin_rummy
games run about a hundred decisions. Medians over several runs are printed; the script never
fails on time.

Reproduce from the repository root (OpenSpiel is timed beside ours when the ``bench`` extra
is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_indian_rummy_playouts
    .venv/bin/python -m benchmarks.bench_indian_rummy_playouts --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from benchmarks.playouts import (
    TABLE_HEADER,
    Run,
    driver_playouts,
    engine_playouts,
    interleave,
    openspiel_gin_playouts,
    summarize,
    table_row,
)
from cardtable.bots import RandomBot
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import Rules

GIN = "open_spiel gin_rummy 2p"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per line (median)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    seconds = args.seconds

    def seed_of(run: int) -> int:
        return args.seed + 1000 * run

    contenders: dict[str, Callable[[int], Run | None]] = {}
    for players in (2, 4):
        rules = Rules(players=players, deals=1)
        seats = [RandomBot() for _ in range(players)]
        contenders[f"cardtable loop indian-rummy {players}p"] = lambda i, rules=rules: (
            engine_playouts(ENGINE, rules, seconds, seed_of(i))
        )
        contenders[f"cardtable driver indian-rummy {players}p"] = (
            lambda i, rules=rules, seats=seats: driver_playouts(
                ENGINE, rules, seconds, seed_of(i), seats
            )
        )
    contenders[GIN] = lambda i: openspiel_gin_playouts(seconds, args.seed + i)
    results = interleave(list(contenders.values()), args.runs)
    summaries = {
        name: summary
        for name, runs in zip(contenders, results, strict=True)
        if (summary := summarize(runs)) is not None
    }

    print(f"Random legal-move playouts, deals=1; median of {args.runs} runs of {seconds:g} s")
    print(f"{'engine':<36}{TABLE_HEADER}")
    for name, summary in summaries.items():
        print(f"{name:<36}{table_row(summary)}")
    if GIN not in summaries:
        print("open_spiel is not installed here: install the bench extra for the comparison")
        return
    gin_us = summaries[GIN].median_us
    print(f"\nratio of cost per seat decision, cardtable / open_spiel gin_rummy ({gin_us:.2f} us):")
    for name, summary in summaries.items():
        if name != GIN:
            print(f"  {name:<34} {summary.median_us / gin_us:5.2f}x")


if __name__ == "__main__":
    main()
