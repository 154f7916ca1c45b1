"""The one place the server meets the computer players and the coach.

``seat_bot`` asks :func:`cardtable.bots.make_bot` for a level's bot, and ``think`` runs a
level's choice in whatever process calls it (the lobby's worker processes, for the searching
levels: see :data:`SEARCH_LEVELS`); ``hint`` and ``coach_report`` ask :mod:`cardtable.coach`
(every registered game has both, as its spec names them), and ``hint_at`` and ``coach_at`` ask
them for a seat at a table, in a worker thread. A coach that fails costs the player a hint or a
report, never the connection: the failure is logged and the answer falls back to the first
legal action and an empty report.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import random
import time
from collections.abc import Sequence
from typing import Any, Final

from cardtable import coach
from cardtable.bots import Bot, make_bot
from cardtable.cards import format_card
from cardtable.server import metrics
from cardtable.server.protocol.messages import CoachAdvice, DiscardAdvice
from cardtable.server.table.seat_view import ViewedTable

logger = logging.getLogger(__name__)

NO_COACH = "no coach available"
SEARCH_LEVELS: Final = frozenset({"hard"})
"""Levels whose choice is a search long enough to run in a worker process rather than in a
thread beside the event loop (a thread would share the interpreter lock with the loop)."""

_THINKERS: dict[tuple[str, str], Bot] = {}
"""The bots of this process by (game, level): built once per worker process."""


def choose_counted(bot: Bot, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """``bot``'s choice, made in the calling thread, its CPU time counted
    (``cardtable_bot_thinking_cpu_seconds_total``)."""
    started = time.thread_time()
    try:
        return bot.choose(view, legal, rng)
    finally:
        metrics.BOT_THINKING_CPU.inc(time.thread_time() - started)


def think(game: str, level: str, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
    """The choice of a ``level`` bot for ``game`` (bots keep no state between choices, so one
    bot per game and level serves every table)."""
    bot = _THINKERS.get((game, level))
    if bot is None:
        bot = _THINKERS[game, level] = seat_bot(game, level)
    return bot.choose(view, legal, rng)


def seat_bot(game: str, level: str) -> Bot:
    """A bot of ``level`` for ``game``."""
    return make_bot(game, level)


def hint(game: str, view: Any, legal: Sequence[Any]) -> tuple[Any | None, str]:
    """A suggested action among ``legal`` and the reason for it (``None`` if none is legal)."""
    if not legal:
        return None, "You have nothing to do right now."
    try:
        suggestion = coach.hint(game, view, legal)
    except Exception:  # a coach failure must cost the player a hint, not the connection
        logger.exception("the %s coach failed to hint", game)
        return legal[0], NO_COACH
    if isinstance(suggestion, tuple):
        action, reason = suggestion
    else:
        action, reason = suggestion.action, suggestion.reason
    return action, str(reason)


def coach_report(game: str, view: Any, legal: Sequence[Any]) -> CoachAdvice:
    """The coach's report as JSON data: ``tips``, ``discards`` (card, leaves, note),
    ``warnings``, and when the coach gives them ``near_melds`` and ``hint``."""
    fallback: CoachAdvice = {"tips": [NO_COACH], "discards": [], "warnings": []}
    try:
        report = coach.coach(game, view, legal)
    except Exception:  # as for hints: the player loses the report, not the table
        logger.exception("the %s coach failed to report", game)
        return fallback
    data = _to_data(report)
    if not isinstance(data, dict):
        return {"tips": [str(report)], "discards": [], "warnings": []}
    shaped: CoachAdvice = {
        "tips": [str(tip) for tip in data.get("tips", [])],
        "discards": [_discard_row(row) for row in data.get("discards", [])],
        "warnings": [str(warning) for warning in data.get("warnings", [])],
    }
    if data.get("near_melds"):
        shaped["near_melds"] = [_to_data(meld) for meld in data["near_melds"]]
    if data.get("hint"):
        shaped["hint"] = _to_data(data["hint"])
    return shaped


def _to_data(value: Any) -> Any:
    if hasattr(value, "to_json"):
        return value.to_json()
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return dataclasses.asdict(value)
    return value


def _discard_row(row: Any) -> DiscardAdvice:
    data = _to_data(row)
    if not isinstance(data, dict):
        return {"card": str(data), "leaves": "", "note": ""}
    shaped: DiscardAdvice = {
        "card": _label(data.get("card", "")),
        "leaves": _leaves(data.get("leaves", "")),
        "note": str(data.get("note", "")),
    }
    if isinstance(data.get("value"), int | float):
        shaped["value"] = data["value"]
    return shaped


def _label(card: Any) -> str:
    if isinstance(card, int) and not isinstance(card, bool):
        return format_card(card)
    return str(card)


def _leaves(value: Any) -> Any:
    """Cards (ids or labels) become labels; a number or text is kept as it is."""
    if isinstance(value, tuple | list):
        return [_label(card) for card in value]
    return value if isinstance(value, str | int | float) or value is None else str(value)


async def hint_at(table: ViewedTable, seat: int) -> tuple[str | None, str]:
    """A suggested action for ``seat`` at ``table`` now, and why (no action while another
    seat is to play: what a seat may do out of turn, such as a drop, is never the advice).
    The coach answers in a worker thread, from the state as it was when asked."""
    engine, state = table.setup.engine, table.state
    legal = [] if table.finished else engine.legal_actions(state, seat)
    to_move = engine.current_player(state)
    if legal and to_move != seat and to_move >= 0:
        return None, f"It is not your turn: {table.names_for(seat)[to_move]} is to play."
    view = engine.view(state, seat)
    action, reason = await asyncio.to_thread(hint, table.setup.game, view, legal)
    return (None if action is None else str(action)), reason


async def coach_at(table: ViewedTable, seat: int) -> CoachAdvice:
    """The coach's report for ``seat`` at ``table`` now (in a worker thread)."""
    engine, state = table.setup.engine, table.state
    legal = [] if table.finished else engine.legal_actions(state, seat)
    view = engine.view(state, seat)
    return await asyncio.to_thread(coach_report, table.setup.game, view, legal)
