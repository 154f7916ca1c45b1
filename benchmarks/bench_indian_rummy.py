"""Indian Rummy meld search speed: counting 13 cards and finding the show in 14.

Hand sets (fixed seeds, each hand with its own random wild rank or none): random deals from
the 106-card pack, and meld-rich hands built from runs of 3-6 and sets of 3-4 (overlaps give
two-deck duplicates) with a few strays and printed jokers, of 13 and of 14 cards.

Timed per hand, median (and 90th percentile, mean) microseconds per call:

* 13 cards: ``scoring.arrange`` (the public call: input checks, best arrangement by category,
  groups with what each joker stands for, the valid-show flag), ``melds.indian.raw_points``
  (the count alone, what the engine and the bots call) and ``melds.indian.is_valid_show``;
* 14 cards: ``scoring.show_discards`` and ``melds.indian.show_discards``: the distinct cards
  whose put-down leaves a valid show, in one search.

Every call starts from scratch: nothing is cached between calls except a table of how spare
jokers can be laid, a function of a few small numbers (never of the hand). With
``--reference N`` the brute-force reference of the tests runs on the first N hands of each set
for scale. It never fails on time.

Reproduce from the repository root::

    .venv/bin/python -m benchmarks.bench_indian_rummy
    .venv/bin/python -m benchmarks.bench_indian_rummy --hands 1000 --reference 30
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable, Sequence
from typing import Any

from benchmarks.common import (
    Hand,
    format_row,
    indian_meld_rich_hands,
    indian_random_hands,
    time_side_by_side,
)
from cardtable.games.indian_rummy import scoring
from cardtable.melds import indian

Deal = tuple[Hand, int | None]


def _call(function: Callable[[Hand, int | None], Any]) -> Callable[[Deal], Any]:
    def call(deal: Deal) -> Any:
        return function(deal[0], deal[1])

    return call


def run(hand_count: int, seed: int, reference: int) -> None:
    hand_sets = [
        ("random 13", indian_random_hands(seed, 13, hand_count)),
        ("meld-rich 13", indian_meld_rich_hands(seed + 1, 13, hand_count)),
        ("random 14", indian_random_hands(seed + 2, 14, hand_count)),
        ("meld-rich 14", indian_meld_rich_hands(seed + 3, 14, hand_count)),
    ]
    thirteen: list[tuple[str, Callable[[Deal], Any]]] = [
        ("scoring.arrange", _call(scoring.arrange)),
        ("indian.raw_points", _call(indian.raw_points)),
        ("indian.is_valid_show", _call(indian.is_valid_show)),
    ]
    fourteen: list[tuple[str, Callable[[Deal], Any]]] = [
        ("scoring.show_discards", _call(scoring.show_discards)),
        ("indian.show_discards", _call(indian.show_discards)),
    ]
    brute: Any = None
    if reference:
        brute = importlib.import_module("tests.reference.brute_indian")
        thirteen.append(("brute-force points (sample)", _call(brute.brute_points)))
        fourteen.append(("brute-force discards (sample)", _call(brute.brute_show_discards)))
    print(f"Indian Rummy meld search, {hand_count} hands per set, microseconds per call")
    widths = (13, 30, 9, 9, 9)
    print(format_row(("set", "call", "median", "p90", "mean"), widths))
    for name, deals in hand_sets:
        contenders = thirteen if len(deals[0][0]) == 13 else fourteen
        fast = [c for c in contenders if not c[0].startswith("brute")]
        timings = time_side_by_side(fast, [deals] * len(fast), loops=3, repeats=3)
        for contender, timing in timings.items():
            print(format_row((name, contender, timing.median, timing.p90, timing.mean), widths))
        slow = [c for c in contenders if c[0].startswith("brute")]
        if slow:
            sample: Sequence[Deal] = deals[:reference]
            slow_timing = time_side_by_side(slow, [sample], loops=1, repeats=1)
            for contender, timing in slow_timing.items():
                print(format_row((name, contender, timing.median, timing.p90, timing.mean), widths))
        if len(deals[0][0]) == 13:
            shows = sum(indian.is_valid_show(hand, wild) for hand, wild in deals)
        else:
            shows = sum(bool(indian.show_discards(hand, wild)) for hand, wild in deals)
        print(f"  hands with a valid show: {shows} of {len(deals)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=500, help="hands per set (500)")
    parser.add_argument("--seed", type=int, default=2024, help="seed of the hand sets (2024)")
    parser.add_argument(
        "--reference", type=int, default=0, help="also time the brute force on N hands per set"
    )
    arguments = parser.parse_args()
    run(arguments.hands, arguments.seed, arguments.reference)


if __name__ == "__main__":
    main()
