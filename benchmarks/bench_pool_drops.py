"""Does dropping by the standing pay in Pool? Normal as it plays (``drop_threshold``: no drop
that reaches the pool limit, a drop sooner when a full count would reach it) against the same
Normal blind to the standing (its free-play drop rule), in seeded duplicate Pool games (each
seed played with the seats swapped), heads-up or at bigger tables.

    python -m benchmarks.bench_pool_drops --games 200 --preset pool-101 --players 2

It prints the standing-aware player's share of the wins with a 95% interval over the duplicate
pairs; it never fails on the result.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import statistics
from collections.abc import Sequence
from typing import Any

from cardtable.bots.indian_rummy import NormalBot
from cardtable.driver import play
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.games.indian_rummy.view import IndianRummyView
from cardtable.melds.indian import is_joker


class StandingBlindNormal(NormalBot):
    """Normal with the free-play drop rule: the standing never changes when it drops."""

    name = "normal-blind"

    def should_drop(self, view: IndianRummyView, cost: float) -> bool:
        if view.has_drawn[view.seat]:
            return False
        jokers = sum(1 for c in view.hand if is_joker(c, view.wild_rank))
        return jokers == 0 and cost >= self.drop_cost


def share_of(result_utilities: Sequence[float], seats: Sequence[int]) -> float:
    return sum(result_utilities[seat] for seat in seats)


def run(games: int, preset: str, players: int, seed: int) -> dict[str, Any]:
    rules = dataclasses.replace(PRESETS[preset], players=players)
    aware, blind = NormalBot(), StandingBlindNormal()
    pair_shares: list[float] = []
    for game in range(games):
        deal_seed = seed * 1_000_003 + game
        shares = []
        for swap in (False, True):
            # Seat 0 (and every other seat) alternates between the two players.
            seats = [aware if (seat % 2 == 0) != swap else blind for seat in range(players)]
            mine = [seat for seat in range(players) if seats[seat] is aware]
            played = play(ENGINE, rules, deal_seed, seats, rng=random.Random(deal_seed))
            result = ENGINE.result(played.state)
            assert result is not None
            # Normalised so that an even result is 0.5 whatever the seat split.
            shares.append(share_of(result.utilities, mine) * players / (2 * len(mine)))
        pair_shares.append(statistics.fmean(shares))
    mean = statistics.fmean(pair_shares)
    spread = statistics.stdev(pair_shares) if len(pair_shares) > 1 else 0.0
    half = 1.96 * spread / math.sqrt(len(pair_shares))
    return {
        "preset": preset,
        "players": players,
        "duplicate_pairs": len(pair_shares),
        "aware_share": mean,
        "interval": (mean - half, mean + half),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="duplicate pairs of games")
    parser.add_argument("--preset", default="pool-101", choices=("pool-101", "pool-201"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    row = run(args.games, args.preset, args.players, args.seed)
    low, high = row["interval"]
    print(
        f"{row['preset']} {row['players']} players, {row['duplicate_pairs']} duplicate pairs: "
        f"standing-aware Normal {100 * row['aware_share']:.1f}% of the wins "
        f"[{100 * low:.1f}, {100 * high:.1f}] against the standing-blind Normal"
    )


if __name__ == "__main__":
    main()
