"""Playing the arena's games: one task (some deals of one lineup, every seat rotation) at a
time, in whatever process runs it, timing every real decision of every bot.

Only plain data leaves this module (:class:`GameOutcome`, :class:`TaskResult`), so tasks can
run in worker processes and their results travel back cheaply.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from cardtable.arena.schedule import Task, deal_seed, derived_seed, level_of, rotations
from cardtable.bots import make_bot
from cardtable.bots.base import Bot
from cardtable.driver import play
from cardtable.registry import get_engine


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One finished game: which bot sat where and how it ended."""

    lineup: int
    deal: int
    rotation: int
    seats: tuple[str, ...]
    utilities: tuple[float, ...]
    scores: tuple[int | None, ...]
    winners: tuple[int, ...]
    reason: str
    actions: int


@dataclass(slots=True)
class TaskResult:
    """The games of one task and the decision times (seconds) of each bot label."""

    games: list[GameOutcome] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)


class TimedBot:
    """Wraps a bot and records how long each real decision (two or more legal actions) took."""

    def __init__(self, bot: Bot, sink: list[float]) -> None:
        self.bot = bot
        self.name = bot.name
        self.version = bot.version
        self.sink = sink

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """The wrapped bot's choice, timed."""
        if len(legal_actions) < 2:
            return self.bot.choose(view, legal_actions, rng)
        start = time.perf_counter()
        action = self.bot.choose(view, legal_actions, rng)
        self.sink.append(time.perf_counter() - start)
        return action


_BOT_CACHE: dict[tuple[str, str], Bot] = {}


def _bot(game: str, level: str) -> Bot:
    key = (game, level)
    if key not in _BOT_CACHE:
        _BOT_CACHE[key] = make_bot(game, level)
    return _BOT_CACHE[key]


def run_task(game: str, rules: Any, master_seed: int, task: Task) -> TaskResult:
    """Play every game of ``task`` and return the outcomes with decision times."""
    engine = get_engine(game)
    result = TaskResult()
    for label in set(task.lineup.bots):
        result.times[label] = []
    for deal in range(task.first_deal, task.first_deal + task.deals):
        seed = deal_seed(master_seed, deal)
        for rotation, seating in enumerate(rotations(task.lineup.bots)):
            bots = [TimedBot(_bot(game, level_of(label)), result.times[label]) for label in seating]
            # Each seat gets its own dice, the same for a bot wherever it sits on this deal.
            dice = [
                random.Random(derived_seed("arena-bot", master_seed, deal, label))
                for label in seating
            ]
            seats = [_SeatDice(bot, die) for bot, die in zip(bots, dice, strict=True)]
            played = play(engine, rules, seed, seats, rng=random.Random(0))
            outcome = engine.result(played.state)
            if outcome is None:  # pragma: no cover - engines always end at their cap
                raise RuntimeError(f"{game} game with seed {seed} did not end")
            result.games.append(
                GameOutcome(
                    lineup=task.lineup.index,
                    deal=deal,
                    rotation=rotation,
                    seats=seating,
                    utilities=tuple(float(u) for u in outcome.utilities),
                    scores=tuple(outcome.scores),
                    winners=tuple(outcome.winners),
                    reason=outcome.reason,
                    actions=len(played.actions),
                )
            )
    return result


class _SeatDice:
    """A seat that always rolls its own dice, whatever generator the driver passes."""

    def __init__(self, bot: TimedBot, dice: random.Random) -> None:
        self.bot = bot
        self.name = bot.name
        self.version = bot.version
        self.dice = dice

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        return self.bot.choose(view, legal_actions, self.dice)
