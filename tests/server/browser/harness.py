"""The pieces the browser tests stand on: the app served by uvicorn on a background thread,
the Chromium command line, and a page paired with the script errors it reported."""

from __future__ import annotations

import os
import socket
import threading
import time
from dataclasses import dataclass, field

import uvicorn
from playwright.sync_api import Page, ViewportSize

from cardtable.server.app import create_app
from cardtable.server.settings import Settings

CHROMIUM = os.environ.get("CARDTABLE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP: ViewportSize = {"width": 1280, "height": 900}
PHONE: ViewportSize = {"width": 390, "height": 844}


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


BROWSER_SEED = 20261204
"""The seed every table of the browser tests' servers is dealt from, unless a test's own
settings say otherwise."""


class LiveServer:
    """The app in a uvicorn server on its own thread; ``stop()`` shuts it down cleanly."""

    def __init__(
        self, database_url: str, port: int | None = None, settings: Settings | None = None
    ) -> None:
        self.database_url = database_url
        self.port = port or free_port()
        # Every page comes from one address, far faster than people: no rate limits here (the
        # limits have tests of their own). Every table is dealt from one seed, so that what a
        # test meets at the table is the same on every run; a test of the fair deals' proofs
        # passes settings without it (see the ``fair_server`` fixture).
        chosen = settings or Settings(rate_limits=False, test_seed=BROWSER_SEED)
        app = create_app(database_url, settings=chosen, bot_delay_scale=0)
        config = uvicorn.Config(
            app, host="127.0.0.1", port=self.port, log_level="warning", ws_ping_interval=None
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, name="cardtable-app", daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the cardtable app did not start")
            time.sleep(0.02)

    @property
    def url(self) -> str:
        """The page's address."""
        return f"http://127.0.0.1:{self.port}/"

    def stop(self) -> None:
        """Stop serving and wait for the thread to end."""
        self.server.should_exit = True
        self.thread.join(timeout=20)


@dataclass
class Servers:
    """Starts servers over one database file and stops them all at teardown."""

    database_url: str
    started: list[LiveServer] = field(default_factory=list)

    def start(self, settings: Settings | None = None) -> LiveServer:
        """A new server over the same database (with ``settings`` instead of the tests' own)."""
        server = LiveServer(self.database_url, settings=settings)
        self.started.append(server)
        return server

    def stop_all(self) -> None:
        """Stop every server still running."""
        for server in self.started:
            if server.thread.is_alive():
                server.stop()


class PageErrors:
    """Script errors and failed requests seen by a page; ``allow`` names tolerated texts."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def allow(self, fragment: str) -> None:
        """Tolerate console errors containing ``fragment`` (an expected disconnection)."""
        self.allowed.append(fragment)

    def unexpected(self) -> list[str]:
        """Errors not allowed."""
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


@dataclass
class BrowserPage:
    """A page plus the errors it collected."""

    page: Page
    errors: PageErrors
