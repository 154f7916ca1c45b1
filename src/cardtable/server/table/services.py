"""What a table is handed from outside, as one bundle: the log store it writes its moves to,
the clock of its timers, the worker processes its searching computer players think in, and
the lobby's answers and listeners (a people's table's seed and rematch, the timing of each
move, every finished deal). Handed in, so that a test gives a table a store, a clock or a
listener of its own."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from cardtable.server.narration import Outcome
from cardtable.storage import LogStore

Table = TypeVar("Table")
"""The table the lobby's callbacks are handed (the owner)."""


@dataclass(slots=True)
class Timing:
    """One human move: when its message arrived and when every connected seat had its view."""

    table_id: str
    received: float
    broadcast: float


def _no_thinkers() -> Executor | None:
    return None


@dataclass(frozen=True, slots=True)
class TableServices(Generic[Table]):
    """The services of one table (see the module docstring)."""

    store: LogStore
    clock: Callable[[], float] = time.monotonic
    """The clock of timers and grace periods (tests may pass another)."""
    thinkers: Callable[[], Executor | None] = _no_thinkers
    """The worker processes for searching computer players (``None``: threads only)."""
    seed_source: Callable[[Table, dict[int, str]], Awaitable[int]] | None = None
    """Draws a people's table's seed at the start, from the people's contributions."""
    rematch_maker: Callable[[Table], Awaitable[str]] | None = None
    """Makes the rematch table of a finished people's table; its id."""
    on_timing: Callable[[Timing], None] | None = None
    on_outcomes: Callable[[Table, Any, tuple[Outcome, ...]], None] | None = None
    """Told of every finished deal, hand or game: the table, the state before the move that
    finished it, and what it finished (the analysis queues the hand)."""
