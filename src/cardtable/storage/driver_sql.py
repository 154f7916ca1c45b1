"""Core statements compiled once per database dialect and run on the driver's own cursor.

The writes made after every move (the table's row, the action, the room) are the same few
statements every time. Executed as Core statements, or even as driver SQL through
:meth:`~sqlalchemy.engine.Connection.exec_driver_sql`, each execution still costs SQLAlchemy
its per-execution work (an execution context, a result object, the parameters processed by
type, the events looked up) at several times what the database itself spends.
:class:`DriverStatement` does the compiling once per dialect, keeping the SQL text, the order
of its parameters and each parameter's type processor (a ``DateTime`` written as SQLite's
text, a ``JSON`` document serialised as the column type does it), and then executes the text
on the DBAPI cursor of a SQLAlchemy connection, in a transaction begun, committed and rolled
back on the DBAPI connection (:class:`DriverCursor`). A driver error is raised as the error
SQLAlchemy would have raised for it (:class:`~sqlalchemy.exc.OperationalError` for a full
disk or a database that went away, :class:`~sqlalchemy.exc.IntegrityError` for a key taken),
and a lost connection is invalidated, so callers handle failures as for any other statement.

Being the driver's, these executions do not pass through SQLAlchemy's cursor events
(``before_cursor_execute`` and the rest).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import DBAPIError, StatementError
from sqlalchemy.sql import Executable
from sqlalchemy.sql.compiler import SQLCompiler


class _Compiled:
    """One statement's text for one dialect, with how to lay out its parameters."""

    __slots__ = ("names", "positional", "processors", "sql")

    def __init__(self, statement: Executable, dialect: Dialect) -> None:
        compiled = statement.compile(dialect=dialect)  # type: ignore[attr-defined]
        assert isinstance(compiled, SQLCompiler)
        self.sql: str = compiled.string
        self.positional: bool = bool(dialect.positional)
        self.names: tuple[str, ...] = (
            tuple(compiled.positiontup or ()) if self.positional else tuple(compiled.binds)
        )
        self.processors: dict[str, Callable[[Any], Any]] = {}
        for name in self.names:
            processor = compiled.binds[name].type.dialect_impl(dialect).bind_processor(dialect)
            if processor is not None:
                self.processors[name] = processor

    def parameters(self, values: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        """``values`` by bound parameter name, processed and laid out as the driver takes
        them (a tuple in order for a positional paramstyle, else a dictionary)."""
        processors = self.processors
        if self.positional:
            return tuple(
                values[name] if name not in processors else processors[name](values[name])
                for name in self.names
            )
        return {
            name: (values[name] if name not in processors else processors[name](values[name]))
            for name in self.names
        }


class DriverStatement:
    """A Core statement executed on the driver's cursor, compiled once per dialect (see the
    module docstring). Every bound parameter must be given a value at each execution."""

    __slots__ = ("_by_dialect", "statement")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._by_dialect: dict[Dialect, _Compiled] = {}

    def compiled(self, dialect: Dialect) -> _Compiled:
        """The statement compiled for ``dialect`` (once)."""
        compiled = self._by_dialect.get(dialect)
        if compiled is None:
            compiled = self._by_dialect[dialect] = _Compiled(self.statement, dialect)
        return compiled


class DriverCursor:
    """A transaction of the driver's own on a SQLAlchemy connection that is in none, for
    :class:`DriverStatement` executions (``with DriverCursor(connection) as cursor``): the
    statements run on the DBAPI cursor, committed on the DBAPI connection when the block
    ends, rolled back when it raises (a connection that cannot even roll back is
    invalidated, so that its pool or owner opens another). SQLAlchemy's own begin and commit
    would cost more than the statements; errors are raised as SQLAlchemy's all the same."""

    __slots__ = ("_connection", "_cursor", "_dialect", "_raw")

    def __init__(self, connection: Connection) -> None:
        self._connection = connection
        self._dialect = connection.dialect
        self._raw: Any = None
        self._cursor: Any = None

    def __enter__(self) -> DriverCursor:
        assert not self._connection.in_transaction(), "SQLAlchemy's transaction is not this one"
        self._raw = self._connection.connection.dbapi_connection
        try:
            self._cursor = self._raw.cursor()
        except self._dialect.loaded_dbapi.Error as exc:
            raise self._wrapped(exc, "cursor", None, self._raw) from exc
        return self

    def __exit__(self, kind: type[BaseException] | None, *_exc: object) -> None:
        raw, cursor, self._raw, self._cursor = self._raw, self._cursor, None, None
        error = self._dialect.loaded_dbapi.Error
        with contextlib.suppress(error):  # the connection is gone already
            cursor.close()
        if kind is None:
            try:
                raw.commit()
            except error as exc:
                self._roll_back(raw)
                raise self._wrapped(exc, "COMMIT", None, raw) from exc
        else:
            self._roll_back(raw)

    def _roll_back(self, raw: Any) -> None:
        try:
            raw.rollback()
        except self._dialect.loaded_dbapi.Error as exc:
            self._connection.invalidate(exc)

    def _wrapped(
        self, exc: Any, sql: str, parameters: Any, raw: Any, cursor: Any = None
    ) -> StatementError:
        """The SQLAlchemy error for a driver's; a lost connection is invalidated."""
        lost = self._dialect.is_disconnect(exc, raw, cursor)
        if lost:
            self._connection.invalidate(exc)
        error: StatementError = DBAPIError.instance(
            sql,
            parameters,
            exc,
            self._dialect.loaded_dbapi.Error,
            connection_invalidated=lost,
            dialect=self._dialect,
        )
        return error

    def execute(self, statement: DriverStatement, values: Mapping[str, Any]) -> int:
        """Run ``statement`` with ``values``; the number of rows it changed."""
        compiled = statement.compiled(self._dialect)
        parameters = compiled.parameters(values)
        cursor = self._cursor
        try:
            cursor.execute(compiled.sql, parameters)
        except self._dialect.loaded_dbapi.Error as exc:
            raise self._wrapped(exc, compiled.sql, parameters, self._raw, cursor) from exc
        return int(cursor.rowcount)
