"""A table's summary for listings: move count, deal (hand, game) number, each seat's running
score and the seat to move, read from the public part of a seat's view after every move.

Every game's view gives the deal number and the scores under the contract's names
(:class:`cardtable.games.contract.View`), so this module needs no per-game table. Only public
facts are read, so the summary leaks nothing to whoever lists the table.
"""

from __future__ import annotations

import logging
from typing import Any

from cardtable.games.contract import TERMINAL, AnyEngine, View
from cardtable.storage import TableSummary

logger = logging.getLogger(__name__)


def summarize(engine: AnyEngine, state: Any, moves: int) -> TableSummary:
    """The summary of ``state`` after ``moves`` seat actions.

    >>> from cardtable.driver import advance
    >>> from cardtable.registry import get_engine
    >>> engine = get_engine("indian-rummy")
    >>> state, _ = advance(engine, engine.new_game(engine.rules_from_json({}), 7))
    >>> summarize(engine, state, 0)
    TableSummary(moves=0, deal=1, scores=(0, 0), to_move=1)
    """
    view: View = engine.view(state, 0)
    to_move = TERMINAL if engine.result(state) is not None else engine.current_player(state)
    return TableSummary(
        moves=moves,
        deal=view.deal_number,
        scores=tuple(view.scores),
        to_move=to_move,
    )


def summary_after_move(
    engine: AnyEngine, state: Any, moves: int, table_id: str
) -> TableSummary | None:
    """:func:`summarize`, or ``None`` (logged) when that fails: a listing's detail must never
    cost a move (the table's last summary is kept)."""
    try:
        return summarize(engine, state, moves)
    except Exception:
        logger.exception("table %s: no summary after move %d", table_id, moves - 1)
        return None
