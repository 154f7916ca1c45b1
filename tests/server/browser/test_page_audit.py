"""Every screen a player meets, checked two ways: an axe-core scan (the engine the
``axe-playwright-python`` package ships) finds no serious or critical accessibility violation,
and the visible words (text, placeholders, accessible names) hold no internal name: no
``RULES.md``, ``None``, ``null``, ``undefined``, ``NaN``, snake_case identifier or literal
asterisk. Screens: the start page with each game's house rules open, How to play, Options,
Your Record, each game's table and each game's summary."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe  # type: ignore[import-untyped]
from playwright.sync_api import Page, expect

from cardtable.server.settings import Settings

from .harness import BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    lift_playable_card,
    open_house_rules,
    panel_name,
    settle,
    start_game,
    table_state,
    tap_lifted,
    wait_idle,
)

pytestmark = pytest.mark.browser

AXE = Axe()
GAMES = ["indecision", "indian-rummy", "declaration-rummy"]

INTERNAL = re.compile(
    r"RULES\.md|\bNone\b|\bnull\b|\bundefined\b|\bNaN\b|\b[a-z][a-z0-9]*_[a-z0-9_]+\b|\*"
)

# What a player reads on the page: the rendered text of the page (and of the open dialog), the
# placeholders and values of fields, and the accessible names that screen readers speak.
WORDS_JS = """() => {
  const shown = (el) => el.getClientRects().length > 0;
  const words = [document.body.innerText];
  const named = '[placeholder], [aria-label], [title], input[type=text], input[type=number]';
  for (const el of document.querySelectorAll(named)) {
    if (!shown(el)) continue;
    for (const attr of ['placeholder', 'aria-label', 'title']) {
      if (el.getAttribute(attr)) words.push(el.getAttribute(attr));
    }
    if (el.value && el.matches('input[type=text], input[type=number]')) words.push(el.value);
  }
  return words.join('\\n');
}"""


def audit(page: Page, where: str) -> None:
    """No serious or critical axe violation and no internal name on the screen as it is."""
    settle(page)
    words: str = page.evaluate(WORDS_JS)
    found = sorted({match.group(0) for match in INTERNAL.finditer(words)})
    if found:
        lines = [line for line in words.splitlines() if INTERNAL.search(line)]
        raise AssertionError(f"{where}: internal names {found} in {lines[:8]}")
    results = AXE.run(page)
    violations: list[dict[str, Any]] = results.response["violations"]
    bad = [v for v in violations if v.get("impact") in ("serious", "critical")]
    assert not bad, f"{where}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at "
        + ", ".join(str(node["target"]) for node in v["nodes"][:4])
        for v in bad
    )


def open_menu_panel(page: Page, item: str) -> None:
    """Open a menu item's panel."""
    page.click("#menu-button")
    page.click(f"[data-menu={item}]")
    page.wait_for_selector("dialog#panel[open]")


def close_panel(page: Page) -> None:
    page.locator("dialog#panel[open] [data-close]").first.click()
    expect(page.locator("dialog#panel")).not_to_have_attribute("open", "")


def test_start_page_and_menu_panels_pass_axe_and_show_no_internal_names(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    audit(page, "start page")
    open_house_rules(page)
    for game in GAMES:
        page.click(f"label[for=game-{game}]")
        page.wait_for_selector(f"#game-{game}:checked")
        # Every disclosure inside the house rules open too (groups, variations).
        page.evaluate(
            "() => document.querySelectorAll('#house-rules details').forEach(d => d.open = true)"
        )
        audit(page, f"start page with the house rules of {game}")
        open_menu_panel(page, "how-to-play")
        audit(page, f"How to play {game}")
        close_panel(page)
    for item in ("options", "record"):
        open_menu_panel(page, item)
        audit(page, f"menu panel {item}")
        close_panel(page)


def end_first_hand(page: Page, game: str) -> None:
    """Play until the first hand (deal, game) ends and its summary is open: a stop in
    Indecision, a (likely wrong) show in Indian Rummy, a declaration in Declaration Rummy;
    until then draw from the stock and discard."""
    verb = "stop" if game == "indecision" else "declare"
    for _ in range(200):
        wait_idle(page)
        name = panel_name(page)
        if name == "summary":
            return
        if name is not None:
            answer_panel(page)
            continue
        state = table_state(page)
        if state.finished:
            page.click(".result-banner .btn.primary")
            page.wait_for_selector("dialog#panel[open] .summary")
            return
        stock = page.locator("[data-zone=stock] button.zone-button")
        ending = page.locator(f".actions button[data-verb='{verb}']:not([disabled])")
        if game == "declaration-rummy":
            ending = page.locator(".actions button[data-action='declare']:not([disabled])")
        if ending.count() or (
            game != "declaration-rummy"
            and state.phase == "discard"
            and lift_playable_card(page, verb) is not None
        ):
            ending.first.click()
            # The hand is over: its summary opens a moment after the state that ends it (a
            # look at the table in between would find it our turn in the next hand). Answer
            # what is asked on the way (a confirmation).
            for _ in range(5):
                page.wait_for_selector("dialog#panel[open]", timeout=20000)
                if panel_name(page) == "summary":
                    return
                answer_panel(page)
            raise AssertionError(f"the summary of the first hand of {game} did not open")
        elif stock.count():
            stock.click()
        elif lift_playable_card(page) is not None:
            tap_lifted(page)
        else:
            page.locator(".actions button.action[data-action]:not([disabled])").first.click()
        if panel_name(page) == "confirm":
            answer_panel(page)
        page.wait_for_function(
            "v => Number(document.querySelector('.table').dataset.version) > v"
            " || document.querySelector('dialog#panel[open]') !== null",
            arg=state.version,
        )
    raise AssertionError(f"the first hand of {game} did not end")


AUDIT_SEED = 4
"""Deals in which the first hand lasts until our first turn, so that the table is audited while
play goes on: in a two-card Declaration Rummy game the Random computer player ends it first in
about one game in four (22% of 3,000 games played with the engine), and the audit of the table
in play was then left out. The deal and the computer players' moves follow from the seed."""


@pytest.mark.parametrize("game", GAMES)
def test_each_table_and_its_summary_pass_axe_and_show_no_internal_names(
    servers: Servers, open_page: Callable[..., BrowserPage], game: str
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=AUDIT_SEED))
    page = open_page().page
    start_game(page, server.url, game, cards_dealt=2 if game == "declaration-rummy" else None)
    wait_idle(page)
    assert panel_name(page) is None, "the first hand ended before our first turn"
    audit(page, f"{game} table")
    end_first_hand(page, game)
    audit(page, f"{game} summary")
    close_panel(page)
    audit(page, f"{game} table after its first hand")
