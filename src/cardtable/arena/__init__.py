"""The arena: bots play seeded duplicate games against each other and their strength is
measured (pairwise win rates with 95% intervals, a rating ladder, decision times).

``run_arena(ArenaConfig(game="indian-rummy", bots=("normal", "random"), games=200))`` plays
every lineup (:mod:`cardtable.arena.schedule`) on the same numbered deals, each deal in every
seat rotation, spread over one worker process per core; :mod:`cardtable.arena.report` turns
the games into an :class:`ArenaReport`, and :mod:`cardtable.arena.chart` draws its ladder.
Indian Rummy is played one deal per game and deals are compared by points.
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import os
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any

from cardtable.arena.chart import ladder_svg
from cardtable.arena.play import GameOutcome, TaskResult, run_task
from cardtable.arena.report import (
    ArenaReport,
    DecisionTimes,
    Pairing,
    Rung,
    build_ladder,
    build_pairings,
    build_times,
)
from cardtable.arena.schedule import Task, deals_for, level_of, lineups, tasks, unique_labels
from cardtable.bots import LEVELS
from cardtable.errors import RulesError
from cardtable.games.spec import arena_changes
from cardtable.registry import canonical_name, get_engine, get_spec

ProgressCallback = Callable[[int, int], None]
"""``(games_done, games_total)``, called as results come in."""


def available_cores() -> int:
    """The number of cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


@dataclass(frozen=True, slots=True)
class ArenaConfig:
    """What to play: ``games`` games per lineup (rounded up to whole duplicate deals) of
    ``game`` between the ``bots`` levels at tables of ``players``, seeded by ``seed``.

    ``rules`` defaults to the game's default preset with ``players`` seats (one deal per game
    for Indian Rummy); ``workers`` defaults to every core, 1 runs in this process.
    """

    game: str
    bots: tuple[str, ...] = ("hard", "normal", "easy", "random")
    games: int = 100
    seed: int = 0
    players: int = 2
    workers: int | None = None
    rules: Any = None

    def resolved_rules(self) -> Any:
        """The rules the games are played under."""
        engine = get_engine(self.game)
        if self.rules is not None:
            return self.rules
        rules = engine.presets()["default"]
        changes: dict[str, Any] = {
            "players": self.players,
            **arena_changes(get_spec(self.game), rules),
        }
        return dataclasses.replace(rules, **changes)


def _check(config: ArenaConfig) -> None:
    for level in config.bots:
        if level_of(level) not in LEVELS:
            raise RulesError(f"unknown bot level {level!r}: choose from {', '.join(LEVELS)}")
    if config.games < 1:
        raise RulesError(f"the arena needs at least one game, not {config.games}")
    if config.workers is not None and config.workers < 1:
        raise RulesError(f"workers must be at least 1, not {config.workers}")


def run_arena(config: ArenaConfig, *, on_progress: ProgressCallback | None = None) -> ArenaReport:
    """Play the arena described by ``config`` and measure the bots (see the module docstring)."""
    _check(config)
    game = canonical_name(config.game)
    engine = get_engine(game)
    rules = config.resolved_rules()
    players = int(rules.players)
    labels = unique_labels([level.strip().lower() for level in config.bots])
    table = lineups(labels, players)
    deals = deals_for(config.games, players)
    workers = config.workers if config.workers is not None else available_cores()
    chunk = max(1, min(16, deals * len(table) // (workers * 8)))
    work = tasks(table, deals, chunk)
    total = deals * players * len(table)
    started = time.perf_counter()
    outcomes: list[GameOutcome] = []
    times: dict[str, list[float]] = {label: [] for label in labels}

    def collect(result: TaskResult) -> None:
        outcomes.extend(result.games)
        for label, values in result.times.items():
            times[label].extend(values)
        if on_progress is not None:
            on_progress(len(outcomes), total)

    if on_progress is not None:
        on_progress(0, total)
    if workers == 1:
        for task in work:
            collect(run_task(game, rules, config.seed, task))
    else:
        _run_parallel(game, rules, config.seed, work, workers, collect)
    elapsed = time.perf_counter() - started

    pairings, shares = build_pairings(game, labels, outcomes, rules)
    played: dict[str, int] = {}
    endings: dict[str, int] = {}
    for outcome in outcomes:
        endings[outcome.reason] = endings.get(outcome.reason, 0) + 1
        for label in set(outcome.seats):
            played[label] = played.get(label, 0) + 1
    ladder = build_ladder(labels, shares, float(players), played, seed=config.seed)
    return ArenaReport(
        game=game,
        rules=engine.rules_to_json(rules),
        seed=config.seed,
        players=players,
        bots=labels,
        games=len(outcomes),
        workers=workers,
        elapsed_s=elapsed,
        pairings=tuple(pairings),
        ladder=tuple(ladder),
        times=tuple(build_times(times)),
        endings=endings,
    )


def _run_parallel(
    game: str,
    rules: Any,
    seed: int,
    work: list[Task],
    workers: int,
    collect: Callable[[TaskResult], None],
) -> None:
    # Forked workers start at once and inherit the imported engines; spawn is the fallback.
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: set[Future[TaskResult]] = {
            pool.submit(run_task, game, rules, seed, task) for task in work
        }
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    collect(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


__all__ = [
    "ArenaConfig",
    "ArenaReport",
    "DecisionTimes",
    "Pairing",
    "Rung",
    "available_cores",
    "ladder_svg",
    "run_arena",
]
