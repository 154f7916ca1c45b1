"""The analysis after each hand in a real browser: Indian Rummy's free play (no game end), the
deal ended by the person's drop; the end-of-deal summary shows the analysis computed in the
background (progress, then the accuracy) and its "Review this deal" button (Indian Rummy's
word for a hand), pressed from the
keyboard, opens the hand's analysis; the way back to the table is a click."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .harness import BrowserPage, Servers
from .tablekit import panel_name, start_game, table_state, wait_idle


def test_the_end_of_deal_summary_offers_the_review_of_the_hand(
    servers: Servers, open_page: Callable[..., BrowserPage], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_ANALYSE_FINISHED_HANDS", "true")
    server = servers.start()
    page = open_page()
    p = page.page
    start_game(p, server.url, "indian-rummy", level="easy")
    for _ in range(20):
        wait_idle(p)
        if panel_name(p) == "summary":
            break
        drop = p.locator('button[data-action="drop"]')
        if drop.count() and drop.first.is_enabled():
            drop.first.click()
            p.locator("#panel").get_by_role("button", name=re.compile(r"^Drop")).click()
            p.wait_for_selector("dialog#panel[open][data-panel='summary']")
            break
        p.locator('button[data-action="draw stock"]').first.click()
    assert not table_state(p).finished, "free play goes on after the deal"
    summary = p.locator("dialog#panel[open] .summary-review")
    expect(summary).to_be_visible()
    # Analysed in the background as the deal ended: nobody opened anything.
    expect(summary.locator(".summary-review-status")).to_contain_text(
        "Your accuracy this deal", timeout=90000
    )
    button = summary.get_by_role("button", name="Review this deal")
    button.focus()
    p.keyboard.press("Enter")
    expect(p.locator(".hand-review h2")).to_have_text("Review of deal 1")
    expect(p.locator(".analysis-accuracy")).to_contain_text("Accuracy")
    expect(p.locator(".analysis-thresholds")).to_contain_text("a blunder from")
    expect(p.locator(".analysis-thresholds")).to_contain_text(
        "a move's cost differs by about 0 points (median), "
        "and by 3.8 or more for one move in twenty"
    )
    p.get_by_role("button", name="Back to the table").click()
    p.wait_for_selector(".table[data-version]")
    assert "#/table/" in p.url
