"""Regressions of tables shared between people found by a newcomer (issue 23): hints and prompts
outliving the turn or the game, ten seats on a phone with people dropping out, and the
reconnecting banner over an opponent's name."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, expect

from cardtable.server.settings import Settings

from .harness import LiveServer, Servers
from .peoplekit import (
    Person,
    host_table,
    join_table,
    people,
    play_together,
    send_move,
    wait_all_at_table,
    wait_moved,
)

pytestmark = pytest.mark.browser

SEED = 20261201


@pytest.fixture
def live(servers: Servers) -> LiveServer:
    """A server dealing from a fixed seed, with timers a tenth as long."""
    return servers.start(Settings(rate_limits=False, test_seed=SEED, shared_time_scale=0.1))


def frames_of(person: Person, kind: str) -> list[dict[str, Any]]:
    """The frames of type ``kind`` the person's page received so far."""
    return [frame for frame in person.frames if frame.get("type") == kind]


def whose_turn(everyone: list[Person]) -> Person:
    """The person to move now (waiting for the table to settle on one)."""
    for _ in range(100):
        for person in everyone:
            info = person.info()
            if info["seat"] is not None and info["toMove"] == info["seat"] and not info["pending"]:
                return person
        everyone[0].page.wait_for_timeout(100)
    raise AssertionError("nobody came to move")


def test_a_hint_never_outlives_its_turn_or_the_game(live: LiveServer, browser: Browser) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(ann, live.url, "declaration-rummy", ["open"])
        join_table(bob, invite)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        mover = whose_turn([ann, bob])
        page = mover.page
        version = mover.info()["version"]
        page.locator(".hand-tools button[aria-keyshortcuts=H]").click()
        expect(page.locator("#hint-line")).to_be_visible()
        # The answer names the table version it advises on.
        hint = frames_of(mover, "hint")[-1]
        assert hint["version"] == version, hint
        send_move(mover, mover.info()["legal"][0])
        wait_moved(mover, version)
        expect(page.locator("#hint-line")).to_be_hidden()
        # The same answer arriving only now (another seat moved while it was worked out, or it
        # came the long way round through another server): the turn has passed, it is not shown.
        page.evaluate("h => window.cardtable.view.onMessage(h)", hint)
        expect(page.locator("#hint-line")).to_be_hidden()
        assert page.evaluate("() => window.cardtable.view.hint") is None

        play_together([ann, bob], "declaration-rummy", min_turns=2)
        for person in (ann, bob):
            expect(person.page.locator(".result-banner")).to_be_visible()
            expect(person.page.locator("#hint-line")).to_be_hidden()
            # Asking at the end advises nothing: there is no move left.
            asked = len(frames_of(person, "hint"))
            person.page.locator(".hand-tools button[aria-keyshortcuts=H]").click()
            expect(person.page.locator("#announcer")).to_contain_text("The game is over")
            expect(person.page.locator("#hint-line")).to_be_hidden()
            assert len(frames_of(person, "hint")) == asked
            # A stock exhausted when the game ended prompts nobody to take the discard.
            person.page.evaluate(
                "() => { const t = window.cardtable.view; t.message.view.exhaustion = true;"
                " t.renderAll(); }"
            )
            expect(person.page.locator(".centre")).not_to_contain_text("stock is exhausted")
