"""Options visibly take effect and are kept per player; the menu's panels (How to play, House
rules, New game and Abandon this game, Your Record with export and import) work; the record
survives a server restart."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .harness import DESKTOP, BrowserPage, LiveServer, Servers
from .tablekit import play_with_mouse, screenshot, settle, start_game, wait_my_turn

pytestmark = pytest.mark.browser


def has_class(name: str) -> re.Pattern[str]:
    """A pattern matching a class attribute that contains ``name``."""
    return re.compile(rf"(^|\s){name}(\s|$)")


def open_options(page: Page) -> None:
    """Menu -> Options."""
    page.wait_for_selector("body.ready")
    page.click("#menu-button")
    page.click("[data-menu=options]")
    expect(page.locator("dialog#panel[data-panel=options]")).to_be_visible()


def toggle_option(page: Page, name: str) -> None:
    """Flip a switch in the Options panel and wait for the server to keep it."""
    with page.expect_response(
        lambda r: r.url.endswith("/api/profile") and r.request.method == "PUT"
    ):
        page.click(f"label[for=option-{name}]")


def colour_of_first(page: Page, selector: str) -> str:
    """The computed text colour of the first element matching ``selector``."""
    colour: str = page.eval_on_selector(selector, "el => getComputedStyle(el).color")
    return colour


def test_four_colour_deck_turns_diamonds_blue_and_clubs_green(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    open_options(page)
    preview_diamond = "dialog#panel .option-preview .card.suit-D"
    preview_club = "dialog#panel .option-preview .card.suit-C"
    assert colour_of_first(page, preview_diamond) == "rgb(200, 16, 46)"
    assert colour_of_first(page, preview_club) == "rgb(21, 23, 26)"
    toggle_option(page, "four_colour")
    assert colour_of_first(page, preview_diamond) == "rgb(17, 85, 204)"
    assert colour_of_first(page, preview_club) == "rgb(19, 122, 42)"
    screenshot(page, path=str(shots / "options-four-colour.png"))
    # Kept by the server: a reload still shows the four-colour deck.
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("body")).to_have_class(has_class("four-colour"))


def test_large_cards_make_the_hand_bigger(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_my_turn(page)
    # Measured at rest, after the deal's animation.
    settle(page)
    before = page.locator(".hand .hand-card").first.bounding_box()
    open_options(page)
    toggle_option(page, "large_cards")
    page.click("dialog#panel [data-close]")
    after = page.locator(".hand .hand-card").first.bounding_box()
    assert before is not None and after is not None
    assert after["width"] > before["width"] * 1.2
    assert after["height"] > before["height"] * 1.2


def test_reduce_motion_sets_the_motion_scale_to_zero(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    scale = "() => getComputedStyle(document.documentElement).getPropertyValue('--motion-scale')"
    assert page.evaluate(scale).strip() == "1"
    duration = "() => import('/static/js/options.js').then(m => m.moveDuration())"
    assert page.evaluate(duration) > 0
    open_options(page)
    toggle_option(page, "reduce_motion")
    expect(page.locator("body")).to_have_class(has_class("reduce-motion"))
    assert page.evaluate(scale).strip() == "0"
    # Computer players' cards no longer fly: their moves take no time on screen.
    assert page.evaluate(duration) == 0


def test_system_reduced_motion_is_followed_without_the_option(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page(reduced_motion="reduce").page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    expect(page.locator("body")).to_have_class(has_class("reduce-motion"))


def test_coach_panel_appears_with_the_coachs_report(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_my_turn(page)
    expect(page.locator("#coach-panel")).to_be_hidden()
    open_options(page)
    toggle_option(page, "coach")
    page.click("dialog#panel [data-close]")
    coach = page.locator("#coach-panel")
    expect(coach).to_be_visible()
    expect(coach.locator("h2")).to_have_text("Coach")
    # The server's report arrives for the position on turn: tips, warnings or discards.
    expect(coach.locator("li, .coach-warning, .coach-discards")).not_to_have_count(0)
    screenshot(page, path=str(shots / "coach.png"))


def test_opponent_speed_is_kept_and_the_level_is_chosen_on_the_start_page(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    duration = "() => import('/static/js/options.js').then(m => m.moveDuration())"
    normal = page.evaluate(duration)
    open_options(page)
    with page.expect_response(lambda r: r.url.endswith("/api/profile")):
        page.select_option("#option-opponent_speed", "slow")
    # A slower opponent's cards move more slowly on screen (the server paces the moves too).
    assert page.evaluate(duration) > normal
    # The computer players' level has its one control on the start page, not here too
    # (test_newcomer_pages shows that control kept and used by every game).
    expect(page.locator("#option-difficulty")).to_have_count(0)
    page.click("dialog#panel [data-close]")
    with page.expect_response(lambda r: r.url.endswith("/api/profile")):
        page.select_option("#level-all", "hard")
    page.reload()
    page.wait_for_selector("body.ready")
    expect(page.locator("body")).to_have_attribute("data-opponent-speed", "slow")
    expect(page.locator("#level-seat-1")).to_have_value("hard")
    profile = page.evaluate("() => fetch('/api/profile').then(r => r.json())")
    assert profile["options"]["opponent_speed"] == "slow"
    assert profile["options"]["difficulty"] == "hard"


def test_the_options_panel_and_the_pages_defaults_come_from_the_servers_declarations(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    declared = page.evaluate("() => fetch('/api/options').then(r => r.json())")
    # Options applied with nothing set take the server's defaults (the page keeps none).
    defaults = page.evaluate(
        "() => import('/static/js/options.js')"
        ".then(m => { m.applyOptions({}); return m.options(); })"
    )
    assert defaults == {entry["name"]: entry["default"] for entry in declared}
    open_options(page)
    offered = [entry for entry in declared if entry["name"] != "difficulty"]
    labels = page.locator("dialog#panel .option-list li > label").all_inner_texts()
    assert labels == [entry["label"] for entry in offered]
    speed = next(entry for entry in declared if entry["name"] == "opponent_speed")
    words = page.locator("#option-opponent_speed option").all_inner_texts()
    assert words == speed["choice_labels"]


def test_how_to_play_shows_each_game_with_its_examples_drawn_as_cards(
    server: LiveServer, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    page = open_page().page
    page.goto(server.url)
    page.wait_for_selector("body.ready")
    games = page.evaluate("() => fetch('/api/games').then(r => r.json())")
    for game in games:
        page.click(f"label[for=game-{game['name']}]")
        page.click("#menu-button")
        expect(page.locator("[data-menu=how-to-play]")).to_have_text(f"How to play {game['title']}")
        page.click("[data-menu=how-to-play]")
        panel = page.locator("dialog#panel[data-panel=how-to-play]")
        expect(panel.locator("h2")).to_have_text(f"How to play {game['title']}")
        expect(panel.locator(".rules-section h3").first).to_be_visible()
        rules = page.evaluate(f"() => fetch('/api/rules/{game['name']}').then(r => r.json())")
        examples = panel.locator(".rules-example")
        expect(examples).to_have_count(len(rules["examples"]))
        if rules["examples"]:
            first = rules["examples"][0]
            expect(examples.first.locator(".card")).to_have_count(len(first["cards"]))
        expect(panel).to_contain_text("entertainment only")
        screenshot(page, path=str(shots / f"how-to-play-{game['name']}.png"))
        page.click("dialog#panel [data-close]")


def test_house_rules_panel_lists_the_tables_rules_with_changes_marked(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision", rules={"target_score": 50})
    wait_my_turn(page)
    page.click("#menu-button")
    page.click("[data-menu=house-rules]")
    panel = page.locator("dialog#panel[data-panel=house-rules]")
    row = panel.locator("tr.changed")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("50")
    expect(row).to_contain_text("121")
    panel.locator(".btn.primary").click()
    expect(page.locator(".start-form")).to_be_visible()
    expect(page.locator("[data-rule=target_score] input")).to_have_value("50")


def test_leave_and_new_game_keep_the_game_and_abandoning_is_asked_first(
    server: LiveServer, open_page: Callable[..., BrowserPage]
) -> None:
    page = open_page().page
    start_game(page, server.url, "indecision")
    wait_my_turn(page)
    table_url = page.url
    # Leave: back to the start page, the game waiting under "Games in progress".
    page.locator(".table-tools .leave").click()
    expect(page.locator(".start-form")).to_be_visible()
    expect(page.locator(".resume-list li")).to_have_count(1)
    # Where the game stands, not how many moves it took: "Hand 1 · You 0 – Ruby 0".
    expect(page.locator(".resume-list li")).to_contain_text(
        re.compile(r"Indecision · Hand \d+ · You \d+ – \w+ \d+")
    )
    page.locator(".resume-list .btn", has_text="Resume").click()
    expect(page.locator(".table[data-version]")).to_be_visible()
    assert page.url == table_url
    wait_my_turn(page)
    # The menu's New game keeps it too.
    page.click("#menu-button")
    expect(page.locator("[data-menu=abandon]")).to_be_visible()
    page.click("[data-menu=new-game]")
    expect(page.locator(".start-form")).to_be_visible()
    assert len(page.evaluate("() => fetch('/api/tables').then(r => r.json())")) == 1
    page.click("#menu-button")
    expect(page.locator("[data-menu=abandon]")).to_be_hidden()
    page.keyboard.press("Escape")
    page.goto(table_url)
    wait_my_turn(page)
    # Abandoning is its own, named action, asked first.
    page.click("#menu-button")
    page.click("[data-menu=abandon]")
    dialog = page.locator("dialog#panel[data-panel=confirm]")
    expect(dialog).to_contain_text("Abandon this game?")
    dialog.locator(".btn", has_text="Keep playing").click()
    assert page.url == table_url
    page.click("#menu-button")
    page.click("[data-menu=abandon]")
    with page.expect_response(lambda r: r.request.method == "DELETE"):
        dialog.locator(".btn.primary").click()
    expect(page.locator(".start-form")).to_be_visible()
    tables = page.evaluate("() => fetch('/api/tables').then(r => r.json())")
    assert tables == []


def finish_declaration_game(page: Page, url: str) -> None:
    """A quick two-card Declaration Rummy game to put something in the record."""
    start_game(page, url, "declaration-rummy", cards_dealt=2)

    def declare(page: Page, turn: int) -> bool:
        button = page.locator(".actions button[data-action='declare']:not([disabled])")
        if not button.count():
            return False
        button.click()
        page.locator("dialog#panel[data-panel=confirm] .btn.primary").click()
        return True

    play_with_mouse(page, special=declare)


def record_games_played(page: Page) -> str:
    """Declaration Rummy games played, read from the Your Record panel."""
    page.click("#menu-button")
    page.click("[data-menu=record]")
    value = page.locator(
        ".record-game[data-game='declaration-rummy'] [data-stat='games_played'] .value"
    )
    expect(value).to_be_visible()
    text = value.inner_text()
    page.click("dialog#panel [data-close]")
    return text


def test_record_survives_a_server_restart(
    servers: Servers, open_page: Callable[..., BrowserPage], shots: Path
) -> None:
    first = servers.start()
    opened = open_page()
    page = opened.page
    finish_declaration_game(page, first.url)
    page.keyboard.press("Escape")
    assert record_games_played(page) == "1"
    first.stop()
    # The page notices the lost connection; that error is expected here.
    opened.errors.allow("WebSocket")
    opened.errors.allow("Failed to load resource")
    second = servers.start()
    page.goto(second.url)
    page.wait_for_selector("body.ready")
    assert record_games_played(page) == "1"
    page.click("#menu-button")
    page.click("[data-menu=record]")
    screenshot(page, path=str(shots / "record.png"))


def test_record_export_and_import_round_trip(
    server: LiveServer, open_page: Callable[..., BrowserPage], tmp_path: Path, browser: Browser
) -> None:
    page = open_page().page
    finish_declaration_game(page, server.url)
    page.keyboard.press("Escape")
    page.click("#menu-button")
    page.click("[data-menu=record]")
    with page.expect_download() as download_info:
        page.locator("dialog#panel .btn", has_text="Export record").click()
    saved = tmp_path / "record.json"
    download_info.value.save_as(saved)
    document = json.loads(saved.read_text())
    assert isinstance(document, dict)
    with page.expect_file_chooser() as chooser_info:
        page.locator("dialog#panel .btn", has_text="Import record").click()
    with page.expect_response(lambda r: r.url.endswith("/api/profile/import")) as response:
        chooser_info.value.set_files(str(saved))
    assert response.value.ok
    expect(
        page.locator(
            ".record-game[data-game='declaration-rummy'] [data-stat='games_played'] .value"
        )
    ).to_be_visible()
    # Another browser imports it: the results show apart, as imported, not as played there.
    context = browser.new_context(viewport=DESKTOP)
    try:
        other = context.new_page()
        other.goto(server.url)
        other.click("#menu-button")
        other.click("[data-menu=record]")
        with other.expect_file_chooser() as chooser_info:
            other.locator("dialog#panel .btn", has_text="Import record").click()
        with other.expect_response(lambda r: r.url.endswith("/api/profile/import")) as answer:
            chooser_info.value.set_files(str(saved))
        assert answer.value.ok
        game = other.locator(".record-game[data-game='declaration-rummy']")
        expect(game.locator(".record-imported [data-stat='games_played'] .value")).to_have_text("1")
        expect(game.locator("> .record-grid [data-stat='games_played'] .value")).to_have_text("0")
    finally:
        context.close()
