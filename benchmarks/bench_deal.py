"""CPU time of a new game and its deal: ``new_game`` plus every chance step up to the first
seat decision, for each game, and the parts every deal pays for.

Research environments start a new game every few steps (random Indian Rummy and Declaration
Rummy games end within 2.5-3 steps), so this cost bounds their steps per second. Each line
plays the same seeds in every repeat and prints the best and the median repeat, in
microseconds of the process's CPU time (``time.process_time``) per game. The parts: one
:func:`~cardtable.games.contract.chance_rng` (a generator seeded from a string, one per chance
step), :func:`~cardtable.cards.shuffled` of the 52 and 106 card packs, and
:func:`~cardtable.cards.shuffle_in_place` of 52 cards (Indecision's shuffle; ``rng.shuffle``
in a checkout from before it).

Compare two checkouts by running the script with each one's ``src`` first on ``PYTHONPATH``,
alternating a few times (every line prints the load average it started at)::

    .venv/bin/python -m benchmarks.bench_deal
    PYTHONPATH=/path/to/other/checkout/src .venv/bin/python -m benchmarks.bench_deal

It never fails on time.
"""

from __future__ import annotations

import argparse
import functools
import os
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from cardtable.cards import shuffled
from cardtable.games.contract import CHANCE, chance_rng
from cardtable.registry import get_engine

LINES: tuple[tuple[str, int], ...] = (
    ("indecision", 2),
    ("indian-rummy", 2),
    ("declaration-rummy", 2),
    ("declaration-rummy", 4),
    ("declaration-rummy", 10),
)
"""Game and players of each line."""


def deal_games(engine: Any, rules: Any, seeds: range) -> None:
    """New games from ``seeds``, each run to its first seat decision."""
    new_game, current, chance = engine.new_game, engine.current_player, engine.chance_step
    for seed in seeds:
        state = new_game(rules, seed)
        while current(state) == CHANCE:
            state = chance(state)


def timed(work: Callable[[], None], count: int, repeats: int) -> tuple[float, float]:
    """Best and median CPU microseconds per item of ``repeats`` runs of ``work``."""
    runs = []
    for _ in range(repeats):
        start = time.process_time()
        work()
        runs.append((time.process_time() - start) / count * 1e6)
    return min(runs), statistics.median(runs)


def indecision_shuffle() -> Callable[[list[int], random.Random], None]:
    """The checkout's Indecision shuffle: ``shuffle_in_place``, or ``rng.shuffle`` in a checkout
    from before it."""
    try:
        from cardtable.cards import shuffle_in_place
    except ImportError:
        return lambda cards, rng: rng.shuffle(cards)
    return shuffle_in_place


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per repeat")
    parser.add_argument("--repeats", type=int, default=7, help="repeats per line")
    args = parser.parse_args()
    games = range(1, args.games + 1)
    print(f"microseconds of CPU per game, best and median of {args.repeats} repeats")
    for name, players in LINES:
        engine = get_engine(name)
        rules = engine.rules_type(players=players)
        deal_games(engine, rules, range(200))  # warm up (caches, first imports)
        work = functools.partial(deal_games, engine, rules, games)
        best, median = timed(work, len(games), args.repeats)
        load = os.getloadavg()[0]
        label = f"{name} {players}p new game + deal"
        print(f"{label:40} best {best:6.1f}  median {median:6.1f}  (load {load:.2f})")
    rng = random.Random(3)
    count = 2000
    shuffle = indecision_shuffle()
    parts: tuple[tuple[str, Callable[[], None]], ...] = (
        ("chance_rng", lambda: [chance_rng(seed, 1) for seed in range(count)] and None),
        ("shuffled, 52 cards", lambda: [shuffled(range(52), rng) for _ in range(count)] and None),
        (
            "shuffled, 106 cards",
            lambda: [shuffled(range(106), rng) for _ in range(count)] and None,
        ),
        (
            "shuffle_in_place, 52 cards",
            lambda: [shuffle(list(range(52)), rng) for _ in range(count)] and None,
        ),
    )
    for label, work in parts:
        best, median = timed(work, count, args.repeats)
        print(f"{label:40} best {best:6.1f}  median {median:6.1f}")


if __name__ == "__main__":
    main()
