"""Indian Rummy (RULES.md section 2): rules, actions, state, views and engine.

>>> ENGINE.name, str(ENGINE.parse_action("declare 8c"))
('indian-rummy', 'declare 8C')
"""

from cardtable.games.indian_rummy.actions import (
    DECLARES,
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    DROP,
    Declare,
    Discard,
    DrawPile,
    DrawStock,
    Drop,
    IndianRummyAction,
    parse_action,
)
from cardtable.games.indian_rummy.engine import ENGINE, IndianRummyEngine
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.state import DealSummary, IndianRummyState, Phase, deal_state
from cardtable.games.indian_rummy.view import IndianRummyView

__all__ = [
    "DECLARES",
    "DISCARDS",
    "DRAW_PILE",
    "DRAW_STOCK",
    "DROP",
    "ENGINE",
    "PRESETS",
    "DealSummary",
    "Declare",
    "Discard",
    "DrawPile",
    "DrawStock",
    "Drop",
    "IndianRummyAction",
    "IndianRummyEngine",
    "IndianRummyState",
    "IndianRummyView",
    "Phase",
    "Rules",
    "deal_state",
    "parse_action",
]
