"""Speed of the Declaration Rummy count and going-out solver (cardtable.melds.declaration).

Times ``dr_count`` and ``dr_can_go_out`` (base rule and Going Out Major or Minor) over fixed,
seeded hand sets: random deals of 2, 5, 7 and 10 cards plus the drawn card, from the 52 regular
cards alone and from the pack with all twelve optional cards, and meld-rich hands (neighbouring
ranks in a few suits, with wildcards). Each hand is timed over several calls; the table shows
the median microseconds per hand and, for a sample, the brute-force reference's median and how
many times slower it is. It never fails on time.

Reproduce (from the repository root)::

    .venv/bin/python -m benchmarks.bench_declaration_rummy
    .venv/bin/python -m benchmarks.bench_declaration_rummy --hands 500 --seed 7 --no-reference
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Sequence

from cardtable.cards import DECLARATION_RUMMY_DECK, WILDCARD, Card
from cardtable.melds.declaration import dr_can_go_out, dr_count

REGULAR_PACK: tuple[Card, ...] = tuple(range(52))
FULL_PACK: tuple[Card, ...] = DECLARATION_RUMMY_DECK.cards()
CALLS_PER_HAND = 5
REFERENCE_SAMPLE = 100

Dealer = Callable[[random.Random], tuple[Card, ...]]


def _deal_from(pack: Sequence[Card], size: int) -> Dealer:
    def deal(rng: random.Random) -> tuple[Card, ...]:
        return tuple(rng.sample(pack, size))

    return deal


def _meld_rich(size: int) -> Dealer:
    def deal(rng: random.Random) -> tuple[Card, ...]:
        low = rng.randrange(0, 8)
        suits = rng.sample(range(4), 3)
        pool = [suit * 13 + rank for suit in suits for rank in range(low, low + 5)]
        pool += [WILDCARD] * rng.randint(0, 3)
        return tuple(rng.sample(pool, size))

    return deal


def hand_sets() -> list[tuple[str, Dealer]]:
    """The named hand sets: deal size + 1 drawn card, regular or full pack; meld-rich."""
    sets: list[tuple[str, Dealer]] = []
    for dealt in (2, 5, 7, 10):
        sets.append((f"{dealt}+1 regular", _deal_from(REGULAR_PACK, dealt + 1)))
        sets.append((f"{dealt}+1 all optional", _deal_from(FULL_PACK, dealt + 1)))
    sets.append(("8 meld-rich", _meld_rich(8)))
    sets.append(("11 meld-rich", _meld_rich(11)))
    sets.append(("13 meld-rich", _meld_rich(13)))
    return sets


def median_us(
    function: Callable[[tuple[Card, ...]], object],
    hands: Sequence[tuple[Card, ...]],
    calls: int = CALLS_PER_HAND,
) -> float:
    """Median over hands of the mean time of ``calls`` calls, in microseconds."""
    clock = time.perf_counter
    per_hand: list[float] = []
    for hand in hands:
        start = clock()
        for _ in range(calls):
            function(hand)
        per_hand.append((clock() - start) / calls * 1e6)
    return statistics.median(per_hand)


def _single_meld(hand: tuple[Card, ...]) -> bool:
    return dr_can_go_out(hand, single_meld=True)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands per set (default 2000)")
    parser.add_argument("--seed", type=int, default=2024, help="deal seed (default 2024)")
    parser.add_argument("--no-reference", action="store_true", help="skip the brute force")
    args = parser.parse_args(argv)

    reference: Callable[[tuple[Card, ...]], object] | None = None
    if not args.no_reference:
        from tests.reference.brute_declaration import brute_count

        reference = brute_count

    header = f"{'hand set':<20} {'dr_count':>9} {'go out':>9} {'1 meld':>9}"
    if reference is not None:
        header += f" {'brute':>10} {'brute/dr':>9}"
    print("Declaration Rummy solver: median µs per hand")
    print(header)
    for name, dealer in hand_sets():
        rng = random.Random(f"{args.seed}-{name}")
        hands = [dealer(rng) for _ in range(args.hands)]
        for hand in hands:  # warm the per-suit sequence tables, as in a running game
            dr_count(hand)
            dr_can_go_out(hand)
        count = median_us(dr_count, hands)
        go_out = median_us(dr_can_go_out, hands)
        single = median_us(_single_meld, hands)
        line = f"{name:<20} {count:>9.1f} {go_out:>9.1f} {single:>9.1f}"
        if reference is not None:
            sample = hands[:REFERENCE_SAMPLE]
            brute = median_us(reference, sample, calls=1)
            line += f" {brute:>10.1f} {brute / median_us(dr_count, sample):>8.0f}x"
        print(line)


if __name__ == "__main__":
    main()
