"""Regressions of tables shared between people found by a newcomer (issue 23): hints and prompts
outliving the turn or the game, ten seats on a phone with people dropping out, and the
reconnecting banner over an opponent's name."""

from __future__ import annotations

import contextlib
import re
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

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
from .tablekit import screenshot, settle

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


SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"

PRESENCES: dict[str, dict[str, Any]] = {
    "online": {"connected": True},
    "reconnecting": {"connected": False, "reconnecting_ms": 95000},
    "offline": {"connected": False, "reconnecting_ms": None},
    "away": {"connected": False, "away": True},
    "left": {"connected": False, "left": True},
}
"""Every presence a person's seat can show."""

SEATS_JS = """({presence, turnMs}) => {
  // Every other seat a person with a long name in the same presence, one of them on a turn
  // clock with a time bank: the widest seats a shared table can draw. The room is drawn as
  // just received (its clocks count down from now).
  const table = window.cardtable.view;
  const room = table.room;
  const mine = room.you.seat;
  room.seats = room.seats.map((entry, s) => s === mine ? entry : {
    ...entry, kind: 'person', name: `Alexandrina ${s}`, away: false, left: false,
    reconnecting_ms: null, ...presence});
  const other = (mine + 1) % room.seats.length;
  room.turn = {seat: other, remaining_ms: turnMs, bank_ms: 60000};
  table.message.to_move = other;
  table.roomAt = performance.now();
  table.renderAll();
}"""

OVERFLOWS_JS = """() => {
  // Every change to the table's text (a clock's tick among them) is checked at once, before
  // the next frame: a page fitted only on that frame overflows the window meanwhile.
  const doc = document.documentElement;
  window.__overflows = [];
  window.__overflowWatch?.disconnect();
  window.__overflowWatch = new MutationObserver(() => {
    if (doc.scrollHeight > innerHeight || doc.scrollWidth > innerWidth) {
      window.__overflows.push(`${doc.scrollWidth}x${doc.scrollHeight}`);
    }
  });
  window.__overflowWatch.observe(document.querySelector('.table'),
    {subtree: true, childList: true, characterData: true});
}"""

FIT_JS = """() => {
  const doc = document.documentElement;
  const out = [];
  for (const seat of document.querySelectorAll('.seat.opponent')) {
    const box = seat.getBoundingClientRect();
    for (const part of seat.querySelectorAll('.seat-head, .seat-presence, .seat-meta, .presence')) {
      const r = part.getBoundingClientRect();
      if (!r.width) continue;
      const outside = r.left < box.left - 0.5 || r.right > box.right + 0.5;
      if (outside || part.scrollWidth > part.clientWidth + 1) {
        const [wide, room] = [Math.round(r.width), Math.round(box.width)];
        out.push(`${seat.dataset.seat}: ${part.className} ${wide}px in ${room}px`);
      }
    }
  }
  return {width: doc.scrollWidth, window: innerWidth, height: doc.scrollHeight,
    windowHeight: innerHeight, clipped: out, fit: document.querySelector('.table').dataset.fit,
    rows: [...document.querySelector('.table-main').children].map(
      (el) => `${el.className}:${Math.round(el.getBoundingClientRect().height)}`)};
}"""

DRAWER_JS = """() => {
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.left >= -0.5 && r.right <= innerWidth + 0.5; };
  const drawer = document.querySelector('.table-side');
  return {close: inside(drawer.querySelector('.side-close')),
    cells: [...drawer.querySelectorAll('.score-table th, .score-table td')].every(inside),
    width: document.documentElement.scrollWidth};
}"""


SEAT_WORDS_JS = """() => {
  const names = [...document.querySelectorAll('.seat.opponent')].map((seat) => ({
    mover: seat.classList.contains('to-move'),
    width: seat.querySelector('.seat-name').getBoundingClientRect().width}));
  const tight = [];
  for (const button of document.querySelectorAll('.actions .btn')) {
    const box = button.getBoundingClientRect();
    const range = document.createRange();
    range.selectNodeContents(button);
    for (const line of range.getClientRects()) {
      // A line's box takes in its trailing space: 2 px clear of each edge at least.
      if (line.left - box.left < 2 || box.right - line.right < 2) tight.push(button.textContent);
    }
  }
  return {
    moverName: names.filter((n) => n.mover).map((n) => n.width)[0],
    otherNames: names.filter((n) => !n.mover).map((n) => n.width),
    countMarks: [...document.querySelectorAll('.seat.opponent .hand-size')].map((el) =>
      getComputedStyle(el, '::before').content === '""' ? 'card' : 'bare'),
    tightLabels: [...new Set(tight)],
  };
}"""


def fitted(page: Page) -> dict[str, Any]:
    """The table's measures once it has been fitted to the window after a change (it refits
    within a frame or two; a table that never fits is measured as it stays)."""
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(
            "() => document.documentElement.scrollHeight <= innerHeight"
            " && document.documentElement.scrollWidth <= innerWidth",
            timeout=2000,
        )
    measured: dict[str, Any] = page.evaluate(FIT_JS)
    return measured


@pytest.mark.parametrize("size", [(390, 844), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_ten_seats_on_a_phone_fit_with_every_presence(
    live: LiveServer, browser: Browser, size: tuple[int, int]
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(ann, live.url, "declaration-rummy", ["open"] + ["normal"] * 8, grace=10)
        join_table(bob, invite)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        page = ann.page
        page.set_viewport_size({"width": size[0], "height": size[1]})
        # Bob really drops, and after the grace (a second here) a computer player moves for
        # him: the table is fitted again as his seat changes, with no more room updates to come.
        bob.page.close()
        dropped = page.locator(".seat.opponent", has_text="Bob").locator(".presence")
        # (The drop, the grace and the computer player's takeover are the server's: on a
        # loaded machine they take a few seconds more than an assertion's default wait.)
        expect(dropped).to_have_class(re.compile(r"\baway\b"), timeout=20000)
        # Our turn: the table waits for us (no more states to redraw the seats meanwhile),
        # and the last move's card has landed.
        page.wait_for_function("() => document.querySelector('.table').dataset.myTurn === 'true'")
        settle(page)
        measured = fitted(page)
        assert measured["width"] <= size[0] and measured["height"] <= size[1], str(measured)
        SHOTS.mkdir(parents=True, exist_ok=True)
        for name, presence in PRESENCES.items():
            page.evaluate(SEATS_JS, {"presence": presence, "turnMs": 25000})
            where = f"{name} at {size[0]}x{size[1]}"
            measured = fitted(page)
            screenshot(page, str(SHOTS / f"friends-10-{name}-{size[0]}x{size[1]}.png"))
            assert measured["width"] <= measured["window"], f"{where}: wider than the window"
            assert measured["height"] <= measured["windowHeight"], f"{where}: taller {measured}"
            assert measured["clipped"] == [], f"{where}: {measured['clipped']}"
        # The turn's time runs out in every presence: "0:01" becomes "Time bank 1:00", which
        # wraps the crowded seat's clock onto a line of its own. The table is fitted again as
        # the clock changes, never a frame later.
        for name, presence in PRESENCES.items():
            page.evaluate(OVERFLOWS_JS)
            page.evaluate(SEATS_JS, {"presence": presence, "turnMs": 600})
            expect(page.locator(".seat.opponent .turn-clock.on-bank")).to_have_count(1)
            where = f"{name} at {size[0]}x{size[1]}, the turn on the bank"
            measured = fitted(page)
            assert page.evaluate("() => window.__overflows") == [], where
            assert measured["height"] <= measured["windowHeight"], f"{where}: taller {measured}"
            assert measured["clipped"] == [], f"{where}: {measured['clipped']}"
        # The phone seats' words (all seats alike, one of them to move): the name of the seat
        # to move is not cut shorter by turn dots, a card count stands beside a small card.
        words = page.evaluate(SEAT_WORDS_JS)
        assert words["moverName"] >= min(words["otherNames"]) - 1, words
        assert words["countMarks"] == ["card"] * 9, words
        # The tools read as written ("Leave table", not "Leave Table"); the moves' labels keep
        # clear of their buttons' edges.
        assert page.locator(".table-tools .leave").inner_text() == "Leave table"
        assert page.locator(".hand-tools").inner_text().split() == [
            "Suit",
            "Rank",
            "Arrange",
            "Hint",
        ]
        assert words["tightLabels"] == [], words
        page.locator(".side-toggle").click()
        expect(page.locator(".table-side .side-close")).to_be_visible()
        settle(page)
        drawer = page.evaluate(DRAWER_JS)
        screenshot(page, str(SHOTS / f"friends-10-drawer-{size[0]}x{size[1]}.png"))
        assert drawer == {"close": True, "cells": True, "width": size[0]}, drawer
