"""Full-length random playouts of the Indian Rummy engine, beside OpenSpiel's gin_rummy.

Each playout is a whole game of one deal (``deals=1``) in which every seat chooses uniformly
among its playing actions: the legal ones less the drop, and less every declaration that would
be a wrong show (a seat declares only when the show is valid). A random deal therefore runs
until a seat happens on a valid show or, far more often, to the turn cap (400 turns by
default), like gin_rummy's random games, which end at the wall or a knock. Every step is
counted: chance steps (first dealer, deal, reshuffles), the legal lists, the show check of the
playing-action filter and the random choice; the figure reported is microseconds per seat
decision (all the work of the games divided by their seat decisions) and games per second.

Three loops are timed, each with its own seeded ``random.Random``:

* ``cardtable loop``: ``current_player`` / ``chance_step`` / ``legal_actions`` /
  ``apply_unchecked`` (:func:`cardtable.playouts.random_playouts`), the way a search bot
  drives the engine;
* ``cardtable driver``: :func:`cardtable.driver.play` with seats that choose the same way from
  their views, which the driver builds before every choice;
* ``open_spiel gin_rummy``: ``pyspiel.load_game("gin_rummy")`` driven the same way from Python,
  chance outcomes drawn uniformly (checked first to be its own distribution), every legal
  action allowed (its legal knocks are all valid), when ``pyspiel`` is importable.

Medians over several runs are printed; the script never fails on time.

Reproduce from the repository root (OpenSpiel is timed beside ours when the ``bench`` extra
is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_indian_rummy_playouts
    .venv/bin/python -m benchmarks.bench_indian_rummy_playouts --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable, Sequence

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
from cardtable.bots.indian_rummy import showable
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.view import IndianRummyView

GIN = "open_spiel gin_rummy 2p"


class PlayoutBot:
    """Uniformly random among the legal actions but the drop and the wrong shows."""

    name = "playout"
    version = "1"

    def choose(
        self, view: IndianRummyView, legal: Sequence[act.IndianRummyAction], rng: random.Random
    ) -> act.IndianRummyAction:
        shows = showable(view)
        playing = [
            a
            for a in legal
            if a is not act.DROP and (not isinstance(a, act.Declare) or a.card in shows)
        ]
        return playing[rng.randrange(len(playing))]


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
        seats = [PlayoutBot() for _ in range(players)]
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

    print(f"Full-length random playouts, deals=1; median of {args.runs} runs of {seconds:g} s")
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
