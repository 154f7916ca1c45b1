"""Indian Rummy (RULES.md section 2): the hand arranger, rules, actions, state and engine.

>>> from cardtable.cards import parse_cards
>>> arrange(parse_cards("3H 4H 5H 6H 7H 8H 9H QS QD QC KS 9D 4C", deck=None), 1).points
23
>>> ENGINE.name, str(ENGINE.parse_action("declare 8c"))
('indian-rummy', 'declare 8C')
"""

# The names every game package gives its parts (the engine contract's shape).
from cardtable.games.indian_rummy.actions import (
    DECLARES,
    DISCARDS,
    DRAW_PILE,
    DRAW_STOCK,
    DROP,
    Action,
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
from cardtable.games.indian_rummy.scoring import (
    Arrangement,
    arrange,
    card_points,
    parse_wild_rank,
    show_discards,
)
from cardtable.games.indian_rummy.state import DealSummary, IndianRummyState, Phase, State, scenario
from cardtable.games.indian_rummy.view import IndianRummyView, determinize, make_view

__all__ = [
    "DECLARES",
    "DISCARDS",
    "DRAW_PILE",
    "DRAW_STOCK",
    "DROP",
    "ENGINE",
    "PRESETS",
    "Action",
    "Arrangement",
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
    "State",
    "arrange",
    "card_points",
    "determinize",
    "make_view",
    "parse_action",
    "parse_wild_rank",
    "scenario",
    "show_discards",
]
