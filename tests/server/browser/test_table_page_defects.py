"""Regressions of the table page found by a newcomer (issue 23): a card dragged diagonally onto
the pile, fanned cards showing the next card's corner, the keyboard focus after Escape, key
letters in the prompts of a touch phone, the phone seats' words, the next Indecision hand
starting with last hand's cards face up, the Options dialog, and Indian Rummy's open deck."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from cardtable.server.settings import Settings

from .harness import PHONE, BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    lift_playable_card,
    panel_name,
    screenshot,
    settle,
    start_game,
    table_state,
    tap_card,
    tap_lifted,
    wait_idle,
    wait_my_turn,
    wait_version_after,
)

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[3] / "artifacts" / "screenshots"

DRAG_SEED = 3
"""An Indian Rummy deal in which our first turn comes before either side declares or drops;
the deal and the computer player's moves follow from the seed."""


@pytest.fixture
def seeded(servers: Servers) -> LiveServer:
    """The app dealing every table from :data:`DRAG_SEED`."""
    return servers.start(Settings(rate_limits=False, test_seed=DRAG_SEED))


def to_discard_phase(page: Page) -> None:
    """Our turn with a card drawn, ready to discard."""
    wait_my_turn(page)
    if page.locator("[data-zone=stock] button.zone-button").count():
        version = table_state(page).version
        page.locator("[data-zone=stock] button.zone-button").click()
        wait_version_after(page, version)
        wait_my_turn(page)
    settle(page)


RECORD_MOVES_JS = """() => {
  // Every state the page takes, drawn or not: states arriving within one frame (a computer
  // player answering at once) are drawn once, the latest.
  window.__moves = [];
  const state = window.cardtable.view.state;
  const accept = state.accept.bind(state);
  state.accept = (m) => {
    if (m?.last_action) window.__moves.push([m.version, m.last_action.action]);
    return accept(m);
  };
}"""


def record_moves(page: Page) -> None:
    """From now on, remember the last move of every table version the page takes."""
    page.evaluate(RECORD_MOVES_JS)


def moves_since(page: Page, version: int) -> list[str]:
    """The moves the page took after ``version`` (after :func:`record_moves`)."""
    moves: list[list[object]] = page.evaluate("() => window.__moves")
    return [str(action) for at, action in moves if isinstance(at, int) and at > version]


def straight_drag(page: Page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """Press at ``start`` and move in one straight line, in small steps, to ``end``; let go."""
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(*end, steps=24)
    page.mouse.up()


@pytest.mark.parametrize("end", ["first", "last"])
def test_a_card_dragged_diagonally_onto_the_pile_is_discarded_and_never_left_in_mid_air(
    seeded: LiveServer, open_page: Callable[..., BrowserPage], end: str
) -> None:
    page = open_page(viewport={"width": 1280, "height": 800}).page
    start_game(page, seeded.url, "indian-rummy")
    to_discard_phase(page)
    version = table_state(page).version
    record_moves(page)
    cards = page.locator(".hand .hand-card")
    card = cards.first if end == "first" else cards.last
    label = card.get_attribute("data-card")
    box = card.bounding_box()
    pile = page.locator("[data-zone=pile]").bounding_box()
    assert box is not None and pile is not None
    # From the card's visible corner straight up and across onto the middle of the pile: the
    # first steps move sideways inside the hand, where the hand makes room for the card.
    straight_drag(
        page,
        (box["x"] + 10, box["y"] + 14),
        (pile["x"] + pile["width"] / 2, pile["y"] + pile["height"] / 2),
    )
    wait_version_after(page, version)
    expect(page.locator(".hand .hand-card.dragging")).to_have_count(0)
    expect(page.locator(".hand .hand-card[style*=transform]")).to_have_count(0)
    assert f"discard {label}" in moves_since(page, version)
    expect(page.locator(f".hand .hand-card[data-card='{label}']")).to_have_count(0)


COVERED_CORNERS_JS = """() => {
  // Each card's upside-down corner index lying under a later card of the hand: what shows
  // there must be that later card, never the covered card's corner floating above it.
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const floating = [];
  cards.forEach((card, i) => {
    const corner = card.querySelector('.corner-bottom').getBoundingClientRect();
    const x = corner.left + corner.width / 2;
    const y = corner.top + corner.height / 2;
    const inside = (r) => x > r.left && x < r.right && y > r.top && y < r.bottom;
    const covering = cards.slice(i + 1).some((later) => inside(later.getBoundingClientRect()));
    if (!covering) return;
    const shown = document.elementFromPoint(x, y);
    if (shown && shown.closest('.hand-card') === card) floating.push(card.dataset.card);
  });
  return {floating, checked: cards.length};
}"""


def test_a_fanned_cards_corner_never_shows_over_the_card_covering_it(
    seeded: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    # A phone's two-row hand: the second row covers the first row's lower corners.
    page = open_page(viewport=PHONE).page
    start_game(page, seeded.url, "indian-rummy")
    wait_my_turn(page)
    settle(page)
    expect(page.locator(".hand.two-rows")).to_have_count(1)
    found = page.evaluate(COVERED_CORNERS_JS)
    assert found["checked"] >= 13
    assert found["floating"] == [], f"corners shown over the next card: {found}"


def test_escape_gives_the_focus_back_to_what_had_it_before_the_panel(
    seeded: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, seeded.url, "indecision")
    wait_my_turn(page)
    # A panel opened from the menu: Escape closes it and the Menu button has the focus again.
    page.click("#menu-button")
    page.click("[data-menu=options]")
    expect(page.locator("dialog#panel[data-panel=options]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog#panel[open]")).to_have_count(0)
    expect(page.locator("#menu-button")).to_be_focused()
    # A panel the table opens while a hand card has the focus (a question, a summary): after
    # Escape the card has it again, and Enter lifts it.
    card = page.locator(".hand .hand-card").nth(1)
    card.focus()
    page.evaluate(
        "() => import('/static/js/panel.js').then(p => p.openPanel('A question', "
        "Object.assign(document.createElement('p'), {textContent: 'Read me.'}),"
        " {name: 'test'}))"
    )
    expect(page.locator("dialog#panel[data-panel=test]")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog#panel[open]")).to_have_count(0)
    expect(card).to_be_focused()
    page.keyboard.press("Enter")
    expect(card).to_have_class(re.compile(r"\blifted\b"))
    page.keyboard.press("Escape")
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(0)
    # The card that had the focus is gone when the panel closes (the hand was dealt again
    # meanwhile): the focus goes to the hand, not to the page.
    page.evaluate(
        "() => import('/static/js/panel.js').then(p => p.openPanel('A question', "
        "Object.assign(document.createElement('p'), {textContent: 'Read me.'}),"
        " {name: 'test'}))"
    )
    expect(page.locator("dialog#panel[data-panel=test]")).to_be_visible()
    page.evaluate(
        "() => { const hand = window.cardtable.view.hand; hand.nodes.clear(); hand.render(); }"
    )
    page.keyboard.press("Escape")
    expect(page.locator("dialog#panel[open]")).to_have_count(0)
    expect(page.locator(".hand .hand-card:focus")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)


KEY_LETTER = re.compile(r"\([SDH]\)")


def test_a_touch_phone_shows_no_key_letters_in_the_prompt_and_a_keyboard_does(
    seeded: LiveServer, browser: Browser, open_page: Callable[..., BrowserPage]
) -> None:
    touch = browser.new_context(viewport=PHONE, has_touch=True, is_mobile=True)
    errors: list[str] = []
    try:
        phone = touch.new_page()
        phone.on("pageerror", lambda exc: errors.append(str(exc)))
        start_game(phone, seeded.url, "indian-rummy")
        wait_my_turn(phone)
        turn = phone.locator("#turn-line")
        expect(turn).to_contain_text("draw from the stock")
        assert not KEY_LETTER.search(turn.inner_text()), turn.inner_text()
        # A tap on the phone keeps it so.
        tap_card(phone.locator(".hand .hand-card").first)
        assert not KEY_LETTER.search(turn.inner_text()), turn.inner_text()
    finally:
        touch.close()
    assert not errors, errors
    # With a mouse and a keyboard the letters say which key draws.
    page = open_page().page
    start_game(page, seeded.url, "indian-rummy")
    wait_my_turn(page)
    expect(page.locator("#turn-line")).to_contain_text("draw from the stock (S)")


OVERLAPS_JS = """() => {
  const notice = document.querySelector('.connection').getBoundingClientRect();
  const apart = (r) => notice.right <= r.left || r.right <= notice.left
    || notice.bottom <= r.top || r.bottom <= notice.top;
  return [...document.querySelectorAll('.seat.opponent .seat-head, .seat.opponent .seat-level')]
    .filter((el) => el.getClientRects().length && !apart(el.getBoundingClientRect()))
    .map((el) => el.textContent);
}"""


def test_the_reconnecting_notice_covers_no_opponents_name(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=DRAG_SEED))
    opened = open_page()
    opened.errors.allow("WebSocket")
    opened.errors.allow("Failed to load resource")
    page = opened.page
    start_game(page, server.url, "indecision", level="normal")
    wait_my_turn(page)
    server.stop()
    notice = page.locator(".connection")
    expect(notice).to_be_visible()
    sizes: list[ViewportSize] = [
        {"width": 1280, "height": 800},
        {"width": 800, "height": 600},
        PHONE,
    ]
    for size in sizes:
        page.set_viewport_size(size)
        expect(notice).to_be_visible()
        covered = page.evaluate(OVERLAPS_JS)
        assert covered == [], f"the notice covers {covered} at {size}"
        box = notice.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= size["width"]


def test_the_next_indecision_hand_starts_with_the_opponents_cards_face_down(
    seeded: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, seeded.url, "indecision", level="normal")
    for _ in range(120):
        wait_idle(page)
        if panel_name(page) == "summary":
            break
        if panel_name(page) is not None:
            answer_panel(page)
            continue
        state = table_state(page)
        assert not state.finished, "the game ended without a hand summary first"
        stock = page.locator("[data-zone=stock] button.zone-button")
        if stock.count():
            stock.click()
        elif lift_playable_card(page) is not None:
            tap_lifted(page)
        else:
            continue
        if panel_name(page) == "confirm":
            answer_panel(page)
        wait_version_after(page, state.version)
    else:
        raise AssertionError("no hand ended")
    # The hand's cards are face up while its summary is read.
    expect(page.locator(".seat.opponent .opp-cards.face-up")).to_have_count(1)
    page.locator("dialog#panel .summary-buttons [data-close]").click()
    expect(page.locator("dialog#panel[open]")).to_have_count(0)
    view = page.evaluate("() => window.cardtable.view.message.view")
    assert view["hand_number"] != view["last_hand"]["hand_number"], "no new hand was dealt"
    assert not table_state(page).finished
    # A new hand is on: the opponent's seat shows its new hand face down.
    expect(page.locator(".seat.opponent .opp-cards.face-up")).to_have_count(0)
    expect(page.locator(".seat.opponent .opp-cards .card.back")).not_to_have_count(0)


PREVIEW_JS = """() => {
  const dialog = document.querySelector('dialog#panel').getBoundingClientRect();
  const body = document.querySelector('#panel-body');
  return [...document.querySelectorAll('.option-preview .card')].map((card) => {
    const r = card.getBoundingClientRect();
    return {card: card.dataset.card || 'back', inside: r.top >= dialog.top - 0.5
      && r.bottom <= Math.min(dialog.bottom, innerHeight) + 0.5
      && r.left >= dialog.left - 0.5 && r.right <= dialog.right + 0.5};
  }).filter((c) => !c.inside);
}"""


COVERED_ROWS_JS = """() => {
  const preview = document.querySelector('.preview-wrap').getBoundingClientRect();
  return [...document.querySelectorAll('.option-list li')].filter((row) => {
    const r = row.getBoundingClientRect();
    return r.top < preview.bottom - 0.5 && r.bottom > preview.top + 0.5;
  }).map((row) => row.dataset.option);
}"""


@pytest.mark.parametrize("size", [(1280, 800), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_options_show_their_values_as_words_and_the_whole_preview(
    seeded: LiveServer, open_page: Callable[..., BrowserPage], size: tuple[int, int]
) -> None:
    page = open_page(viewport={"width": size[0], "height": size[1]}).page
    start_game(page, seeded.url, "indecision")
    wait_my_turn(page)
    page.click("#menu-button")
    page.click("[data-menu=options]")
    dialog = page.locator("dialog#panel[data-panel=options]")
    expect(dialog).to_be_visible()
    settle(page)
    page.screenshot(path=str(SHOTS / f"options-{size[0]}x{size[1]}.png"), animations="disabled")
    # The choices read as the start page writes them: "Normal", not "normal".
    shown = dialog.locator("select option").all_inner_texts()
    assert shown and all(text[:1].isupper() for text in shown), shown
    # Every card of the preview, the back included, is shown whole without scrolling.
    assert page.evaluate(PREVIEW_JS) == []
    # No option's row lies under the preview before scrolling (the Card back row was covered
    # by a preview pinned at the foot), and the last row scrolled to is not under it either.
    assert page.evaluate(COVERED_ROWS_JS) == []
    dialog.locator("[data-option=card_back] select").scroll_into_view_if_needed()
    assert "card_back" not in page.evaluate(COVERED_ROWS_JS)


def test_indian_rummy_lists_the_open_deck_and_declaration_rummy_does_not(
    seeded: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    # An easy computer player, which does not drop out of this deal at once (a random one may,
    # and the next deal's pile starts afresh).
    start_game(page, seeded.url, "indian-rummy", level="easy")
    to_discard_phase(page)
    version = table_state(page).version
    record_moves(page)
    label = lift_playable_card(page)
    assert label is not None
    tap_lifted(page)
    wait_version_after(page, version)
    assert f"discard {label}" in moves_since(page, version)
    events = page.evaluate("() => window.cardtable.view.message.view.events")
    seen = [e["cards"][0] for e in events if e["verb"] in ("open-pile", "discard")]
    assert label in seen and len(seen) >= 2
    button = page.locator(".open-deck-button")
    expect(button).to_have_text(f"Discards ({len(seen)})")
    button.click()
    panel = page.locator("dialog#panel[data-panel=open-deck]")
    expect(panel).to_be_visible()
    rows = panel.locator(".open-deck-row")
    expect(rows).to_have_count(len(seen))
    # Newest first, each card with who put it there; the pile's first card was turned up.
    assert [rows.nth(i).locator(".card").get_attribute("data-card") for i in range(len(seen))] == [
        *reversed(seen)
    ]
    expect(rows.last).to_contain_text("Turned up to start the pile")
    mine = panel.locator(".open-deck-row", has=page.locator(f".card[data-card='{label}']"))
    expect(mine.first).to_contain_text("You discarded it")
    page.keyboard.press("Escape")

    # Declaration Rummy's pile is kept squared (RULES.md 3.2): only its top card is shown.
    start_game(page, seeded.url, "declaration-rummy")
    wait_my_turn(page)
    expect(page.locator(".open-deck-button")).to_have_count(0)
    expect(page.locator("[data-zone=pile] .card:not(.under)")).to_have_count(1)
    pile = page.evaluate("() => window.cardtable.view.message.view.discard_pile")
    assert pile["cards"] is None, pile


INSIDE_JS = """([inner, outer]) => {
  const a = document.querySelector(inner).getBoundingClientRect();
  const b = document.querySelector(outer).getBoundingClientRect();
  return {inner: [a.left, a.top, a.right, a.bottom], outer: [b.left, b.top, b.right, b.bottom],
    inside: a.left >= b.left - 0.5 && a.top >= b.top - 0.5 && a.right <= b.right + 0.5
      && a.bottom <= b.bottom + 0.5};
}"""


@pytest.mark.parametrize("size", [(360, 640), (800, 600)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_stop_word_sits_inside_its_dashed_area(
    seeded: LiveServer, open_page: Callable[..., BrowserPage], size: tuple[int, int]
) -> None:
    page = open_page(viewport={"width": size[0], "height": size[1]}).page
    start_game(page, seeded.url, "indecision")
    wait_my_turn(page)
    settle(page)
    screenshot(page, str(SHOTS / f"indecision-stop-{size[0]}x{size[1]}.png"))
    where = page.evaluate(INSIDE_JS, [".stop-word", ".stop-area"])
    assert where["inside"], where
