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
* ``open_spiel gin_rummy``: ``pyspiel.load_game("gin_rummy")`` driven the same way from Python
  (chance outcomes sampled by their probabilities, which for its card draws are all equal),
  when ``pyspiel`` is importable.

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
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

from cardtable.bots import RandomBot
from cardtable.driver import play
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import Rules


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

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


def cardtable_loop(players: int, seconds: float, seed: int) -> Run:
    """Random playouts driven directly through the engine's fast path."""
    engine = ENGINE
    rules = Rules(players=players, deals=1)
    rng = random.Random(seed)
    current, chance, legal_of, apply = (
        engine.current_player,
        engine.chance_step,
        engine.legal_actions,
        engine.apply_unchecked,
    )
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
                legal = legal_of(state, seat)
                state = apply(state, legal[rng.randrange(len(legal))], seat)
                decisions += 1
        games += 1
        if games % 50 == 0 and time.perf_counter() > deadline:
            break
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def cardtable_driver(players: int, seconds: float, seed: int) -> Run:
    """Random playouts through the driver, RandomBot seats choosing from their views."""
    rules = Rules(players=players, deals=1)
    rng = random.Random(seed)
    seats = [RandomBot() for _ in range(players)]
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
                if outcomes[0][1] == outcomes[-1][1]:  # gin_rummy's draws are all equally likely
                    action = outcomes[rng.randrange(len(outcomes))][0]
                else:
                    action = rng.choices(
                        [o for o, _ in outcomes], weights=[p for _, p in outcomes]
                    )[0]
                state.apply_action(action)
                chance_steps += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
        if games % 10 == 0 and time.perf_counter() > deadline:
            break
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


Measure = Callable[[int], Run | None]


def _summary(results: list[Run]) -> tuple[Run, float, float]:
    """The run with the median cost per decision, the median cost and median games per second."""
    ordered = sorted(results, key=lambda r: r.us_per_decision)
    return (
        ordered[len(ordered) // 2],
        statistics.median(r.us_per_decision for r in results),
        statistics.median(r.games_per_second for r in results),
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="timed runs per line (median)")
    parser.add_argument("--seconds", type=float, default=1.0, help="length of each run")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)

    def ours(loop: Callable[[int, float, int], Run], players: int) -> Measure:
        return lambda i: loop(players, args.seconds, args.seed + 1000 * i)

    measures: dict[str, Measure] = {}
    for players in (2, 4):
        measures[f"cardtable loop indian-rummy {players}p"] = ours(cardtable_loop, players)
        measures[f"cardtable driver indian-rummy {players}p"] = ours(cardtable_driver, players)
    gin_name = "open_spiel gin_rummy 2p"
    measures[gin_name] = lambda i: openspiel_gin(args.seconds, args.seed + i)
    # Round-robin, so that a change in the machine's load touches every line alike.
    results: dict[str, list[Run]] = {name: [] for name in measures}
    for index in range(args.runs):
        for name, measure in measures.items():
            run = measure(index)
            if run is not None:
                results[name].append(run)

    print(f"Random legal-move playouts, deals=1; median of {args.runs} runs of {args.seconds:g} s")
    print(
        f"{'engine':<36} {'us/decision':>11} {'games/s':>9} {'decisions/game':>15} "
        f"{'chance/game':>12}"
    )
    summaries = {name: _summary(runs) for name, runs in results.items() if runs}
    for name, (run, us, gps) in summaries.items():
        print(
            f"{name:<36} {us:>11.2f} {gps:>9.0f} {run.decisions / run.games:>15.1f} "
            f"{run.chance_steps / run.games:>12.1f}"
        )
    if gin_name not in summaries:
        print("open_spiel is not installed here: run with the bench venv for the comparison")
        return
    gin_us = summaries[gin_name][1]
    print(f"\nratio of cost per seat decision, cardtable / open_spiel gin_rummy ({gin_us:.2f} us):")
    for name, (_, us, _) in summaries.items():
        if name != gin_name:
            print(f"  {name:<34} {us / gin_us:5.2f}x")


if __name__ == "__main__":
    main()
