"""Indecision speed: the hand scorer beside cribbage-scorer, and random playouts beside OpenSpiel.

(a) **Scorer.** Microseconds per 5-card hand, median of several runs over fixed seeded hands of
two kinds: uniformly random hands, and meld-rich hands drawn from a few adjacent ranks (pairs,
runs and bikes in most of them). Timed: ``IndecisionScorer.value`` (score and all-cards-used:
what the engine and bots call), ``score_hand`` (input check plus the full meld list), and,
when ``cribbage_scorer`` is importable, its ``show_calc_score`` on the same five cards (the
first as the starter, the other four as the hand). The scoring rules differ (cribbage counts
fifteens, nobs and its own runs and flushes), so this compares the cost of scoring one 5-card
hand in each library, not the results.

(b) **Playouts.** Whole default-rules games with every seat choosing uniformly among its legal
actions. Every step is counted: the cut, each hand's shuffle and deal, reshuffles, the random
choice and the scoring of each hand are all part of the cost. Reported: microseconds per seat
decision (all the work divided by the seat decisions) and games per second, for

* ``cardtable loop``: ``current_player`` / ``chance_step`` / ``legal_actions`` /
  ``apply_unchecked``, as a search bot drives the engine;
* ``cardtable driver``: :func:`cardtable.driver.play` with :class:`cardtable.bots.RandomBot`
  seats, which also builds each seat's view before it chooses;
* ``open_spiel gin_rummy``: ``pyspiel.load_game("gin_rummy")`` driven by the same loop from
  Python, chance outcomes sampled uniformly (the script first checks that every chance outcome
  it meets has equal probability, which holds for gin_rummy's deal and draws), when ``pyspiel``
  is importable.

Random Indecision hands are short (half of a seat's actions are stops, mostly invalid ones), so
the per-hand work (a shuffle, the deal, counting every hand) weighs on each decision. The script
prints medians and ratios and never fails on time.

Reproduce from the repository root (the other engines are timed beside ours when the
``bench`` extra is installed: ``make bench`` installs it)::

    .venv/bin/python -m benchmarks.bench_indecision
    .venv/bin/python -m benchmarks.bench_indecision --runs 5 --seconds 2
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.bots import RandomBot
from cardtable.driver import play
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indecision import ENGINE, Rules, score_hand
from cardtable.melds.indecision import IndecisionScorer

Hand = tuple[int, ...]


# -- (a) scorer --------------------------------------------------------------------------------


def random_hands(count: int, seed: int) -> list[Hand]:
    """Uniformly random 5-card hands."""
    rng = random.Random(seed)
    return [tuple(rng.sample(range(52), 5)) for _ in range(count)]


def meld_rich_hands(count: int, seed: int) -> list[Hand]:
    """Hands drawn from 3-6 adjacent ranks of all suits: pairs, runs and bikes are common."""
    rng = random.Random(seed)
    hands = []
    for _ in range(count):
        low = rng.randrange(13)
        width = rng.choice((3, 4, 5, 6))
        pool = [suit * 13 + (low + i) % 13 for i in range(width) for suit in range(4)]
        hands.append(tuple(rng.sample(pool, 5)))
    return hands


def _us_per_hand(score: Callable[[Any], object], hands: Sequence[Any]) -> float:
    start = time.perf_counter()
    for hand in hands:
        score(hand)
    return (time.perf_counter() - start) / len(hands) * 1e6


def _cribbage_cards(hand: Hand) -> tuple[tuple[int, str], list[tuple[int, str]]]:
    cards = [(card % 13 + 1, "SHDC"[card // 13]) for card in hand]
    return cards[0], cards[1:]


def _show_score(cribbage: Any) -> Callable[[Any], object]:
    show = cribbage.show_calc_score

    def score(cards: tuple[tuple[int, str], list[tuple[int, str]]]) -> object:
        return show(cards[0], cards[1])

    return score


def bench_scorer(count: int, runs: int) -> None:
    scorer = IndecisionScorer()
    try:
        cribbage: Any = importlib.import_module("cribbage_scorer.cribbage_scorer")
    except ImportError:
        cribbage = None
    print(
        f"(a) scorer: microseconds per 5-card hand, median of {runs} interleaved runs "
        f"over {count} hands"
    )
    header = f"  {'hands':<11}{'value':>9}{'score_hand':>12}"
    if cribbage is not None:
        header += f"{'cribbage show_calc_score':>26}{'ratio (value)':>15}{'ratio (score_hand)':>20}"
    print(header)
    for name, hands in (
        ("random", random_hands(count, 1)),
        ("meld-rich", meld_rich_hands(count, 2)),
    ):
        contenders: list[tuple[Callable[[Any], object], Sequence[Any]]] = [
            (scorer.value, hands),
            (score_hand, hands),
        ]
        if cribbage is not None:
            contenders.append((_show_score(cribbage), [_cribbage_cards(h) for h in hands]))
        # Runs interleave the contenders so that a busy machine slows them alike.
        times: list[list[float]] = [[] for _ in contenders]
        for _ in range(runs):
            for index, (score, inputs) in enumerate(contenders):
                times[index].append(_us_per_hand(score, inputs))
        medians = [statistics.median(t) for t in times]
        fast, full = medians[0], medians[1]
        line = f"  {name:<11}{fast:>9.2f}{full:>12.2f}"
        if cribbage is not None:
            other = medians[2]
            line += f"{other:>26.2f}{other / fast:>14.1f}x{other / full:>19.1f}x"
        print(line)
    if cribbage is None:
        print("  (cribbage_scorer not importable: run with the bench venv for the comparison)")


# -- (b) playouts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Run:
    """Totals of one timed run of playouts."""

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
    """Random playouts through the engine's fast path."""
    rules = Rules(players=players)
    rng = random.Random(seed)
    current = ENGINE.current_player
    chance = ENGINE.chance_step
    legal_of = ENGINE.legal_actions
    apply = ENGINE.apply_unchecked
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = ENGINE.new_game(rules, seed + games)
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
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def cardtable_driver(players: int, seconds: float, seed: int) -> Run:
    """Random playouts through the driver, with views built for the bots."""
    rules = Rules(players=players)
    bots = [RandomBot() for _ in range(players)]
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = play(ENGINE, rules, seed + games, bots)
        games += 1
        decisions += len(game.actions)
        chance_steps += game.chance_steps
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def _check_uniform_chance(pyspiel: Any, seed: int) -> None:
    """Play a few gin_rummy games and fail loudly if a chance node is not uniform."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    for _ in range(5):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                probabilities = {round(p, 12) for _, p in outcomes}
                if len(probabilities) != 1:
                    raise SystemExit("gin_rummy chance outcomes are not uniform: fix the sampler")
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])


def open_spiel_loop(pyspiel: Any, seconds: float, seed: int) -> Run:
    """Random gin_rummy playouts driven the same way from Python."""
    game = pyspiel.load_game("gin_rummy")
    rng = random.Random(seed)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance_steps += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
    return Run(games, decisions, chance_steps, time.perf_counter() - start)


def _bind(
    loop: Callable[[int, float, int], Run], players: int, seconds: float
) -> Callable[[int], Run]:
    def run(index: int) -> Run:
        return loop(players, seconds, 1000 * index)

    return run


def _median_run(runs: list[Run]) -> tuple[float, float, float, float]:
    """Median µs per decision and games per second, and mean decisions / chance steps per game."""
    games = sum(r.games for r in runs)
    return (
        statistics.median(r.us_per_decision for r in runs),
        statistics.median(r.games_per_second for r in runs),
        sum(r.decisions for r in runs) / games,
        sum(r.chance_steps for r in runs) / games,
    )


def bench_playouts(players_list: Sequence[int], runs: int, seconds: float) -> None:
    try:
        pyspiel: Any = importlib.import_module("pyspiel")
    except ImportError:
        pyspiel = None
    print(
        f"(b) random playouts: median of {runs} interleaved runs of {seconds:g} s; "
        "us per seat decision includes chance steps and the random choice"
    )
    print(
        f"  {'loop':<30}{'us/decision':>12}{'games/s':>10}{'decisions/game':>16}{'chance/game':>13}"
    )
    loops: list[tuple[str, Callable[[int], Run]]] = []
    if pyspiel is not None:
        _check_uniform_chance(pyspiel, 7)
        loops.append(
            ("open_spiel gin_rummy (2p)", lambda i: open_spiel_loop(pyspiel, seconds, 100 + i))
        )
    for players in players_list:
        loops.append((f"cardtable loop ({players}p)", _bind(cardtable_loop, players, seconds)))
        loops.append((f"cardtable driver ({players}p)", _bind(cardtable_driver, players, seconds)))
    # Runs interleave the loops so that a busy machine slows them alike.
    results: list[list[Run]] = [[] for _ in loops]
    for i in range(runs):
        for index, (_, loop) in enumerate(loops):
            results[index].append(loop(i))
    reference = _median_run(results[0])[0] if pyspiel is not None else None
    for (label, _), runs_of_loop in zip(loops, results, strict=True):
        figures = _median_run(runs_of_loop)
        line = (
            f"  {label:<30}{figures[0]:>12.2f}{figures[1]:>10.0f}"
            f"{figures[2]:>16.1f}{figures[3]:>13.1f}"
        )
        if reference is not None and not label.startswith("open_spiel"):
            line += f"   {figures[0] / reference:.2f}x open_spiel's cost"
        print(line)
    if pyspiel is None:
        print("  (pyspiel not importable: run with the bench venv for the comparison)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20000, help="hands per scorer run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--skip-playouts", action="store_true")
    args = parser.parse_args(argv)
    bench_scorer(args.hands, args.runs)
    if not args.skip_playouts:
        print()
        bench_playouts(args.players, args.runs, args.seconds)


if __name__ == "__main__":
    main()
