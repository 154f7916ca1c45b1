"""The page and its profile cookie: the page load gives a new browser its profile, and when the
cookie is gone while the page is open (cleared by the player), the page's next call asks for a
new profile once and goes on, instead of failing."""

from __future__ import annotations

from collections.abc import Callable

from cardtable.server.routes.identity import COOKIE_NAME

from .harness import BrowserPage, LiveServer


def _profile_cookies(page: BrowserPage) -> list[str]:
    return [c["value"] for c in page.page.context.cookies() if c["name"] == COOKIE_NAME]


def test_a_cleared_cookie_gets_a_new_profile_on_the_next_call(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    opened = open_page()
    page = opened.page
    page.goto(server.url)
    (first,) = _profile_cookies(opened)
    page.context.clear_cookies()
    opened.errors.allow("status of 401")  # the call the page then repeats
    profile = page.evaluate(
        "() => import('/static/js/api.js').then((module) => module.api.profile())"
    )
    assert profile["name"] == "Player"
    (second,) = _profile_cookies(opened)
    assert second != first
