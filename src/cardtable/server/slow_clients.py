"""Connections that take too long to say what they want are closed.

uvicorn closes an idle keep-alive connection, but waits for ever on one that opens and sends
nothing, or trickles its request head a byte at a time: a few hundred such connections hold
as many file descriptors and protocol objects for good. :class:`HeadDeadlineProtocol` is
uvicorn's httptools protocol with one more rule: a request's head (its line and headers) must
be complete within ``header_timeout_seconds`` of the connection opening, or of the previous
answer on it; otherwise the connection is closed, with no answer (it asked nothing yet).
A websocket's handshake is such a head; a websocket that stops answering pings is closed by
uvicorn's own ping timeout.

``cardtable serve`` passes the class to uvicorn by reference, so that its worker processes
import it again; they read the deadline from ``CARDTABLE_HEADER_TIMEOUT_SECONDS``, which the
command sets from the settings, and one process alone has it set by :func:`configure`.
"""

from __future__ import annotations

import asyncio
import logging
import os
from typing import ClassVar, Final

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

logger = logging.getLogger(__name__)

ENVIRONMENT_VARIABLE: Final = "CARDTABLE_HEADER_TIMEOUT_SECONDS"
DEFAULT_SECONDS: Final = 10.0


def _from_environment() -> float:
    try:
        return float(os.environ.get(ENVIRONMENT_VARIABLE, DEFAULT_SECONDS))
    except ValueError:
        return DEFAULT_SECONDS


class HeadDeadlineProtocol(HttpToolsProtocol):
    """uvicorn's HTTP protocol, closing a connection whose request head is late."""

    head_seconds: ClassVar[float] = _from_environment()

    _head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._start_head_timer()

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_head_timer()
        super().connection_lost(exc)

    def on_headers_complete(self) -> None:
        self._stop_head_timer()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        # The next request on this keep-alive connection has the same time for its head.
        if not self.transport.is_closing():
            self._start_head_timer()

    def _start_head_timer(self) -> None:
        self._stop_head_timer()
        self._head_timer = self.loop.call_later(self.head_seconds, self._head_too_late)

    def _stop_head_timer(self) -> None:
        if self._head_timer is not None:
            self._head_timer.cancel()
            self._head_timer = None

    def _head_too_late(self) -> None:
        self._head_timer = None
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being answered: its head came in time
        if not self.transport.is_closing():
            logger.debug("closing a connection whose request head took too long")
            self.transport.close()


def configure(header_timeout_seconds: float) -> None:
    """Set the deadline for this process (and, through the environment, for the worker
    processes it starts)."""
    HeadDeadlineProtocol.head_seconds = header_timeout_seconds
    os.environ[ENVIRONMENT_VARIABLE] = str(header_timeout_seconds)
