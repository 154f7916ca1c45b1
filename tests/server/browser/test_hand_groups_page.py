"""The hand in labelled groups at the Indian Rummy table, in a real browser: every group carries
the server's label and points, "Arrange for me" lays out the solver's own arrangement (checked
here against the solver itself), the player's groups survive a reload, cards move between
groups by keyboard, a drawn card goes where the server places it, the declaration's question
shows the groups declared, and a 14-card hand in groups fits a 360 px phone in two rows."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from cardtable.cards import format_card, parse_card
from cardtable.games.indian_rummy.groups import best_groups, place
from cardtable.games.indian_rummy.rules import Rules
from cardtable.melds.indian import is_valid_show
from cardtable.server.settings import Settings

from .harness import BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    panel_name,
    screenshot,
    settle,
    start_game,
    table_state,
    wait_my_turn,
)

pytestmark = pytest.mark.browser

LABELS = {"pure sequence", "sequence", "set", "loose"}
GROUPS_SEED = 4


@pytest.fixture
def server(servers: Servers) -> LiveServer:
    return servers.start(Settings(rate_limits=False, test_seed=GROUPS_SEED))


def page_groups(page: Page) -> list[list[str]]:
    """The hand's groups as shown: runs of cards sharing ``data-group``, in order."""
    cards: list[dict[str, str]] = page.eval_on_selector_all(
        ".hand .hand-card", "els => els.map(e => ({card: e.dataset.card, group: e.dataset.group}))"
    )
    groups: list[list[str]] = []
    for index, entry in enumerate(cards):
        if index == 0 or entry["group"] != cards[index - 1]["group"]:
            groups.append([])
        groups[-1].append(entry["card"])
    return groups


def wait_labelled(page: Page) -> list[dict[str, Any]]:
    """Wait until every group shown has its label from the server; the labels."""
    page.wait_for_function(
        "() => { const l = document.querySelector('.hand-groups');"
        " const runs = new Set([...document.querySelectorAll('.hand .hand-card')]"
        ".map(c => c.dataset.group)).size;"
        " return l && !l.hidden && l.querySelectorAll('.hand-group-label').length === runs; }"
    )
    labels: list[dict[str, Any]] = page.eval_on_selector_all(
        ".hand-groups .hand-group-label",
        "els => els.map(e => ({label: e.dataset.label, points: Number(e.dataset.points)}))",
    )
    return labels


def view_of(page: Page) -> dict[str, Any]:
    view: dict[str, Any] = page.evaluate("() => window.cardtable.view.message.view")
    return view


def as_multiset(groups: list[list[str]]) -> Counter[tuple[str, ...]]:
    return Counter(tuple(sorted(group)) for group in groups)


def best_partition(view: dict[str, Any]) -> tuple[list[list[str]], int]:
    hand = [parse_card(card) for card in view["hand"]]
    best = best_groups(hand, view["wild_rank"], Rules(players=2))
    return [[format_card(c) for c in group] for group in best.partition()], best.points


def test_groups_are_labelled_arranged_kept_and_moved_by_keyboard(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indian-rummy")
    wait_my_turn(page)
    # A fresh hand: a group per suit, each labelled by the server.
    labels = wait_labelled(page)
    assert labels and {entry["label"] for entry in labels} <= LABELS
    suits = [{card[-1] for card in group} for group in page_groups(page)]
    assert all(len(s) == 1 for s in suits[:-1])  # the printed jokers, if any, come last
    # "Arrange for me": exactly the solver's arrangement, and its count as the total.
    page.get_by_role("button", name="Arrange for me").click()
    view = view_of(page)
    partition, points = best_partition(view)
    page.wait_for_function(
        "n => document.querySelector('.hand-group-total')?.dataset.points === String(n)",
        arg=points,
    )
    wait_labelled(page)
    assert as_multiset(page_groups(page)) == as_multiset(partition)
    arranged = page_groups(page)
    # Kept across a reload (per table and seat in this browser).
    page.reload()
    page.wait_for_selector(".table[data-version]")
    wait_labelled(page)
    assert page_groups(page) == arranged
    # Keyboard: Shift+Down moves the focused card into the next group, G into a group of its own.
    first = page.locator(".hand .hand-card").first
    first.focus()
    page.keyboard.press("Shift+ArrowDown")
    moved = page_groups(page)
    card = arranged[0][0]
    if len(arranged) > 1:
        # To the front of the next group (its own group, had it no other card, is gone).
        assert moved[1 if len(arranged[0]) > 1 else 0][0] == card
    page.locator(f'.hand .hand-card[data-card="{card}"]').first.focus()
    page.keyboard.press("g")
    own = page_groups(page)
    assert [card] in own
    assert page.evaluate("() => document.activeElement.dataset.card") == card
    labels = wait_labelled(page)
    assert len(labels) == len(own)
    # A drawn card goes where the server places it: into the group it completes, else alone.
    before = page_groups(page)
    version = table_state(page).version
    page.click("[data-zone=stock] button.zone-button")
    page.wait_for_function(
        "v => Number(document.querySelector('.table').dataset.version) > v "
        "&& document.querySelectorAll('.hand .hand-card').length === 14",
        arg=version,
    )
    wait_labelled(page)
    after = page_groups(page)
    drawn = list(Counter(c for g in after for c in g) - Counter(c for g in before for c in g))
    assert len(drawn) == 1
    wild = view_of(page)["wild_rank"]
    expected = place(
        [[parse_card(c) for c in g] for g in before], [parse_card(drawn[0])], wild, Rules(players=2)
    )
    assert after == [[format_card(c) for c in g] for g in expected]


def test_declaring_shows_the_groups_declared_and_how_the_solver_reads_them(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indian-rummy")
    wait_my_turn(page)
    page.click("[data-zone=stock] button.zone-button")
    page.wait_for_function("() => document.querySelectorAll('.hand .hand-card').length === 14")
    wait_my_turn(page)
    card = page.locator(".hand .hand-card").last
    put_down = card.get_attribute("data-card")
    assert put_down
    card.click()
    page.click(".actions button[data-verb=declare]")
    page.wait_for_selector("dialog#panel[open] .declare-groups")
    assert panel_name(page) == "confirm"
    text = page.inner_text("dialog#panel")
    hand = [parse_card(c) for c in view_of(page)["hand"]]
    hand.remove(parse_card(put_down))
    if is_valid_show(hand, view_of(page)["wild_rank"]):
        assert "valid show" in text and "wrong show" not in text
    else:
        assert "not a valid show however they are grouped" in text and "80 points" in text
    # The groups declared: 13 cards, the put-down not among them.
    shown = page.eval_on_selector_all(
        "dialog#panel .declare-groups .meld-line >> nth=0 >> .card", "els => els.length"
    )
    assert shown == 13
    page.get_by_role("button", name="Cancel").click()
    assert panel_name(page) is None and table_state(page).phase == "discard"


@pytest.mark.parametrize("size", [(360, 640), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_fourteen_cards_in_groups_fit_the_window(
    server: LiveServer, open_page: Callable[..., BrowserPage], size: tuple[int, int], shots: Any
) -> None:
    width, height = size
    page = open_page(viewport={"width": width, "height": height}).page
    start_game(page, server.url, "indian-rummy")
    wait_my_turn(page)
    page.get_by_role("button", name="Arrange for me").click()
    page.click("[data-zone=stock] button.zone-button")
    page.wait_for_function("() => document.querySelectorAll('.hand .hand-card').length === 14")
    wait_labelled(page)
    settle(page)
    if panel_name(page) is not None:
        answer_panel(page, finish=False)
    two_rows = page.eval_on_selector(".hand", "el => el.classList.contains('two-rows')")
    assert two_rows == (width < 600)
    overflow = page.evaluate(
        "() => document.scrollingElement.scrollWidth - document.scrollingElement.clientWidth"
    )
    assert overflow <= 0
    boxes = [
        page.locator(sel).nth(i).bounding_box()
        for sel in (".hand .hand-card", ".hand-groups > li")
        for i in range(page.locator(sel).count())
    ]
    for box in boxes:
        assert box is not None
        assert box["x"] >= -0.5 and box["x"] + box["width"] <= width + 0.5, box
        assert box["y"] + box["height"] <= height + 0.5, box
    # The hand's chip is its count and a seat's chip its running total: two numbers side by
    # side, each saying which it is ("count 68" beside "total 0", not "68 pts" and "0 pts").
    total = page.locator(".hand-group-total")
    points = total.get_attribute("data-points")
    assert points is not None
    # A hand that is a valid show says so in place of its count.
    if "show" not in total.inner_text().lower():
        assert total.inner_text() == f"count {points}"
    for chip in page.locator(".seat-score").all_inner_texts():
        assert chip.startswith("total "), chip
        assert "pts" not in chip, chip
    screenshot(page, str(shots / f"indian-rummy-14-cards-{width}x{height}.png"))
