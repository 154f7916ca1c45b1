"""The start page: one screen at every size with the house rules folded away, the header naming
no game before one is chosen, "Play" on each game's tile starting that game in one click with
its last-used settings, and the house rules behind a disclosure, grouped."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import expect

from .harness import BrowserPage, LiveServer
from .tablekit import open_house_rules

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (1366, 768), (800, 600), (390, 844), (360, 640)]


def test_the_start_page_fits_one_screen_at_every_size_and_names_no_game(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    expect(page.locator("#game-title")).to_have_text("")
    expect(page.locator("#house-rules")).not_to_have_attribute("open", "")
    for width, height in SIZES:
        page.set_viewport_size({"width": width, "height": height})
        size = page.evaluate(
            "() => [document.documentElement.scrollWidth, document.documentElement.scrollHeight]"
        )
        assert size[0] <= width and size[1] <= height, f"start page at {width}x{height}: {size}"
        for button in page.locator(".play-button").all():
            box = button.bounding_box()
            assert box is not None and box["y"] + box["height"] <= height
        # The format's quick starts (against computers, with friends) are touch targets too:
        # a full 44 px on a phone, never under 32.
        tallest = 44 if width <= 760 else 32
        quick = page.locator(".quick-start, .quick-friends").all()
        assert len(quick) == 2, f"quick starts at {width}x{height}: {len(quick)}"
        for button in quick:
            box = button.bounding_box()
            assert box is not None and box["height"] >= tallest, f"{width}x{height}: {box}"
        expect(page.locator("#players")).to_be_in_viewport()
        expect(page.locator("#level-all")).to_be_in_viewport()


def test_play_on_a_tile_starts_that_game_with_its_last_used_settings(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    # One click: Indian Rummy with its defaults (two players).
    page.click("[data-play=indian-rummy]")
    page.wait_for_selector(".table.game-indian-rummy[data-version]")
    expect(page.locator(".seat.opponent")).to_have_count(1)
    # Declaration Rummy with three players and easy computer players, then back.
    page.goto(server.url)
    page.click("label[for=game-declaration-rummy]")
    page.select_option("#players", "3")
    page.select_option("#level-all", "easy")
    page.click("#start-button")
    page.wait_for_selector(".table.game-declaration-rummy[data-version]")
    expect(page.locator(".seat.opponent")).to_have_count(2)
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    # The last game played is the one shown, with its settings; its tile's Play uses them.
    expect(page.locator("#game-declaration-rummy")).to_be_checked()
    expect(page.locator("#players")).to_have_value("3")
    expect(page.locator("#level-all")).to_have_value("easy")
    page.click("label[for=game-indecision]")
    expect(page.locator("#players")).to_have_value("2")
    page.click("[data-play=declaration-rummy]")
    page.wait_for_selector(".table.game-declaration-rummy[data-version]")
    expect(page.locator(".seat.opponent")).to_have_count(2)
    expect(page.locator(".seat-level").first).to_have_text("easy")


def test_house_rules_are_folded_away_and_grouped_with_plain_choices(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.click("label[for=game-indian-rummy]")
    expect(page.locator("[data-rule=first_drop]")).to_be_hidden()
    open_house_rules(page)
    expect(page.locator("[data-rule=first_drop]")).to_be_visible()
    groups = page.locator(".rules-card .rule-group-title").all_inner_texts()
    assert len(groups) >= 3, groups
    # The groups are the rule declarations' (GET /api/games): the drops under their heading,
    # the caps folded away under theirs.
    titles = page.locator(".rules-card .rule-group-title").all_text_contents()
    assert "Dropping and showing" in titles, titles  # shown in capitals by the style sheet
    dropping = page.locator(".rule-group[aria-label='Dropping and showing']")
    expect(dropping.locator("[data-rule=first_drop]")).to_have_count(1)
    expect(page.locator(".safeguards summary")).to_have_text("Safeguards against endless games")
    expect(page.locator(".safeguards [data-rule=deal_turn_cap]")).to_have_count(1)
    # Choices read as words, not as the option's internal values.
    options = page.locator("[data-rule=joker_from_discard] option").all_inner_texts()
    assert "opening-card" not in options and len(options) == 2, options
    # The disclosure stays open for the next visit.
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("#house-rules")).to_have_attribute("open", "")
