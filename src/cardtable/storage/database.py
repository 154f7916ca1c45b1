"""The connection to the database: engine, sessions, and the schema brought up to date.

SQLite files get write-ahead logging, a busy timeout and foreign keys, so that the web app's
worker threads can write one table's move while another table is read. Any other URL (such as
PostgreSQL) is passed to SQLAlchemy as it is. A database that cannot take a write (a full disk,
a read-only file) raises :class:`StorageError` with a sentence saying so, which the server
answers as a JSON error while it keeps serving.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session, sessionmaker

from cardtable.errors import CardtableError
from cardtable.storage.driver_sql import DriverCursor
from cardtable.storage.location import default_database_url
from cardtable.storage.migrate import upgrade


class StorageError(CardtableError, RuntimeError):
    """The database could not do what was asked (full disk, read-only, unreachable): not the
    caller's fault; nothing was stored."""


def storage_error(exc: OperationalError) -> StorageError:
    """The sentence for a database failure.

    >>> from sqlalchemy.exc import OperationalError
    >>> str(storage_error(OperationalError("insert", {}, Exception("database or disk is full"))))
    "the server's disk is full, so nothing could be stored; try again later"
    """
    text = str(exc.orig if exc.orig is not None else exc).lower()
    if "disk is full" in text or "no space left" in text or "disk full" in text:
        reason = "the server's disk is full"
    elif "readonly" in text or "read-only" in text:
        reason = "the server's database is read-only"
    elif "locked" in text or "busy" in text:
        reason = "the server's database is busy"
    else:
        reason = "the server's database could not be reached"
    return StorageError(f"{reason}, so nothing could be stored; try again later")


class Database:
    """One database: an SQLAlchemy engine with its schema migrated to the newest revision
    (:mod:`cardtable.storage.migrate`) and a session factory.

    >>> db = Database("sqlite://")
    >>> with db.session() as session:
    ...     session.connection().exec_driver_sql("select 1").scalar()
    1
    >>> db.close()
    """

    def __init__(self, url: str | None = None) -> None:
        self.url = url if url is not None else default_database_url()
        self.engine = _make_engine(self.url)
        try:
            upgrade(self.engine)
        except OperationalError as exc:
            self.engine.dispose()
            raise StorageError(
                f"cannot open the database {self.url}: {exc.orig if exc.orig else exc}"
            ) from exc
        except BaseException:
            self.engine.dispose()
            raise
        self._sessions = sessionmaker(self.engine, expire_on_commit=False)
        self._held = threading.local()
        self.file_sqlite: bool = self.engine.dialect.name == "sqlite" and (
            self.engine.url.database not in (None, "", ":memory:")
        )
        """Whether this is an SQLite file (not in memory, not another database)."""

    @contextmanager
    def holding(self, connection: Connection) -> Iterator[None]:
        """Make this thread's sessions and writes use ``connection`` meanwhile (the log
        store's writer thread keeps one open, with its own busy timeout)."""
        self._held.connection = connection
        try:
            yield
        finally:
            self._held.connection = None

    @contextmanager
    def session(self) -> Iterator[Session]:
        """A session committed on success and rolled back on error; a database failure is
        raised as :class:`StorageError`."""
        held: Connection | None = getattr(self._held, "connection", None)
        try:
            if held is None:
                with self._sessions() as session, session.begin():
                    yield session
            else:
                with Session(bind=held, expire_on_commit=False) as session, session.begin():
                    yield session
        except OperationalError as exc:
            raise storage_error(exc) from exc

    @contextmanager
    def transaction(self) -> Iterator[Connection]:
        """A Core connection in a transaction (committed on success): this thread's held
        connection if it has one, else one from the pool; a database failure is raised as
        :class:`StorageError`. Cheaper than a session, for the writes made after every move."""
        held: Connection | None = getattr(self._held, "connection", None)
        try:
            if held is None:
                with self.engine.begin() as connection:
                    yield connection
            else:
                with held.begin():
                    yield held
        except OperationalError as exc:
            raise storage_error(exc) from exc

    @contextmanager
    def driver_transaction(self) -> Iterator[DriverCursor]:
        """A transaction of the driver's own (:class:`DriverCursor`) on this thread's held
        connection if it has one, else on one from the pool: committed on success; a
        database failure is raised as :class:`StorageError`. The cheapest write there is,
        for the moves."""
        held: Connection | None = getattr(self._held, "connection", None)
        try:
            if held is None:
                with self.engine.connect() as connection, DriverCursor(connection) as cursor:
                    yield cursor
            else:
                with DriverCursor(held) as cursor:
                    yield cursor
        except OperationalError as exc:
            raise storage_error(exc) from exc

    def close(self) -> None:
        """Release every pooled connection."""
        self.engine.dispose()


def _make_engine(url: str) -> Engine:
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return create_engine(url, pool_pre_ping=True)
    database = parsed.database or ""
    in_memory = database in ("", ":memory:")
    if not in_memory:
        Path(database).expanduser().parent.mkdir(parents=True, exist_ok=True)
    options: dict[str, Any] = {"connect_args": {"check_same_thread": False, "timeout": 30}}
    if in_memory:
        # One shared connection, or every session would see its own empty database.
        from sqlalchemy.pool import StaticPool

        options["poolclass"] = StaticPool
    engine = create_engine(url, **options)
    event.listen(engine, "connect", _sqlite_pragmas(wal=not in_memory))
    return engine


def _sqlite_pragmas(*, wal: bool) -> Any:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA foreign_keys=ON")
        if wal:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    return on_connect
