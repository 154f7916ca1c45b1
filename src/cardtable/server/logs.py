"""Log lines: each one about a table names the table, as text or as one JSON object a line.

A line is about a table when its call passes ``extra={"table_id": ...}`` or when it is logged
while :func:`about_table` is in force (a table's websocket and its computer players set it), so
``grep`` or a log search finds a table's whole story across processes. :func:`log_config` is
the ``logging.config.dictConfig`` of ``cardtable serve`` (uvicorn applies it in every worker):
the server's and uvicorn's loggers through one handler, with the process id on every line.

:class:`ExpectedEvents` (installed by :func:`quiet_expected_events`, which the app calls)
turns what uvicorn logs as an error with a traceback, but is only a client's doing, into one
informational line: a websocket text frame that is not valid UTF-8 (closed with 1007).
"""

from __future__ import annotations

import contextvars
import json
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any, Final, Literal

NO_TABLE: Final = "-"

_table: contextvars.ContextVar[str] = contextvars.ContextVar("cardtable_table", default=NO_TABLE)


@contextmanager
def about_table(table_id: str) -> Iterator[None]:
    """Lines logged inside the block (and by tasks started in it) name ``table_id``."""
    token = _table.set(table_id)
    try:
        yield
    finally:
        _table.reset(token)


def bind_table(table_id: str) -> None:
    """Lines logged from now on in this task name ``table_id`` (for a task of one table)."""
    _table.set(table_id)


class TableFilter(logging.Filter):
    """Gives every record a ``table_id`` attribute: its own, the current table's, or ``-``."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not getattr(record, "table_id", None):
            record.table_id = _table.get()
        return True


EXPECTED_UVICORN_ERRORS: Final = frozenset({"Invalid UTF-8 sequence received from client."})
"""Messages uvicorn logs with a traceback for a client's bad input, answered as it should be."""


class ExpectedEvents(logging.Filter):
    """Logs a client's expected misbehaviour that uvicorn reports as an error (see
    :data:`EXPECTED_UVICORN_ERRORS`) as one informational line, without a traceback.

    >>> record = logging.LogRecord("uvicorn.error", logging.ERROR, "", 0,
    ...     "Invalid UTF-8 sequence received from client.", None, (ValueError, ValueError(), None))
    >>> ExpectedEvents().filter(record), record.levelname, record.exc_info
    (True, 'INFO', None)
    """

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.error" and record.msg in EXPECTED_UVICORN_ERRORS:
            record.msg = f"{record.msg} The connection was closed (1007)."
            record.exc_info, record.exc_text = None, None
            record.levelno, record.levelname = logging.INFO, "INFO"
        return True


def quiet_expected_events() -> None:
    """Install :class:`ExpectedEvents` on uvicorn's error logger (once)."""
    uvicorn_errors = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, ExpectedEvents) for f in uvicorn_errors.filters):
        uvicorn_errors.addFilter(ExpectedEvents())


class JsonFormatter(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, process, table, message
    (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "pid": record.process,
            "message": record.getMessage(),
        }
        table_id = getattr(record, "table_id", NO_TABLE)
        if table_id != NO_TABLE:
            line["table_id"] = table_id
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


TEXT_FORMAT: Final = (
    "%(asctime)s %(levelname)s [%(process)d] %(name)s table=%(table_id)s: %(message)s"
)


def log_config(log_format: Literal["text", "json"] = "text", level: str = "INFO") -> dict[str, Any]:
    """The logging configuration of ``cardtable serve``.

    >>> log_config("json")["formatters"]["lines"]["()"]
    'cardtable.server.logs.JsonFormatter'
    """
    formatter: dict[str, Any] = (
        {"()": "cardtable.server.logs.JsonFormatter"}
        if log_format == "json"
        else {"format": TEXT_FORMAT}
    )
    handler = ["lines"]
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "filters": {"table": {"()": "cardtable.server.logs.TableFilter"}},
        "formatters": {"lines": formatter},
        "handlers": {
            "lines": {
                "class": "logging.StreamHandler",
                "formatter": "lines",
                "filters": ["table"],
                "stream": "ext://sys.stderr",
            }
        },
        "loggers": {
            "cardtable": {"handlers": handler, "level": level, "propagate": False},
            "uvicorn": {"handlers": handler, "level": level, "propagate": False},
            "uvicorn.error": {"level": level},
            "uvicorn.access": {"handlers": handler, "level": level, "propagate": False},
        },
    }
