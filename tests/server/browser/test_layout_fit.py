"""The table fits the window: for each game at 1280x800, 1366x768, 800x600, 390x844 and
360x640, after dealing, the page needs no scrolling either way and the hand, the piles and the
moves of this moment are inside the window, below the header; the same with the coach open and
a hint shown; on a phone every card of a 13-14 card hand keeps a finger-wide strip uncovered.
A screenshot of each game at each size is saved under ``artifacts/screenshots``.

One page is reused for every size of a game, so the whole check stays quick."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from cardtable.server.settings import Settings

from .harness import BrowserPage, LiveServer, Servers
from .tablekit import screenshot, wait_my_turn

pytestmark = pytest.mark.browser

LAYOUT_SEED = 4
"""Deals in which our first turn comes at every table here: with four or ten players, Random
computer players may end a game before it (about one game in twelve with four, one in four
with ten, so five deals in a row failed about once in a thousand runs). The deal and the
computer players' moves follow from the seed."""


@pytest.fixture
def server(servers: Servers) -> LiveServer:
    """The app dealing every table from :data:`LAYOUT_SEED`."""
    return servers.start(Settings(rate_limits=False, test_seed=LAYOUT_SEED))


SIZES = [(1280, 800), (1366, 768), (800, 600), (390, 844), (360, 640)]
ARTIFACTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"

# Each game with its largest hand or most opponents: Indian Rummy deals 13 (14 after drawing)
# and seats six in Pool, Declaration Rummy seats up to ten.
TABLES = [
    ("indecision", {"players": 2}),
    ("indian-rummy", {"players": 2}),
    # Pool 101 at its largest: six seats of 13 cards each, with the standings beside the table.
    ("indian-rummy", {"players": 6, "allow_six_players": True, "format": "pool"}),
    ("declaration-rummy", {"players": 4}),
    ("declaration-rummy", {"players": 10}),
]

MEASURE_JS = """() => {
  const doc = document.documentElement;
  const rect = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const all = (sel) => [...document.querySelectorAll(sel)]
    .filter((el) => el.getClientRects().length).map(rect);
  const cards = [...document.querySelectorAll('.hand .hand-card')].map(rect);
  return {
    scrollWidth: doc.scrollWidth, scrollHeight: doc.scrollHeight,
    width: innerWidth, height: innerHeight,
    header: rect(document.querySelector('.topbar')),
    table: rect(document.querySelector('.table-main')),
    hand: rect(document.querySelector('.hand')),
    cards,
    piles: all('[data-zone=stock], [data-zone=pile]'),
    actions: all('.actions button'),
    opponents: all('.seat.opponent'),
  };
}"""


def create_table(page: Page, url: str, game: str, rules: dict[str, Any]) -> None:
    """Open a new table against random computer players through the app's own API module."""
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (rules["players"] - 1)
    table_id = page.evaluate(
        "spec => import('/static/js/api.js').then(m => m.api.createTable(spec))"
        ".then(t => t.table_id)",
        {"game": game, "rules": rules, "seats": seats},
    )
    page.goto(f"{url}#/table/{table_id}")
    page.wait_for_selector(".table[data-version]")
    wait_my_turn(page)


def open_table_at_my_turn(page: Page, url: str, game: str, rules: dict[str, Any]) -> None:
    """A new table where it is our turn, with a card lifted (its moves, such as discard, stop
    or declare, are among those shown)."""
    create_table(page, url, game, rules)
    page.locator(".hand .hand-card").first.click(position={"x": 8, "y": 12})
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)


def refit(page: Page, width: int, height: int) -> dict[str, Any]:
    """Resize the window, let the table refit, and measure it."""
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_function(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r(true))))"
    )
    measured: dict[str, Any] = page.evaluate(MEASURE_JS)
    return measured


def assert_fits(m: dict[str, Any], where: str) -> None:
    """No scrolling, and what one plays with is inside the window and below the header."""
    assert m["scrollHeight"] <= m["height"], f"{where}: page taller than the window {m}"
    assert m["scrollWidth"] <= m["width"], f"{where}: page wider than the window {m}"
    assert m["table"]["top"] >= m["header"]["bottom"] - 0.5, f"{where}: header covers the table"
    boxes = {"hand": [m["hand"]], "card": m["cards"], "pile": m["piles"], "action": m["actions"]}
    assert m["cards"] and m["piles"] and m["actions"], f"{where}: nothing to play with {m}"
    for name, rects in boxes.items():
        for r in rects:
            inside = (
                r["left"] >= -0.5
                and r["top"] >= m["header"]["bottom"] - 0.5
                and r["right"] <= m["width"] + 0.5
                and r["bottom"] <= m["height"] + 0.5
            )
            assert inside, f"{where}: a {name} is outside the window: {r}"


def assert_touch_targets(m: dict[str, Any], where: str) -> None:
    """Each card of the hand shows at least 32 px of itself beside the card after it."""
    rows: dict[int, list[dict[str, float]]] = {}
    for r in m["cards"]:
        rows.setdefault(round(r["top"] / 4), []).append(r)
    for row in rows.values():
        row.sort(key=lambda r: r["left"])
        for left, right in itertools.pairwise(row):
            assert right["left"] - left["left"] >= 31.5, f"{where}: a card shows under 32 px"


@pytest.mark.parametrize(("game", "rules"), TABLES, ids=lambda v: str(v))
def test_the_table_fits_every_window_with_and_without_the_coach_and_a_hint(
    server: LiveServer,
    open_page: Callable[..., BrowserPage],
    game: str,
    rules: dict[str, Any],
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    open_table_at_my_turn(page, server.url, game, rules)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    tag = f"{game}-{rules['players']}p"
    for width, height in SIZES:
        where = f"{tag} at {width}x{height}"
        m = refit(page, width, height)
        assert_fits(m, where)
        assert len(m["opponents"]) == rules["players"] - 1
        if width < 600:
            assert_touch_targets(m, where)
        screenshot(page, path=str(ARTIFACTS / f"{tag}-{width}x{height}.png"))

    # The coach on, its drawer (or side column) open and a hint shown: still no scrolling.
    page.evaluate("() => import('/static/js/options.js').then(m => m.setOption('coach', true))")
    expect(page.locator("#coach-panel")).to_be_attached()
    page.locator(".hand-tools button[aria-keyshortcuts=H]").click()
    expect(page.locator("#hint-line")).to_be_visible()
    for width, height in SIZES:
        where = f"{tag} with the coach at {width}x{height}"
        m = refit(page, width, height)
        toggle = page.locator(".side-toggle")
        if toggle.is_visible() and toggle.get_attribute("aria-expanded") != "true":
            toggle.click()
        expect(page.locator("#coach-panel")).to_be_visible()
        expect(page.locator("#hint-line")).to_be_visible()
        m = refit(page, width, height)
        assert_fits(m, where)
        screenshot(page, path=str(ARTIFACTS / f"{tag}-coach-{width}x{height}.png"))
        if toggle.is_visible():
            page.keyboard.press("Escape")
            expect(toggle).to_have_attribute("aria-expanded", "false")


CLIPPED_SEATS_JS = """() => [...document.querySelectorAll('.seat.opponent .seat-meta')]
  .filter((el) => el.scrollWidth > el.clientWidth + 0.5)
  .map((el) => el.closest('.seat').dataset.seat)"""


def test_crowded_phone_seats_show_their_badges_whole(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    """Nine opponents on a 360x640 phone: a seat that dropped, proposed or accepted a tie says
    so in a short badge that is not cut off, and the table still fits the window."""
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    open_table_at_my_turn(page, server.url, "declaration-rummy", {"players": 10})
    refit(page, 360, 640)
    # Every badge at once, on every opponent: the widest seats this table can draw.
    page.evaluate(
        """() => {
          const table = window.cardtable.view;
          const view = table.message.view;
          const others = [...Array(view.hand_sizes.length).keys()]
            .filter((s) => s !== table.message.seat);
          view.dropped = view.hand_sizes.map((_, s) => s === others[0] || s === others[1]);
          view.vote = {proposer: others[2], accepted: others.slice(2, 6)};
          table.renderAll();
        }"""
    )
    m = refit(page, 360, 640)
    assert_fits(m, "ten players, badges on every seat, at 360x640")
    screenshot(page, path=str(ARTIFACTS / "declaration-rummy-10p-badges-360x640.png"))
    assert page.evaluate(CLIPPED_SEATS_JS) == []
    short = page.locator(".seat.opponent .badge-short").filter(has_text="out")
    expect(short).to_have_count(2)
    expect(short.first).to_be_visible()
    expect(page.locator(".seat.opponent .badge-long").first).to_be_hidden()
    seat = page.locator(".seat.opponent").filter(has=page.locator(".badge", has_text="tie?"))
    expect(seat).to_have_count(1)
    assert "proposed a tie" in (seat.get_attribute("aria-label") or "")
