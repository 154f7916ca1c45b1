"""Replays of finished games for the browser's viewer: the record turned into frames, one
before the first move and one after each move, each with every hand face up (the game is over,
so nothing in it is secret any more), the top of the discard pile, the totals and the hand
(deal) number to jump to, and a line in the game's words from each seat's point of view, as
plain text."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.text import Text

from cardtable.cards import format_cards
from cardtable.games.contract import CHANCE, AnyEngine
from cardtable.registry import TEXT, get_engine, get_spec
from cardtable.replay import GameRecord, replay_steps
from cardtable.review import lens_of
from cardtable.review.lenses import Lens

_JOKER_MARK = re.compile(r"(?<=\S)\*")
"""The terminal's mark of a joker right after the card's label (``K♠*``); a printed joker
(``PJ``) needs no word to say so."""


def plain_summary(markup: str | None) -> str | None:
    """A summary line from the terminal text module as the page shows it: Rich's colour markup
    taken out (by Rich, which also undoes its escapes) and a joker named in words, not marked
    with the terminal's asterisk."""
    if markup is None:
        return None
    plain = Text.from_markup(markup).plain.replace("PJ*", "PJ")
    return _JOKER_MARK.sub(" (joker)", plain)


def _frame(
    engine: AnyEngine, state: Any, players: int, summary: Callable[[Any], str | None], lens: Lens
) -> dict[str, Any]:
    views = [engine.view(state, seat) for seat in range(players)]
    first = views[0].to_json()
    pile_top = first.get("pile_top")
    if pile_top is None and isinstance(first.get("discard_pile"), dict):
        pile_top = first["discard_pile"].get("top")
    return {
        "hand": lens.hand_of(state),
        "hands": [format_cards(view.hand).split() for view in views],
        "pile_top": pile_top,
        "totals": first.get("totals"),
        "summaries": [plain_summary(summary(view)) for view in views],
    }


def replay_frames(record: GameRecord) -> dict[str, Any]:
    """The viewer's data for a finished game's record (see the module docstring)."""
    engine = get_engine(record.game)
    lens = lens_of(engine.name)
    rules = engine.rules_from_json(record.rules)
    players = rules.players
    summary = TEXT.load(engine.name).render_hand_summary
    state = engine.new_game(rules, record.seed)
    while engine.current_player(state) == CHANCE:
        state = engine.chance_step(state)
    first = _frame(engine, state, players, summary, lens)
    frames = [{"index": -1, "seat": None, "action": "deal", **first}]
    final = state
    for step in replay_steps(record):
        frame = _frame(engine, step.after, players, summary, lens)
        frames.append({"index": step.index, "seat": step.seat, "action": str(step.action), **frame})
        final = step.after
    while engine.current_player(final) == CHANCE:
        final = engine.chance_step(final)
    result = engine.result(final)
    return {
        "game": engine.name,
        "title": engine.title,
        "deal_word": get_spec(engine.name).deal_word,
        "players": players,
        "frames": frames,
        "result": None if result is None else result.to_json(),
        "record": record.to_json(),
    }
