"""The log store: where the server keeps its tables (setup, seats, action log, summary, status)
and the record events their games produce, behind small asynchronous interfaces split by
concern: :class:`MoveLog` (a table's log), :class:`RoomStore` (people's tables' rooms),
:class:`RecordStore` (record events) and :class:`TableListings` (lists of tables from their
summaries). A caller that needs one part names only that one.

:class:`LogStore` is their union, what the lobby holds; :class:`DatabaseLogStore` is the
implementation over one :class:`~cardtable.storage.database.Database` (SQLite by default,
PostgreSQL when configured), and the leased store every server process uses
(:class:`~cardtable.server.cluster.store.LeasedLogStore`) wraps it with the same methods.
"""

from __future__ import annotations

import asyncio
import atexit
import builtins
import contextlib
import functools
import logging
import queue
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any, Final, Protocol

from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from cardtable.storage import records, shared, tables
from cardtable.storage.database import Database, StorageError, storage_error
from cardtable.storage.records import RecordEvent
from cardtable.storage.shared import StoredRoom
from cardtable.storage.tables import ListedTable, StoredTable, TableSummary

logger = logging.getLogger(__name__)


class MoveLog(Protocol):
    """Tables as append-only action logs: made, loaded, played, finished."""

    async def create(
        self,
        *,
        table_id: str,
        owner_id: int,
        game: str,
        rules: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        owner_seat: int,
    ) -> None:
        """Store a new table with its creator at ``owner_seat``."""

    async def load(self, table_id: str) -> StoredTable | None:
        """A table with its whole log, or ``None``."""

    async def sit(self, table_id: str, seat: int, profile_id: int, name: str) -> None:
        """Seat a profile at a free human seat under ``name``."""

    async def append(
        self,
        table_id: str,
        index: int,
        seat: int,
        notation: str,
        summary: TableSummary | None,
        *,
        client_id: str | None = None,
        room: tuple[str, dict[str, Any]] | None = None,
        ending: tuple[str, dict[str, Any] | None] | None = None,
    ) -> None:
        """Store move number ``index``, the table's summary after it (if any), the client id
        it was sent with (if any), a people's table's room phase and document after it (if
        any) and, when the move ends the game or closes the table, its status and result
        (``ending``), all or nothing."""

    async def set_status(self, table_id: str, status: str, result: dict[str, Any] | None) -> None:
        """Store a finished or abandoned table."""

    def close(self) -> None:
        """Finish the queued writes."""


class RoomStore(Protocol):
    """The rooms of people's tables: members, phase, seats, invites, the seed they start from."""

    async def create_room(self, room: StoredRoom) -> None:
        """Store the room of a people's table just created."""

    async def save_room(self, table_id: str, phase: str, room: dict[str, Any]) -> None:
        """Store a people's table's phase and room document."""

    async def load_room(self, table_id: str) -> StoredRoom | None:
        """A table's room, or ``None`` when it is not a people's table."""

    async def table_of_invite(self, token: str) -> str | None:
        """The table an invite token opens."""

    async def unsit(self, table_id: str, seat: int) -> None:
        """Free a human seat."""

    async def set_seats(self, table_id: str, seats: builtins.list[dict[str, Any]]) -> None:
        """Store a table's seats after a change in its waiting room."""

    async def set_seed(self, table_id: str, seed: int) -> None:
        """Store the seed a people's table was dealt from when it started."""


class RecordStore(Protocol):
    """The record events finished games produce, per profile."""

    async def record(self, profile_id: int, events: list[RecordEvent]) -> None:
        """Store record events (each at most once, by key)."""


class TableListings(Protocol):
    """Tables as lists read from their stored summaries: a profile's, and the public rooms."""

    async def list(
        self, profile_id: int, *, status: str, limit: int, offset: int
    ) -> tuple[list[ListedTable], int]:
        """One page of a profile's tables with ``status``, and their number in all."""

    async def count_created(self, profile_id: int, *, status: str) -> int:
        """How many tables with ``status`` a profile created."""

    async def set_summary(self, table_id: str, summary: TableSummary) -> None:
        """Store the summary of a table stored before summaries were kept."""

    async def public_rooms(self, phases: tuple[str, ...], limit: int) -> builtins.list[str]:
        """The public people's tables in one of ``phases``, most recently changed first."""


class LogStore(MoveLog, RoomStore, RecordStore, TableListings, Protocol):
    """Everything the lobby keeps of its tables: their logs, rooms, listings and the record
    events their games produce (each part for the callers that need only it)."""


WRITE_SECONDS = 5.0
"""How long a write may wait for the database (its queue, SQLite's write lock) before it is
refused with :class:`StorageError`: a move the database cannot take in time is refused as
``unavailable`` and the table stays as it was."""
BUSY = "the server's database is busy, so nothing could be stored; try again later"


class DatabaseLogStore:
    """A :class:`LogStore` over the database.

    Nothing here waits for the database on the event loop. Reads and rare writes run in worker
    threads; the writes of play (moves, rooms, finished games, record events) go to one writer
    thread (:class:`_Writer`), in the order they are made, each with a deadline of
    ``write_seconds``: a write still queued at its deadline is refused without being tried,
    and on an SQLite file the writer's own connection waits for the file's write lock (another
    process holding it: a backup, the ``sqlite3`` shell) only as long as the write has left.
    The caller gets the outcome that happened: a refused write stored nothing. The moves that
    reach the writer together are stored in one transaction (:meth:`_run_moves`).
    """

    def __init__(self, db: Database, *, write_seconds: float = WRITE_SECONDS) -> None:
        self.db = db
        self.write_seconds = write_seconds
        self._writer = _Writer(self)
        self._connection: Connection | None = None
        """The writer thread's own connection (an SQLite file only; touched in that thread)."""
        self._busy_ms = -1

    async def _write(self, function: Callable[..., Any], *arguments: Any) -> None:
        await self._writer.submit(_Job(time.monotonic() + self.write_seconds, function, arguments))

    def _run_write(
        self, deadline: float, function: Callable[..., Any], arguments: tuple[Any, ...]
    ) -> None:
        """One write, in the writer thread, only if its deadline has not passed; on an SQLite
        file over the writer's connection, waiting for the lock at most until the deadline."""
        left = deadline - time.monotonic()
        if left <= 0:
            raise StorageError(BUSY)
        if not self.db.file_sqlite:
            function(*arguments)
            return
        connection = self._writer_connection(left)
        try:
            with self.db.holding(connection):
                function(*arguments)
        except BaseException:
            if connection.invalidated or connection.closed:
                self._connection = None
            elif connection.in_transaction():
                connection.rollback()
            raise

    def _run_moves(self, jobs: builtins.list[_Job]) -> None:
        """Moves that reached the writer together, stored in one transaction and one commit
        (group commit: with many tables, the moves that arrive while a commit runs share the
        next one), each job's outcome set; each caller still hears only once the commit that
        holds its move is made. Should that transaction fail, each move is tried again alone,
        so that a move refused (fenced out, its number taken) refuses only itself and each
        gets the outcome of its own write."""
        live: builtins.list[_Job] = []
        now = time.monotonic()
        for job in jobs:
            if job.deadline <= now:
                job.outcome = StorageError(BUSY)
            elif not job.abandoned():
                live.append(job)
        if len(live) > 1:
            deadline = min(job.deadline for job in live)
            moves = [job.arguments[1] for job in live]
            try:
                self._run_write(deadline, tables.append_moves, (self.db, moves))
            except Exception:  # each move is tried alone below, for its own outcome
                logger.debug("a group of %d moves failed; storing each alone", len(live))
            else:
                return
        for job in live:
            try:
                self._run_write(job.deadline, tables.append_moves, (self.db, [job.arguments[1]]))
            except BaseException as exc:
                job.outcome = exc

    def _writer_connection(self, left: float) -> Connection:
        """The writer's SQLite connection, its busy timeout no longer than ``left`` seconds."""
        if self._connection is None:
            try:
                self._connection = self.db.engine.connect()
            except OperationalError as exc:
                raise storage_error(exc) from exc
            self._busy_ms = -1
        # Whole tenths of a second, so that the timeout is set again only when it changes.
        busy_ms = max(1, min(int(left * 10), int(self.write_seconds * 10)) * 100)
        if busy_ms != self._busy_ms:
            raw = self._connection.connection.dbapi_connection
            assert raw is not None
            cursor = raw.cursor()
            cursor.execute(f"PRAGMA busy_timeout = {busy_ms}")
            cursor.close()
            self._busy_ms = busy_ms
        return self._connection

    async def create(
        self,
        *,
        table_id: str,
        owner_id: int,
        game: str,
        rules: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        owner_seat: int,
    ) -> None:
        """Store a new table with its creator at ``owner_seat``."""
        await asyncio.to_thread(
            tables.create_table,
            self.db,
            table_id=table_id,
            owner_id=owner_id,
            game=game,
            rules=rules,
            seed=seed,
            seats=seats,
            owner_seat=owner_seat,
        )

    async def load(self, table_id: str) -> StoredTable | None:
        """A table with its whole log, or ``None``."""
        return await asyncio.to_thread(tables.load_table, self.db, table_id)

    async def sit(
        self, table_id: str, seat: int, profile_id: int, name: str, *, fence: int | None = None
    ) -> None:
        """Seat a profile at a free human seat under ``name`` (with ``fence``, only while the
        table is claimed with that lease token; so for every write of a table's room below)."""
        await asyncio.to_thread(
            functools.partial(tables.sit, fence=fence), self.db, table_id, seat, profile_id, name
        )

    async def append(
        self,
        table_id: str,
        index: int,
        seat: int,
        notation: str,
        summary: TableSummary | None,
        *,
        fence: int | None = None,
        client_id: str | None = None,
        room: tuple[str, dict[str, Any]] | None = None,
        ending: tuple[str, dict[str, Any] | None] | None = None,
    ) -> None:
        """Store move number ``index``, the table's summary after it (if any), its client id
        (if any), the room after it (if any) and the table's status and result when the move
        ends the game or closes the table (``ending``) in one transaction; with ``fence``,
        only while the table is claimed with that lease token."""
        move = tables.StoredMove(
            table_id, index, seat, notation, summary, fence, client_id, room, ending
        )
        await self._writer.submit(
            _Job(time.monotonic() + self.write_seconds, _MOVES, (self.db, move))
        )

    async def set_summary(self, table_id: str, summary: TableSummary) -> None:
        """Store the summary of a table stored before summaries were kept."""
        await asyncio.to_thread(tables.set_summary, self.db, table_id, summary)

    async def set_status(
        self,
        table_id: str,
        status: str,
        result: dict[str, Any] | None,
        *,
        fence: int | None = None,
    ) -> None:
        """Store a finished or abandoned table (with ``fence``, only while the table is
        claimed with that lease token)."""
        await self._write(
            functools.partial(tables.set_status, fence=fence), self.db, table_id, status, result
        )

    async def claim(self, table_id: str, fence: int) -> int | None:
        """Claim a table with a lease token (:func:`cardtable.storage.tables.claim_table`)."""
        return await asyncio.to_thread(tables.claim_table, self.db, table_id, fence)

    async def record(self, profile_id: int, events: list[RecordEvent]) -> None:
        """Store record events (each at most once, by key)."""
        await self._write(records.add_events, self.db, profile_id, events)

    async def list(
        self, profile_id: int, *, status: str, limit: int, offset: int
    ) -> tuple[list[ListedTable], int]:
        """One page of a profile's tables with ``status``, and their number in all."""
        return await asyncio.to_thread(
            tables.list_tables, self.db, profile_id, status=status, limit=limit, offset=offset
        )

    async def count_created(self, profile_id: int, *, status: str) -> int:
        """How many tables with ``status`` a profile created."""
        return await asyncio.to_thread(tables.count_created, self.db, profile_id, status=status)

    async def create_room(self, room: StoredRoom, *, fence: int | None = None) -> None:
        """Store the room of a people's table just created."""
        await asyncio.to_thread(functools.partial(shared.create_room, fence=fence), self.db, room)

    async def save_room(
        self, table_id: str, phase: str, room: dict[str, Any], *, fence: int | None = None
    ) -> None:
        """Store a people's table's phase and room document."""
        await self._write(
            functools.partial(shared.save_room, fence=fence), self.db, table_id, phase, room
        )

    async def load_room(self, table_id: str) -> StoredRoom | None:
        """A table's room, or ``None`` when it is not a people's table."""
        return await asyncio.to_thread(shared.load_room, self.db, table_id)

    async def table_of_invite(self, token: str) -> str | None:
        """The table an invite token opens."""
        return await asyncio.to_thread(shared.table_of_invite, self.db, token)

    async def public_rooms(self, phases: tuple[str, ...], limit: int) -> builtins.list[str]:
        """The public people's tables in one of ``phases``, most recently changed first."""
        return await asyncio.to_thread(shared.public_rooms, self.db, phases, limit)

    async def unsit(self, table_id: str, seat: int, *, fence: int | None = None) -> None:
        """Free a human seat."""
        await self._write(functools.partial(shared.unsit, fence=fence), self.db, table_id, seat)

    async def set_seats(
        self, table_id: str, seats: builtins.list[dict[str, Any]], *, fence: int | None = None
    ) -> None:
        """Store a table's seats after a change in its waiting room."""
        await self._write(
            functools.partial(shared.set_seats, fence=fence), self.db, table_id, seats
        )

    async def set_seed(self, table_id: str, seed: int, *, fence: int | None = None) -> None:
        """Store the seed a people's table was dealt from when it started."""
        await self._write(functools.partial(shared.set_seed, fence=fence), self.db, table_id, seed)

    def close(self) -> None:
        """Finish the queued writes and stop the writer thread."""
        self._writer.close()

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _moves(_db: Database, _move: tables.StoredMove) -> None:
    """Marks a move in the writer's queue: the writer stores the moves queued one after
    another together (:meth:`DatabaseLogStore._run_moves`), never through this."""
    raise AssertionError("moves are stored by the writer's groups")


_MOVES: Final = _moves


class _Job:
    """One write waiting for the writer thread, and its outcome once made."""

    __slots__ = ("arguments", "deadline", "function", "future", "outcome")

    def __init__(
        self, deadline: float, function: Callable[..., Any], arguments: tuple[Any, ...]
    ) -> None:
        self.deadline = deadline
        self.function = function
        self.arguments = arguments
        self.future: asyncio.Future[None] | None = None
        self.outcome: BaseException | None = None

    def abandoned(self) -> bool:
        """Whether the caller was cancelled before the write was tried: then it is not (as
        with a thread pool's work not yet started). Read from the writer thread: a caller
        cancelled just after this is read finds its write made, as it could before."""
        return self.future is not None and self.future.cancelled()


def _stop() -> None:
    """Marks the stop in the writer's queue (:data:`_STOP`), never called."""
    raise AssertionError("the stop is read by the writer, not run")


_STOP: Final = _Job(0.0, _stop, ())
"""Queued to stop the writer once the writes queued before it are made (a function of its own:
a stop queued right behind moves must not be taken for one of them)."""


class _Writer:
    """The log store's one writer thread and its queue.

    A write is queued with a future of the caller's event loop, which the thread sets when the
    write is made: one queue put and one wake-up of the loop per write, where
    ``run_in_executor`` adds a concurrent future, a work item and the chaining of the two
    futures. The thread takes everything queued at once and makes the writes in order, each
    run of moves among them in one transaction (:meth:`DatabaseLogStore._run_moves`), and
    wakes each loop once per batch. A daemon thread, so that a store nobody closed never
    holds the interpreter open; its queued writes are still finished at exit.
    """

    def __init__(self, store: DatabaseLogStore) -> None:
        self._store = store
        self._queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._closed = False

    async def submit(self, job: _Job) -> None:
        """Queue ``job`` and wait for its outcome (raised, if it failed)."""
        if self._thread is None:
            self._start()
        future = job.future = asyncio.get_running_loop().create_future()
        self._queue.put(job)
        await future

    def _start(self) -> None:
        with self._lock:
            if self._closed:
                raise RuntimeError("the log store is closed")
            if self._thread is None:
                thread = threading.Thread(target=self._run, name="cardtable-db", daemon=True)
                thread.start()
                self._thread = thread
                _WRITERS.add(self)

    def _run(self) -> None:
        store, waiting = self._store, self._queue
        while True:
            batch = [waiting.get()]
            while not waiting.empty():
                batch.append(waiting.get_nowait())
            done = 0
            while done < len(batch) and batch[done] is not _STOP:
                job = batch[done]
                if job.function is _MOVES:
                    end = done + 1
                    while end < len(batch) and batch[end].function is _MOVES:
                        end += 1
                    try:
                        store._run_moves(batch[done:end])
                    except BaseException as exc:  # never leaves a caller waiting
                        for job in batch[done:end]:
                            job.outcome = job.outcome or exc
                    done = end
                    continue
                if not job.abandoned():
                    try:
                        store._run_write(job.deadline, job.function, job.arguments)
                    except BaseException as exc:
                        job.outcome = exc
                done += 1
            _settle(batch[:done])
            if done < len(batch):  # stopped: what came after the stop is refused
                store._close_connection()
                _settle(batch[done + 1 :], RuntimeError("the log store is closed"))
                while not waiting.empty():
                    _settle([waiting.get_nowait()], RuntimeError("the log store is closed"))
                return

    def close(self) -> None:
        """Finish the queued writes and stop the thread; later writes raise ``RuntimeError``."""
        with self._lock:
            thread, self._closed = self._thread, True
            self._thread = None
        if thread is None:
            return
        self._queue.put(_STOP)
        thread.join()
        _WRITERS.discard(self)
        while not self._queue.empty():  # queued while it stopped: refused, nobody left waiting
            _settle([self._queue.get_nowait()], RuntimeError("the log store is closed"))


def _settle(jobs: builtins.list[_Job], refusal: BaseException | None = None) -> None:
    """Give each job's caller its outcome on the caller's loop (one wake-up per loop)."""
    by_loop: dict[asyncio.AbstractEventLoop, builtins.list[_Job]] = {}
    for job in jobs:
        if refusal is not None:
            job.outcome = refusal
        if job.future is not None:
            by_loop.setdefault(job.future.get_loop(), []).append(job)
    for loop, settled in by_loop.items():
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(_set_outcomes, settled)


def _set_outcomes(jobs: builtins.list[_Job]) -> None:
    for job in jobs:
        future = job.future
        if future is None or future.done():  # its caller was cancelled meanwhile
            continue
        if job.outcome is None:
            future.set_result(None)
        else:
            future.set_exception(job.outcome)


_WRITERS: weakref.WeakSet[_Writer] = weakref.WeakSet()


@atexit.register
def _finish_writers() -> None:
    """Finish the queued writes of the stores still open when the interpreter exits."""
    for writer in builtins.list(_WRITERS):
        writer.close()
