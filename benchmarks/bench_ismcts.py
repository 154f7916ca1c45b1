"""OpenSpiel's information-set MCTS as an outside yardstick for cardtable's Hard and Normal players.

For each game, heads-up, OpenSpiel's Python ``ISMCTSBot`` (random-rollout evaluator, UCT, as
many world samples as simulations, the most-visited action) plays cardtable's ``hard`` and
``normal`` players through the OpenSpiel games of :mod:`cardtable.envs.openspiel`, in duplicate
deals: each deal (its chance outcomes drawn from a generator seeded by the deal number) is
played twice, ISMCTS in seat 0 and then in seat 1. It prints, per pairing, ISMCTS's score share
(a win 1, a split win 0.5, a loss 0; Indian Rummy: the seat with fewer points wins the deal)
with its 95% interval, Indian Rummy's points per deal for both sides, and both sides' decision
times (median and 95th percentile).

The issue's protocol is 500 games per pairing at about one second per ISMCTS move::

    python -m benchmarks.bench_ismcts --games 500 --simulations 400 --workers 2

Seats: Indecision and Declaration Rummy with two players (Declaration Rummy deals 10 cards to
two), Indian Rummy one deal. ``--indecision-preset short`` (61 points) keeps an Indecision game
to a few hands. ``uct_c`` is 2 times the game's utility range (2 for Indecision and Declaration
Rummy, whose utilities lie in 0..1; 160 for Indian Rummy, whose lie in -80..0), as UCT's
constant is meant for returns in a unit range. It never fails on time or strength.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import statistics
import time
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardtable.envs.openspiel as cardtable_spiel
from cardtable.arena.stats import mean_ci

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
LEVELS = ("hard", "normal")


def _load(game: str, indecision_preset: str) -> Any:
    params = "players=2"
    if game == "indecision":
        params += f",preset={indecision_preset}"
    return pyspiel.load_game(f"{cardtable_spiel.short_name(game)}({params})")


def _uct_c(game: Any) -> float:
    return 2.0 * (game.max_utility() - game.min_utility())


def play_deal(args: tuple[str, str, int, int, int, str]) -> list[dict[str, Any]]:
    """Both halves of duplicate deal ``deal``: ISMCTS in seat 0, then in seat 1."""
    game_name, level, deal, simulations, rollouts, indecision_preset = args
    game = _load(game_name, indecision_preset)
    rows = []
    for search_seat in (0, 1):
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=rollouts, random_state=np.random.RandomState(deal * 2 + search_seat)
        )
        search = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=_uct_c(game),
            max_simulations=simulations,
            random_state=np.random.RandomState(deal),
        )
        ours = cardtable_spiel.CardtableBot(game, 1 - search_seat, level, seed=deal)
        chance = np.random.default_rng(deal)
        state = game.new_initial_state()
        times: dict[str, list[float]] = {"ismcts": [], level: []}
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(int(chance.integers(len(state.chance_outcomes()))))
                continue
            searching = state.current_player() == search_seat
            started = time.perf_counter()
            action = search.step(state) if searching else ours.step(state)
            times["ismcts" if searching else level].append(time.perf_counter() - started)
            state.apply_action(action)
        returns = state.returns()
        mine, theirs = returns[search_seat], returns[1 - search_seat]
        if game_name == "indian-rummy":
            score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
        else:
            score = mine / (mine + theirs) if mine + theirs > 0 else 0.5
        rows.append(
            {"score": score, "mine": mine, "theirs": theirs, "times": times, "seat": search_seat}
        )
    return rows


def _ms(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def run_pairing(
    game: str, level: str, deals: int, simulations: int, rollouts: int, workers: int, preset: str
) -> dict[str, Any]:
    """Play ``deals`` duplicate deals of ISMCTS against ``level``; summarise them."""
    jobs = [(game, level, deal, simulations, rollouts, preset) for deal in range(deals)]
    started = time.perf_counter()
    if workers > 1:
        with multiprocessing.get_context("spawn").Pool(workers) as pool:
            halves = [row for rows in pool.map(play_deal, jobs) for row in rows]
    else:
        halves = [row for job in jobs for row in play_deal(job)]
    score = mean_ci([h["score"] for h in halves])
    search_times = [t for h in halves for t in h["times"]["ismcts"]]
    our_times = [t for h in halves for t in h["times"][level]]
    row: dict[str, Any] = {
        "game": game,
        "opponent": level,
        "games": len(halves),
        "simulations": simulations,
        "rollouts": rollouts,
        "ismcts_share": score.mean,
        "ci95": [score.low, score.high],
        "ismcts_ms_p50": _ms(search_times, 0.5),
        "ismcts_ms_p95": _ms(search_times, 0.95),
        "ours_ms_p50": _ms(our_times, 0.5),
        "ours_ms_p95": _ms(our_times, 0.95),
        "ismcts_moves": len(search_times),
        "seconds": round(time.perf_counter() - started, 1),
    }
    if game == "indian-rummy":
        row["ismcts_points_per_deal"] = -statistics.fmean(h["mine"] for h in halves)
        row["ours_points_per_deal"] = -statistics.fmean(h["theirs"] for h in halves)
    return row


def _print_row(row: dict[str, Any]) -> None:
    low, high = row["ci95"]
    text = (
        f"{row['game']:<18} ISMCTS({row['simulations']} sims) vs {row['opponent']:<6} "
        f"games {row['games']:>4}  ISMCTS share {row['ismcts_share'] * 100:5.1f}% "
        f"[{low * 100:.1f}, {high * 100:.1f}]  ISMCTS move p50 {row['ismcts_ms_p50']:.0f} ms "
        f"p95 {row['ismcts_ms_p95']:.0f} ms; {row['opponent']} p50 {row['ours_ms_p50']:.1f} ms "
        f"p95 {row['ours_ms_p95']:.1f} ms"
    )
    if "ismcts_points_per_deal" in row:
        text += (
            f"; points/deal ISMCTS {row['ismcts_points_per_deal']:.1f}, "
            f"{row['opponent']} {row['ours_points_per_deal']:.1f}"
        )
    print(text + f"  ({row['seconds']} s)", flush=True)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--level", choices=LEVELS, action="append")
    parser.add_argument("--games", type=int, default=500, help="games per pairing (even)")
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--indecision-preset", default="short")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    rows = []
    for game in args.game or GAMES:
        for level in args.level or LEVELS:
            row = run_pairing(
                game,
                level,
                max(1, args.games // 2),
                args.simulations,
                args.rollouts,
                args.workers,
                args.indecision_preset,
            )
            rows.append(row)
            _print_row(row)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
