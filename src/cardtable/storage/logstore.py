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
import builtins
import contextlib
import functools
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Protocol

from sqlalchemy import Connection
from sqlalchemy.exc import OperationalError

from cardtable.storage import records, shared, tables
from cardtable.storage.database import Database, StorageError, storage_error
from cardtable.storage.records import RecordEvent
from cardtable.storage.shared import StoredRoom
from cardtable.storage.tables import ListedTable, StoredTable, TableSummary


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
    ) -> None:
        """Store move number ``index``, the table's summary after it (if any), the client id
        it was sent with (if any) and a people's table's room phase and document after it (if
        any), all or nothing."""

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
    thread, in the order they are made, each with a deadline of ``write_seconds``: a write
    still queued at its deadline is refused without being tried, and on an SQLite file the
    writer's own connection waits for the file's write lock (another process holding it: a
    backup, the ``sqlite3`` shell) only as long as the write has left. The caller gets the
    outcome that happened: a refused write stored nothing.
    """

    def __init__(self, db: Database, *, write_seconds: float = WRITE_SECONDS) -> None:
        self.db = db
        self.write_seconds = write_seconds
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-db")
        self._connection: Connection | None = None
        """The writer thread's own connection (an SQLite file only; touched in that thread)."""
        self._busy_ms = -1

    async def _write(self, function: Callable[..., Any], *arguments: Any) -> None:
        deadline = time.monotonic() + self.write_seconds
        await asyncio.get_running_loop().run_in_executor(
            self._writer, self._run_write, deadline, function, arguments
        )

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
    ) -> None:
        """Store move number ``index``, the table's summary after it (if any), its client id
        (if any) and the room after it (if any) in one transaction; with ``fence``, only while
        the table is claimed with that lease token."""
        await self._write(
            functools.partial(tables.append_action, fence=fence, client_id=client_id, room=room),
            self.db,
            table_id,
            index,
            seat,
            notation,
            summary,
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
        with contextlib.suppress(RuntimeError):  # closed already
            self._writer.submit(self._close_connection)
        self._writer.shutdown(wait=True)

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
