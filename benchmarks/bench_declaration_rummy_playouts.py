"""Random legal-move playouts of the Declaration Rummy engine, beside OpenSpiel's gin_rummy.

Each playout is one whole game (no match) between random players that choose uniformly among
their legal actions **except** ``drop`` and ``propose tie``: with those in the mix a random table
mostly ends a game within a few moves by dropping out or agreeing a tie, and the playout would
time the deal rather than the play. Declaring stays in, so random games are still short (a
random player declares whenever it is one of its choices), which makes the per-game work (the
Preliminary, shuffles, cuts, the deal, counting every hand at the end) weigh on the figure.

The figure is microseconds per seat decision: all the work of the games (chance steps, the
random choice, legal actions, applying) divided by the number of seat decisions, for 2, 4 and 10
players, without and with all twelve optional cards. Two loops are timed:

* ``loop``: ``current_player`` / ``chance_step`` / ``legal_actions`` / ``apply_unchecked``,
  the way a search bot drives the engine (the comparison with OpenSpiel uses this one);
* ``driver``: :func:`cardtable.driver.play`, which also builds each seat's view.

OpenSpiel's ``gin_rummy`` (2 players) is driven the same way from Python in the same run:
``pyspiel.load_game("gin_rummy")``, uniformly random legal actions, chance outcomes drawn
uniformly (checked first to be its own distribution). Each of our timed runs is paired with a
gin_rummy run of the same length, so both see the same load on a shared machine; the median and
the fastest run of each line are printed, with the median of the paired ratios and the ratio of
the fastest runs (the steadiest figure on a busy machine). The script never fails on time.

Reproduce from the repository root (OpenSpiel is timed beside ours when the ``bench`` extra
is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_declaration_rummy_playouts
    .venv/bin/python -m benchmarks.bench_declaration_rummy_playouts --runs 5 --seconds 0.5
"""

from __future__ import annotations

import argparse
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from benchmarks.playouts import (
    Run,
    Summary,
    driver_playouts,
    engine_playouts,
    interleave,
    openspiel_gin_playouts,
)
from cardtable.games.declaration_rummy.actions import Drop, ProposeTie
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules

EXCLUDED = (Drop, ProposeTie)


class PlayoutBot:
    """Uniformly random among the legal actions other than ``drop`` and ``propose tie``."""

    name = "playout"
    version = "1"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        playable = [a for a in legal if not isinstance(a, EXCLUDED)]
        return playable[rng.randrange(len(playable))]


@dataclass(frozen=True)
class Paired:
    """Our runs of one line, each beside a gin_rummy run of the same length (none when
    OpenSpiel is not installed)."""

    ours: Summary
    gin: list[Run]

    @property
    def median_ratio(self) -> float | None:
        if not self.gin:
            return None
        pairs = zip(self.ours.runs, self.gin, strict=True)
        return statistics.median(a.us_per_decision / b.us_per_decision for a, b in pairs)

    @property
    def best_ratio(self) -> float | None:
        if not self.gin:
            return None
        return self.ours.best_us / min(r.us_per_decision for r in self.gin)


def paired(measure: Callable[[int], Run], gin: Callable[[int], Run | None], runs: int) -> Paired:
    """``runs`` of our runs, each followed by a gin_rummy run of the same length, so both see
    the same machine load (the machine may be shared) and the ratios stay meaningful."""
    ours, references = interleave([measure, gin], runs)
    return Paired(Summary(tuple(ours)), [run for run in references if run is not None])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per line (median)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of each run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    seconds = args.seconds

    def seed_of(run: int) -> int:
        return args.seed + 1000 * run

    def gin(run: int) -> Run | None:
        return openspiel_gin_playouts(seconds, args.seed + run)

    print(
        f"Random legal-move playouts (no drop, no tie proposals); median of {args.runs} runs "
        f"of {seconds:g} s, each paired with a gin_rummy run"
    )
    print(
        f"{'engine':<36} {'us/decision':>11} {'best':>7} {'vs gin':>7} {'best vs':>8} "
        f"{'decisions/game':>15} {'chance/game':>12}"
    )

    def ratio(value: float | None) -> str:
        return "-" if value is None else f"{value:.2f}x"

    gin_runs: list[Run] = []
    for optional, label in (((), "no optional"), (ALL_OPTIONAL, "all optional")):
        for players in (2, 4, 10):
            rules = Rules(players=players, optional_cards=optional)
            seats = [PlayoutBot() for _ in range(players)]
            loops: dict[str, Callable[[int], Run]] = {
                "loop": lambda i, rules=rules: engine_playouts(ENGINE, rules, seconds, seed_of(i)),
                "driver": lambda i, rules=rules, seats=seats: driver_playouts(
                    ENGINE, rules, seconds, seed_of(i), seats
                ),
            }
            for loop_name, loop in loops.items():
                result = paired(loop, gin, args.runs)
                gin_runs.extend(result.gin)
                ours = result.ours
                print(
                    f"{loop_name + f' {players:>2}p, ' + label:<36} {ours.median_us:>11.2f} "
                    f"{ours.best_us:>7.2f} {ratio(result.median_ratio):>7} "
                    f"{ratio(result.best_ratio):>8} {ours.decisions_per_game:>15.1f} "
                    f"{ours.chance_steps_per_game:>12.1f}"
                )
    if not gin_runs:
        print("open_spiel is not installed here: install the bench extra for the comparison")
        return
    reference = Summary(tuple(gin_runs))
    print(
        f"{'open_spiel gin_rummy 2p':<36} {reference.median_us:>11.2f} {reference.best_us:>7.2f} "
        f"{'1.00x':>7} {'1.00x':>8} {reference.decisions_per_game:>15.1f} "
        f"{reference.chance_steps_per_game:>12.1f}"
    )
    print(
        "us/decision: median run; best: fastest run; vs gin: median over the paired runs of "
        "ours / gin_rummy; best vs: fastest run over gin_rummy's fastest run"
    )


if __name__ == "__main__":
    main()
