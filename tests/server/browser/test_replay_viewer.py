"""The replay viewer and the analysis page in a real browser: a game dealt fairly from the
page's contribution, replayed move by move with the keyboard and the mouse, every hand face up
or only one's own, verified in the page (and failing with a clear message when the commitment
or the seed was tampered with), shared by a read-only link, and analysed in the background."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from playwright.sync_api import Browser, Route, expect

from .harness import BrowserPage, LiveServer
from .tablekit import start_game, table_state, wait_idle


def _finished_table(page: BrowserPage, server: LiveServer) -> str:
    """Play a one-deal Indian Rummy game that ends at once: the person drops."""
    start_game(page.page, server.url, "indian-rummy", preset="single-deal", level="normal")
    for _ in range(20):
        wait_idle(page.page)
        if table_state(page.page).finished:
            break
        drop = page.page.locator('button[data-action="drop"]')
        if drop.count() and drop.first.is_enabled():
            drop.first.click()
            page.page.locator("#panel").get_by_role("button", name=re.compile(r"^Drop")).click()
            page.page.wait_for_selector(".table[data-finished='true']")
            break
        page.page.locator('button[data-action="draw stock"]').first.click()
    match = re.search(r"#/table/(.+)$", page.page.url)
    assert match
    return match.group(1)


def test_replay_steps_with_keys_and_buttons_verifies_and_shows_the_analysis(
    fair_server: LiveServer, open_page: Callable[..., BrowserPage], browser: Browser
) -> None:
    server = fair_server  # the replay verifies the deal's proof
    page = open_page()
    table_id = _finished_table(page, server)
    p = page.page
    p.goto(f"{server.url}#/replay/table/{table_id}")
    position = p.locator(".replay-position")
    expect(position).to_have_text(re.compile(r"^Move 0 of \d+$"))
    total = int(position.inner_text().split()[-1])
    assert total >= 1
    p.locator("body").press("ArrowRight")
    expect(position).to_have_text(f"Move 1 of {total}")
    p.locator("body").press("ArrowLeft")
    expect(position).to_have_text(f"Move 0 of {total}")
    p.get_by_role("button", name="Last move").click()
    expect(position).to_have_text(f"Move {total} of {total}")
    p.get_by_role("button", name="First move").click()
    expect(p.locator(".replay-seat[data-seat='1'] .replay-card")).to_have_count(13)
    p.locator("#replay-face-up").uncheck()
    expect(p.locator(".replay-seat[data-seat='1']")).to_contain_text("13 cards face down")
    expect(p.locator(".replay-seat[data-seat='0'] .replay-card")).to_have_count(13)

    p.get_by_role("button", name="Verify the deal").click()
    expect(p.locator(".verify-ok")).to_contain_text("Verified")

    expect(p.locator(".analysis-accuracy")).to_contain_text("Accuracy", timeout=90000)
    expect(p.locator(".analysis-thresholds")).to_contain_text("a blunder from")

    p.get_by_role("button", name="Share this replay").click()
    link = p.locator(".replay-share a")
    expect(link).to_be_visible()
    href = link.get_attribute("href")
    assert href and "#/replay/" in href and table_id not in href
    stranger = browser.new_context()
    try:
        other = stranger.new_page()
        other.goto(href)
        expect(other.locator(".replay-position")).to_have_text(f"Move 0 of {total}")
    finally:
        stranger.close()


def test_a_tampered_commitment_or_seed_fails_verification_in_the_page(
    fair_server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    server = fair_server  # the replay verifies the deal's proof
    page = open_page()
    table_id = _finished_table(page, server)
    p = page.page
    tamper: dict[str, str] = {}

    def handle(route: Route) -> None:
        response = route.fetch()
        data = response.json()
        if tamper.get("what") == "commitment":
            data["fairness"]["commitment"] = "0" * 64
        elif tamper.get("what") == "seed":
            data["seed_text"] = str(int(data["seed_text"]) + 1)
        route.fulfill(response=response, body=json.dumps(data))

    p.route(re.compile(r".*/api/tables/[^/]+/replay$"), handle)
    for what, message in (
        ("commitment", "commitment does not match the revealed server seed"),
        ("seed", "but the server seed and the contributions give"),
        ("", "Verified"),
    ):
        tamper["what"] = what
        p.goto(f"{server.url}#/replay/table/{table_id}")
        p.reload()
        p.get_by_role("button", name="Verify the deal").click()
        expect(p.locator(".replay-verify")).to_contain_text(message)
