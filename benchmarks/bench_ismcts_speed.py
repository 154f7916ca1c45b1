"""Simulations per second of OpenSpiel's information-set MCTS on cardtable's Indecision, and
where a simulation's time goes.

The positions are the first seat decisions of a few Indecision deals (``short`` preset, two
seats, chance drawn from generators seeded by the deal), each searched by OpenSpiel's Python
``ISMCTSBot`` with :class:`cardtable.envs.rollouts.PlayoutEvaluator` rollouts, as
``bench_ismcts`` plays them. Two ways of running the OpenSpiel adapter are timed side by side,
alternating position by position in one process:

* ``adapter``: :mod:`cardtable.envs.openspiel` as it is;
* ``replay``: the same adapter with its two savings undone, the way it ran before them: every
  chance node runs the engine's chance step again from the start of its script (a shuffle's
  nodes cost the square of its cards), and every information-state string is built again from
  the view (OpenSpiel's search asks for the same one twice per node).

Both make the same search (the same nodes, outcomes and strings), so the ratio of their rates is
the saving. ``--split`` also times the parts of both ways' runs: rollouts (the evaluator),
``resample_from_infostate``, information-state keys, ``apply_action`` and ``legal_actions`` in
the tree; the rest is OpenSpiel's own tree code (selection, its chance sampling, bookkeeping).
It also prints the process's CPU time per move, which the load of other processes leaves
out. It never fails on time.

    nice -n 10 python -m benchmarks.bench_ismcts_speed --simulations 100 --rounds 3 --split
"""

from __future__ import annotations

import argparse
import contextlib
import json
import statistics
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

import cardtable.envs.chance as chance
import cardtable.envs.openspiel as cardtable_spiel
from cardtable.envs.rollouts import PlayoutEvaluator

GAME = "python_cardtable_indecision(players=2,preset=short)"


def positions(game: Any, deals: int, per_deal: int) -> list[Any]:
    """The first ``per_deal`` seat decisions (random legal play) of ``deals`` deals."""
    out = []
    for deal in range(deals):
        rng = np.random.default_rng(deal)
        state = game.new_initial_state()
        taken = 0
        while not state.is_terminal() and taken < per_deal:
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(rng.choice(outcomes, p=probs)))
                continue
            legal = state.legal_actions()
            if len(legal) > 1:  # a position the search has to think about
                out.append(state.clone())
                taken += 1
            state.apply_action(legal[int(rng.integers(len(legal)))])
    return out


def _uncached_view_string(self: Any, player: int, perfect_recall: bool) -> str:
    data = self.view_of(player).to_json()
    if not perfect_recall:
        data.pop("events", None)
    text: str = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return text


def _no_shortcut(self: Any, outcome: int) -> None:
    return None


@contextlib.contextmanager
def replayed() -> Iterator[None]:
    """The adapter without its savings (see the module docstring), for the ``replay`` runs."""
    saved = [
        (cardtable_spiel.CardtableState, "view_string"),
        (chance._CardsLeft, "then"),
        (chance._SampleLeft, "then"),
    ]
    originals = [(owner, name, owner.__dict__[name]) for owner, name in saved]
    cardtable_spiel.CardtableState.view_string = _uncached_view_string  # type: ignore[method-assign]
    chance._CardsLeft.then = _no_shortcut  # type: ignore[method-assign]
    chance._SampleLeft.then = _no_shortcut  # type: ignore[method-assign]
    try:
        yield
    finally:
        for owner, name, original in originals:
            setattr(owner, name, original)


class _Clock:
    """Seconds spent in each timed part."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)

    def wrap(self, part: str, call: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return call(*args, **kwargs)
            finally:
                self.seconds[part] += time.perf_counter() - started

        return timed


@contextlib.contextmanager
def split_into(clock: _Clock) -> Iterator[None]:
    """Time the adapter's parts of a search (``apply_action`` and ``legal_actions``)."""
    cls = cardtable_spiel.CardtableState
    originals = {name: cls.__dict__[name] for name in ("_apply_action", "_legal_actions")}
    cls._apply_action = clock.wrap("apply_action", originals["_apply_action"])  # type: ignore[method-assign]
    cls._legal_actions = clock.wrap("legal_actions", originals["_legal_actions"])  # type: ignore[method-assign]
    try:
        yield
    finally:
        for name, original in originals.items():
            setattr(cls, name, original)


def search(
    game: Any, state: Any, simulations: int, seed: int, clock: _Clock | None
) -> tuple[float, float]:
    """Wall-clock and CPU seconds of one ISMCTS move of ``simulations`` simulations from
    ``state`` (the process's CPU time leaves out the time other processes had the core)."""
    evaluator = PlayoutEvaluator(game, seed=seed)
    bot = ismcts.ISMCTSBot(
        game,
        evaluator,
        uct_c=2.0 * (game.max_utility() - game.min_utility()),
        max_simulations=simulations,
        random_state=np.random.RandomState(seed),
    )
    if clock is not None:
        evaluator.evaluate = clock.wrap("rollouts", evaluator.evaluate)  # type: ignore[method-assign]
        bot.resample_from_infostate = clock.wrap("resample", bot.resample_from_infostate)
        bot.get_state_key = clock.wrap("information-state keys", bot.get_state_key)
    started, cpu = time.perf_counter(), time.process_time()
    if clock is None:
        bot.step(state.clone())
    else:
        with split_into(clock):
            bot.step(state.clone())
    return time.perf_counter() - started, time.process_time() - cpu


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--simulations", type=int, default=100)
    parser.add_argument("--deals", type=int, default=4)
    parser.add_argument("--per-deal", type=int, default=4, help="positions per deal")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--split", action="store_true", help="time the parts of a simulation")
    args = parser.parse_args(argv)
    game = pyspiel.load_game(GAME)
    states = positions(game, args.deals, args.per_deal)
    rates: dict[str, list[float]] = {"adapter": [], "replay": []}
    clocks = {way: _Clock() if args.split else None for way in rates}
    total = {"adapter": 0.0, "replay": 0.0}
    cpu_per_move: dict[str, list[float]] = {"adapter": [], "replay": []}
    for round_ in range(args.rounds):
        spent = {"adapter": 0.0, "replay": 0.0}
        for i, state in enumerate(states):
            seed = round_ * 1000 + i
            # Alternate which side goes first, so a change of load falls on both alike.
            for way in ("adapter", "replay") if i % 2 == 0 else ("replay", "adapter"):
                with replayed() if way == "replay" else contextlib.nullcontext():
                    wall, cpu = search(game, state, args.simulations, seed, clocks[way])
                spent[way] += wall
                cpu_per_move[way].append(cpu)
        for way in total:
            total[way] += spent[way]
        sims = args.simulations * len(states)
        for way in rates:
            rates[way].append(sims / spent[way])
        print(
            f"round {round_}: {len(states)} positions x {args.simulations} sims: adapter "
            f"{rates['adapter'][-1]:.0f} sims/s, replay {rates['replay'][-1]:.0f} sims/s",
            flush=True,
        )
    adapter, replay = statistics.median(rates["adapter"]), statistics.median(rates["replay"])
    print(
        f"median over {args.rounds} rounds: adapter {adapter:.0f} sims/s, replay {replay:.0f} "
        f"sims/s, adapter / replay {adapter / replay:.2f}x"
    )
    for way, moves in cpu_per_move.items():
        print(
            f"{way}: CPU time per move of {args.simulations} sims p50 "
            f"{1000 * statistics.median(moves):.0f} ms, "
            f"{args.simulations * len(moves) / sum(moves):.0f} sims per CPU second"
        )
    for way, clock in clocks.items():
        if clock is None:
            continue
        print(f"{way} runs, share of the search time (and ms per 100 simulations):")
        parts = sorted(clock.seconds.items(), key=lambda item: -item[1])
        parts.append(("OpenSpiel tree (rest)", total[way] - sum(clock.seconds.values())))
        per_100 = 100_000 / (args.simulations * len(states) * args.rounds)
        for part, seconds in parts:
            print(f"  {part:<24} {100 * seconds / total[way]:5.1f}%  {seconds * per_100:6.1f} ms")


if __name__ == "__main__":
    main()
