"""The end-of-hand summary's layout at phone and desktop sizes: its chart is short until a few
hands are played, and on a phone your own line comes first in its list of players (on a
desktop the list keeps seat order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, ViewportSize

from cardtable.server.settings import Settings

from .harness import PHONE, BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    lift_playable_card,
    panel_name,
    table_state,
    tap_lifted,
    wait_idle,
    wait_version_after,
)

pytestmark = pytest.mark.browser

MY_SEAT = 2
"""We sit last of three, so that seat order would list our line last."""

SEED = 11
"""Seeds the deals and the random computer players' moves, so the game is the same each run."""

# The summary's chart and the players' lines as laid out (top, left, height, width; seat names).
MEASURE_JS = """() => {
  const chart = document.querySelector('dialog#panel .totals-chart svg.chart');
  const box = chart.getBoundingClientRect();
  const lines = [...document.querySelectorAll('dialog#panel .summary-seats .seat-summary')]
    .map(el => ({me: el.classList.contains('me'), label: el.getAttribute('aria-label'),
                 top: el.getBoundingClientRect().top, left: el.getBoundingClientRect().left}));
  return {
    compact: chart.closest('.totals-chart').classList.contains('compact'),
    height: box.height, width: box.width, lines,
  };
}"""


def open_match_table(page: Page, url: str) -> None:
    """A three-player two-card Declaration Rummy match (its summary has a chart from the first
    game on) in which we take the last seat."""
    page.goto(url)
    bot = {"kind": "bot", "level": "random"}
    seats = [bot] * MY_SEAT + [{"kind": "human"}]
    spec: dict[str, Any] = {
        "game": "declaration-rummy",
        "rules": {"players": 3, "cards_dealt": 2, "match": True},
        "seats": seats,
    }
    table_id = page.evaluate(
        "spec => import('/static/js/api.js').then(m => m.api.createTable(spec))"
        ".then(t => t.table_id)",
        spec,
    )
    page.goto(f"{url}#/table/{table_id}")
    page.wait_for_selector(".table[data-version]")


def play_to_first_summary(page: Page, max_moves: int = 200) -> None:
    """Play (declaring whenever offered) until the first game's summary is open."""
    for _ in range(max_moves):
        wait_idle(page)
        name = panel_name(page)
        if name == "summary":
            page.wait_for_selector("dialog#panel[open] .summary")
            return
        if name is not None:
            answer_panel(page)
            continue
        state = table_state(page)
        if state.finished:
            page.click(".result-banner .btn.primary")
            continue
        declare = page.locator(".actions button[data-action='declare']:not([disabled])")
        stock = page.locator("[data-zone=stock] button.zone-button")
        if declare.count():
            declare.click()
            if panel_name(page) == "confirm":
                answer_panel(page)
        elif stock.count():
            stock.click()
        elif lift_playable_card(page) is not None:
            tap_lifted(page)
        else:
            page.locator(
                ".actions button.action[data-action]:not([disabled]):not([data-action=''])"
            ).first.click()
        if panel_name(page) == "confirm":
            answer_panel(page)
        wait_version_after(page, state.version)
    raise AssertionError(f"no summary within {max_moves} moves")


@pytest.mark.parametrize(
    ("viewport", "phone"),
    [(PHONE, True), ({"width": 1280, "height": 800}, False)],
    ids=["phone", "desktop"],
)
def test_summary_after_the_first_game_has_a_short_chart_and_puts_your_line_first_on_a_phone(
    servers: Servers,
    open_page: Callable[..., BrowserPage],
    viewport: ViewportSize,
    phone: bool,
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=SEED))
    page = open_page(viewport=viewport).page
    open_match_table(page, server.url)
    play_to_first_summary(page)
    m = page.evaluate(MEASURE_JS)

    # One game played: a short chart (a full-size one is 240/560 of its width, and on a
    # desktop as wide as the panel, about 390 px).
    assert m["compact"], "the chart after the first game is not marked compact"
    assert m["height"] <= 140, f"the chart is {m['height']:.0f} px high after one game"
    assert m["height"] / m["width"] < 0.3, f"the chart is not short: {m}"

    lines = m["lines"]
    assert len(lines) == 3, lines
    assert [line["me"] for line in lines] == [False, False, True], "the lines are not in seat order"
    ordered = sorted(lines, key=lambda line: (round(line["top"]), line["left"]))
    if phone:
        assert ordered[0]["me"], f"on a phone our line is not first: {ordered}"
        assert [line["label"] for line in ordered[1:]] == [line["label"] for line in lines[:2]]
    else:
        assert ordered == lines, f"on a desktop the lines left seat order: {ordered}"


# The chart module's figure for totals over ``hands`` hands: its class and its viewBox height.
CHART_JS = """hands => import('/static/js/chart.js').then(m => {
  const points = Array.from({length: hands + 1}, (_, i) => 5 * i);
  const figure = m.totalsChart({title: 'Totals', series: [{name: 'You', points, me: true},
                                                          {name: 'Ruby', points, me: false}]});
  return {compact: figure.classList.contains('compact'),
          height: Number(figure.querySelector('svg.chart').getAttribute('viewBox').split(' ')[3])};
})"""


def test_summary_chart_is_full_size_from_the_third_hand_on(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    shapes = {hands: page.evaluate(CHART_JS, hands) for hands in (1, 2, 3, 8)}
    assert shapes[1] == shapes[2] == {"compact": True, "height": 150}
    assert shapes[3] == shapes[8] == {"compact": False, "height": 240}
