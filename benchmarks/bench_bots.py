"""The bot ladder and decision times, measured with the arena (rerun it to check the levels).

For each game, heads-up and in seeded duplicate games (each deal played with the seats swapped),
it plays the three neighbouring pairings of the ladder, Hard against Normal, Normal against
Easy and Easy against Random, and prints each pairing's win share with its 95% interval (Indian
Rummy: one deal per game, deals compared by points, with the mean points per deal), a
Bradley-Terry ladder fitted to the three pairings, and the decision times of each level (p50,
p95) measured in a separate single-process run, so that the numbers are not inflated by the
worker processes competing for the cores.

    python -m benchmarks.bench_bots                       # all three games, full size
    python -m benchmarks.bench_bots --game indecision --games 200 --hard-games 60
    python -m benchmarks.bench_bots --game indian-rummy --preset pool-101 --games 100 \
        --pairings normal-easy,easy-random --time-games 0

``--preset`` plays whole games of one of the game's presets (Pool 101: a game is won by the
last player left, not by points per deal); ``--pairings`` keeps only some of the pairings.

It never fails on time or strength: it prints what it measured, and whether each pairing's
interval excludes an even result.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections.abc import Sequence
from typing import Any

from cardtable.arena import ArenaConfig, ArenaReport, available_cores, run_arena
from cardtable.arena.stats import anchor_ratings, bradley_terry
from cardtable.registry import get_engine

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
PAIRINGS = (("hard", "normal"), ("normal", "easy"), ("easy", "random"))
TIME_TARGETS_MS = {"easy": 10.0, "normal": 100.0, "hard": 1000.0}


def _interval(low: float, high: float, scale: float = 100.0) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "[-, -]"
    return f"[{low * scale:.1f}, {high * scale:.1f}]"


def measure_pairings(
    game: str,
    games: int,
    hard_games: int,
    seed: int,
    workers: int,
    *,
    rules: Any = None,
    pairings: Sequence[tuple[str, str]] = PAIRINGS,
) -> tuple[list[dict[str, Any]], list[ArenaReport]]:
    """Play the neighbouring pairings (by default all three) under ``rules`` (by default the
    arena's); return one summary row per pairing."""
    rows: list[dict[str, Any]] = []
    reports: list[ArenaReport] = []
    for a, b in pairings:
        size = hard_games if a == "hard" else games
        started = time.perf_counter()
        report = run_arena(
            ArenaConfig(game=game, bots=(a, b), games=size, seed=seed, workers=workers, rules=rules)
        )
        elapsed = time.perf_counter() - started
        (pairing,) = report.pairings
        row: dict[str, Any] = {
            "game": game,
            "a": a,
            "b": b,
            "games": pairing.games,
            "a_wins": pairing.a_wins,
            "b_wins": pairing.b_wins,
            "ties": pairing.ties,
            "a_share": pairing.score.mean,
            "ci95": [pairing.score.low, pairing.score.high],
            "excludes_even": pairing.score.excludes(0.5) and pairing.score.mean > 0.5,
            "seconds": round(elapsed, 1),
        }
        if pairing.points_difference is not None:
            assert pairing.a_points is not None and pairing.b_points is not None
            row["a_points_per_deal"] = pairing.a_points.mean
            row["b_points_per_deal"] = pairing.b_points.mean
            row["points_difference_ci95"] = [
                pairing.points_difference.low,
                pairing.points_difference.high,
            ]
        rows.append(row)
        reports.append(report)
        _print_row(row)
    return rows, reports


def _print_row(row: dict[str, Any]) -> None:
    low, high = row["ci95"]
    verdict = "yes" if row["excludes_even"] else "NO"
    line = (
        f"  {row['a']:>6} vs {row['b']:<6} {row['games']:>5} games  "
        f"{row['a']} {row['a_share'] * 100:5.1f}% {_interval(low, high)}  "
        f"(won {row['a_wins']}, lost {row['b_wins']}, tied {row['ties']})  "
        f"excludes 50%: {verdict}  {row['seconds']:.0f} s"
    )
    if "a_points_per_deal" in row:
        d_low, d_high = row["points_difference_ci95"]
        line += (
            f"\n{'':>17}points per deal: {row['a']} {row['a_points_per_deal']:.1f}, "
            f"{row['b']} {row['b_points_per_deal']:.1f} "
            f"(difference 95% CI [{d_low:.1f}, {d_high:.1f}])"
        )
    print(line, flush=True)


def ladder(rows: list[dict[str, Any]]) -> dict[str, float]:
    """Elo-scale Bradley-Terry ratings fitted to the pairings, Random at 0."""
    wins: dict[tuple[str, str], float] = {}
    for row in rows:
        a, b = row["a"], row["b"]
        wins[(a, b)] = wins.get((a, b), 0.0) + row["a_wins"] + row["ties"] / 2
        wins[(b, a)] = wins.get((b, a), 0.0) + row["b_wins"] + row["ties"] / 2
    players = [p for p in ("hard", "normal", "easy", "random") if any(p in k for k in wins)]
    return anchor_ratings(bradley_terry(players, wins), "random")


def measure_times(game: str, games: int, seed: int) -> dict[str, dict[str, float]]:
    """Decision times per level from a single-process run of each level against a neighbour
    on the ladder (Easy and Hard against Normal, Normal against Easy)."""
    out: dict[str, dict[str, float]] = {}
    for level in ("easy", "normal", "hard"):
        opponent = "easy" if level == "normal" else "normal"
        report = run_arena(
            ArenaConfig(
                game=game,
                bots=(level, opponent),
                games=games if level != "hard" else max(2, games // 2),
                seed=seed + 1,
                workers=1,
            )
        )
        for times in report.times:
            if times.level == level:
                out[level] = {
                    "decisions": times.decisions,
                    "p50_ms": times.p50_ms,
                    "p95_ms": times.p95_ms,
                    "max_ms": times.max_ms,
                }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", action="append", choices=GAMES, help="repeat for several")
    parser.add_argument("--games", type=int, default=1000, help="games per lower pairing")
    parser.add_argument("--hard-games", type=int, default=200, help="Hard vs Normal games")
    parser.add_argument("--time-games", type=int, default=20, help="games for the timings")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--workers", type=int, default=available_cores())
    parser.add_argument("--json", type=str, default=None, help="also write results here")
    parser.add_argument("--preset", default=None, help="play whole games of this preset")
    parser.add_argument(
        "--pairings",
        default=",".join(f"{a}-{b}" for a, b in PAIRINGS),
        help="comma-separated pairings, e.g. normal-easy,easy-random",
    )
    args = parser.parse_args(argv)
    chosen = [tuple(p.split("-")) for p in args.pairings.split(",")]
    pairings = [pair for pair in PAIRINGS if pair in chosen]
    results: dict[str, Any] = {"workers": args.workers, "games": {}}
    for game in args.game or GAMES:
        rules = None if args.preset is None else get_engine(game).presets()[args.preset]
        print(
            f"{game}: duplicate heads-up games, seed {args.seed}, {args.workers} workers"
            + ("" if args.preset is None else f", preset {args.preset}")
        )
        started = time.perf_counter()
        rows, _ = measure_pairings(
            game,
            args.games,
            args.hard_games,
            args.seed,
            args.workers,
            rules=rules,
            pairings=pairings,
        )
        ratings = ladder(rows)
        print(
            "  ladder (Elo scale, Random = 0): "
            + ", ".join(
                f"{bot} {ratings[bot]:.0f}"
                for bot in sorted(ratings, key=lambda name: ratings[name], reverse=True)
            )
        )
        times = measure_times(game, args.time_games, args.seed) if args.time_games else {}
        for level, t in times.items():
            target = TIME_TARGETS_MS[level]
            print(
                f"  {level:>6}: {t['decisions']:>5} decisions  p50 {t['p50_ms']:8.2f} ms  "
                f"p95 {t['p95_ms']:8.2f} ms  max {t['max_ms']:8.1f} ms  "
                f"(p95 / target {target:.0f} ms = {t['p95_ms'] / target:.3f})"
            )
        elapsed = time.perf_counter() - started
        print(f"  {game} took {elapsed:.0f} s", flush=True)
        results["games"][game] = {
            "pairings": rows,
            "ladder": ratings,
            "decision_times": times,
            "seconds": round(elapsed, 1),
        }
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(results, handle, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
