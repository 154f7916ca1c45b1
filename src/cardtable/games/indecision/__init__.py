"""Indecision (RULES.md section 1): the hand scorer, rules, actions and engine.

>>> score_hand("10C JD QC KC KH").score
17
>>> ENGINE.name, ENGINE.parse_action("discard 7H")
('indecision', Discard(card=19))
"""

# The names every game package gives its parts (the engine contract's shape).
from cardtable.games.indecision.actions import (
    CONFIRM,
    DRAW_DECK,
    DRAW_PILE,
    Action,
    Confirm,
    Correct,
    Declare,
    Discard,
    DrawDeck,
    DrawPile,
    IndecisionAction,
    Stop,
    parse_action,
)
from cardtable.games.indecision.engine import ENGINE, IndecisionEngine
from cardtable.games.indecision.rules import PRESETS, MeldValues, Rules
from cardtable.games.indecision.scoring import HandScore, score_hand
from cardtable.games.indecision.state import HandSummary, Phase, SeatResult, State, scenario
from cardtable.games.indecision.view import IndecisionView, determinize, make_view

__all__ = [
    "CONFIRM",
    "DRAW_DECK",
    "DRAW_PILE",
    "ENGINE",
    "PRESETS",
    "Action",
    "Confirm",
    "Correct",
    "Declare",
    "Discard",
    "DrawDeck",
    "DrawPile",
    "HandScore",
    "HandSummary",
    "IndecisionAction",
    "IndecisionEngine",
    "IndecisionView",
    "MeldValues",
    "Phase",
    "Rules",
    "SeatResult",
    "State",
    "Stop",
    "determinize",
    "make_view",
    "parse_action",
    "scenario",
    "score_hand",
]
