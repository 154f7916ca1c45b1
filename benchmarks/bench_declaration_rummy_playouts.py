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
length, so both see the same load on a shared machine; medians of the runs and of the paired
ratios are printed. The script never fails on time.

Reproduce (from the repository root; the second form adds OpenSpiel)::

    .venv/bin/python -m benchmarks.bench_declaration_rummy_playouts
    /tmp/benchvenv/bin/python -m benchmarks.bench_declaration_rummy_playouts --runs 5 --seconds 0.5
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


def paired(
    measure: Callable[[int], Run], gin: Callable[[int], Run | None], runs: int
) -> tuple[float, float | None, Run]:
    """Median microseconds per decision over ``runs`` runs, and the median ratio to gin_rummy.

    Each of our runs is followed by a gin_rummy run of the same length, so both see the same
    machine load (the machine may be shared) and the ratio stays meaningful.
    """
    ours: list[Run] = []
    ratios: list[float] = []
    for index in range(runs):
        run = measure(index)
        ours.append(run)
        reference = gin(index)
        if reference is not None:
            ratios.append(run.us_per_decision / reference.us_per_decision)
    ours.sort(key=lambda r: r.us_per_decision)
    return (
        statistics.median(r.us_per_decision for r in ours),
        statistics.median(ratios) if ratios else None,
        ours[len(ours) // 2],
    )


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
        f"{'engine':<40} {'us/decision':>11} {'vs gin':>7} {'decisions/game':>15} "
        f"{'chance/game':>12}"
    )
    gin_figures: list[float] = []
    for optional, label in (((), "no optional cards"), (ALL_OPTIONAL, "all optional cards")):
        for players in (2, 4, 10):
            rules = Rules(players=players, optional_cards=optional)
            for loop_name, loop in (("loop", cardtable_loop), ("driver", cardtable_driver)):
                us, ratio, run = paired(
                    lambda i, loop=loop, rules=rules: loop(  # type: ignore[misc]
                        rules, args.seconds, args.seed + 1000 * i
                    ),
                    gin,
                    args.runs,
                )
                shown = f"{ratio:.2f}x" if ratio is not None else "-"
                print(
                    f"{loop_name + f' {players:>2}p, ' + label:<40} {us:>11.2f} {shown:>7} "
                    f"{run.decisions / run.games:>15.1f} {run.chance_steps / run.games:>12.1f}"
                )
    reference = [r for r in (gin(i) for i in range(args.runs)) if r is not None]
    if not reference:
        print("open_spiel is not installed here: run with the bench venv for the comparison")
        return
    gin_figures = sorted(r.us_per_decision for r in reference)
    middle = reference[len(reference) // 2]
    print(
        f"{'open_spiel gin_rummy 2p':<40} {statistics.median(gin_figures):>11.2f} "
        f"{'1.00x':>7} {middle.decisions / middle.games:>15.1f} "
        f"{middle.chance_steps / middle.games:>12.1f}"
    )
    print("vs gin: median over the paired runs of (ours / gin_rummy) microseconds per decision")


if __name__ == "__main__":
    main()
