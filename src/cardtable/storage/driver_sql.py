"""Core statements compiled once per database dialect and run as the driver's own SQL.

The writes made after every move (the table's row, the action, the room) are the same three
statements every time. Executed as Core statements, each execution still costs SQLAlchemy its
per-execution work (the compiled form looked up by cache key, the execution context set up
from it, the parameters processed by type) at several times what the database itself spends.
:class:`DriverStatement` does that work once per dialect, keeping the SQL text, the order of
its parameters and each parameter's type processor (a ``DateTime`` written as SQLite's text,
a ``JSON`` document serialised as the column type does it), and then executes the text with
:meth:`~sqlalchemy.engine.Connection.exec_driver_sql`: the connection, its transaction, its
events (``before_cursor_execute`` and the rest) and its error wrapping stay SQLAlchemy's, so a
failing write (a full disk, a database that went away) raises and rolls back as before.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Connection, CursorResult
from sqlalchemy.engine import Dialect
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
        laid = {
            name: (values[name] if name not in processors else processors[name](values[name]))
            for name in dict.fromkeys(self.names)
        }
        if self.positional:
            return tuple(laid[name] for name in self.names)
        return laid


class DriverStatement:
    """A Core statement executed as driver SQL, compiled once per dialect (see the module
    docstring). Every bound parameter must be given a value at each execution."""

    __slots__ = ("_by_dialect", "statement")

    def __init__(self, statement: Executable) -> None:
        self.statement = statement
        self._by_dialect: dict[Dialect, _Compiled] = {}

    def execute(self, connection: Connection, values: Mapping[str, Any]) -> CursorResult[Any]:
        """Run the statement on ``connection`` (in its transaction) with ``values``."""
        dialect = connection.dialect
        compiled = self._by_dialect.get(dialect)
        if compiled is None:
            compiled = self._by_dialect[dialect] = _Compiled(self.statement, dialect)
        return connection.exec_driver_sql(compiled.sql, compiled.parameters(values))
