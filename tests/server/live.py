"""A real HTTP server for tests that need one (keep-alive connections, sockets closed
mid-answer): uvicorn serving an app on a free loopback port in a thread of the test process,
so the test may patch the app's modules; stopped at the end of the ``with`` block."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from typing import Any

import uvicorn


def free_port() -> int:
    """A TCP port free on the loopback address right now."""
    with closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def serving(app: Any, *, deadline: float = 20.0) -> Iterator[int]:
    """Serve ``app`` on 127.0.0.1 until the block ends; the port."""
    port = free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            app, host="127.0.0.1", port=port, log_level="info", lifespan="on", log_config=None
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        until = time.monotonic() + deadline
        while not server.started:
            assert thread.is_alive(), "the test server stopped while starting"
            assert time.monotonic() < until, "the test server did not start in time"
            time.sleep(0.05)
        yield port
    finally:
        server.should_exit = True
        thread.join(deadline)
