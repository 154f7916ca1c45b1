"""Does dropping by the standing pay in Pool? Two players in seeded duplicate Pool games (each
seed played with the seats swapped), heads-up or at bigger tables, half the seats each.

The players:

* ``normal``, ``hard``: the levels as they play (Pool drops by
  :mod:`cardtable.bots.indian_standing`);
* ``normal-points``: Normal forecasting its counts by the points held, as Hard does;
* ``normal-previous``, ``hard-previous``: the levels with the Pool drop rule they had before
  the standing decided it: a drop only at the first turn, by the free-play threshold, never
  when the drop itself reaches the limit, sooner (0.75 of it) when a full count would;
* ``normal-blind``: Normal with the free-play drop rule whatever the standing.

    python -m benchmarks.bench_pool_drops --a normal --b normal-previous --games 200
    python -m benchmarks.bench_pool_drops --a hard --b normal --games 100 --out pairs.jsonl

It prints A's share of the wins with a 95% interval over the duplicate pairs (a pair scores
0.5 when the two players' choices never differed); ``--out`` appends every finished pair as a
JSON line, so that a long run stopped early keeps what it played. It never fails on the result.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

from cardtable.bots.indian_rummy import HardBot, NormalBot
from cardtable.driver import play
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.games.indian_rummy.view import IndianRummyView
from cardtable.melds.indian import is_joker

PREVIOUS_NEAR_LIMIT = 0.75


def _first_turn_drop(view: IndianRummyView, cost: float, threshold: float) -> bool:
    if view.has_drawn[view.seat]:
        return False
    jokers = sum(1 for c in view.hand if is_joker(c, view.wild_rank))
    return jokers == 0 and cost >= threshold


def previous_threshold(view: IndianRummyView, base: float) -> float:
    """The Pool drop threshold before the standing decided drops (see the module docstring)."""
    rules = view.rules
    total = view.totals[view.seat]
    if total + rules.first_drop >= rules.pool_limit:
        return float("inf")
    full = rules.max_points if rules.max_points is not None else rules.wrong_show_penalty
    return base * PREVIOUS_NEAR_LIMIT if total + full >= rules.pool_limit else base


class StandingBlindNormal(NormalBot):
    """Normal with the free-play drop rule: the standing never changes when it drops."""

    name = "normal-blind"

    def should_drop(self, view: IndianRummyView, cost: float) -> bool:
        return _first_turn_drop(view, cost, self.drop_cost)


class PreviousNormal(NormalBot):
    """Normal with its previous Pool drop rule (see the module docstring)."""

    name = "normal-previous"

    def should_drop(self, view: IndianRummyView, cost: float) -> bool:
        return _first_turn_drop(view, cost, previous_threshold(view, self.drop_cost))


class PreviousHard(HardBot):
    """Hard with its previous Pool drop rule (its draw was Normal's, so the same rule)."""

    name = "hard-previous"

    def __init__(self) -> None:
        super().__init__()
        normal = self.normal
        self.normal = PreviousNormal(greedy=normal.greedy)


PLAYERS: dict[str, Callable[[], Any]] = {
    "normal": NormalBot,
    "hard": HardBot,
    "normal-points": lambda: NormalBot(count_by_points=True),
    "normal-previous": PreviousNormal,
    "hard-previous": PreviousHard,
    "normal-blind": StandingBlindNormal,
}


def share_of(result_utilities: Sequence[float], seats: Sequence[int]) -> float:
    return sum(result_utilities[seat] for seat in seats)


def play_pair(rules: Any, players: int, deal_seed: int, a: Any, b: Any) -> dict[str, Any]:
    """One duplicate pair: the same seed with A on the even seats, then on the odd ones."""
    shares = []
    moves = []
    for swap in (False, True):
        seats = [a if (seat % 2 == 0) != swap else b for seat in range(players)]
        mine = [seat for seat in range(players) if seats[seat] is a]
        played = play(ENGINE, rules, deal_seed, seats, rng=random.Random(deal_seed))
        result = ENGINE.result(played.state)
        assert result is not None
        # Normalised so that an even result is 0.5 whatever the seat split.
        shares.append(share_of(result.utilities, mine) * players / (2 * len(mine)))
        moves.append(played.actions)
    same = moves[0] == moves[1] and players == 2
    return {"seed": deal_seed, "share": 0.5 if same else statistics.fmean(shares)}


def summary(pair_shares: Sequence[float]) -> tuple[float, float, float]:
    """The mean pair score and its 95% interval (normal approximation)."""
    mean = statistics.fmean(pair_shares)
    spread = statistics.stdev(pair_shares) if len(pair_shares) > 1 else 0.0
    half = 1.96 * spread / math.sqrt(len(pair_shares))
    return mean, mean - half, mean + half


def run(
    games: int,
    preset: str,
    players: int,
    seed: int,
    a_name: str = "normal",
    b_name: str = "normal-blind",
    out: str | None = None,
) -> dict[str, Any]:
    rules = dataclasses.replace(PRESETS[preset], players=players)
    a, b = PLAYERS[a_name](), PLAYERS[b_name]()
    pair_shares: list[float] = []
    started = time.perf_counter()
    for game in range(games):
        pair = play_pair(rules, players, seed * 1_000_003 + game, a, b)
        pair_shares.append(pair["share"])
        if out is not None:
            with open(out, "a", encoding="utf-8") as handle:
                handle.write(json.dumps({"a": a_name, "b": b_name, **pair}) + "\n")
    mean, low, high = summary(pair_shares)
    return {
        "preset": preset,
        "players": players,
        "a": a_name,
        "b": b_name,
        "duplicate_pairs": len(pair_shares),
        "a_share": mean,
        "interval": (low, high),
        "seconds": time.perf_counter() - started,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="duplicate pairs of games")
    parser.add_argument("--preset", default="pool-101", choices=("pool-101", "pool-201"))
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--a", default="normal", choices=sorted(PLAYERS))
    parser.add_argument("--b", default="normal-previous", choices=sorted(PLAYERS))
    parser.add_argument("--out", default=None, help="append each finished pair here (JSON)")
    args = parser.parse_args()
    row = run(args.games, args.preset, args.players, args.seed, args.a, args.b, args.out)
    low, high = row["interval"]
    print(
        f"{row['preset']} {row['players']} players, {row['duplicate_pairs']} duplicate pairs: "
        f"{row['a']} {100 * row['a_share']:.1f}% of the wins [{100 * low:.1f}, {100 * high:.1f}] "
        f"against {row['b']} ({row['seconds']:.0f} s)"
    )


if __name__ == "__main__":
    main()
