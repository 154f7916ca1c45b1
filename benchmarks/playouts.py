"""Random playouts shared by the playout benchmarks: our engines beside OpenSpiel's gin_rummy.

A playout is a whole game in which every seat picks uniformly among its playing actions
(:func:`cardtable.playouts.playing_actions`: the legal ones less those that end a random game at
once, Indian Rummy's drop and wrong shows, Declaration Rummy's drop and tie proposals; OpenSpiel's
gin_rummy seats pick among all its legal actions, which hold only valid knocks). Every step is
timed: chance steps (deals, shuffles, reshuffles), the legal-action lists, the random
choice and applying it. A :class:`Run` keeps the totals of one timed run; its headline figure is
microseconds per seat decision, all the work divided by the seat decisions, so engines whose
games differ in length can be set side by side.

Three ways to play are offered:

* :func:`engine_playouts`: ``current_player`` / ``chance_step`` / ``legal_actions`` /
  ``apply_unchecked`` in a tight loop, the way a search bot drives an engine;
* :func:`driver_playouts`: :func:`cardtable.driver.play` with bot seats, which also builds each
  seat's view before it chooses;
* :func:`openspiel_gin_playouts`: ``pyspiel.load_game("gin_rummy")`` driven by the same loop from
  Python, chance outcomes drawn uniformly. Before the first timed run a few untimed games check
  that every chance node met has equal probabilities (true of gin_rummy's deal and draws), so
  the uniform draw is the game's own distribution and costs no more than it must.

:func:`interleave` runs contenders in turn, run by run, so that a change in the machine's load
falls on all of them alike; :class:`Summary` gives the medians of a contender's runs.
"""

from __future__ import annotations

import functools
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from cardtable.bots.base import Bot
from cardtable.driver import play
from cardtable.games.contract import GameEngine
from cardtable.playouts import random_playouts

AnyEngine = GameEngine[Any, Any, Any, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class Run:
    """Totals of one timed run of playouts."""

    games: int
    decisions: int
    chance_steps: int
    seconds: float

    @property
    def us_per_decision(self) -> float:
        return self.seconds / self.decisions * 1e6

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds


@dataclass(frozen=True)
class Summary:
    """The runs of one contender: median and best cost per decision, median games per second,
    and decisions and chance steps per game pooled over all the runs."""

    runs: tuple[Run, ...]

    @property
    def median_us(self) -> float:
        return statistics.median(run.us_per_decision for run in self.runs)

    @property
    def best_us(self) -> float:
        return min(run.us_per_decision for run in self.runs)

    @property
    def games_per_second(self) -> float:
        return statistics.median(run.games_per_second for run in self.runs)

    @property
    def decisions_per_game(self) -> float:
        return sum(run.decisions for run in self.runs) / sum(run.games for run in self.runs)

    @property
    def chance_steps_per_game(self) -> float:
        return sum(run.chance_steps for run in self.runs) / sum(run.games for run in self.runs)


def summarize(runs: Sequence[Run | None]) -> Summary | None:
    """The summary of the runs that happened (``None`` where the engine was not installed)."""
    done = tuple(run for run in runs if run is not None)
    return Summary(done) if done else None


def interleave(measures: Sequence[Callable[[int], T]], runs: int) -> list[list[T]]:
    """Call every measure with the run index 0 .. runs - 1, in turn: ``result[k][i]`` is
    measure k's run i. Alternating run by run lets a busy machine slow every measure alike."""
    results: list[list[T]] = [[] for _ in measures]
    for index in range(runs):
        for results_of_measure, measure in zip(results, measures, strict=True):
            results_of_measure.append(measure(index))
    return results


def engine_playouts(engine: AnyEngine, rules: Any, seconds: float, seed: int) -> Run:
    """Full-length random playouts through the engine's fast path for at least ``seconds``
    (:func:`cardtable.playouts.random_playouts`: the seats pick among the playing actions, so
    no Indian Rummy drop or wrong show, no Declaration Rummy drop or tie proposal); game ``g``
    is dealt from ``seed + g``."""
    totals = random_playouts(engine, rules, seed, seconds=seconds)
    return Run(totals.games, totals.decisions, totals.chance_steps, totals.seconds)


def driver_playouts(
    engine: AnyEngine, rules: Any, seconds: float, seed: int, seats: Sequence[Bot]
) -> Run:
    """Whole games through :func:`cardtable.driver.play` for at least ``seconds``, the bots'
    choices fed by one ``random.Random(seed)``; game ``g`` is dealt from ``seed + g``."""
    rng = random.Random(seed)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        game = play(engine, rules, seed + games, seats, rng=rng)
        decisions += len(game.actions)
        chance_steps += game.chance_steps
        games += 1
        if time.perf_counter() > deadline:
            return Run(games, decisions, chance_steps, time.perf_counter() - start)


def _check_uniform_chance(game: Any, rng: random.Random, games: int = 5) -> None:
    """Play a few random games and stop the benchmark if a chance node is not uniform."""
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                if len({round(probability, 12) for _, probability in outcomes}) != 1:
                    raise SystemExit("gin_rummy has a chance node that is not uniform")
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])


@functools.cache
def _openspiel_gin() -> Any | None:
    """OpenSpiel's gin_rummy, checked once for uniform chance; ``None`` if not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("gin_rummy")
    _check_uniform_chance(game, random.Random(7))
    return game


def openspiel_gin_playouts(seconds: float, seed: int) -> Run | None:
    """Random gin_rummy playouts through pyspiel for at least ``seconds``, or ``None`` when
    pyspiel is not installed."""
    game = _openspiel_gin()
    if game is None:
        return None
    rng = random.Random(seed)
    games = decisions = chance_steps = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance_steps += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                decisions += 1
        games += 1
        if time.perf_counter() > deadline:
            return Run(games, decisions, chance_steps, time.perf_counter() - start)


TABLE_HEADER = f"{'us/decision':>12}{'games/s':>10}{'decisions/game':>16}{'chance/game':>13}"


def table_row(summary: Summary) -> str:
    """The figures of one contender, in the columns of :data:`TABLE_HEADER`."""
    return (
        f"{summary.median_us:>12.2f}{summary.games_per_second:>10.0f}"
        f"{summary.decisions_per_game:>16.1f}{summary.chance_steps_per_game:>13.1f}"
    )
