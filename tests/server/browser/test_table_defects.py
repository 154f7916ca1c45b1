"""Regressions found by playing as a newcomer: panels that outlive their screen, a table one
does not sit at, a card left lifted, the record's import, leaving versus abandoning, keyboard
focus after S, the coach after the game, accessible names on a phone, playing while the
server is away, toasts over the buttons, card names in the live region, and the table
scrolling under the sticky header. (Internal names in the house-rules form, defect 12, are
checked with every other screen's words in ``test_page_audit``.)"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.server.settings import Settings

from .harness import PHONE, BrowserPage, LiveServer, Servers
from .tablekit import (
    answer_panel,
    lift_playable_card,
    open_house_rules,
    panel_name,
    play_with_mouse,
    settle,
    start_game,
    table_state,
    tap_card,
    tap_lifted,
    wait_idle,
    wait_my_turn,
    wait_version_after,
)
from .test_options_and_menu import finish_declaration_game, toggle_option

pytestmark = pytest.mark.browser

SPOKEN_CARD = re.compile(
    r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
    r"(spades|hearts|diamonds|clubs)"
)
BARE_LABEL = re.compile(r"\b(10|[2-9AJQK])[SHDC]\b")

DECLARE_SEED = 4
"""A two-card Declaration Rummy game in which the Random computer player neither declares,
drops nor proposes a tie before we can declare, whichever card we discard and however we answer
a tie (with a random deal one of these happens first in about two games of five, so six games
in a row failed about once in two hundred runs). The deal and the computer player's moves
follow from the seed."""

SPOKEN_DISCARD_SEED = 5
"""An Indecision game in which the Random computer player discards before our third move,
whatever we discard (with a random deal it stops instead, or we move twice in a row, through
our first four moves in about one game in seventy, and no discard was announced)."""

SCORING_SEED = 4
"""An Indecision game in which somebody has scored within our first eight moves (with a random
deal nobody has in about one game in eleven, and the test was then skipped)."""


def wait_draw_phase(page: Page) -> None:
    """Our turn with a card still to draw (discarding first if we are Indecision's starter;
    a computer player may stop at once, and the next hand may open with us again)."""
    for _ in range(6):
        wait_my_turn(page)
        if table_state(page).phase == "draw":
            return
        assert table_state(page).phase == "opening"
        version = table_state(page).version
        assert lift_playable_card(page) is not None
        tap_lifted(page)
        wait_version_after(page, version)
    raise AssertionError("we never came to draw")


def test_back_navigation_closes_the_game_over_panel(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    finish_declaration_game(page, server.url)
    page.locator(".result-banner .btn", has_text="See the scores").click()
    expect(page.locator("dialog#panel[data-panel=summary]")).to_be_visible()
    expect(page.locator("dialog#panel .btn", has_text="Play again")).to_be_visible()
    # The headline says once how the game ended and who won.
    headline = page.locator("dialog#panel .summary-winner")
    expect(headline).to_have_count(1)
    assert len(re.findall(r"\bwins?\b", headline.inner_text())) <= 1, headline.inner_text()
    page.go_back()
    expect(page.locator(".start-form")).to_be_visible()
    # The summary (and its "Play again" for the old table) went with the table.
    expect(page.locator("dialog#panel[open]")).to_have_count(0)


def test_a_table_one_does_not_sit_at_is_not_available_and_is_never_retried(
    server: LiveServer, open_page: Callable[..., BrowserPage], browser: Browser
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    table_url = page.url
    stranger = browser.new_context()
    try:
        other = stranger.new_page()
        sockets: list[str] = []
        other.on("websocket", lambda ws: sockets.append(ws.url))
        other.goto(server.url)
        other.wait_for_selector("body.ready")
        for url in (table_url, f"{server.url}#/table/no-such-table"):
            other.goto(url)
            notice = other.locator(".table-missing")
            expect(notice).to_contain_text("This table is not available")
            expect(other.locator(".connection")).to_have_count(0)
            other.wait_for_timeout(1500)
            assert sockets == [], f"the page kept knocking: {sockets}"
        notice.locator(".btn", has_text="Choose a game").click()
        expect(other.locator(".start-form")).to_be_visible()
    finally:
        stranger.close()


def test_a_card_lifted_when_declaring_is_put_down(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=DECLARE_SEED))
    page = open_page().page
    declared: list[bool] = []

    def lift_then_declare(page: Page, turn: int) -> bool:
        button = page.locator(".actions button[data-action='declare']:not([disabled])")
        if not button.count():
            return False
        tap_card(page.locator(".hand .hand-card").first)
        expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)
        button.click()
        confirm = page.locator("dialog#panel[data-panel=confirm]")
        # The question shows the count being declared with.
        expect(confirm).to_contain_text(re.compile(r"Declare with a count of \d+\?"))
        confirm.locator(".btn.primary").click()
        declared.append(True)
        return True

    start_game(page, server.url, "declaration-rummy", cards_dealt=2)
    play_with_mouse(page, special=lift_then_declare)
    assert declared, "the computer player ended the game before we could declare"
    assert table_state(page).finished
    expect(page.locator(".hand .hand-card")).not_to_have_count(0)
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(0)


def test_record_import_says_what_happened_inside_the_record_panel(
    server: LiveServer, open_page: Callable[..., BrowserPage], tmp_path: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    page.click("#menu-button")
    page.click("[data-menu=record]")
    dialog = page.locator("dialog#panel[data-panel=record]")
    expect(dialog.locator(".record-actions")).to_be_visible()
    broken = tmp_path / "broken.json"
    broken.write_text("{ not json")
    for _ in range(2):
        # The same file chosen twice gets an answer twice: the input is emptied after a choice.
        page.evaluate(
            "() => { const s = document.querySelector('.record-status');"
            " s.hidden = true; s.textContent = ''; }"
        )
        page.set_input_files("#import-file", str(broken))
        status = dialog.locator(".record-status.error")
        expect(status).to_be_visible()
        expect(status).to_contain_text("could not be imported")
        expect(status).to_contain_text("broken.json")
        assert page.eval_on_selector("#import-file", "el => el.value") == ""
    document = page.evaluate("() => fetch('/api/profile/export').then(r => r.json())")
    good = tmp_path / "record.json"
    good.write_text(json.dumps(document))
    page.set_input_files("#import-file", str(good))
    done = page.locator("dialog#panel[data-panel=record] .record-status.ok")
    expect(done).to_contain_text("Record imported from record.json")
    # A toast raised while the panel is open is shown inside it, above the backdrop.
    page.evaluate("() => import('/static/js/panel.js').then(p => p.alertMessage('Test toast'))")
    expect(page.locator("dialog#panel .toast")).to_contain_text("Test toast")


def test_drawing_with_s_from_a_focused_button_keeps_the_keyboard_in_the_hand(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    # The focus is on an action button, which the move disables and redraws.
    page.locator(".actions button[data-action='draw pile']").focus()
    version = table_state(page).version
    page.keyboard.press("s")
    wait_version_after(page, version)
    expect(page.locator(".hand .hand-card:focus")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)


def test_the_coach_gives_no_advice_once_the_game_is_over(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    page.click("#menu-button")
    page.click("[data-menu=options]")
    toggle_option(page, "coach")
    page.keyboard.press("Escape")
    finish_declaration_game(page, server.url)
    coach = page.locator("#coach-panel")
    expect(coach).to_contain_text("The game is over.")
    expect(coach.locator(".coach-discards, .coach-tips, .coach-warning")).to_have_count(0)


def test_menu_button_and_match_length_have_names_on_a_phone(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page(viewport=PHONE).page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    expect(page.get_by_role("button", name="Menu", exact=True)).to_be_visible()
    page.click("label[for=game-declaration-rummy]")
    open_house_rules(page)
    expect(page.locator("#match-wins")).to_have_accessible_name(re.compile("match", re.I))


def test_moves_are_paused_while_disconnected_and_never_sent_later(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start()
    opened = open_page()
    opened.errors.allow("WebSocket")
    opened.errors.allow("Failed to load resource")
    page = opened.page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    version = table_state(page).version
    server.stop()
    expect(page.locator(".connection")).to_be_visible()
    expect(page.locator(".connection")).to_contain_text("moves are paused")
    expect(page.locator(".actions button[data-action='draw deck']")).to_be_disabled()
    page.locator(".hand .hand-card").first.focus()
    page.keyboard.press("s")
    expect(page.locator(".toast")).to_contain_text("was not sent")
    back = LiveServer(server.database_url, port=server.port)
    servers.started.append(back)
    expect(page.locator(".connection")).to_be_hidden(timeout=20000)
    expect(page.locator(".actions button[data-action='draw deck']")).to_be_enabled()
    page.wait_for_timeout(500)
    state = table_state(page)
    assert (state.version, state.my_turn, state.phase) == (version, True, "draw")


def test_toasts_never_cover_the_hand_or_the_actions(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    for viewport in (None, PHONE):
        page = open_page(viewport=viewport).page
        start_game(page, server.url, "indecision")
        wait_draw_phase(page)
        tap_card(page.locator(".hand .hand-card").first)
        tap_lifted(page)
        toast = page.locator(".toast").last
        expect(toast).to_contain_text("Draw a card first")
        box = toast.bounding_box()
        assert box is not None
        for selector in (".actions", ".hand"):
            other = page.locator(selector).bounding_box()
            assert other is not None
            apart = (
                box["y"] + box["height"] <= other["y"]
                or other["y"] + other["height"] <= box["y"]
                or box["x"] + box["width"] <= other["x"]
                or other["x"] + other["width"] <= box["x"]
            )
            assert apart, f"the toast {box} covers {selector} {other}"
        page.close()


def test_the_live_region_speaks_card_names(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=SPOKEN_DISCARD_SEED))
    page = open_page().page
    start_game(page, server.url, "indecision")
    region = page.locator("#announcer")
    for _ in range(4):
        wait_my_turn(page)
        text = region.inner_text()
        assert not BARE_LABEL.search(text), text
        if "discarded" in text:
            assert SPOKEN_CARD.search(text), text
            break
        version = table_state(page).version
        stock = page.locator("[data-zone=stock] button.zone-button")
        if stock.count():
            stock.click()
        else:
            assert lift_playable_card(page) is not None
            tap_lifted(page)
        answer_panel(page)
        wait_version_after(page, version)
    else:
        pytest.fail("no discard was announced")


def module_result(page: Page, module: str, body: str, arg: Any = None) -> Any:
    """Import ``/static/js/<module>.js`` as ``m`` in the page and return what ``body`` (an
    expression using ``m`` and ``arg``) gives; the page's Content-Security-Policy allows no
    eval, so ``body`` is part of the function Playwright passes, not a string run inside."""
    return page.evaluate(
        f"async (arg) => {{ const m = await import('/static/js/{module}.js'); return {body}; }}",
        arg,
    )


def test_a_new_deal_marks_no_card_new_and_keeps_nothing_lifted(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    marks = module_result(
        page,
        "hand",
        "((h) => { h.sync(['AS','KH','QD','JC','10S']); h.liftedUid = h.entries[0].uid;"
        " h.sync(['AS','KH','QD','JC','10S','9H']);"
        " const draw = h.entries.filter(e => e.fresh).map(e => e.card);"
        " const kept = h.lifted();"
        " h.sync(['AS','KH','2C','3C','4C'], {newDeal: true});"
        " return {draw, kept, deal: h.entries.filter(e => e.fresh).length, lifted: h.lifted()};"
        " })(new m.Hand({storageKey: 'test-order', onPlay() {}, onLift() {}}))",
    )
    assert marks == {"draw": ["9H"], "kept": "AS", "deal": 0, "lifted": None}


def test_a_chosen_sort_orders_the_next_deal_and_arranging_by_hand_forgets_it(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    orders = module_result(
        page,
        "hand",
        "((h) => { h.sync(['AS','KH','QD','2C','10S']); h.sortBy('rank');"
        " h.sync(['AS','KH','QD','2C','10S','3D']); const drawn = h.cards();"
        " h.sync(['9S','2H','KC','5D','AH'], {newDeal: true}); const dealt = h.cards();"
        " h.focusUid = h.entries[0].uid; h.moveCard(1);"
        " const moved = h.cards(); h.sync([...moved, '4C']);"
        " return {drawn, dealt, moved, after: h.cards()};"
        " })(new m.Hand({storageKey: 'test-sort', onPlay() {}, onLift() {}}))",
    )
    assert orders == {
        "drawn": ["AS", "2C", "3D", "10S", "QD", "KH"],
        "dealt": ["AH", "2H", "5D", "9S", "KC"],
        "moved": ["2H", "AH", "5D", "9S", "KC"],
        "after": ["2H", "AH", "5D", "9S", "KC", "4C"],
    }


def test_score_star_is_explained_and_the_chart_table_uses_the_games_word(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=SCORING_SEED))
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    header = module_result(
        page,
        "chart",
        "m.totalsChart({title: 'Totals', axis: 'deals played',"
        " series: [{name: 'You', points: [0, 20, 40], me: true}]})"
        ".querySelector('thead th').textContent",
    )
    assert header == "After deal"
    start_game(page, server.url, "indecision")
    for _ in range(8):
        wait_my_turn(page)
        if page.locator(".score-table .leader-mark").count():
            break
        version = table_state(page).version
        stock = page.locator("[data-zone=stock] button.zone-button")
        if stock.count():
            stock.click()
        else:
            assert lift_playable_card(page) is not None
            tap_lifted(page)
        wait_version_after(page, version)
    else:
        raise AssertionError("nobody scored in our first eight moves")
    expect(page.locator(".score-note .leader-legend")).to_contain_text("★ highest total")


def test_spoken_card_names(server: LiveServer, open_page: Callable[..., BrowserPage]) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    spoken = module_result(
        page,
        "speech",
        "arg.map(m.spokenCards)",
        [
            "Ruby discarded 10C.",
            "Discard 10♥: it is a loose card worth 10",
            "You took Q♥ (and PJ).",
            "A pair of 7s",
        ],
    )
    assert spoken == [
        "Ruby discarded ten of clubs.",
        "Discard ten of hearts: it is a loose card worth 10",
        "You took queen of hearts (and printed joker).",
        "A pair of 7s",
    ]


def test_the_replay_writes_cards_and_names_as_the_table_does(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    # Cards as their faces read: the printed joker is "JOKER" (its face), never the code "PJ".
    faces = module_result(page, "cards", "arg.map(m.faceCards)", ["discard PJ", "took 10C and C12"])
    assert faces == ["discard JOKER", "took 10♣ and COUNT 12"]
    # A deal's summary line from the viewer's seat: "you" in the list of points is "You", as
    # at the table, each line starts with a capital, the other seat has its name.
    line = module_result(
        page,
        "replay",
        "(() => { const v = new m.ReplayView({}, {}); v.viewer = 0;"
        " v.data = {names: ['Ann', 'Ruby']}; return v.summaryText(arg); })()",
        "you showed 7D 6D PJ\nDeal points: you 0 · seat 1 25 | Totals: you 0 · seat 1 25",
    )
    assert line == (
        "You showed 7♦ 6♦ JOKER\nDeal points: You 0 · Ruby 25 | Totals: You 0 · Ruby 25"
    )


def test_a_redraw_between_press_and_release_keeps_the_tap(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    # A state arriving between the press and the release of a tap (as under load) redraws the
    # table; the card under the finger must stay the same element, or the tap is lost.
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    # The press lands where the card is: not while the deal still flies it in.
    settle(page)
    version = table_state(page).version

    def tap_with_redraw(card: Any) -> None:
        box = card.bounding_box()
        assert box is not None
        page.mouse.move(box["x"] + 8, box["y"] + 12)
        page.mouse.down()
        page.evaluate("() => window.cardtable.view.renderAll()")
        page.mouse.up()

    tap_with_redraw(page.locator(".hand .hand-card").first)
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)
    tap_with_redraw(page.locator(".hand .hand-card.lifted"))
    expect(page.locator(".toast")).to_contain_text("Draw a card first")
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)
    assert table_state(page).version == version


CONTRAST_JS = """(selectors) => {
  const parse = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return null;
    const [r, g, b, a = 1] = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [r, g, b, a];
  };
  const over = (top, base) => top.slice(0, 3).map((c, i) => c * top[3] + base[i] * (1 - top[3]));
  const lum = (rgb) => {
    const [r, g, b] = rgb.map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  // The lightest the backdrop behind `el` gets: translucent backgrounds composited, upwards,
  // over the first opaque colour; a gradient counts as its lightest opaque stop with its
  // translucent white highlights laid over it (the worst case for light text).
  const backdrop = (el) => {
    const layers = [];
    for (let node = el; node; node = node.parentElement) {
      const style = getComputedStyle(node);
      const image = style.backgroundImage;
      if (image && image !== 'none') {
        const colours = [...image.matchAll(/rgba?\\([^)]+\\)/g)].map((m) => parse(m[0]));
        const solid = colours.filter((c) => c[3] === 1).sort((a, b) => lum(b) - lum(a))[0];
        if (solid) {
          let base = solid.slice(0, 3);
          for (const c of colours) if (c[3] < 1 && lum(c) > lum(base)) base = over(c, base);
          return layers.reduceRight((acc, layer) => over(layer, acc), base);
        }
      }
      const colour = parse(style.backgroundColor);
      if (colour && colour[3] > 0) {
        if (colour[3] === 1) {
          return layers.reduceRight((acc, layer) => over(layer, acc), colour.slice(0, 3));
        }
        layers.push(colour);
      }
    }
    return layers.reduceRight((acc, layer) => over(layer, acc), [255, 255, 255]);
  };
  const out = [];
  for (const selector of selectors) {
    for (const el of document.querySelectorAll(selector)) {
      if (!el.textContent.trim() || el.getClientRects().length === 0) continue;
      const style = getComputedStyle(el);
      const colour = parse(style.color);
      let opacity = 1;
      for (let node = el; node; node = node.parentElement) {
        opacity *= Number(getComputedStyle(node).opacity);
      }
      const bg = backdrop(el);
      const fg = over([colour[0], colour[1], colour[2], colour[3] * opacity], bg);
      const [hi, lo] = [lum(fg), lum(bg)].sort((a, b) => b - a);
      const ratio = Math.round(((hi + 0.05) / (lo + 0.05)) * 100) / 100;
      out.push({selector, text: el.textContent.trim().slice(0, 30), ratio});
    }
  }
  return out;
}"""

SMALL_FELT_TEXT = [
    "#last-move",
    "#turn-line",
    ".zone-caption",
    ".stop-word",
    ".seat-name",
    ".hand-size",
    ".seat-score",
    ".badge",
    ".table-note",
]


def test_small_text_on_the_felt_has_a_contrast_of_at_least_4_5(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    expect(page.locator("#last-move")).to_be_visible()
    measured = page.evaluate(CONTRAST_JS, SMALL_FELT_TEXT)
    seen = {m["selector"] for m in measured}
    assert {"#last-move", "#turn-line", ".zone-caption", ".stop-word"} <= seen, seen
    low = [m for m in measured if m["ratio"] < 4.5]
    assert not low, f"text below 4.5:1 on the felt: {low}"


def test_a_stop_hint_highlights_stop_and_tapping_the_hinted_card_never_discards_it(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    version = table_state(page).version
    page.locator("[data-zone=stock] button.zone-button").click()
    wait_version_after(page, version)
    wait_my_turn(page)
    assert table_state(page).phase == "discard"
    version = table_state(page).version
    card = page.locator(".hand .hand-card").first.get_attribute("data-card")
    # The coach's hint, as the server sends it: stop with this card as the spare.
    page.evaluate(
        "card => window.cardtable.view.onHint({type: 'hint', action: `stop ${card}`,"
        " reason: `Stop with ${card} as the spare: you score 9.`})",
        card,
    )
    hinted = page.locator(f".hand .hand-card.hinted[data-card='{card}']")
    expect(hinted).to_have_attribute("aria-pressed", "true")
    stop = page.locator(".actions button[data-verb='stop'].hinted")
    expect(stop).to_be_enabled()
    hint_line = page.locator("#hint-line")
    expect(hint_line).to_have_text(re.compile(r"^Hint: Stop with \S+ as the spare"))
    # Tapping the hinted (lifted) card follows the hint: a stop, never a discard.
    tap_lifted(page)
    page.wait_for_function(
        "v => document.querySelector('dialog#panel[open]')"
        " || Number(document.querySelector('.table').dataset.version) > v",
        arg=version,
    )
    if table_state(page).version == version:
        expect(page.locator("dialog#panel[data-panel=confirm]")).to_contain_text("Stop anyway?")
    else:
        # A valid stop ended the hand (the computer player may already be dealing the next):
        # the hand's summary says who stopped.
        summary = page.locator("dialog#panel[data-panel=summary]")
        expect(summary).to_contain_text("You stopped the hand")


def test_indecision_hand_summary_opens_with_the_state_that_ends_the_hand(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision", level="normal")
    # Note the first version whose view carries a finished hand, and the version at which the
    # summary panel opened.
    page.evaluate(
        """() => {
      window.__ended = null; window.__opened = null;
      const table = document.querySelector('.table');
      new MutationObserver(() => {
        if (window.__ended === null && window.cardtable.view.message?.view?.last_hand) {
          window.__ended = Number(table.dataset.version);
        }
      }).observe(table, {attributes: true, attributeFilter: ['data-version']});
      const dialog = document.querySelector('dialog#panel');
      new MutationObserver(() => {
        if (window.__opened === null && dialog.open && dialog.dataset.panel === 'summary') {
          window.__opened = Number(table.dataset.version);
        }
      }).observe(dialog, {attributes: true, attributeFilter: ['open']});
    }"""
    )
    for _ in range(80):
        wait_idle(page)
        if page.evaluate("() => window.__ended") is not None:
            break
        if panel_name(page) is not None:
            answer_panel(page)
            continue
        state = table_state(page)
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
    ended = page.evaluate("() => window.__ended")
    assert ended is not None, "no hand ended"
    expect(page.locator("dialog#panel[data-panel=summary]")).to_be_visible()
    assert page.evaluate("() => window.__opened") == ended


def test_indian_rummy_drop_is_asked_with_its_points(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indian-rummy")
    wait_my_turn(page)
    drop = page.locator(".actions button[data-action='drop']")
    # A player may drop at the start of any of their turns (rule 2.6): ours has just begun.
    expect(drop).to_have_count(1)
    version = table_state(page).version
    drawn = page.evaluate(
        "() => { const m = window.cardtable.view.message; return m.view.has_drawn[m.seat]; }"
    )
    points = 40 if drawn else 20
    expect(drop).to_have_text(f"Drop for {points}")
    drop.click()
    confirm = page.locator("dialog#panel[data-panel=confirm]")
    expect(confirm).to_contain_text(f"Drop out for {points} points?")
    expect(confirm).to_contain_text(f"You score {points} points for this deal")
    confirm.locator(".btn", has_text="Keep playing").click()
    assert table_state(page).version == version


def test_a_slow_tap_held_in_place_still_counts_as_a_tap(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    # Under load the press and the release of a tap can reach the page well apart: a press
    # held in place past the hold time and released without moving lifts the card all the same.
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_draw_phase(page)
    # Cards at rest: the deal has finished flying in.
    settle(page)
    box = page.locator(".hand .hand-card").first.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + 8, box["y"] + 12)
    page.mouse.down()
    page.wait_for_timeout(700)
    page.mouse.up()
    expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)


@pytest.mark.parametrize("size", [(800, 600), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_table_never_scrolls_under_the_sticky_header_as_turns_are_played(
    server: LiveServer, open_page: Callable[..., BrowserPage], size: tuple[int, int]
) -> None:
    # Defect 7: after each turn the page scrolled so that the header covered the table's top.
    page = open_page(viewport={"width": size[0], "height": size[1]}).page
    start_game(page, server.url, "indian-rummy")
    wait_my_turn(page)
    page.evaluate(
        "() => { window.__maxScroll = scrollY; addEventListener('scroll',"
        " () => { window.__maxScroll = Math.max(window.__maxScroll, scrollY); }); }"
    )
    turns = 0
    while turns < 4:
        wait_my_turn(page)
        state = table_state(page)
        if state.finished:
            break
        # The keyboard only: S draws, an arrow and Enter lift a card, Enter again discards it.
        if state.phase == "draw":
            page.keyboard.press("s")
        else:
            page.keyboard.press("ArrowRight")
            page.keyboard.press("Enter")
            expect(page.locator(".hand .hand-card.lifted")).to_have_count(1)
            page.keyboard.press("Enter")
            turns += 1
        wait_version_after(page, state.version)
        where = page.evaluate(
            "() => ({scroll: window.__maxScroll,"
            " header: document.querySelector('.topbar').getBoundingClientRect().bottom,"
            " table: document.querySelector('.table-main').getBoundingClientRect().top})"
        )
        assert where["scroll"] == 0, f"the page scrolled after a move: {where}"
        assert where["table"] >= where["header"] - 0.5, f"the header covers the table: {where}"
    assert turns >= 2, "the deal ended before two turns were played"
