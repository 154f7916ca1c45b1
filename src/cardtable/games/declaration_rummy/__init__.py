"""Declaration Rummy (RULES.md section 3): rules, engine, actions, state and views.

The public API: :data:`ENGINE` (the :class:`DeclarationRummyEngine`), :class:`Rules` and its
:data:`PRESETS`, the hand counter :func:`count_hand`, the action types with
:func:`parse_action`, the state with :class:`Phase` and :func:`scenario` for scenarios, and
:class:`DeclarationRummyView`.
"""

from cardtable.games.declaration_rummy.actions import (
    AcceptTie,
    Action,
    Declare,
    Decline,
    Discard,
    DrawStock,
    Drop,
    FourSevens,
    GoOut,
    NextGame,
    ProposeTie,
    RejectTie,
    TakeDiscard,
    TakeExtra,
    parse_action,
)
from cardtable.games.declaration_rummy.engine import ENGINE, DeclarationRummyEngine
from cardtable.games.declaration_rummy.rules import ALL_OPTIONAL, PRESETS, Rules
from cardtable.games.declaration_rummy.scoring import HandCount, count_hand

# The names every game package gives its parts (the engine contract's shape).
from cardtable.games.declaration_rummy.state import (
    DeclarationRummyState,
    GameOutcome,
    Phase,
    State,
    scenario,
)
from cardtable.games.declaration_rummy.view import DeclarationRummyView, determinize, make_view

__all__ = [
    "ALL_OPTIONAL",
    "ENGINE",
    "PRESETS",
    "AcceptTie",
    "Action",
    "DeclarationRummyEngine",
    "DeclarationRummyState",
    "DeclarationRummyView",
    "Declare",
    "Decline",
    "Discard",
    "DrawStock",
    "Drop",
    "FourSevens",
    "GameOutcome",
    "GoOut",
    "HandCount",
    "NextGame",
    "Phase",
    "ProposeTie",
    "RejectTie",
    "Rules",
    "State",
    "TakeDiscard",
    "TakeExtra",
    "count_hand",
    "determinize",
    "make_view",
    "parse_action",
    "scenario",
]
