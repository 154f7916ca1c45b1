"""The end of a hand at the table: the opponents' hands turn face up in their seats (the cards
the summary shows, never before the hand is over), flipping over one by one unless motion is
reduced."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

from cardtable.server.settings import Settings

from .harness import BrowserPage, Servers
from .tablekit import answer_panel, panel_name, play_with_mouse, start_game, wait_idle

pytestmark = pytest.mark.browser

# At each new table version, whether the game is over and which cards the seats show face up;
# and, the first time face-up cards appear, whether any of them is moving (the flip).
WATCH_JS = """() => {
  window.__reveals = [];
  window.__flipMoving = null;
  const table = document.querySelector('.table');
  const faceUp = () => [...document.querySelectorAll('.seat .opp-cards.face-up .card')];
  const note = () => {
    const cards = faceUp();
    const labels = cards.map(c => c.dataset.card);
    window.__reveals.push({finished: table.dataset.finished, cards: labels});
    if (cards.length && window.__flipMoving === null) {
      window.__flipMoving = cards.some(c => c.getAnimations().length > 0);
    }
  };
  note();
  new MutationObserver(note).observe(table, {attributes: true, attributeFilter: ['data-version']});
}"""


def play_one_game(page: Page, url: str) -> tuple[list[str], list[str]]:
    """A two-card Declaration Rummy game against one computer player, declaring when offered;
    returns the opponent's cards as its seat shows them and as the summary shows them."""
    start_game(page, url, "declaration-rummy", players=2, cards_dealt=2)
    page.evaluate(WATCH_JS)

    def declare_when_offered(page: Page, turn: int) -> bool:
        button = page.locator(".actions button[data-action='declare']:not([disabled])")
        if not button.count():
            return False
        button.click()
        answer_panel(page)
        return True

    play_with_mouse(page, special=declare_when_offered)
    wait_idle(page)
    if panel_name(page) != "summary":
        page.click(".result-banner .btn.primary")
    page.wait_for_selector("dialog#panel[open] .summary")
    shown = page.eval_on_selector_all(
        ".seat.opponent .opp-cards.face-up .card", "cards => cards.map(c => c.dataset.card)"
    )
    summary = page.eval_on_selector_all(
        "dialog#panel .seat-summary:not(.me) .card", "cards => cards.map(c => c.dataset.card)"
    )
    return sorted(shown), sorted(summary)


SHOWN_HAND_SEED = 4
"""A two-card game in which the Random computer player does not drop (a player who drops keeps
their cards hidden; with a random deal it drops in about one game in five, and six tries in a
row failed about once in fifteen thousand runs). The deal and its moves follow from the seed."""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_the_opponents_hand_turns_face_up_when_the_game_ends_and_not_before(
    servers: Servers, open_page: Callable[..., BrowserPage], motion: str
) -> None:
    server = servers.start(Settings(rate_limits=False, test_seed=SHOWN_HAND_SEED))
    page = open_page(reduced_motion=motion).page
    shown, summary = play_one_game(page, server.url)
    assert shown == summary, "the seat shows other cards than the summary"
    assert summary, "the computer player's hand was not shown"
    reveals = page.evaluate("() => window.__reveals")
    early = [r for r in reveals if r["cards"] and r["finished"] != "true"]
    assert not early, f"cards shown face up before the game ended: {early}"
    assert reveals[-1]["cards"], "the hands were not shown when the game ended"
    moving = page.evaluate("() => window.__flipMoving")
    assert moving is (motion == "no-preference"), f"flip animation with motion {motion}: {moving}"
    # Closing the summary of a finished game keeps the hands face up on the table.
    page.click("dialog#panel .summary-buttons [data-close]")
    shown_after = page.eval_on_selector_all(
        ".seat.opponent .opp-cards.face-up .card", "cards => cards.map(c => c.dataset.card)"
    )
    assert sorted(shown_after) == summary
