"""Regressions of the page found in reviews: the friends' waiting room on a phone (its bar at
the bottom covered the invite link and the copy button), the hand's count chip over the last
group's label in Declaration Rummy at 360 px, and a page falling behind a burst of computer
players' moves (each state drawn in turn, however many were waiting): it now draws the latest
once per frame, every state still taken in order."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, WebSocket

from cardtable.server.settings import Settings

from .harness import BrowserPage, LiveServer, Servers
from .peoplekit import host_table, join_table, people
from .tablekit import answer_panel, panel_name, screenshot, settle, start_game, wait_my_turn

pytestmark = pytest.mark.browser

SEED = 4
"""Deals in which our first turn comes at a four-seat Declaration Rummy table (as in
test_layout_fit), and whose seven-card hand spans a 360 px window."""


@pytest.fixture
def live(servers: Servers) -> LiveServer:
    """A server dealing from :data:`SEED`, with shared tables' timers a tenth as long."""
    return servers.start(Settings(rate_limits=False, test_seed=SEED, shared_time_scale=0.1))


ROOM_JS = """() => {
  const box = (sel) => { const r = document.querySelector(sel).getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const copy = document.querySelector('#copy-invite').getBoundingClientRect();
  const hit = document.elementFromPoint(copy.left + copy.width / 2, copy.top + copy.height / 2);
  // The link's last line: a point just above its bottom edge, at its middle.
  const link = document.querySelector('#invite-link').getBoundingClientRect();
  const linkHit = document.elementFromPoint(link.left + link.width / 2, link.bottom - 6);
  const what = (el, sel, name) => el && el.closest(sel) ? name : el?.outerHTML.slice(0, 80);
  return {link: box('#invite-link'), copy: box('#copy-invite'), bar: box('.room-actions'),
    lead: box('.room-lead'), copyHit: what(hit, '#copy-invite', 'copy'),
    linkHit: what(linkHit, '#invite-link', 'link'),
    window: {width: innerWidth, height: innerHeight}};
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    """Whether two boxes share any area."""
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize(
    "size", [(360, 640), (390, 844), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}"
)
def test_the_waiting_rooms_bar_covers_no_part_of_the_invite(
    live: LiveServer, browser: Browser, shots: Path, size: tuple[int, int]
) -> None:
    with people(browser, ["Ann"]) as (ann,):
        page = ann.page
        page.set_viewport_size({"width": size[0], "height": size[1]})
        host_table(ann, live.url, "declaration-rummy", ["open"])
        settle(page)
        shown: dict[str, Any] = page.evaluate(ROOM_JS)
        where = f"at {size[0]}x{size[1]}: {shown}"
        # The room opens at its top: the invite is in the window, above the bar, and both the
        # link (to its last line) and the copy button can be reached where they show.
        assert page.evaluate("() => scrollY") == 0
        for name in ("lead", "link", "copy"):
            assert not overlap(shown[name], shown["bar"]), f"the bar covers the {name} {where}"
            assert shown[name]["bottom"] <= shown["window"]["height"], where
        assert shown["copyHit"] == "copy", where
        assert shown["linkHit"] == "link", where
        # The bar itself is whole in the window, its buttons side by side on a phone.
        assert shown["bar"]["bottom"] <= shown["window"]["height"] + 0.5, where
        tops = page.eval_on_selector_all(
            ".room-actions .btn", "els => els.map(e => Math.round(e.getBoundingClientRect().top))"
        )
        if size[0] < 600:
            assert len(set(tops)) == 1, f"the bar's buttons wrap {where}: {tops}"
        screenshot(page, str(shots / f"waiting-room-{size[0]}x{size[1]}.png"))


GROUPS_JS = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, top: r.top, right: r.right, bottom: r.bottom}; };
  const list = document.querySelector('.hand-groups');
  const cards = [...document.querySelectorAll('.hand .hand-card')];
  const labels = [...list.querySelectorAll('.hand-group-label')].map((el) => {
    const members = cards.filter((c) => c.dataset.group === el.dataset.group);
    const next = cards[cards.indexOf(members[members.length - 1]) + 1];
    return {box: box(el), text: el.textContent, cardsLeft: box(members[0]).left,
      cardsRight: next ? box(next).left : Math.max(...members.map((c) => box(c).right))};
  });
  const total = list.querySelector('.hand-group-total');
  return {hidden: list.hidden, flow: list.classList.contains('flow'), labels,
    total: total ? box(total) : null, runs: new Set(cards.map((c) => c.dataset.group)).size};
}"""


def check_groups(page: Page, where: str) -> None:
    """The count chip touches no group label, and (on one row) each label is under its group."""
    # Labelled (a hand in one group has no labels to place).
    page.wait_for_function(
        "() => { const l = document.querySelector('.hand-groups');"
        " const runs = new Set([...document.querySelectorAll('.hand .hand-card')]"
        ".map(c => c.dataset.group)).size;"
        " return runs < 2 || (l && !l.hidden && l.querySelector('.hand-group-total')"
        " && l.querySelectorAll('.hand-group-label').length === runs); }"
    )
    settle(page)
    shown: dict[str, Any] = page.evaluate(GROUPS_JS)
    if shown["runs"] < 2:
        return
    assert shown["total"] is not None and shown["labels"], f"{where}: {shown}"
    for label in shown["labels"]:
        assert not overlap(label["box"], shown["total"]), f"{where}: the chip covers {label}"
    for first, second in zip(shown["labels"], shown["labels"][1:], strict=False):
        assert not overlap(first["box"], second["box"]), f"{where}: labels overlap {shown}"
    if not shown["flow"]:
        for label in shown["labels"]:
            # Under its own cards (up to the next group's first card).
            assert label["box"]["left"] >= label["cardsLeft"] - 1, f"{where}: {label}"
            assert label["box"]["right"] <= label["cardsRight"] + 1, f"{where}: {label}"


@pytest.mark.parametrize("size", [(360, 640), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_hands_count_chip_never_covers_a_group_label(
    live: LiveServer, open_page: Callable[..., BrowserPage], shots: Path, size: tuple[int, int]
) -> None:
    width, height = size
    page = open_page(viewport={"width": width, "height": height}).page
    start_game(page, live.url, "declaration-rummy", players=4)
    wait_my_turn(page)
    check_groups(page, f"dealt at {width}x{height}")
    screenshot(page, str(shots / f"declaration-rummy-groups-{width}x{height}.png"))
    # After drawing (a card flying into the hand, the labels placed meanwhile).
    page.click("[data-zone=stock] button.zone-button")
    page.wait_for_function("() => document.querySelectorAll('.hand .hand-card').length === 8")
    if panel_name(page) is not None:
        answer_panel(page, finish=False)
    check_groups(page, f"after drawing at {width}x{height}")
    # Arranged by the solver: the groups change, the labels with them.
    page.get_by_role("button", name="Arrange for me").click()
    check_groups(page, f"arranged at {width}x{height}")


DRAWS_JS = """() => {
  // Every drawing of the table sets its data-version (even to the same value), and every
  // announcement replaces the live region's text: both counted here, apart from the page's own
  // counters.
  window.__drawn = 0;
  window.__said = 0;
  new MutationObserver((records) => { window.__drawn += records.length; }).observe(
    document.querySelector('.table'), {attributes: true, attributeFilter: ['data-version']});
  new MutationObserver((records) => { window.__said += records.length; }).observe(
    document.querySelector('#announcer'), {childList: true, characterData: true});
}"""

SHOWN_JS = """() => { const t = document.querySelector('.table');
  return {version: Number(t.dataset.version), finished: t.dataset.finished === 'true',
    drawn: window.__drawn, said: window.__said, states: window.cardtable.view.states,
    draws: window.cardtable.view.draws}; }"""

BURST_DEADLINE_S = 90.0
"""How long a throttled page may take to show the end of a game nine computer players play
with no delay (a few dozen moves; each drawn in turn, the page fell ever further behind)."""


def test_a_throttled_page_keeps_up_with_a_burst_of_moves(
    live: LiveServer, browser: Browser
) -> None:
    with people(browser, ["Ann", "Bob"]) as (ann, bob):
        invite = host_table(ann, live.url, "declaration-rummy", ["random"] * 9)
        # The table's frames as the server sends them (a whole state, then patches onto it).
        sent: list[dict[str, Any]] = []

        def on_socket(socket: WebSocket) -> None:
            def on_frame(payload: str | bytes) -> None:
                frame = json.loads(payload)
                if frame.get("type") in ("state", "patch"):
                    sent.append(frame)

            socket.on("framereceived", on_frame)

        bob.page.on("websocket", on_socket)
        join_table(bob, invite, watch=True)
        # Bob's page runs on a device six times slower; the computer players wait for nobody.
        cdp = bob.context.new_cdp_session(bob.page)
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": 6})
        ann.page.click("#start-shared")
        bob.page.wait_for_selector(".table[data-version]")
        bob.page.evaluate(DRAWS_JS)
        before = len(sent)
        # Ann leaves: a computer player takes her seat, and the table plays itself to the end.
        ann.page.wait_for_selector(".table[data-version]")
        while panel_name(ann.page) is not None:
            answer_panel(ann.page)
        ann.page.click(".table-tools .leave")
        ann.page.click("dialog#panel .btn.primary")
        deadline = time.monotonic() + BURST_DEADLINE_S
        shown: dict[str, Any] = {}
        while time.monotonic() < deadline:
            shown = bob.page.evaluate(SHOWN_JS)
            if shown["finished"] and shown["version"] == max(f["version"] for f in sent):
                break
            bob.page.wait_for_timeout(250)
        else:
            raise AssertionError(f"the page stayed behind the server: {shown}, sent {len(sent)}")
        received = len(sent) - before
        assert received > 5, f"too short a burst to tell: {received} states"
        # Every state was taken, in order onto its base (an out-of-step patch would have made
        # the page connect again: one whole state, no more), and fewer drawn than came.
        assert [f["type"] for f in sent].count("state") == 1, [f["type"] for f in sent]
        assert shown["drawn"] < received, f"drawn {shown['drawn']} times for {received}: {shown}"
        # Announced as drawn: the latest move, not a backlog of every move in turn.
        assert 0 < shown["said"] < received, f"{received} states: {shown}"
        # The page's own counts say the same: every state taken, fewer drawings.
        assert shown["states"] >= received, shown
        assert shown["draws"] < shown["states"], shown
        print(f"burst: {received} states received, {shown}")
