"""CPU time per seat decision of the three engines, for comparing two versions of the code.

Seeded random playouts (every seat picks uniformly among its legal actions, with its own
``random.Random``) driven through ``current_player`` / ``chance_step`` / ``legal_actions`` /
``apply_unchecked``. The clock is the process's CPU time (``time.process_time``), not the wall
clock, so other processes on a shared machine weigh less on the figure; the best of several
repeats over the same seeds is printed. Compare two checkouts by running the script with each
one's ``src`` first on ``PYTHONPATH``, alternating a few times::

    .venv/bin/python -m benchmarks.bench_engines_cpu
    PYTHONPATH=/path/to/other/checkout/src .venv/bin/python -m benchmarks.bench_engines_cpu

The seats of these playouts pick among every legal action, so most Indian Rummy games end after
a few decisions with a drop or a wrong show and the deal's own cost (shuffle, dealing, scoring)
weighs on the figure. ``--full-length`` adds full-length Indian Rummy games, whose seats never
drop and show only when the show is valid (:func:`cardtable.playouts.random_playouts`), where
the cost of a turn weighs most. It never fails on time.
"""

from __future__ import annotations

import argparse
import random
import time
from typing import Any

from cardtable.driver import advance
from cardtable.games.contract import TERMINAL
from cardtable.playouts import random_playouts
from cardtable.registry import get_engine

GAMES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("indecision", 40, {}),
    ("indian-rummy", 600, {"deals": 1}),
    ("declaration-rummy", 300, {}),
)
"""Game, playouts per repeat (about 1,500-6,000 decisions each), rule options."""


def playout(engine: Any, rules: Any, seed: int) -> int:
    """Play one seeded random game; return its number of seat decisions."""
    rng = random.Random(seed)
    state, _ = advance(engine, engine.new_game(rules, seed))
    decisions = 0
    while (seat := engine.current_player(state)) != TERMINAL:
        legal = engine.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, _ = advance(engine, engine.apply_unchecked(state, action, seat))
        decisions += 1
    return decisions


FULL_LENGTH: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("indian-rummy", 20, {"deals": 1, "players": 2}),
    ("indian-rummy", 20, {"deals": 1, "players": 4}),
)
"""Game, full-length playouts per repeat (about 16,000 decisions each), rule options."""


def full_length(repeats: int) -> None:
    """Full-length games of :func:`cardtable.playouts.random_playouts` (no Indian Rummy drop
    or wrong show, so a deal runs to a valid show or the turn cap), the same seeds each repeat;
    here the cost of a turn outweighs the cost of a deal."""
    for name, games, options in FULL_LENGTH:
        engine = get_engine(name)
        rules = engine.rules_type(**options)
        best = float("inf")
        decisions = 0
        for _ in range(repeats):
            start = time.process_time()
            decisions = random_playouts(engine, rules, 2024, games=games).decisions
            best = min(best, time.process_time() - start)
        label = f"{name} {rules.players}p full"
        print(f"{label:18} {best / decisions * 1e6:6.2f} us CPU per decision ({decisions})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="repeats per game (best kept)")
    parser.add_argument(
        "--full-length",
        action="store_true",
        help="also time full-length Indian Rummy playouts (cardtable.playouts' seats)",
    )
    args = parser.parse_args()
    if args.full_length:
        full_length(args.repeats)
    for name, games, options in GAMES:
        engine = get_engine(name)
        rules = engine.rules_type(**options)
        best = float("inf")
        decisions = 0
        for _ in range(args.repeats):
            start = time.process_time()
            decisions = sum(playout(engine, rules, seed) for seed in range(games))
            best = min(best, time.process_time() - start)
        print(f"{name:18} {best / decisions * 1e6:6.2f} us CPU per decision ({decisions})")


if __name__ == "__main__":
    main()
