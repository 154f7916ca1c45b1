"""The end of a deal and of a game at a table: each finished deal, hand or game recorded for
the people seated (their Record), and the table marked finished with its result once the game
is over, or closed when it reaches its move limit.

A failure to store the end is logged, never raised: the players still see it. A refusal
because another process of a cluster owns the table now is expected there (the new owner
stores the end when it loads the table): a warning, not an error.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from cardtable.games.contract import TERMINAL
from cardtable.registry import table_format_of
from cardtable.server.narration import Outcome
from cardtable.server.table.setup import TableSetup
from cardtable.storage import ABANDONED, FINISHED, PLAYING, FencedOutError, LogStore, RecordEvent
from cardtable.storage.record_totals import RecordDetails

logger = logging.getLogger(__name__)


class EndingTable(Protocol):
    """What the end of a game reads and changes at its table (the table owner)."""

    status: str

    @property
    def setup(self) -> TableSetup: ...
    @property
    def state(self) -> Any: ...
    @property
    def version(self) -> int: ...


async def record(
    store: LogStore,
    setup: TableSetup,
    seated: dict[int, int],
    marks: Callable[[int], RecordDetails],
    outcomes: Sequence[Outcome],
) -> None:
    """Record ``outcomes`` for every person seated, with the table's ``marks`` for the seat
    (a people's table's results are counted apart)."""
    shown = table_format_of(setup.game, setup.rules)
    for seat, profile in seated.items():
        # Your Record keeps a game with formats by its format (a Pool 101 game as such).
        details: RecordDetails = {} if shown is None else {"format": shown.key}
        details |= marks(seat)
        events = [
            RecordEvent(
                key=f"{setup.table_id}:{outcome.kind}:{outcome.number}",
                game=setup.game,
                kind=outcome.kind,
                won=outcome.seats[seat].won,
                points=outcome.seats[seat].points,
                details=dict(outcome.seats[seat].details) | details,
            )
            for outcome in outcomes
        ]
        await store.record(profile, events)


def ending_after(setup: TableSetup, state: Any, version: int) -> tuple[str, Any] | None:
    """The status and result a playing table takes with the move that leads to ``state`` at
    ``version``: ``FINISHED`` with the result once the game is over, ``ABANDONED`` at the
    move limit, else ``None``; stored with that move (:func:`took_ending`), so that no
    listing shows a game that is over as being played, whenever the process stops."""
    engine = setup.engine
    result = engine.result(state)
    if result is None and engine.current_player(state) != TERMINAL:
        return (ABANDONED, None) if version >= setup.max_moves else None
    return FINISHED, None if result is None else result.to_json()


def took_ending(table: EndingTable, stored: tuple[str, Any] | None) -> None:
    """The table takes on the ending stored with its last move (:func:`ending_after`), if
    any (the lock is held)."""
    if stored is not None and table.status == PLAYING:
        table.status = stored[0]
        if stored[0] == ABANDONED:
            _log_move_limit(table.setup)


def foresee(table: EndingTable, after: Any) -> tuple[bool, tuple[str, Any] | None]:
    """Whether the ending the move leading to ``after`` gives its table could be told, and
    that ending (:func:`ending_after`; ``None`` for none, or for a table no longer playing).
    When it could not be told, the end is looked for after the move (:func:`settle`)."""
    if table.status != PLAYING:
        return True, None
    try:
        return True, ending_after(table.setup, after, table.version + 1)
    except Exception:  # the end is then looked for, and stored, after the move as before
        logger.exception("table %s: no ending after move %d", table.setup.table_id, table.version)
        return False, None


async def settle(
    table: EndingTable, store: LogStore, told: bool, stored: tuple[str, Any] | None
) -> None:
    """After a move is stored: the table takes on the ending stored with it, or, when
    :func:`foresee` could not tell it, looks for its end now (the lock is held)."""
    if told:
        took_ending(table, stored)
    else:
        await finish_if_over(table, store)


async def finish_if_over(table: EndingTable, store: LogStore) -> None:
    """Once the game is over, mark the table finished and store that with the result; at the
    move limit, close it (the lock is held). For a table loaded with its end not stored, or
    whose last move could not tell its ending."""
    setup = table.setup
    engine = setup.engine
    result = engine.result(table.state)
    if table.status != PLAYING:
        return
    if result is None and engine.current_player(table.state) != TERMINAL:
        if table.version >= setup.max_moves:
            await _close_at_move_limit(table, store)
        return
    table.status = FINISHED
    try:
        await store.set_status(
            setup.table_id, FINISHED, None if result is None else result.to_json()
        )
    except FencedOutError as exc:
        logger.warning("table %s: the finished game was not stored here: %s", setup.table_id, exc)
    except Exception:
        logger.exception("table %s: could not store the finished game", setup.table_id)


def _log_move_limit(setup: TableSetup) -> None:
    logger.info("table %s: closed at the limit of %d moves", setup.table_id, setup.max_moves)


async def _close_at_move_limit(table: EndingTable, store: LogStore) -> None:
    """Close a game that reached its move limit unfinished: stored as abandoned; the state
    sent next says it is closed, and the computer players and turn timers stop at their next
    look (they do nothing at a finished table)."""
    table_id = table.setup.table_id
    _log_move_limit(table.setup)
    table.status = ABANDONED
    try:
        await store.set_status(table_id, ABANDONED, None)
    except FencedOutError as exc:
        logger.warning("table %s: the closing was not stored here: %s", table_id, exc)
    except Exception:
        logger.exception("table %s: could not store the closed table", table_id)
