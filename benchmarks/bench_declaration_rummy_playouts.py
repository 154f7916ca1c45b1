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
``pyspiel.load_game("gin_rummy")``, uniformly random legal actions, chance outcomes sampled by
their probabilities. Each of our timed runs is paired with a gin_rummy run of the same
length, so both see the same load on a shared machine; the median and the fastest run of each
line are printed, with the median of the paired ratios and the ratio of the fastest runs
(the steadiest figure on a busy machine). The script never fails on time.

Reproduce from the repository root (OpenSpiel is timed beside ours when the ``bench`` extra
is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_declaration_rummy_playouts
    .venv/bin/python -m benchmarks.bench_declaration_rummy_playouts --runs 5 --seconds 0.5
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.driver import play
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.declaration_rummy.actions import Drop, ProposeTie
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, Rules


@dataclass(frozen=True)
class Run:
    """Totals of one timed run."""

    games: int
    decisions: int
    chance_steps: int
    seconds: float

    @property
    def us_per_decision(self) -> float:
        return self.seconds / self.decisions * 1e6


class PlayoutBot:
    """Uniformly random among the legal actions other than ``drop`` and ``propose tie``."""

    name = "playout"
    version = "1"

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        playable = [a for a in legal if not isinstance(a, Drop | ProposeTie)]
        return playable[rng.randrange(len(playable))]


def cardtable_loop(rules: Rules, seconds: float, seed: int) -> Run:
    """Random playouts through the engine's fast path."""
    engine = ENGINE
    rng = random.Random(seed)
    current, chance, legal_of, apply = (
        engine.current_player,
        engine.chance_step,
        engine.legal_actions,
        engine.apply_unchecked,
    )
    skip = (Drop, ProposeTie)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = engine.new_game(rules, seed + games)
        while True:
            seat = current(state)
            if seat == CHANCE:
                state = chance(state)
                chance_steps += 1
            elif seat == TERMINAL:
                break
            else:
                legal = [a for a in legal_of(state, seat) if not isinstance(a, skip)]
                state = apply(state, legal[rng.randrange(len(legal))], seat)
                decisions += 1
        games += 1
        if games % 50 == 0 and time.perf_counter() > deadline:
            break
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def cardtable_driver(rules: Rules, seconds: float, seed: int) -> Run:
    """Random playouts through the driver (views built for every decision)."""
    rng = random.Random(seed)
    seats = [PlayoutBot() for _ in range(rules.players)]
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = play(ENGINE, rules, seed + games, seats, rng=rng)
        decisions += len(game.actions)
        chance_steps += game.chance_steps
        games += 1
        if games % 50 == 0 and time.perf_counter() > deadline:
            break
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def openspiel_gin(seconds: float, seed: int) -> Run | None:
    """Random gin_rummy playouts through pyspiel, or ``None`` when it is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [outcome for outcome, _ in outcomes]
                weights = [probability for _, probability in outcomes]
                state.apply_action(rng.choices(actions, weights=weights)[0])
                chance_steps += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
        if games % 10 == 0 and time.perf_counter() > deadline:
            break
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


@dataclass(frozen=True)
class Paired:
    """Our runs of one line, each beside a gin_rummy run of the same length."""

    ours: list[Run]
    gin: list[Run]

    @property
    def median_us(self) -> float:
        return statistics.median(r.us_per_decision for r in self.ours)

    @property
    def best_us(self) -> float:
        return min(r.us_per_decision for r in self.ours)

    @property
    def median_ratio(self) -> float | None:
        if not self.gin:
            return None
        pairs = zip(self.ours, self.gin, strict=True)
        return statistics.median(a.us_per_decision / b.us_per_decision for a, b in pairs)

    @property
    def best_ratio(self) -> float | None:
        if not self.gin:
            return None
        return self.best_us / min(r.us_per_decision for r in self.gin)

    @property
    def middle(self) -> Run:
        return sorted(self.ours, key=lambda r: r.us_per_decision)[len(self.ours) // 2]


def paired(measure: Callable[[int], Run], gin: Callable[[int], Run | None], runs: int) -> Paired:
    """``runs`` of our runs, each followed by a gin_rummy run of the same length, so both see
    the same machine load (the machine may be shared) and the ratios stay meaningful."""
    ours: list[Run] = []
    references: list[Run] = []
    for index in range(runs):
        ours.append(measure(index))
        reference = gin(index)
        if reference is not None:
            references.append(reference)
    return Paired(ours, references)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per line (median)")
    parser.add_argument("--seconds", type=float, default=0.5, help="length of each run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    def gin(index: int) -> Run | None:
        return openspiel_gin(args.seconds, args.seed + index)

    print(
        f"Random legal-move playouts (no drop, no tie proposals); median of {args.runs} runs "
        f"of {args.seconds:g} s, each paired with a gin_rummy run"
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
            for loop_name, loop in (("loop", cardtable_loop), ("driver", cardtable_driver)):
                result = paired(
                    lambda i, loop=loop, rules=rules: loop(  # type: ignore[misc]
                        rules, args.seconds, args.seed + 1000 * i
                    ),
                    gin,
                    args.runs,
                )
                gin_runs.extend(result.gin)
                run = result.middle
                print(
                    f"{loop_name + f' {players:>2}p, ' + label:<36} {result.median_us:>11.2f} "
                    f"{result.best_us:>7.2f} {ratio(result.median_ratio):>7} "
                    f"{ratio(result.best_ratio):>8} {run.decisions / run.games:>15.1f} "
                    f"{run.chance_steps / run.games:>12.1f}"
                )
    if not gin_runs:
        print("open_spiel is not installed here: run with the bench venv for the comparison")
        return
    middle = sorted(gin_runs, key=lambda r: r.us_per_decision)[len(gin_runs) // 2]
    print(
        f"{'open_spiel gin_rummy 2p':<36} "
        f"{statistics.median(r.us_per_decision for r in gin_runs):>11.2f} "
        f"{min(r.us_per_decision for r in gin_runs):>7.2f} {'1.00x':>7} {'1.00x':>8} "
        f"{middle.decisions / middle.games:>15.1f} {middle.chance_steps / middle.games:>12.1f}"
    )
    print(
        "us/decision: median run; best: fastest run; vs gin: median over the paired runs of "
        "ours / gin_rummy; best vs: fastest run over gin_rummy's fastest run"
    )


if __name__ == "__main__":
    main()
