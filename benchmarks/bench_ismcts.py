"""OpenSpiel's information-set MCTS as an outside yardstick for cardtable's Hard and Normal players.

For each game, heads-up, OpenSpiel's Python ``ISMCTSBot`` (UCT, as many world samples as
simulations, the most-visited action) plays cardtable's ``hard`` and ``normal`` players through
the OpenSpiel games of :mod:`cardtable.envs.openspiel`, in duplicate deals: each deal (its
chance outcomes drawn from a generator seeded by the deal number) is played twice, ISMCTS in
seat 0 and then in seat 1. It prints, per pairing, ISMCTS's score share (a win 1, a split win
0.5, a loss 0; Indian Rummy: the seat with fewer points wins the deal; an Indecision hand: the
seat's share of the hand's points) with its 95% interval over deals (the two halves of a deal
averaged first, as they share the cards), Indian Rummy's points per deal for both sides, and
both sides' decision times (median and 95th percentile).

The search's leaf evaluator is, by default, :class:`cardtable.envs.rollouts.PlayoutEvaluator`:
rollouts by :func:`cardtable.playouts.improving_actions`' seat (in Indian Rummy one that
improves its hand and shows whenever the show is valid, never drops; no tie proposals in
Declaration Rummy), Indian Rummy's cut after 40 seat decisions (``--horizon``) and valued by
hand points; ``--evaluator random`` gives OpenSpiel's ``RandomRolloutEvaluator``, whose random
seats drop at once. Indian Rummy's rows add how often ISMCTS dropped and made a wrong show.
``--valid-shows-only`` loads Indian Rummy with ``wrong_shows=false``: every seat (ISMCTS and
ours alike) is offered a show only when it is valid, so the search no longer spends its
first visits of a node on a dozen certain 80-point penalties each turn.

The pairings are played deal by deal in turn (deal 0 of every pairing, then deal 1, ...), and
with ``--out FILE`` every finished half is appended to ``FILE`` as a JSON line, so a run cut
short still gives every pairing the same number of deals; ``--summarise FILE`` prints the
table of such a file. The issue's protocol is 500 games per pairing at about one second per
ISMCTS move::

    nice -n 19 python -m benchmarks.bench_ismcts --games 500 --simulations 400 --out runs.jsonl
    python -m benchmarks.bench_ismcts --summarise runs.jsonl

Seats: Indecision and Declaration Rummy with two players (Declaration Rummy deals 10 cards to
two), Indian Rummy one deal. ``--indecision-preset short`` (61 points) keeps an Indecision game
to a few hands; ``--indecision-hand`` plays only its first hand (the search still values whole
games). ``uct_c`` is 2 times the game's utility range (2 for Indecision and Declaration Rummy,
whose utilities lie in 0..1; 160 for Indian Rummy, whose lie in -80..0), as UCT's constant is
meant for returns in a unit range; ``--uct-c`` sets another. It never fails on time or
strength.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import cardtable.envs.openspiel as cardtable_spiel
from cardtable.arena.stats import mean_ci
from cardtable.envs.rollouts import PlayoutEvaluator

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
LEVELS = ("hard", "normal")


def _load(game: str, indecision_preset: str, valid_shows_only: bool = False) -> Any:
    params = "players=2"
    if game == "indecision":
        params += f",preset={indecision_preset}"
    if game == "indian-rummy" and valid_shows_only:
        params += ",wrong_shows=false"
    return pyspiel.load_game(f"{cardtable_spiel.short_name(game)}({params})")


def _uct_c(game: Any) -> float:
    return 2.0 * (game.max_utility() - game.min_utility())


def _evaluator(game: Any, kind: str, rollouts: int, seed: int, horizon: int | None = None) -> Any:
    if kind == "random":
        return mcts.RandomRolloutEvaluator(
            n_rollouts=rollouts, random_state=np.random.RandomState(seed)
        )
    return PlayoutEvaluator(game, rollouts=rollouts, seed=seed, horizon=horizon)


def _hand_over(state: Any) -> bool:
    """Has the first Indecision hand been scored?"""
    return state.engine_state.table.last_hand is not None


def _hand_points(state: Any) -> list[float]:
    points = [0.0, 0.0]
    for result in state.engine_state.table.last_hand.results:
        points[result.seat] = float(result.points)
    return points


def _indian_rummy_ending(state: Any, search_seat: int) -> dict[str, Any]:
    """How the search's seat left the deal: dropped, declared a wrong show, or neither."""
    deal = state.engine_state.last_deal
    return {
        "dropped": deal.drops[search_seat] is not None,
        "wrong_show": deal.outcome == "wrong-show" and deal.declarer == search_seat,
    }


def play_deal(
    game_name: str,
    level: str,
    deal: int,
    simulations: int,
    options: argparse.Namespace,
) -> list[dict[str, Any]]:
    """Both halves of duplicate deal ``deal``: ISMCTS in seat 0, then in seat 1."""
    valid_only = game_name == "indian-rummy" and options.valid_shows_only
    game = _load(game_name, options.indecision_preset, valid_only)
    single_hand = game_name == "indecision" and options.indecision_hand
    rows = []
    for search_seat in (0, 1):
        horizon = options.horizon if game_name == "indian-rummy" else None
        evaluator = _evaluator(
            game, options.evaluator, options.rollouts, deal * 2 + search_seat, horizon
        )
        search = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=options.uct_c or _uct_c(game),
            max_simulations=simulations,
            random_state=np.random.RandomState(deal),
        )
        ours = cardtable_spiel.CardtableBot(game, 1 - search_seat, level, seed=deal)
        chance = np.random.default_rng(deal)
        state = game.new_initial_state()
        times: dict[str, list[float]] = {"ismcts": [], "ours": []}
        while not state.is_terminal():
            if single_hand and _hand_over(state):
                break
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(chance.choice(outcomes, p=probs)))
                continue
            searching = state.current_player() == search_seat
            started = time.perf_counter()
            action = search.step(state) if searching else ours.step(state)
            times["ismcts" if searching else "ours"].append(time.perf_counter() - started)
            state.apply_action(action)
        returns = _hand_points(state) if single_hand else state.returns()
        mine, theirs = returns[search_seat], returns[1 - search_seat]
        extra: dict[str, Any] = {}
        if game_name == "indian-rummy":
            score = 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
            extra = _indian_rummy_ending(state, search_seat)
        else:
            score = mine / (mine + theirs) if mine + theirs > 0 else 0.5
        rows.append(
            {
                **extra,
                "game": game_name,
                "opponent": level,
                "deal": deal,
                "seat": search_seat,
                "simulations": simulations,
                "evaluator": options.evaluator,
                "single_hand": single_hand,
                "valid_shows_only": valid_only,
                "score": score,
                "mine": mine,
                "theirs": theirs,
                "times": times,
            }
        )
    return rows


def _ms(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def summarise(halves: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per pairing (game, opponent, budget) from the halves played, whole deals only."""
    groups: dict[tuple[str, str, int, bool], dict[int, list[dict[str, Any]]]] = defaultdict(
        lambda: defaultdict(list)
    )
    for half in halves:
        key = (half["game"], half["opponent"], half["simulations"], half.get("valid_shows_only"))
        groups[key][half["deal"]].append(half)
    rows = []
    for (game, level, simulations, valid_only), deals in groups.items():
        whole = [pair for pair in deals.values() if len(pair) == 2]
        played = [h for pair in whole for h in pair]
        if not played:
            continue
        score = mean_ci([(a["score"] + b["score"]) / 2 for a, b in whole])
        search_times = [t for h in played for t in h["times"]["ismcts"]]
        our_times = [t for h in played for t in h["times"]["ours"]]
        row: dict[str, Any] = {
            "game": game,
            "opponent": level,
            "games": len(played),
            "simulations": simulations,
            "evaluator": played[0]["evaluator"],
            "single_hand": played[0]["single_hand"],
            "valid_shows_only": bool(valid_only),
            "ismcts_share": score.mean,
            "ci95": [score.low, score.high],
            "ismcts_ms_p50": _ms(search_times, 0.5),
            "ismcts_ms_p95": _ms(search_times, 0.95),
            "ours_ms_p50": _ms(our_times, 0.5),
            "ours_ms_p95": _ms(our_times, 0.95),
            "ismcts_moves": len(search_times),
        }
        if game == "indian-rummy":
            row["ismcts_points_per_deal"] = -statistics.fmean(h["mine"] for h in played)
            row["ours_points_per_deal"] = -statistics.fmean(h["theirs"] for h in played)
            if "dropped" in played[0]:
                row["ismcts_drops"] = statistics.fmean(h["dropped"] for h in played)
                row["ismcts_wrong_shows"] = statistics.fmean(h["wrong_show"] for h in played)
        rows.append(row)
    return rows


def _print_row(row: dict[str, Any]) -> None:
    low, high = row["ci95"]
    what = "hands" if row["single_hand"] else "games"
    text = (
        f"{row['game']:<18} ISMCTS({row['simulations']} sims, {row['evaluator']}"
        f"{', valid shows only' if row.get('valid_shows_only') else ''}) vs "
        f"{row['opponent']:<6} {what} {row['games']:>4}  ISMCTS share "
        f"{row['ismcts_share'] * 100:5.1f}% [{low * 100:.1f}, {high * 100:.1f}]  "
        f"ISMCTS move p50 {row['ismcts_ms_p50']:.0f} ms p95 {row['ismcts_ms_p95']:.0f} ms; "
        f"{row['opponent']} p50 {row['ours_ms_p50']:.1f} ms p95 {row['ours_ms_p95']:.1f} ms"
    )
    if "ismcts_points_per_deal" in row:
        text += (
            f"; points/deal ISMCTS {row['ismcts_points_per_deal']:.1f}, "
            f"{row['opponent']} {row['ours_points_per_deal']:.1f}"
        )
    if "ismcts_drops" in row:
        text += (
            f"; ISMCTS dropped {row['ismcts_drops'] * 100:.1f}%, "
            f"wrong shows {row['ismcts_wrong_shows'] * 100:.1f}%"
        )
    print(text, flush=True)


def _read(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", choices=GAMES, action="append")
    parser.add_argument("--level", choices=LEVELS, action="append")
    parser.add_argument("--games", type=int, default=500, help="games per pairing (even)")
    parser.add_argument("--simulations", type=int, default=400)
    parser.add_argument(
        "--game-simulations",
        action="append",
        default=[],
        metavar="GAME=N",
        help="a game's own budget, e.g. indian-rummy=100",
    )
    parser.add_argument("--rollouts", type=int, default=1)
    parser.add_argument(
        "--horizon", type=int, help="Indian Rummy: seat decisions before a rollout is cut"
    )
    parser.add_argument("--uct-c", type=float, help="UCT's constant (default: 2 x the range)")
    parser.add_argument("--evaluator", choices=("playout", "random"), default="playout")
    parser.add_argument(
        "--valid-shows-only",
        action="store_true",
        help="Indian Rummy: load the game with wrong_shows=false (only valid shows offered)",
    )
    parser.add_argument("--indecision-preset", default="short")
    parser.add_argument("--indecision-hand", action="store_true")
    parser.add_argument("--first-deal", type=int, default=0)
    parser.add_argument("--out", type=Path, help="append every finished half here (JSON lines)")
    parser.add_argument("--summarise", type=Path, help="print the table of an --out file")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.summarise is not None:
        rows = summarise(_read(args.summarise))
    else:
        budgets = {game: args.simulations for game in GAMES}
        for item in args.game_simulations:
            name, _, count = item.partition("=")
            budgets[name] = int(count)
        pairings = [(g, lv) for g in args.game or GAMES for lv in args.level or LEVELS]
        halves: list[dict[str, Any]] = []
        for deal in range(args.first_deal, args.first_deal + max(1, args.games // 2)):
            for game, level in pairings:
                started = time.perf_counter()
                pair = play_deal(game, level, deal, budgets[game], args)
                for half in pair:
                    half["seconds"] = round(time.perf_counter() - started, 2)
                halves.extend(pair)
                if args.out is not None:
                    with args.out.open("a") as out:
                        out.writelines(json.dumps(half) + "\n" for half in pair)
        rows = summarise(halves)
    for row in rows:
        _print_row(row)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
