"""The pages around the table as a newcomer meets them: one control for the computer players'
level that works, the start page's footer, tiles and buttons saying each thing once and
truly, games in progress that can be abandoned from their list, an import error beside its
button in plain words, the Declaration Rummy setup and record in the game's own words, and the
public tables listed in the form's words, full ones open to watching."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from cardtable.server.people.room import PHRASES
from cardtable.server.settings import Settings

from .harness import PHONE, BrowserPage, LiveServer, Servers
from .peoplekit import host_table, join_table, people, wait_all_at_table
from .tablekit import (
    answer_panel,
    lift_playable_card,
    open_house_rules,
    panel_name,
    screenshot,
    set_rule,
    start_game,
    table_state,
    tap_lifted,
    wait_idle,
    wait_my_turn,
    wait_version_after,
)

pytestmark = pytest.mark.browser


def accessible_names(page: Page, selector: str) -> list[str]:
    """The accessible names of the visible elements matching ``selector`` (aria-label, else
    text), as a screen reader's list of buttons gives them."""
    names: list[str] = page.eval_on_selector_all(
        selector,
        "els => els.filter(e => e.offsetParent !== null)"
        ".map(e => (e.getAttribute('aria-label') || e.textContent).trim())",
    )
    return names


def new_table(page: Page, game: str, rules: dict[str, Any] | None = None) -> str:
    """A table against one computer player, made through the API the page uses."""
    created: dict[str, Any] = page.evaluate(
        """([game, rules]) => fetch('/api/tables', {method: 'POST',
             headers: {'Content-Type': 'application/json'},
             body: JSON.stringify({game, rules,
               seats: [{kind: 'human'}, {kind: 'bot', level: 'random'}]})}).then(r => r.json())""",
        [game, rules or {}],
    )
    return str(created["table_id"])


def test_the_computer_players_level_is_one_control_kept_for_every_game(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    # A game played at Normal is remembered with its settings.
    page.click("[data-play=indecision]")
    page.wait_for_selector(".table[data-version]")
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    expect(page.locator("#level-all")).to_have_value("normal")
    # Options offers no second control for the same thing.
    page.click("#menu-button")
    page.click("[data-menu=options]")
    expect(page.locator("dialog#panel[data-panel=options]")).to_be_visible()
    expect(page.locator("#option-difficulty")).to_have_count(0)
    page.click("dialog#panel [data-close]")
    # The start page's choice is kept in the profile and used by every game, after a reload.
    with page.expect_response(
        lambda r: r.url.endswith("/api/profile") and r.request.method == "PUT"
    ):
        page.select_option("#level-all", "easy")
    profile = page.evaluate("() => fetch('/api/profile').then(r => r.json())")
    assert profile["options"]["difficulty"] == "easy"
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("#game-indecision")).to_be_checked()
    expect(page.locator("#level-all")).to_have_value("easy")
    page.click("label[for=game-indian-rummy]")
    expect(page.locator("#level-all")).to_have_value("easy")
    page.click("[data-play=indecision]")
    page.wait_for_selector(".table.game-indecision[data-version]")
    expect(page.locator(".seat-level").first).to_have_text("easy")


def test_the_start_page_says_each_thing_once_and_truly(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    footer = page.locator("#notice")
    expect(footer).to_contain_text("Every game here is played for entertainment only")
    expect(footer).not_to_contain_text("played here for")
    # Indian Rummy's tile promises what its Players choice offers: 2-4, 2-6 with the house rule.
    tile = page.locator(".game-tile", has=page.locator("#game-indian-rummy"))
    page.click("label[for=game-indian-rummy]")
    expect(tile.locator(".game-tile-meta")).to_contain_text("2–4 players")
    expect(page.locator("#players option")).to_have_count(3)
    open_house_rules(page)
    set_rule(page, "allow_six_players", True)
    expect(tile.locator(".game-tile-meta")).to_contain_text("2–6 players")
    expect(page.locator("#players option")).to_have_count(5)
    # Every button of the page has a name of its own.
    names = accessible_names(page, "button")
    assert len(names) == len(set(names)), sorted(n for n in names if names.count(n) > 1)
    assert "Play Indian Rummy" in names and "Play Indian Rummy now" in names


def test_games_in_progress_are_told_apart_and_can_be_abandoned_from_the_list(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    made = [new_table(page, "indecision") for _ in range(3)]
    page.reload()
    page.wait_for_selector("body.ready")
    resume = page.locator(".resume-list li")
    expect(resume).to_have_count(3)
    names = accessible_names(page, ".resume-list button")
    assert len(names) == 6 and len(set(names)) == 6, names
    assert all(name.startswith(("Resume Indecision", "Abandon Indecision")) for name in names)
    screenshot(page, path=str(shots / "resume-list.png"))
    row = page.locator(f".resume-list li[data-table='{made[1]}']")
    row.locator(".abandon-button").click()
    confirm = page.locator("dialog#panel[data-panel=confirm]")
    expect(confirm).to_be_visible()
    confirm.locator(".btn.primary").click()
    expect(resume).to_have_count(2)
    expect(page.locator(f".resume-list li[data-table='{made[1]}']")).to_have_count(0)
    listed = page.evaluate("() => fetch('/api/tables').then(r => r.json())")
    open_ids = {t["table_id"] for t in listed if not t["finished"]}
    assert open_ids == {made[0], made[2]}
    # Still gone after a reload: the game was abandoned, not only hidden.
    page.reload()
    page.wait_for_selector("body.ready")
    expect(resume).to_have_count(2)


def test_an_import_error_is_said_beside_the_button_in_plain_words(
    server: LiveServer, open_page: Callable[..., BrowserPage], tmp_path: Path
) -> None:
    page = open_page({"width": 1280, "height": 600}).page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    page.click("#menu-button")
    page.click("[data-menu=record]")
    dialog = page.locator("dialog#panel[data-panel=record]")
    expect(dialog.locator(".record-actions")).to_be_visible()
    wrong = tmp_path / "settings.json"
    wrong.write_text(json.dumps({"name": "Ann", "hello": 1}))
    page.set_input_files("#import-file", str(wrong))
    status = dialog.locator(".record-actions .record-status.error")
    expect(status).to_contain_text("settings.json could not be imported")
    expect(status).to_contain_text("this file isn't a cardtable record")
    expect(status).not_to_contain_text("format")
    expect(status).to_be_in_viewport()
    button = dialog.locator(".btn", has_text="Import record").bounding_box()
    said = status.bounding_box()
    assert button is not None and said is not None
    assert 0 <= said["y"] - (button["y"] + button["height"]) < 40, (button, said)


def test_declaration_rummy_setup_and_record_speak_its_own_words(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    page.click("label[for=game-declaration-rummy]")
    open_house_rules(page)
    # "Match, first to [2] wins": the number shows in its box (it was hidden by its padding).
    box = page.locator("#match-wins")
    expect(box).to_have_value("2")
    room = box.evaluate(
        "e => { const s = getComputedStyle(e); return e.clientWidth"
        " - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight); }"
    )
    assert room >= 16, f"the match box leaves {room}px for its number"
    # Its bounds are the rule's (1 to 25, as the rules allow), not a smaller page-made limit.
    expect(box).to_have_attribute("min", "1")
    expect(box).to_have_attribute("max", "25")
    page.locator(".match-mode").screenshot(path=str(shots / "match-box.png"))
    # The bounds of the missing cards are said once.
    help_text = page.locator("[data-rule=missing_optional] .field-help").inner_text()
    assert help_text.count("0 to 12") == 1 and "from 0" not in help_text, help_text
    # Your Record speaks of the count, as the rules do.
    page.click("#menu-button")
    page.click("[data-menu=record]")
    section = page.locator("dialog#panel .record-game[data-game=declaration-rummy]")
    expect(section.locator("[data-stat=points_per_deal] .name")).to_have_text(
        "Count per game (mean)"
    )
    indian = page.locator("dialog#panel .record-game[data-game=indian-rummy]")
    expect(indian.locator("[data-stat=points_per_deal] .name")).to_have_text(
        "Points per deal (mean)"
    )


def test_public_tables_are_listed_in_plain_words_and_full_ones_can_be_watched(
    server: LiveServer, browser: Browser, shots: Path
) -> None:
    def house_rules(page: Page) -> None:
        page.click("#house-rules > summary")
        set_rule(page, "manual_declaration", True)
        set_rule(page, "target_score", 30)

    with people(browser, ["Ann", "Bo", "Cy"]) as (ann, bo, cy):
        invite = host_table(ann, server.url, "indecision", ["open"], public=True, rules=house_rules)
        join_table(bo, invite)
        expect(ann.page.locator("#start-shared")).to_be_enabled()
        # Every seat is taken before the start: the table is still there to watch.
        page = cy.page
        page.goto(server.url + "#/lobby")
        row = page.locator(".lobby-table tbody tr")
        expect(row).to_have_count(1)
        rules = row.locator(".lobby-rules")
        expect(rules).to_contain_text("Players announce their own scores")
        expect(rules).to_contain_text("Points to win 30")
        expect(rules).not_to_contain_text("True")
        expect(rules).not_to_contain_text("_")
        expect(row).to_contain_text("All 2 seats taken")
        watch = row.get_by_role("link", name="Watch Indecision hosted by Ann")
        screenshot(page, path=str(shots / "lobby-full-table.png"))
        watch.click()
        page.wait_for_selector("#join-watch")


def test_the_start_page_at_phone_size_keeps_the_resume_buttons_on_screen(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page(PHONE).page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    new_table(page, "declaration-rummy")
    page.reload()
    page.wait_for_selector("body.ready")
    for button in page.locator(".resume-list button").all():
        box = button.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    size = page.evaluate("() => document.documentElement.scrollWidth")
    assert size <= PHONE["width"], size
    screenshot(page, path=str(shots / "resume-list-phone.png"))


def test_ones_own_drop_in_a_two_player_deal_is_told_from_ones_own_side(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    # A seeded deal, and a Normal computer player, which neither drops nor shows on its first
    # turn: our first turn comes with the deal still on.
    server = servers.start(Settings(rate_limits=False, test_seed=7))
    page = open_page().page
    start_game(page, server.url, "indian-rummy", level="normal")
    wait_my_turn(page)
    page.locator(".actions button[data-action='drop']").click()
    page.locator("dialog#panel[data-panel=confirm] .btn.primary").click()
    summary = page.locator("dialog#panel[data-panel=summary]")
    expect(summary).to_be_visible()
    lead = summary.locator(".summary-lead")
    expect(lead).to_contain_text("You dropped, so")
    expect(lead).to_contain_text("won the deal.")
    expect(summary).not_to_contain_text("everyone else")
    screenshot(page, path=str(shots / "own-drop-summary.png"))


def test_quick_messages_greet_react_and_can_be_muted_by_each_person(
    server: LiveServer, browser: Browser, shots: Path
) -> None:
    with people(browser, ["Ann", "Bob", "Cy"]) as (ann, bob, cy):
        invite = host_table(ann, server.url, "indecision", ["open", "normal"], public=True)
        join_table(bob, invite)
        join_table(cy, invite, watch=True)
        ann.page.click("#start-shared")
        wait_all_at_table([ann, bob])
        cy.page.wait_for_selector(".table[data-version]")
        # The page offers exactly the server's fixed set: a greeting, wishes and reactions.
        offered = ann.page.evaluate(
            "() => import('/static/js/presence.js').then(m => m.PHRASES.map(p => [p[0], p[1]]))"
        )
        assert dict(offered) == PHRASES
        ann.page.click(".quick-menu > summary")
        names = accessible_names(ann.page, ".quick-list button")
        assert names[:2] == ["Hello!", "Good luck"] and "Laughing" in names, names
        screenshot(ann.page, path=str(shots / "quick-menu.png"))
        ann.page.click(".quick-list [data-phrase=good-luck]")
        at_bob = bob.page.locator(".seat.opponent", has_text="Ann").locator(".quick-bubble")
        expect(at_bob).to_have_text("Good luck")
        # Bob mutes Ann: her next message reaches the watcher, not Bob.
        bob.page.click(".quick-menu > summary")
        mute = bob.page.get_by_role("button", name="Mute Ann")
        mute.click()
        expect(mute).to_have_attribute("aria-pressed", "true")
        bob.page.keyboard.press("Escape")
        expect(at_bob).to_have_count(0, timeout=10000)
        ann.page.click(".quick-menu > summary")
        ann.page.click(".quick-list [data-phrase=laugh]")
        at_cy = cy.page.locator(".seat.opponent", has_text="Ann").locator(".quick-bubble")
        expect(at_cy).to_have_text("\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}")
        expect(cy.page.locator("#announcer")).to_contain_text("Ann says: Laughing")
        expect(at_bob).to_have_count(0)
        expect(bob.page.locator("#announcer")).not_to_contain_text("Ann says")
        # A spectator can mute too, though it sends nothing.
        cy.page.click(".quick-menu > summary")
        expect(cy.page.locator(".quick-list")).to_have_count(0)
        expect(cy.page.get_by_role("button", name="Mute Bob")).to_be_visible()
        screenshot(cy.page, path=str(shots / "quick-menu-spectator.png"))
        # On a small phone the menu stays inside the window and closes without a keyboard.
        bob.page.set_viewport_size({"width": 360, "height": 640})
        bob.page.click(".quick-menu > summary")
        panel = bob.page.locator(".quick-panel")
        expect(panel).to_be_in_viewport(ratio=1)
        screenshot(bob.page, path=str(shots / "quick-menu-360.png"))
        panel.get_by_role("button", name="Close").click()
        expect(panel).to_be_hidden()


def test_friends_pages_keep_their_main_button_on_screen_and_the_hosts_choice_first(
    server: LiveServer, browser: Browser, shots: Path
) -> None:
    with people(browser, ["Ann"]) as (ann,):
        page = ann.page
        page.set_viewport_size({"width": 1280, "height": 800})
        page.goto(server.url + "#/friends")
        page.wait_for_selector(".friends-form")
        # Create is on screen without scrolling (it sat at y=920 of an 800-pixel window).
        expect(page.locator("#create-shared")).to_be_in_viewport(ratio=1)
        screenshot(page, path=str(shots / "friends-setup-1280x800.png"))
        page.fill("#friends-name", "Ann")
        page.click("#create-shared")
        page.wait_for_selector(".waiting-room #invite-link")
        expect(page.locator("#start-shared")).to_be_in_viewport(ratio=1)
        screenshot(page, path=str(shots / "waiting-room-1280x800.png"))
        # On the phone, the host's main choice for an open seat is a computer player, not a
        # move to that seat.
        page.set_viewport_size(PHONE)
        seat = page.locator(".room-seat[data-kind=open]")
        expect(seat.locator(".btn.primary")).to_have_count(1)
        expect(seat.locator(".btn.primary")).to_have_text("Add computer")
        expect(seat.get_by_role("button", name="Sit at seat 2")).not_to_have_class(
            re.compile(r"\bprimary\b")
        )
        expect(page.locator("#start-shared")).to_be_in_viewport(ratio=1)
        screenshot(page, path=str(shots / "waiting-room-phone.png"))


def test_the_announcement_hint_fills_the_number_box_and_a_challenge_states_its_penalty(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=5))
    page = open_page().page
    start_game(page, server.url, "indecision", preset="manual-declaration")
    hinted = challenged = False
    for _ in range(400):
        wait_idle(page)
        name = panel_name(page)
        if name == "summary":
            mine = page.locator("dialog#panel .seat-summary.me")
            if hinted and mine.count() and "Challenged" in mine.inner_text():
                challenged = True
                break
            answer_panel(page)
            continue
        if name is not None:
            answer_panel(page)
            continue
        state = table_state(page)
        assert not state.finished, "the game ended before a challenged announcement"
        if state.phase == "declare":
            box = page.locator("#number-declare")
            if not hinted:
                page.locator(".btn", has_text="Hint").click()
                line = page.locator("#hint-line")
                expect(line).to_contain_text(re.compile(r"Announce \d+"))
                number = re.search(r"Announce (\d+)", line.inner_text())
                assert number is not None
                # The hint's number is in the box, and the box and its button are marked.
                expect(box).to_have_value(number.group(1))
                expect(box).to_have_class(re.compile(r"\bhinted\b"))
                expect(page.locator(".number-form button[type=submit]")).to_have_class(
                    re.compile(r"\bhinted\b")
                )
                screenshot(page, path=str(shots / "announcement-hint.png"))
                hinted = True
            # Over the true score: a challenge.
            box.fill(box.get_attribute("max") or "0")
            page.locator(".number-form button[type=submit]").click()
        elif state.phase == "confirm":
            page.locator(".actions button[data-action='confirm']").click()
        elif page.locator("[data-zone=stock] button.zone-button").count():
            page.click("[data-zone=stock] button.zone-button")
        elif state.phase == "discard" and lift_playable_card(page, "stop") is not None:
            page.click(".actions button[data-verb='stop']")
            if panel_name(page) == "confirm":
                answer_panel(page)
        else:
            lift_playable_card(page)
            tap_lifted(page)
        wait_version_after(page, state.version)
    assert challenged, "no challenged announcement was seen"
    mine = page.locator("dialog#panel .seat-summary.me")
    expect(mine).to_contain_text(re.compile(r"so the hand scores 0 and \d+ (\(twice the \d+\)|is)"))
    expect(mine).to_contain_text("twice the")
    screenshot(page, path=str(shots / "challenge-penalty.png"))


def test_the_coachs_near_melds_name_every_card_that_completes_them(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    shown = page.evaluate(
        """() => import('/static/js/coach_panel.js').then((m) => {
             const panel = document.createElement('div');
             document.body.append(panel);
             m.renderCoachPanel(panel, {tips: [], warnings: [], discards: [], near_melds: [
               {kind: 'Run', cards: ['6S', '7S'], unseen: 7,
                completing: ['5S', '5H', '5D', '5C', '8S', '8H', '8D', '8C']},
               {kind: 'Pair', cards: ['9H'], unseen: 2, completing: ['9S', '9D', '9C', '4H']},
             ]}, {finished: false, say: (t) => t});
             return [...panel.querySelectorAll('.near-melds li > span:last-child')]
               .map((span) => span.textContent);
           })"""
    )
    assert shown[0].startswith("needs any 5 or any 8"), shown
    assert shown[1].startswith("needs 9♠, 9♦, 9♣ or 4♥"), shown
    assert not any("more" in text for text in shown), shown
