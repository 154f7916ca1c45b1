"""A table's computer players: the bot of each computer seat, and the one runner task that
plays their moves, paced, until a person is to move or the game ends (at a people's table
also the moves made for a person who timed out, stayed away or left).

Computer players think off the event loop, with the table's state as it was when they were
asked: in a worker thread, or for a searching level in one of the lobby's worker processes
(so that the search does not hold the interpreter lock the loop needs). Their moves go
through the table's own commit under its lock, like every other move.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Sequence
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from typing import Any, Protocol

from cardtable.bots.base import RandomBot
from cardtable.server import metrics
from cardtable.server.logs import bind_table
from cardtable.server.narration import Outcome
from cardtable.server.people.player_options import PAUSE_AFTER_DEAL
from cardtable.server.people.room import TAKEOVER_LEVEL
from cardtable.server.protocol.messages import AutoReason, ProtocolError
from cardtable.server.table import advisors
from cardtable.server.table.seating import Seat
from cardtable.server.table.services import TableServices
from cardtable.server.table.setup import TableSetup

logger = logging.getLogger(__name__)

MAX_STORE_RETRY_SECONDS = 30.0
"""The longest a computer player waits before trying again a move the database could not
store (a database that is away, a full disk)."""


class BotTable(Protocol):
    """What the computer players ask of their table (the table owner)."""

    @property
    def setup(self) -> TableSetup: ...
    @property
    def seats(self) -> list[Seat]: ...
    @property
    def state(self) -> Any: ...
    @property
    def version(self) -> int: ...
    @property
    def finished(self) -> bool: ...
    @property
    def waiting(self) -> bool: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def last_outcomes(self) -> tuple[int, tuple[Outcome, ...]]: ...
    @property
    def services(self) -> TableServices[Any]: ...

    def bot_seat(self, seat: int) -> bool: ...
    def takeover(self, seat: int) -> AutoReason | None: ...
    async def commit(
        self, seat: int, action: Any, after: Any, *, auto: AutoReason | None = None
    ) -> None: ...


@dataclass(slots=True)
class ComputerPlayers:
    """The computer players of one table (see the module docstring)."""

    delay: Callable[[], float]
    """Seconds a computer player waits before its move (its creator's opponent speed)."""
    stretch_floor: float = 0.0
    """Seconds a computer player waits at least when the move before was a computer's too
    (the others' turns after a person's, or a whole game after a person dropped out): a
    computer-only stretch never runs flat out, whatever the opponent speed (the settings'
    ``bot_stretch_floor_seconds``, scaled as every pause)."""
    bots: dict[int, Any] = field(default_factory=dict)
    task: asyncio.Task[None] | None = None

    def running(self) -> bool:
        """Whether the runner is playing (or pausing before) a move."""
        return self.task is not None and not self.task.done()

    def forget(self) -> None:
        """Build each seat's bot anew (a new deal of a people's table)."""
        self.bots.clear()

    def wake(self, table: BotTable) -> None:
        """Start the runner if a computer player is to move and none is running."""
        task = self.task
        # A runner on an event loop that has stopped never finishes (the test client serves
        # each socket on a loop of its own, stopped when that socket closes): start anew.
        if task is not None and not task.done() and task.get_loop().is_running():
            return
        if table.waiting:
            return
        if table.finished or not table.bot_seat(table.setup.engine.current_player(table.state)):
            return
        self.task = asyncio.get_running_loop().create_task(self._run(table))

    def stop(self) -> None:
        """Cancel the runner (at shutdown or when the table closes)."""
        if self.task is not None and not self.task.done():
            self.task.cancel()
        self.task = None

    async def _run(self, table: BotTable) -> None:
        """Play the computer seats' moves, paced, until a human is to move or the game ends."""
        setup = table.setup
        bind_table(setup.table_id)
        failures = 0
        # Moves in a row by computer players since a person's (this runner starts after one).
        stretch = 0
        while not table.finished:
            if not table.bot_seat(setup.engine.current_player(table.state)):
                return
            delay = self.delay()
            if table.last_outcomes[1] and table.last_outcomes[0] == table.version:
                delay *= PAUSE_AFTER_DEAL
            if stretch:  # the second computer move in a row, or later
                delay = max(delay, self.stretch_floor)
            if failures:  # the last move could not be stored: wait longer each time
                delay = max(delay, min(MAX_STORE_RETRY_SECONDS, 0.5 * 2**failures))
            await self.pause(delay)
            stretch += 1
            async with table.lock:
                if table.finished:
                    return
                seat = setup.engine.current_player(table.state)
                if not table.bot_seat(seat):
                    continue
                try:
                    await self.move(table, seat)
                    failures = 0
                except ProtocolError as exc:  # the move could not be stored: try again later
                    failures += 1
                    logger.warning("table %s: %s; trying again", setup.table_id, exc)
                    continue
                except Exception:
                    logger.exception("the bot at table %s seat %d failed", setup.table_id, seat)
                    return

    async def pause(self, seconds: float) -> None:
        """A computer player's pause before its move."""
        await asyncio.sleep(seconds)

    async def move(self, table: BotTable, seat: int, auto: AutoReason | None = None) -> None:
        """A computer player's move for ``seat`` (the lock is held): its own, or one made for
        a person (``auto`` says why: ``timeout``, ``away``, ``left``; by default as the
        table's ``takeover`` says)."""
        setup, state = table.setup, table.state
        engine = setup.engine
        legal = engine.legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} is to move but has no legal action")
        if auto is None:
            auto = table.takeover(seat)
        level = TAKEOVER_LEVEL if auto is not None else table.seats[seat].level or "random"
        bot = self.bots.get(seat) if auto is None else None
        if bot is None:
            bot = advisors.seat_bot(setup.game, level)
            if auto is None:
                self.bots[seat] = bot
        rng = random.Random(f"cardtable-bot:{setup.seed}:{table.version}:{seat}")
        view = engine.view(state, seat)
        try:
            action = await self._think(table, bot, level, view, legal, rng)
            after = engine.apply(state, action, seat)
        except Exception:  # a faulty bot must not stall the table: play a random move instead
            logger.exception("bot %s at table %s failed; moving at random", bot, setup.table_id)
            action = RandomBot().choose(view, legal, rng)
            after = engine.apply(state, action, seat)
        await table.commit(seat, action, after, auto=auto)

    async def _think(
        self,
        table: BotTable,
        bot: Any,
        level: str,
        view: Any,
        legal: Sequence[Any],
        rng: random.Random,
    ) -> Any:
        """The bot's choice, off the event loop: a searching level in a worker process when
        the lobby has them, anything else (or if the processes are gone) in a thread."""
        workers = table.services.thinkers() if level in advisors.SEARCH_LEVELS else None
        with metrics.BOT_THINKING.labels(level).time():
            if workers is not None:
                try:
                    return await asyncio.get_running_loop().run_in_executor(
                        workers, advisors.think, table.setup.game, level, view, list(legal), rng
                    )
                except BrokenExecutor:
                    logger.warning("the worker processes are gone; thinking in a thread")
            return await asyncio.to_thread(advisors.choose_counted, bot, view, legal, rng)
