"""Driving the cardtable page like a player: setting up a game on the start screen, waiting for
one's turn, playing cards with the mouse or the keyboard, and answering the panels.

The page exposes its state on the table element (``data-version``, ``data-my-turn``,
``data-finished``, ``data-phase``), which is what these helpers wait on; every move itself goes
through the visible controls.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Locator, Page, Position
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

IDLE_JS = """() => {
  const table = document.querySelector('.table');
  if (!table || !table.dataset.version) return false;
  if (document.querySelector('dialog#panel[open]')) return true;
  return table.dataset.finished === 'true' || table.dataset.myTurn === 'true';
}"""


@dataclass
class TableState:
    """What the table element says."""

    version: int
    my_turn: bool
    finished: bool
    phase: str


def table_state(page: Page) -> TableState:
    """The table's current state attributes."""
    data: dict[str, Any] = page.eval_on_selector(".table", "el => ({...el.dataset})")
    return TableState(
        version=int(data.get("version", "-1")),
        my_turn=data.get("myTurn") == "true",
        finished=data.get("finished") == "true",
        phase=data.get("phase", ""),
    )


def wait_idle(page: Page, timeout: float = 20000) -> None:
    """Wait until it is our turn, a panel asks something, or the game is over."""
    page.wait_for_function(IDLE_JS, timeout=timeout)


def wait_my_turn(page: Page) -> None:
    """Wait for our turn, continuing past any hand summaries on the way."""
    for _ in range(50):
        wait_idle(page)
        if panel_name(page) is None:
            if table_state(page).my_turn:
                return
            raise AssertionError("the game ended before it was our turn")
        answer_panel(page)
    raise AssertionError("our turn never came")


def wait_version_after(page: Page, version: int, timeout: float = 20000) -> None:
    """Wait until the table has moved past ``version``; say what the page shows if it does not."""
    try:
        page.wait_for_function(
            "v => Number(document.querySelector('.table').dataset.version) > v",
            arg=version,
            timeout=timeout,
        )
    except PlaywrightTimeoutError:
        shown = page.evaluate(
            "() => ({table: {...document.querySelector('.table').dataset},"
            " toasts: [...document.querySelectorAll('.toast')].map(t => t.textContent),"
            " turn: document.querySelector('#turn-line')?.textContent,"
            " hand: [...document.querySelectorAll('.hand-card')].map(c => c.dataset.card),"
            " actions: [...document.querySelectorAll('.actions button')]"
            ".map(b => `${b.textContent}${b.disabled ? ' (off)' : ''}`)})"
        )
        raise AssertionError(f"the table stayed at version {version}: {shown}") from None


def settle(page: Page) -> None:
    """Wait for running animations (a panel opening, a card flying) to end, for screenshots."""
    page.wait_for_function(
        "() => document.getAnimations().every(a => a.playState !== 'running' "
        "|| a.effect?.getTiming().iterations === Infinity)"
    )


def screenshot(page: Page, path: str, *, full_page: bool = False) -> None:
    """A screenshot of the page at rest: running animations (a card flying, the deal, a drawer
    sliding) are waited for, and any that start meanwhile are finished at once by the capture."""
    settle(page)
    page.screenshot(path=path, full_page=full_page, animations="disabled")


RECORD_HANDS_JS = """() => {
  window.__handsAt = {};
  const table = document.querySelector('.table');
  const note = () => {
    window.__handsAt[table.dataset.version] =
      [...document.querySelectorAll('.hand .hand-card')].map(c => c.dataset.card);
  };
  note();
  new MutationObserver(note).observe(table, {attributes: true, attributeFilter: ['data-version']});
}"""


def record_hands(page: Page) -> None:
    """From now on, remember the hand shown at each table version (computer players move at
    once, so the page may be several versions on by the time a test looks)."""
    page.evaluate(RECORD_HANDS_JS)


def hand_at(page: Page, version: int) -> list[str]:
    """The hand the page showed at ``version`` (after :func:`record_hands`)."""
    hand: list[str] = page.evaluate("v => window.__handsAt[String(v)]", version)
    return hand


RECORD_TAKEN_HANDS_JS = """async () => {
  // Every state the page takes, drawn or not: states arriving within one frame (a computer
  // player answering at once) are drawn once, the latest. Labels as the hand's cards carry them.
  const { label } = await import('/static/js/cards.js');
  const view = window.cardtable.view;
  window.__takenHandsAt = {};
  const note = (m) => {
    window.__takenHandsAt[m.version] = view.module.hand(m.view).map((card) => label(card));
  };
  if (view.message) note(view.message);
  const state = view.state;
  const accept = state.accept.bind(state);
  state.accept = (m) => {
    if (m?.view) note(m);
    return accept(m);
  };
}"""


def record_taken_hands(page: Page) -> None:
    """From now on, remember the cards in hand at each table version the page takes, drawn
    or not (the page draws only the latest of the states that arrive within one frame: after
    our move a computer player's answer may come before our own move's version is drawn)."""
    page.evaluate(RECORD_TAKEN_HANDS_JS)


def taken_hand_at(page: Page, version: int) -> list[str]:
    """The cards in hand at ``version`` as the page took them (after
    :func:`record_taken_hands`), in the server's order."""
    hand: list[str] = page.evaluate("v => window.__takenHandsAt[String(v)]", version)
    return hand


def panel_name(page: Page) -> str | None:
    """The open panel's name (``summary``, ``confirm`` …) or ``None``."""
    if not page.locator("dialog#panel[open]").count():
        return None
    name: str = page.eval_on_selector("dialog#panel", "el => el.dataset.panel || ''")
    return name


def start_game(
    page: Page,
    url: str,
    game: str,
    *,
    players: int = 2,
    level: str = "random",
    rules: dict[str, Any] | None = None,
    preset: str | None = None,
    cards_dealt: int | None = None,
) -> None:
    """Choose a game on the start screen with the mouse and deal it."""
    page.goto(url)
    page.click(f"label[for=game-{game}]")
    page.wait_for_selector(f"#game-{game}:checked")
    if preset is not None or rules or cards_dealt is not None:
        open_house_rules(page)
    if preset is not None:
        page.select_option("#preset", preset)
    page.select_option("#players", str(players))
    page.select_option("#level-all", level)
    if cards_dealt is not None:
        page.select_option("#cards-dealt", str(cards_dealt))
    for name, value in (rules or {}).items():
        set_rule(page, name, value)
    page.click("#start-button")
    page.wait_for_selector(".table[data-version]")


def open_house_rules(page: Page) -> None:
    """Open the start screen's "House rules" disclosure (it stays open once opened)."""
    if page.locator("#house-rules[open]").count() == 0:
        page.click("#house-rules > summary")
    page.wait_for_selector("#house-rules[open]")


def set_rule(page: Page, name: str, value: Any) -> None:
    """Set one house rule through its generated control."""
    field = page.locator(f"[data-rule='{name}']").first
    if isinstance(value, bool):
        field.locator("input[type=checkbox]").first.set_checked(value)
    elif isinstance(value, int):
        box = field.locator("input[type=number]").first
        box.fill(str(value))
        box.dispatch_event("change")
    else:
        field.locator("select").first.select_option(str(value))


def answer_panel(page: Page, *, finish: bool = True) -> str | None:
    """Deal with whatever panel is open: confirm questions are confirmed, summaries continued
    (or the next game of a match started). Returns the panel's name."""
    name = panel_name(page)
    if name is None:
        return None
    dialog = page.locator("dialog#panel[open]")
    opened = dialog.get_attribute("data-opened")
    if name == "confirm":
        dialog.locator(".btn.primary").click()
    elif name == "summary":
        next_game = dialog.locator(".summary-buttons .btn", has_text="Next game")
        if next_game.count():
            next_game.click()
        else:
            dialog.locator(".summary-buttons [data-close]").click()
    else:
        dialog.locator("[data-close]").first.click()
    # Closed, or already replaced by the next panel (a summary after a confirmed move).
    page.wait_for_function(
        "n => { const d = document.querySelector('dialog#panel');"
        " return !d.open || d.dataset.opened !== n; }",
        arg=opened,
    )
    return name


CORNER: Position = {"x": 8, "y": 12}
"""Where a finger taps an overlapped card in the hand: its visible top-left corner."""


def tap_card(card: Locator, timeout: float | None = None) -> None:
    """Tap a hand card where it shows, even when the next card covers most of it (waiting up
    to ``timeout`` ms for it to take the tap, Playwright's default if ``None``)."""
    card.click(position=CORNER, timeout=timeout)


def tap_lifted(page: Page) -> None:
    """Tap the lifted card again (which plays it)."""
    tap_card(page.locator(".hand .hand-card.lifted"))


def lift_playable_card(page: Page, verb: str = "discard") -> str | None:
    """Click hand cards until one lifts with ``verb`` legal for it; return its label."""
    cards = page.locator(".hand .hand-card")
    count = cards.count()
    for index in range(count):
        # Other seats may act meanwhile (a drop, the end of the game): stop if the hand changed.
        if cards.count() != count or not table_state(page).my_turn:
            return None
        card = cards.nth(index)
        if card.get_attribute("aria-pressed") != "true":
            try:
                tap_card(card, timeout=5000)
            except PlaywrightTimeoutError:
                # The hand ended between the look and the tap: its summary covers the hand.
                if panel_name(page) is not None:
                    return None
                raise
        button = page.locator(f".actions button[data-verb='{verb}']:not([disabled])")
        if button.count():
            label: str | None = card.get_attribute("data-card")
            return label
    return None


Move = Callable[[Page, int], bool]
"""A custom move for turn number ``n``: returns True when it acted."""


def play_with_mouse(page: Page, *, max_moves: int = 400, special: Move | None = None) -> int:
    """Play until the game is over: draw from the stock by clicking it, discard by tapping a card
    twice, answer panels; ``special`` may make other moves. Returns the moves made."""
    moves = 0
    turn = 0
    while moves < max_moves:
        wait_idle(page)
        if panel_name(page) is not None:
            answer_panel(page)
            continue
        state = table_state(page)
        if state.finished:
            return moves
        if special is not None and special(page, turn):
            wait_version_after(page, state.version)
            moves += 1
            turn += 1
            continue
        stock = page.locator("[data-zone=stock] button.zone-button")
        if stock.count():
            stock.click()
        else:
            label = lift_playable_card(page)
            if label is not None:
                tap_lifted(page)
                turn += 1
            elif not table_state(page).my_turn or table_state(page).version != state.version:
                continue
            else:
                # No card to discard: take the first other legal move offered (a tie vote…).
                page.locator(
                    ".actions button.action[data-action]:not([disabled]):not([data-action=''])"
                ).first.click()
        moves += 1
        if panel_name(page) == "confirm":
            answer_panel(page)
        wait_version_after(page, state.version)
    raise AssertionError(f"the game did not end within {max_moves} moves")
