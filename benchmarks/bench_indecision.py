"""Indecision speed: the hand scorer beside cribbage-scorer, and random playouts beside OpenSpiel.

(a) **Scorer.** Microseconds per 5-card hand, median of several runs over fixed seeded hands of
two kinds: uniformly random hands, and meld-rich hands drawn from a few adjacent ranks (pairs,
runs and bikes in most of them). Timed: ``IndecisionScorer.value`` (score and all-cards-used:
what the engine and bots call), ``score_hand`` (input check plus the full meld list), the
same on its first pass (a fresh scorer that has kept no meld list yet: the ones it builds
are reused by the later hands of the pass, as in a long-running process), and,
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
    .venv/bin/python -m benchmarks.bench_indecision --skip-playouts --cpu-time --runs 7

``--cpu-time`` times the scorers in the process's CPU time rather than the wall clock, which
leaves out the time other processes held the processor on a shared machine.
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.common import gin_random_hands
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
from cardtable.games.indecision import ENGINE, Rules, score_hand
from cardtable.melds.indecision import IndecisionScorer

Hand = tuple[int, ...]


# -- (a) scorer --------------------------------------------------------------------------------


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


_clock: Callable[[], float] = time.perf_counter
"""The scorer's clock: the wall clock, or the process's CPU time with ``--cpu-time``."""


def _us_per_hand(score: Callable[[Any], object], hands: Sequence[Any]) -> float:
    start = _clock()
    for hand in hands:
        score(hand)
    return (_clock() - start) / len(hands) * 1e6


def _cribbage_cards(hand: Hand) -> tuple[tuple[int, str], list[tuple[int, str]]]:
    cards = [(card % 13 + 1, "SHDC"[card // 13]) for card in hand]
    return cards[0], cards[1:]


def _show_score(cribbage: Any) -> Callable[[Any], object]:
    show = cribbage.show_calc_score

    def score(cards: tuple[tuple[int, str], list[tuple[int, str]]]) -> object:
        return show(cards[0], cards[1])

    return score


def _first_pass(hands: Sequence[Any]) -> float:
    """``count`` on a fresh scorer that has remembered no meld yet (built before the clock)."""
    return _us_per_hand(IndecisionScorer().count, hands)


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
    header = f"  {'hands':<11}{'value':>9}{'score_hand':>12}{'first pass':>12}"
    if cribbage is not None:
        header += (
            f"{'cribbage':>10}{'cribbage/value':>16}{'cribbage/score_hand':>21}"
            f"{'cribbage/first pass':>21}"
        )
    print(header)
    for name, hands in (
        ("random", gin_random_hands(1, 5, count)),
        ("meld-rich", meld_rich_hands(count, 2)),
    ):
        measures: list[Callable[[int], float]] = [
            lambda _, hands=hands: _us_per_hand(scorer.value, hands),
            lambda _, hands=hands: _us_per_hand(score_hand, hands),
            lambda _, hands=hands: _first_pass(hands),
        ]
        if cribbage is not None:
            show = _show_score(cribbage)
            inputs = [_cribbage_cards(h) for h in hands]
            measures.append(lambda _, show=show, inputs=inputs: _us_per_hand(show, inputs))
        medians = [statistics.median(t) for t in interleave(measures, runs)]
        fast, full, first = medians[:3]
        line = f"  {name:<11}{fast:>9.2f}{full:>12.2f}{first:>12.2f}"
        if cribbage is not None:
            other = medians[3]
            line += (
                f"{other:>10.2f}{other / fast:>15.1f}x{other / full:>20.1f}x{other / first:>20.1f}x"
            )
        print(line)
    if cribbage is None:
        print("  (cribbage_scorer not importable: install the bench extra for the comparison)")


# -- (b) playouts --------------------------------------------------------------------------------


def bench_playouts(players_list: Sequence[int], runs: int, seconds: float) -> None:
    print(
        f"(b) random playouts: median of {runs} interleaved runs of {seconds:g} s; "
        "us per seat decision includes chance steps and the random choice"
    )
    print(f"  {'loop':<30}{TABLE_HEADER}")
    contenders: list[tuple[str, Callable[[int], Run | None]]] = [
        ("open_spiel gin_rummy (2p)", lambda i: openspiel_gin_playouts(seconds, 100 + i)),
    ]
    for players in players_list:
        rules = Rules(players=players)
        seats = [RandomBot() for _ in range(players)]
        contenders += [
            (
                f"cardtable loop ({players}p)",
                lambda i, rules=rules: engine_playouts(ENGINE, rules, seconds, 1000 * i),
            ),
            (
                f"cardtable driver ({players}p)",
                lambda i, rules=rules, seats=seats: driver_playouts(
                    ENGINE, rules, seconds, 1000 * i, seats
                ),
            ),
        ]
    results = interleave([measure for _, measure in contenders], runs)
    summaries = [summarize(runs_of_one) for runs_of_one in results]
    reference = summaries[0]
    for (label, _), summary in zip(contenders, summaries, strict=True):
        if summary is None:
            continue
        line = f"  {label:<30}{table_row(summary)}"
        if reference is not None and summary is not reference:
            line += f"   {summary.median_us / reference.median_us:.2f}x open_spiel's cost"
        print(line)
    if reference is None:
        print("  (pyspiel not importable: install the bench extra for the comparison)")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--hands", type=int, default=20000, help="hands per scorer run")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per playout run")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--skip-playouts", action="store_true")
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time the scorers in CPU time (steadier on a shared machine)",
    )
    args = parser.parse_args(argv)
    if args.cpu_time:
        global _clock
        _clock = time.process_time
    bench_scorer(args.hands, args.runs)
    if not args.skip_playouts:
        print()
        bench_playouts(args.players, args.runs, args.seconds)


if __name__ == "__main__":
    main()
