"""Whole games of each game played through the page in headless Chromium: with the mouse, and
one with the keyboard only. Computer players are the random level and move at once."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from cardtable.cards import RANK_PLURALS
from cardtable.server.settings import Settings

from .harness import BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    lift_playable_card,
    open_house_rules,
    panel_name,
    play_with_mouse,
    screenshot,
    start_game,
    table_state,
    tap_lifted,
    wait_idle,
    wait_version_after,
)

pytestmark = pytest.mark.browser

DECLARATION_DEAL_SEED = 7
"""A one-deal Indian Rummy game whose Easy computer player neither drops nor shows before our
third turn, whichever cards we discard: both the mouse and the keyboard games declare then.
With a random deal it ends first in about one game in forty (the deal and the computer
player's moves follow from the seed, so the game is the same on every run)."""


def open_summary(page: Page) -> None:
    """Show the final scores (the banner's button) if the panel is not already open."""
    if panel_name(page) != "summary":
        page.click(".result-banner .btn.primary")
    page.wait_for_selector("dialog#panel[open] .summary")


def record_stat(page: Page, game: str, stat: str) -> str:
    """A number from the Your Record panel."""
    page.click("#menu-button")
    page.click("[data-menu=record]")
    value = page.locator(f".record-game[data-game='{game}'] [data-stat='{stat}'] .value")
    expect(value).to_be_visible()
    text = value.inner_text()
    page.click("dialog#panel [data-close]")
    return text


def test_indecision_game_to_a_low_target_played_with_the_mouse(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision", rules={"target_score": 8})
    expect(page.locator(".stop-zone")).to_be_visible()
    expect(page.locator("[data-zone=stock] .zone-caption")).to_contain_text("cards")

    def stop_sometimes(page: Page, turn: int) -> bool:
        # Every third turn after drawing, stop the hand with a lifted card (the warning about
        # an invalid stop is answered "stop anyway" by the loop).
        if turn % 3 != 2 or table_state(page).phase != "discard":
            return False
        if lift_playable_card(page, "stop") is None:
            return False
        page.click(".actions button[data-verb='stop']")
        if panel_name(page) == "confirm":
            expect(page.locator("dialog#panel")).to_contain_text("score 0")
            answer_panel(page)
        return True

    play_with_mouse(page, special=stop_sometimes)
    expect(page.locator(".result-banner")).to_be_visible()
    open_summary(page)
    summary = page.locator("dialog#panel .summary")
    expect(summary.locator(".seat-summary")).to_have_count(2)
    expect(summary.locator(".totals-chart svg.chart")).to_be_visible()
    expect(summary).to_contain_text("Hand score")
    screenshot(page, path=str(shots / "indecision-final.png"))
    page.click("dialog#panel .summary-buttons [data-close]")
    assert record_stat(page, "indecision", "games_played") == "1"


def test_indian_rummy_single_deal_played_with_the_mouse_ends_with_a_declaration(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=DECLARATION_DEAL_SEED))
    page = open_page().page
    start_game(page, server.url, "indian-rummy", preset="single-deal", level="easy")
    wait_idle(page)
    expect(page.locator(".wild-zone")).to_contain_text("Wild joker")
    # The caption names the wild rank in the plural the engine's texts use ("sixes wild").
    rank = page.evaluate("() => window.cardtable.view.message.view.wild_rank")
    expect(page.locator(".wild-zone .zone-caption")).to_have_text(
        f"Wild joker · {RANK_PLURALS[rank]} wild"
    )
    page_plurals = page.evaluate("async () => (await import('/static/js/cards.js')).RANK_PLURALS")
    assert page_plurals == list(RANK_PLURALS)
    expect(page.locator(".hand .hand-card")).to_have_count(13)
    screenshot(page, path=str(shots / "indian-rummy-table.png"))
    declared: list[bool] = []

    def declare_on_third_turn(page: Page, turn: int) -> bool:
        if turn < 2 or declared or table_state(page).phase != "discard":
            return False
        if lift_playable_card(page, "declare") is None:
            return False
        page.click(".actions button[data-verb='declare']")
        expect(page.locator("dialog#panel")).to_contain_text("wrong show")
        answer_panel(page)
        declared.append(True)
        return True

    play_with_mouse(page, special=declare_on_third_turn)
    assert declared, "the deal ended before our declaration"
    open_summary(page)
    summary = page.locator("dialog#panel .summary")
    expect(summary.locator(".seat-summary")).to_have_count(2)
    expect(summary).to_contain_text(
        re.compile(r"valid show|wrong show|dropped|Valid show|Wrong show")
    )
    screenshot(page, path=str(shots / "indian-rummy-final.png"))
    page.click("dialog#panel .summary-buttons [data-close]")
    assert record_stat(page, "indian-rummy", "deals_played") == "1"


def test_declaration_rummy_two_players_two_cards_played_with_the_mouse(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    start_game(page, server.url, "declaration-rummy", players=2, cards_dealt=2)
    wait_idle(page)
    # The seed forbids counting the stock and the discard pile: no numbers near them.
    for zone in ("stock", "pile"):
        caption = page.locator(f"[data-zone={zone}] .zone-caption").inner_text()
        assert not re.search(r"\d", caption), caption

    def declare_when_offered(page: Page, turn: int) -> bool:
        button = page.locator(".actions button[data-action='declare']:not([disabled])")
        if turn < 1 or not button.count():
            return False
        button.click()
        answer_panel(page)
        return True

    play_with_mouse(page, special=declare_when_offered)
    open_summary(page)
    summary = page.locator("dialog#panel .summary")
    expect(summary.locator(".seat-summary")).to_have_count(2)
    expect(summary).to_contain_text("Count")
    screenshot(page, path=str(shots / "declaration-rummy-final.png"))
    page.click("dialog#panel .summary-buttons [data-close]")
    assert record_stat(page, "declaration-rummy", "games_played") == "1"


def focused(page: Page) -> str:
    """Id, else text, of the focused element."""
    text: str = page.evaluate(
        "() => document.activeElement.id || document.activeElement.textContent.trim()"
    )
    return text


def tab_until(
    page: Page, predicate: Callable[[str], bool], limit: int = 120, key: str = "Tab"
) -> None:
    """Press Tab (or ``key``) until the focused element satisfies ``predicate``."""
    for _ in range(limit):
        if predicate(focused(page)):
            return
        page.keyboard.press(key)
    raise AssertionError(f"Tab never reached the wanted control (last: {focused(page)!r})")


def test_indian_rummy_deal_played_with_the_keyboard_only(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=DECLARATION_DEAL_SEED))
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector(".start-form")
    tab_until(page, lambda f: f.startswith("game-"))
    while focused(page) != "game-indian-rummy":
        page.keyboard.press("ArrowRight")
    # Easy computer players, so that the deal lasts until our own declaration.
    tab_until(page, lambda f: f == "level-all")
    page.keyboard.type("easy")
    expect(page.locator("#level-seat-1")).to_have_value("easy")
    # The house rules are behind a disclosure: Tab reaches it and Enter opens it.
    tab_until(page, lambda f: f.startswith("House rules"))
    page.keyboard.press("Enter")
    tab_until(page, lambda f: f == "preset")
    page.keyboard.type("single")
    expect(page.locator("#preset")).to_have_value("single-deal")
    # Back to the Play button above the house rules.
    tab_until(page, lambda f: f == "start-button", key="Shift+Tab")
    page.keyboard.press("Enter")
    page.wait_for_selector(".table[data-version]")

    turns = 0
    declared = False
    for _ in range(300):
        wait_idle(page)
        if panel_name(page) is not None:
            # The panel's focused button (Continue / Close) answers with Enter.
            page.keyboard.press("Enter")
            page.wait_for_function("() => !document.querySelector('dialog#panel[open]')")
            continue
        state = table_state(page)
        if state.finished:
            break
        if state.phase == "draw":
            page.keyboard.press("s")
        elif turns >= 2 and not declared:
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            tab_until(page, lambda f: f.startswith("Declare, putting down"))
            page.keyboard.press("Enter")
            expect(page.locator("dialog#panel[data-panel=confirm]")).to_be_visible()
            page.keyboard.press("Shift+Tab")
            assert focused(page) == "Declare"
            page.keyboard.press("Enter")
            declared = True
        else:
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            lifted = page.locator(".hand .hand-card.lifted")
            expect(lifted).to_have_count(1)
            page.keyboard.press("Enter")
            turns += 1
        wait_version_after(page, state.version)
    assert table_state(page).finished
    assert declared, "the deal ended before our declaration"
    screenshot(page, path=str(shots / "keyboard-final.png"))


def test_declaration_rummy_match_is_played_to_the_end_with_its_wins_chart(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.click("label[for=game-declaration-rummy]")
    open_house_rules(page)
    page.select_option("#cards-dealt", "2")
    page.select_option("#level-all", "random")
    page.check("#mode-match")
    page.click("#start-button")
    page.wait_for_selector(".table[data-version]")
    expect(page.locator(".scores h2")).to_have_text("Match")

    def declare(page: Page, turn: int) -> bool:
        button = page.locator(".actions button[data-action='declare']:not([disabled])")
        if not button.count():
            return False
        button.click()
        answer_panel(page)
        return True

    play_with_mouse(page, special=declare)
    open_summary(page)
    panel = page.locator("dialog#panel")
    expect(panel.locator("h2")).to_have_text("Match over")
    expect(panel.locator(".totals-chart figcaption")).to_contain_text("Game wins in the match")
    wins = page.eval_on_selector_all(
        ".score-table tbody tr td:last-child", "els => els.map(e => e.textContent)"
    )
    assert "2" in [w.strip(" ★") for w in wins]
    screenshot(page, path=str(shots / "declaration-rummy-match.png"))


def test_spread_out_discard_pile_shows_every_discard_and_takes_from_deep_in_it(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    for _game in range(8):
        # Easy computer players discard rather than end the game at once, so the pile grows.
        start_game(
            page, server.url, "declaration-rummy", preset="spread-out", cards_dealt=5, level="easy"
        )
        for _move in range(60):
            wait_idle(page)
            if panel_name(page) is not None:
                answer_panel(page)
                continue
            state = table_state(page)
            if state.finished:
                break
            pile = page.locator(".spread-pile .card")
            if state.phase == "draw" and pile.count() >= 2:
                shown = page.eval_on_selector_all(
                    ".spread-pile .card", "els => els.map(e => e.dataset.card)"
                )
                assert len(shown) == pile.count()
                second = page.locator(".spread-pile .card[data-action='take discard 2']")
                expect(second).to_have_attribute(
                    "aria-label", re.compile(r"^Take the .* and the 1 card above it")
                )
                before = page.locator(".hand .hand-card").count()
                screenshot(page, path=str(shots / "declaration-rummy-spread-out.png"))
                second.click(position={"x": 8, "y": 30})
                wait_version_after(page, state.version)
                expect(page.locator(".hand .hand-card")).to_have_count(before + 2)
                taken = set(shown[-2:])
                assert taken <= set(
                    page.eval_on_selector_all(
                        ".hand .hand-card", "els => els.map(e => e.dataset.card)"
                    )
                )
                return
            if state.phase == "draw":
                page.click("[data-zone=stock] button.zone-button")
            elif lift_playable_card(page) is not None:
                tap_lifted(page)
            else:
                break
            wait_version_after(page, state.version)
    raise AssertionError("no turn with two cards in the spread-out pile came up in eight games")
