"""A table's summary for listings: move count, deal (hand, game) number, each seat's running
score and the seat to move, read from the public part of a seat's view after every move.

The three games name these facts differently (Indecision's ``hand_number`` and ``totals``,
Indian Rummy's ``deal_number`` and ``totals``, Declaration Rummy's ``game_number`` and
``match_wins``); this module reads whichever the view has, so it needs no per-game table.
Only public facts are read, so the summary leaks nothing to whoever lists the table.
"""

from __future__ import annotations

from typing import Any, Final

from cardtable.games.contract import TERMINAL, AnyEngine
from cardtable.storage import TableSummary

NUMBER_FIELDS: Final = ("hand_number", "deal_number", "game_number")
SCORE_FIELDS: Final = ("totals", "match_wins")


def summarize(engine: AnyEngine, state: Any, moves: int) -> TableSummary:
    """The summary of ``state`` after ``moves`` seat actions.

    >>> from cardtable.driver import advance
    >>> from cardtable.registry import get_engine
    >>> engine = get_engine("indian-rummy")
    >>> state, _ = advance(engine, engine.new_game(engine.rules_from_json({}), 7))
    >>> summarize(engine, state, 0)
    TableSummary(moves=0, deal=1, scores=(0, 0), to_move=1)
    """
    view = engine.view(state, 0)
    deal = next((getattr(view, name) for name in NUMBER_FIELDS if hasattr(view, name)), 0)
    scores = next((getattr(view, name) for name in SCORE_FIELDS if hasattr(view, name)), ())
    to_move = TERMINAL if engine.result(state) is not None else engine.current_player(state)
    return TableSummary(
        moves=moves,
        deal=int(deal),
        scores=tuple(None if score is None else int(score) for score in scores),
        to_move=to_move,
    )
