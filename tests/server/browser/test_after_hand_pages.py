"""The pages a player meets after the hand, read as a player reads them, at desktop and phone
sizes: the replay names the seats as the table did ("You" only for the person who sat there, so
a stranger with the share link sees the names the players had), writes cards with their suit
symbols and totals with names, uses the game's own word for a deal, shows no command line,
draws its step icons as SVG, offers a Copy button for the share link, and passes the text and
axe scans; Your Record shows the games played with friends (figures from ``GET /api/record``'s
``shared`` block) and marks the finished games where a computer player moved for the person."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route, ViewportSize, expect

from cardtable.server.settings import Settings

from .harness import DESKTOP, PHONE, BrowserPage, LiveServer, Servers
from .tablekit import screenshot, start_game, table_state, wait_idle
from .test_page_audit import audit, open_menu_panel

pytestmark = pytest.mark.browser

# A deal whose four-seat summary is taller than both screens (1020 px against 768 at desktop).
SUMMARY_SEED = 5

# Two card codes with nothing between them ("7D6D"), as the replay used to print hands.
RUN_TOGETHER = re.compile(r"\b(10|[2-9AJQK])[SHDC](10|[2-9AJQK])[SHDC]")
WRONG_WORDS = re.compile(
    r"[Ss]eat \d|\(you\)|inaccuracys|\(s\)|cardtable verify|Totals: [\d, ]+$|⏮|⏭|\[/?bold\]",
    re.M,
)


def _finished_deal(p: Page, server: LiveServer) -> str:
    """A one-deal Indian Rummy game that ends at once: the person drops."""
    start_game(p, server.url, "indian-rummy", preset="single-deal", level="normal")
    for _ in range(20):
        wait_idle(p)
        if table_state(p).finished:
            break
        drop = p.locator('button[data-action="drop"]')
        if drop.count() and drop.first.is_enabled():
            drop.first.click()
            p.locator("#panel").get_by_role("button", name=re.compile(r"^Drop")).click()
            p.wait_for_selector(".table[data-finished='true']")
            break
        p.locator('button[data-action="draw stock"]').first.click()
    match = re.search(r"#/table/(.+)$", p.url)
    assert match
    return match.group(1)


def _page_text(p: Page) -> str:
    text: str = p.locator("body").inner_text()
    return text


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_replay_reads_like_the_table_and_a_stranger_is_never_you(
    size: ViewportSize,
    fair_server: LiveServer,
    open_page: Callable[..., BrowserPage],
    browser: Browser,
    shots: Any,
) -> None:
    server = fair_server  # the replay verifies the deal's proof
    p = open_page(viewport=size).page
    table_id = _finished_deal(p, server)
    p.goto(f"{server.url}#/replay/table/{table_id}")
    expect(p.locator(".replay-position")).to_have_text(re.compile(r"^Move 0 of \d+$"))
    seats = p.locator(".replay-seat strong")
    expect(seats.first).to_have_text("You")
    bot = seats.nth(1).inner_text()
    assert bot and bot != "You" and not bot.startswith("Seat")
    # Whoever dropped first, the winner is named as at the table.
    expect(p.locator(".replay-result")).to_have_text(
        re.compile(rf"^(You|{re.escape(bot)}) won the game\.$")
    )
    expect(p.locator(".replay-jump option").first).to_have_text("Deal 1")
    first_card = p.locator(".replay-seat[data-seat='0'] .replay-card").first
    expect(first_card).to_have_text(re.compile(r"^(10|[2-9AJQK])[♠♥♦♣]$|^[A-Z ]+$"))
    for name in ("First move", "Last move"):
        button = p.get_by_role("button", name=name)
        expect(button.locator("svg")).to_have_count(1)
    p.get_by_role("button", name="Last move").click()
    p.get_by_role("button", name="Verify the deal").click()
    expect(p.locator(".verify-ok")).to_contain_text("Verified")
    expect(p.locator(".analysis-accuracy")).to_contain_text("Accuracy", timeout=90000)
    expect(p.locator(".replay-analysis h3").first).to_have_text("Analysis of your moves")
    p.get_by_role("button", name="Share this replay").click()
    expect(p.get_by_role("button", name="Copy link")).to_be_visible()
    text = _page_text(p)
    assert not RUN_TOGETHER.search(text), RUN_TOGETHER.search(text)
    assert not WRONG_WORDS.search(text), WRONG_WORDS.findall(text)
    # Nothing wider than the screen (a long commitment wraps).
    assert p.evaluate("() => document.documentElement.scrollWidth") <= size["width"]
    screenshot(p, str(shots / f"replay-{size['width']}.png"), full_page=True)
    audit(p, f"replay at {size['width']}px")

    href = p.locator(".replay-share a").get_attribute("href")
    assert href
    stranger = browser.new_context(viewport=size)
    try:
        other = stranger.new_page()
        other.goto(href)
        expect(other.locator(".replay-position")).to_have_text(re.compile(r"^Move 0 of"))
        names = other.locator(".replay-seat strong").all_inner_texts()
        assert "You" not in names and names[1] == bot, names
        shared_text = other.locator("body").inner_text()
        assert not WRONG_WORDS.search(shared_text), WRONG_WORDS.findall(shared_text)
        # Nobody's point of view is shown to a stranger as theirs.
        assert not re.search(r"\byou\b", shared_text.split("Verify the deal")[0], re.I)
        audit(other, f"shared replay at {size['width']}px")
    finally:
        stranger.close()


RECORD_SHARED = {
    "games_played": 3,
    "games_won": 1,
    "deals_played": 3,
    "deals_won": 1,
    "matches_played": 0,
    "matches_won": 0,
    "points_per_deal": 20.0,
    "total_points": 60,
    "best": 0,
    "worst": 40,
    "extras": [],
    "assisted_games": 1,
    "assisted_deals": 1,
}


@pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_your_record_shows_games_with_friends_and_marks_help_from_a_computer_player(
    size: ViewportSize, server: LiveServer, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    p = open_page(viewport=size).page
    table_id = _finished_deal(p, server)

    # The record as the server gives it after games at a friends' table: a shared block, and a
    # finished game where a computer player moved for the person.
    def record(route: Route) -> None:
        response = route.fetch()
        data = response.json()
        games = data["games"] if isinstance(data, dict) and "games" in data else data
        rows = games if isinstance(games, list) else list(games.values())
        for row in rows:
            if row["game"] == "indian-rummy":
                row["shared"] = RECORD_SHARED
        route.fulfill(response=response, body=json.dumps(data))

    def replays(route: Route) -> None:
        response = route.fetch()
        listed = response.json()
        assert listed and listed[0]["table_id"] == table_id
        listed[0] = {**listed[0], "shared": True, "assisted": True}
        route.fulfill(response=response, body=json.dumps(listed))

    p.route(re.compile(r".*/api/record$"), record)
    p.route(re.compile(r".*/api/replays$"), replays)
    p.goto(server.url)
    p.wait_for_selector("body.ready")
    open_menu_panel(p, "record")
    section = p.locator(".record-game[data-game='indian-rummy']")
    friends = section.locator(".record-shared")
    expect(friends.locator("h4")).to_have_text("With friends (not counted above)")
    expect(friends.locator("[data-stat='games_played'] .value")).to_have_text("3")
    expect(friends.locator(".record-assisted")).to_contain_text(
        "A computer player moved for you in 1 game (1 deal)"
    )
    item = p.locator(".record-replays li").first
    expect(item).to_contain_text("won the game.")
    expect(item).to_contain_text("a computer player moved for you")
    assert not re.search(r"Seat \d", p.locator("dialog#panel").inner_text())
    screenshot(p, str(shots / f"record-{size['width']}.png"), full_page=False)
    audit(p, f"Your Record at {size['width']}px")


@pytest.mark.parametrize("size", [{"width": 1280, "height": 800}, PHONE], ids=["desktop", "phone"])
def test_the_summary_keeps_continue_in_view_however_long_it_is(
    size: ViewportSize, servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    # Seeded: how tall the summary is depends on the hands dealt, and an unseeded deal once
    # gave a summary that fit the desktop screen.
    server = servers.start(Settings(rate_limits=False, test_seed=SUMMARY_SEED))
    p = open_page(viewport=size).page
    # Four seats of Indian Rummy: the deal's summary lists every hand, taller than the screen.
    start_game(p, server.url, "indian-rummy", players=4, level="easy")
    for _ in range(20):
        wait_idle(p)
        drop = p.locator('button[data-action="drop"]')
        if drop.count() and drop.first.is_enabled():
            drop.first.click()
            p.locator("#panel").get_by_role("button", name=re.compile(r"^Drop")).click()
            break
        p.locator('button[data-action="draw stock"]').first.click()
    p.wait_for_selector("dialog#panel[open][data-panel='summary']", timeout=60000)
    dialog = p.locator("dialog#panel[open]")
    tall = dialog.evaluate("d => d.scrollHeight > d.clientHeight")
    assert tall, "the summary fits the screen: this test needs one that does not"
    button = dialog.get_by_role("button", name="Continue")
    box = button.bounding_box()
    assert box is not None
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
    # Still in view, and still pressable, once the summary is scrolled to its end.
    dialog.evaluate("d => d.scrollTo(0, d.scrollHeight)")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= size["height"], box
    screenshot(p, str(shots / f"summary-{size['width']}.png"))
