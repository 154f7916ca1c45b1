"""Indian Rummy's Pool and Deals at the table (RULES.md 2.13): the standings panel with the limit,
the totals, how far each player is from the limit and who is out (a seat out of the game reads
"out", never "dropped (0)"), the chips in Deals; the rejoin offer and the agreed-finish vote as
questions at the table with their own buttons; the final standing when the game ends; and a
Deals game of three deals played to its end with the chips in the final standing.

Each game is dealt from a seed and shortened through the house rules (a first drop that
reaches the pool limit at once), so an elimination comes on our first turn."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page

from cardtable.server.settings import Settings

from .harness import BrowserPage, Servers
from .tablekit import (
    answer_panel,
    panel_name,
    screenshot,
    start_game,
    table_state,
    wait_idle,
    wait_version_after,
)

pytestmark = pytest.mark.browser

FORMAT_SEED = 2
"""A seed whose first deal gives us a turn before either Random computer player drops (the deal
and their moves follow from it)."""

FINISH_SEED = 4
"""A two-player seed in which the computer player deals the first hand, so that we answer the
agreed finish first (a Normal computer player says "play on" while it alone has the lowest
total, which would start the next deal before we are asked)."""

DROP_OUT: dict[str, Any] = {"rejoin_limit": 100, "first_drop": 101}
"""Pool 101 where dropping on the first turn takes a player to the limit at once, and a rejoin
stays open while the highest total still in is at most 100 (a deal scores at most 80)."""


SIT_OUT_MS = 90000
"""The deadline of a wait while the computer players play a deal out after we dropped: they
move with no pause here, faster than the page of a loaded machine draws each move, and it
draws every one in turn (no state is skipped). The browser runs no check of a test until the
page has caught up, at the end of the deal: only then does a wait see the new version."""


def drop_on_first_turn(page: Page) -> None:
    """Wait for our first turn and drop (confirming the question); from then on every wait
    has the deadline of a deal played out without us (``SIT_OUT_MS``)."""
    wait_idle(page)
    assert table_state(page).my_turn, "the game did not come to our turn"
    version = table_state(page).version
    page.click(".actions button[data-action='drop']")
    page.set_default_timeout(SIT_OUT_MS)
    answer_panel(page)
    wait_version_after(page, version, timeout=SIT_OUT_MS)


def until_decision_or_end(page: Page, kind: str) -> bool:
    """Close summaries until the table asks us ``kind`` (True), or the game is over or our turn
    to draw comes (False)."""
    for _ in range(40):
        page.wait_for_function(
            "k => document.querySelector(`.format-decision[data-decision='${k}'] button`)"
            " || document.querySelector('dialog#panel[open]')"
            " || document.querySelector('.table').dataset.finished === 'true'"
            " || document.querySelector('.table').dataset.phase === 'draw'"
            " && document.querySelector('.table').dataset.myTurn === 'true'",
            arg=kind,
            timeout=SIT_OUT_MS,
        )
        if panel_name(page) is not None:
            answer_panel(page)
            continue
        return bool(page.locator(f".format-decision[data-decision='{kind}'] button").count())
    raise AssertionError(f"never asked {kind}")


def scores_text(page: Page) -> str:
    text: str = page.eval_on_selector(".scores", "el => el.textContent")
    return text


def my_row(page: Page) -> list[str]:
    cells: list[str] = page.eval_on_selector_all(
        ".scores .score-table tbody tr.me > *", "cells => cells.map(c => c.textContent.trim())"
    )
    return cells


@pytest.mark.parametrize("viewport", [(1280, 800), (390, 844)])
def test_a_player_at_the_pool_limit_is_offered_a_rejoin_at_the_table_and_comes_back(
    servers: Servers,
    open_page: Callable[..., BrowserPage],
    shots: Any,
    viewport: tuple[int, int],
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    width, height = viewport
    page = open_page(viewport={"width": width, "height": height}).page
    start_game(
        page,
        server.url,
        "indian-rummy",
        players=3,
        preset="pool-101",
        rules=DROP_OUT,
        # Easy never drops: Normal and Hard drop by the standing, and with a first drop of 101
        # and a free rejoin at the highest total plus one a hopeless hand of theirs drops into
        # that rejoin too, which can end the game before this seat is offered its own.
        level="easy",
    )
    assert "Standings · Pool 101" in scores_text(page)
    assert "A total of 101 or more is out of the game." in scores_text(page)
    assert my_row(page)[-1] == "101", "the distance to the limit is not shown"
    drop_on_first_turn(page)
    assert until_decision_or_end(page, "rejoin"), "no rejoin offer after reaching the limit"
    box = page.locator(".format-decision[data-decision='rejoin']")
    assert "You are out of the game" in box.inner_text()
    assert "reached 101, and 101 is out" in box.inner_text()
    assert my_row(page)[-1] == "out"
    badges = page.locator(".my-area .badge").all_text_contents()
    assert any("out of the game" in b for b in badges), f"our seat does not read out: {badges}"
    assert not any("dropped" in b for b in badges), f"an out seat reads as a drop: {badges}"
    screenshot(page, str(shots / f"pool-rejoin-{width}x{height}.png"))
    rejoin = box.locator("button[data-action='rejoin']")
    offered = int(rejoin.inner_text().split()[-1])
    version = table_state(page).version
    rejoin.click()
    wait_version_after(page, version)
    page.wait_for_function("() => !document.querySelector('.format-decision')")
    cells = my_row(page)
    assert cells[2] == str(offered), f"came back with {cells[2]}, offered {offered}"
    assert cells[-1] == str(101 - offered)
    announced = page.inner_text("#announcer")
    assert announced, "nothing announced after the rejoin"


def test_an_out_seat_reads_out_while_the_others_play_and_the_game_ends_with_the_final_standing(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    page = open_page().page
    rules = {**DROP_OUT, "rejoins": 0}
    start_game(
        page, server.url, "indian-rummy", players=3, preset="pool-101", rules=rules, level="normal"
    )
    drop_on_first_turn(page)
    # The computer players play on without us; we are asked nothing.
    assert not until_decision_or_end(page, "rejoin")
    # Ended: the summary of the game shows the final standing (opened from the banner if closed).
    if panel_name(page) != "summary":
        page.click(".result-banner .btn.primary")
    page.wait_for_selector("dialog#panel[open] .final-standing")
    final = page.inner_text("dialog#panel .final-standing")
    assert "Final standing · Pool 101" in final
    assert "You: " in final and "(out)" in final.split("You: ")[1].splitlines()[0]
    assert "winner" in final
    mine = page.inner_text("dialog#panel .seat-summary.me")
    assert "Out of the game: sat this deal out." in mine, mine
    screenshot(page, str(shots / "pool-final-1280x800.png"))
    page.click("dialog#panel .summary-buttons [data-close]")
    assert my_row(page)[-1] == "out"
    badges = page.locator(".my-area .badge").all_text_contents()
    assert any("out of the game" in b for b in badges), f"our seat does not read out: {badges}"
    assert not any("dropped" in b for b in badges), f"an out seat reads as a drop: {badges}"
    # The rematch: the same format again, everyone back in at 0.
    page.click(".result-banner button:has-text('Play again')")
    page.wait_for_function(
        "() => [...document.querySelectorAll('.scores tr.me td')].map(c => c.textContent)"
        ".join('|') === '–|0|101'"
    )
    assert "Standings · Pool 101" in scores_text(page)


def test_deals_show_each_players_chips_in_the_standings(
    servers: Servers, open_page: Callable[..., BrowserPage]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    page = open_page().page
    start_game(page, server.url, "indian-rummy", players=3, preset="deals-3")
    text = scores_text(page)
    assert "Standings · Deals (best of 3)" in text
    assert "Deal 1 of 3" in text and "everyone started with 240" in text
    assert my_row(page)[-1] == "240"


def test_the_indian_rummy_tile_starts_pool_101_for_four_in_one_click(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    page = open_page().page
    page.goto(server.url)
    page.click(".quick-start[data-preset='pool-101']")
    page.wait_for_selector(".table[data-version]")
    assert "Standings · Pool 101" in scores_text(page)
    rows = page.locator(".scores .score-table tbody tr").count()
    assert rows == 4, f"{rows} players at the table, not 4"
    # Back on the start page, the tile names the format just played.
    page.goto(server.url)
    meta = page.inner_text(".game-tile.chosen .game-tile-meta")
    assert meta.startswith("Pool 101 · 4 players"), meta
    screenshot(page, str(shots / "start-pool-1280x800.png"))


def test_the_agreed_finish_is_asked_at_the_table_and_play_on_deals_the_next_hand(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FINISH_SEED))
    page = open_page().page
    rules = {"agreed_finish": True, "agreed_finish_players": 3}
    start_game(
        page, server.url, "indian-rummy", players=3, preset="pool-101", rules=rules, level="normal"
    )
    drop_on_first_turn(page)
    assert until_decision_or_end(page, "finish"), "the finish vote was not asked of us"
    box = page.locator(".format-decision[data-decision='finish']")
    assert "Finish the game here?" in box.inner_text()
    assert box.locator("button[data-action='finish']").count() == 1
    screenshot(page, str(shots / "pool-finish-vote-1280x800.png"))
    version = table_state(page).version
    box.locator("button[data-action='play on']").click()
    wait_version_after(page, version)
    page.wait_for_function("() => !document.querySelector('.format-decision')")
    assert "Deal 2." in scores_text(page)


def drop_every_deal_to_the_end(page: Page) -> int:
    """Drop at each of our first turns, continuing past each deal's summary, until the game is
    over; how many times we dropped."""
    drops = 0
    for _ in range(60):
        wait_idle(page)
        if panel_name(page) is not None:
            if table_state(page).finished and panel_name(page) == "summary":
                return drops
            answer_panel(page)
            continue
        state = table_state(page)
        if state.finished:
            return drops
        assert state.my_turn and state.phase == "draw", f"not our draw: {state}"
        drop_on_first_turn(page)
        drops += 1
    raise AssertionError("the Deals game did not end")


def test_a_deals_game_of_three_is_played_to_its_end_with_the_chip_standings(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    # Best of 3 deals at three seats: we drop each deal at our first turn (20 chips to the
    # deal's winner), the computer players play each deal out, and after the third deal the
    # most chips win.
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    page = open_page().page
    start_game(page, server.url, "indian-rummy", players=3, preset="deals-3", level="normal")
    drops = drop_every_deal_to_the_end(page)
    assert 1 <= drops <= 3
    if panel_name(page) != "summary":
        page.click(".result-banner .btn.primary")
    page.wait_for_selector("dialog#panel[open] .final-standing")
    final = page.inner_text("dialog#panel .final-standing")
    assert "Final standing · Deals (best of 3)" in final
    assert "Decided by the most chips after the last deal." in final
    lines = page.eval_on_selector_all(
        "dialog#panel .final-standing li", "items => items.map(i => i.textContent)"
    )
    assert len(lines) == 3 and all(" chips" in line for line in lines), lines
    chips = [int(line.split(": ")[1].split(" ")[0]) for line in lines]
    # The chips only change hands: 3 x 240 in all, the winner's the most, listed first.
    assert sum(chips) == 3 * 240 and chips == sorted(chips, reverse=True)
    assert "winner" in lines[0]
    # Each drop paid the deal's winner 20 of our chips; we never won a deal.
    mine = next(line for line in lines if line.startswith("You: "))
    assert int(mine.split(": ")[1].split(" ")[0]) <= 240 - 20 * drops
    screenshot(page, str(shots / "deals-final-1280x800.png"))
    page.click("dialog#panel .summary-buttons [data-close]")
    text = scores_text(page)
    assert "Standings · Deals (best of 3)" in text and "Deal 3 of 3" in text
    # The standings' chips column (the winner's cell carries a star) says the same.
    shown: list[str] = page.eval_on_selector_all(
        ".scores .score-table tbody tr > :last-child", "cells => cells.map(c => c.textContent)"
    )
    assert sorted(int(cell.split()[0]) for cell in shown) == sorted(chips)


def test_pool_101_with_friends_is_set_up_in_one_click_and_its_invite_names_the_format(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    page = open_page().page
    page.goto(f"{server.url}#/friends")
    page.click(".quick-format[data-preset='pool-101']")
    assert page.input_value("#friends-players") == "4"
    assert page.is_checked("#friends-game-indian-rummy")
    page.fill("#friends-name", "Ann")
    page.click("#create-shared")
    # The waiting room, and the lobby's and invite's words, name the format with its seats.
    page.wait_for_selector(".waiting-room .room-format")
    assert page.inner_text(".waiting-room .room-format") == "Pool 101 · 4 players"
    screenshot(page, str(shots / "friends-pool-waiting-1280x800.png"))


@pytest.mark.parametrize("size", [(1280, 800), (360, 640)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_indian_rummy_tile_sets_up_pool_101_with_friends_in_one_click(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Any, size: tuple[int, int]
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=FORMAT_SEED))
    width, height = size
    page = open_page(viewport={"width": width, "height": height}).page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    # A newcomer has no name the others could see yet: it is asked once, in the click's panel.
    page.click(".quick-friends[data-preset='pool-101']")
    page.wait_for_selector("dialog#panel[open][data-panel='quick-friends']")
    page.fill("#quick-friends-name", "Ann")
    page.press("#quick-friends-name", "Enter")
    page.wait_for_selector(".waiting-room .room-format")
    assert page.inner_text(".waiting-room .room-format") == "Pool 101 · 4 players"
    assert "#/join/" in page.inner_text("#invite-link")
    # The host's seat and three seats open for people.
    assert page.locator(".waiting-room .open-seat").count() == 3
    screenshot(page, str(shots / f"tile-friends-pool-waiting-{width}x{height}.png"))
    # With a name kept, the tile's button is one click from the start page to the waiting room.
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    page.click(".quick-friends[data-preset='pool-101']")
    page.wait_for_selector(".waiting-room .room-format")
    assert page.inner_text(".waiting-room .room-format") == "Pool 101 · 4 players"
    assert "#/join/" in page.inner_text("#invite-link")
    assert page.locator("dialog#panel[open]").count() == 0
