"""Fixtures for the real-browser tests: the app served by uvicorn in a background thread over a
SQLite file, headless Chromium driven by Playwright, pages that fail the test on any script
error, and a folder for screenshots.

Chromium is Debian's ``/usr/bin/chromium`` (``CARDTABLE_CHROMIUM`` overrides the path); the
tests fail, never skip, when it is missing. Screenshots go to ``CARDTABLE_SCREENSHOTS`` when set,
else to a temporary folder. Every test of this folder is marked ``browser`` here, so that
``-m "not browser"`` leaves them all out (and starts no Chromium) without each file saying so.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, ViewportSize, sync_playwright

from cardtable.server.settings import Settings

from .harness import CHROMIUM, CHROMIUM_ARGS, DESKTOP, BrowserPage, LiveServer, PageErrors, Servers


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark every test collected under this folder as a browser test."""
    item.add_marker(pytest.mark.browser)


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[Servers]:
    """A server factory over a fresh SQLite file."""
    factory = Servers(f"sqlite:///{tmp_path / 'cardtable.db'}")
    yield factory
    factory.stop_all()


@pytest.fixture
def server(servers: Servers) -> LiveServer:
    """One running app over a fresh database, dealing every table from one seed."""
    return servers.start()


@pytest.fixture
def fair_server(servers: Servers) -> LiveServer:
    """One running app that draws each table's seed as a site does (a fixed test seed leaves
    a game without the fair deal's commitment, so its replay has nothing to verify)."""
    return servers.start(Settings(rate_limits=False))


@pytest.fixture(scope="session")
def playwright_session() -> Iterator[Playwright]:
    """The Playwright driver for the whole run."""
    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="session")
def browser(playwright_session: Playwright) -> Iterator[Browser]:
    """Headless Chromium; a missing executable fails the run loudly."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium is needed for the browser tests but {CHROMIUM} does not exist")
    chromium = playwright_session.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


@pytest.fixture(scope="session")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots are saved."""
    chosen = os.environ.get("CARDTABLE_SCREENSHOTS")
    folder = Path(chosen) if chosen else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def open_page(browser: Browser) -> Iterator[Callable[..., BrowserPage]]:
    """Open pages (desktop size unless ``viewport`` says otherwise) in one browser context,
    sharing the profile cookie; each test fails on any uncaught script error."""
    opened: list[BrowserPage] = []
    contexts: list[BrowserContext] = []

    def opener(
        viewport: ViewportSize | None = None,
        reduced_motion: Literal["no-preference", "null", "reduce"] = "no-preference",
    ) -> BrowserPage:
        if not contexts:
            contexts.append(
                browser.new_context(
                    viewport=viewport or DESKTOP,
                    reduced_motion=reduced_motion,
                    accept_downloads=True,
                )
            )
        page = contexts[0].new_page()
        if viewport:
            page.set_viewport_size(viewport)
        page.set_default_timeout(15000)
        errors = PageErrors()
        page.on("pageerror", lambda exc: errors.errors.append(f"page error: {exc}"))
        page.on(
            "console",
            lambda message: (
                errors.errors.append(f"console: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        entry = BrowserPage(page, errors)
        opened.append(entry)
        return entry

    yield opener
    problems = [problem for entry in opened for problem in entry.errors.unexpected()]
    for context in contexts:
        context.close()
    assert not problems, f"the page reported errors: {problems}"
