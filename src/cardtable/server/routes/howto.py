"""How to play each game (GET /api/rules/{game}): the game's own page (its spec's ``howto``:
sections of short HTML and scoring examples drawn as cards, in the project's own words, after
the rule book), then the sections every game shares: how the table is handled here, and the
notice.
"""

from __future__ import annotations

from html import escape
from typing import Any, Final

from cardtable.games.howto import section
from cardtable.registry import game_names, get_spec, load
from cardtable.server.routes.catalog import notice

PLAYING_HERE: Final = (
    "<p>Tap a card to lift it and tap it again to play it, or use the buttons under your hand. "
    "Press and hold a card (or drag it) to move it within your hand.</p>"
    "<ul><li><kbd>←</kbd> <kbd>→</kbd> move through your hand, <kbd>Shift</kbd>+<kbd>←</kbd> "
    "<kbd>→</kbd> move the card</li>"
    "<li><kbd>Enter</kbd> lifts the current card, or plays it once lifted</li>"
    "<li><kbd>S</kbd> draws from the stock, <kbd>D</kbd> takes the discard</li>"
    "<li><kbd>H</kbd> asks for a hint, <kbd>Escape</kbd> closes a panel</li></ul>"
)
"""How the table is handled, the same for every game (the page's one section on it)."""


def how_to_play(game: str) -> dict[str, Any]:
    """``{title, sections, examples, notice}`` for a registered game name (``KeyError`` if none).

    >>> page = how_to_play("indian-rummy")
    >>> [example["score"] for example in page["examples"]]
    [23, 80]
    """
    if game not in game_names():
        raise KeyError(game)
    page: dict[str, Any] = load(get_spec(game).howto)()
    page["sections"] = [
        *page["sections"],
        section("Playing here", PLAYING_HERE),
        section("Please note", f"<p>{escape(notice(page['title']))}</p>"),
    ]
    page["notice"] = notice(page["title"])
    return page
