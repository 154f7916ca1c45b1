"""Declaration Rummy as the research environments see it: its action table, observation and
OpenSpiel facts (the ``research`` part of the game's spec).

Actions (138): ``0`` draw stock, ``1`` take extra, ``2`` decline, ``3`` declare, ``4`` go out,
``5`` four sevens, ``6`` propose tie, ``7`` accept tie, ``8`` reject tie, ``9`` drop, ``10``
next game (unchanged rules), ``11 + c`` discard ``c`` (``c`` in 0..62), ``74 + k - 1`` take
the top ``k`` discards (``k`` 1..64; more than one only with the Spread-Out Discard-Pile). A
``next game`` that changes the rules has no number.
"""

from __future__ import annotations

from typing import Final

from cardtable.games.declaration_rummy import actions as dr
from cardtable.games.declaration_rummy.rules import Rules

from .actions import ActionIndex
from .encoding import declaration_rummy_layout, encode_declaration_rummy
from .spec import GameSpec

MAX_TAKE: Final = 64
"""Most cards a spread pile can hold: every card of the largest pack (52 + 12 optional)."""

ACTIONS: Final = ActionIndex(
    "declaration-rummy",
    (
        dr.DRAW_STOCK,
        dr.TAKE_EXTRA,
        dr.DECLINE,
        dr.DECLARE,
        dr.GO_OUT,
        dr.FOUR_SEVENS,
        dr.PROPOSE_TIE,
        dr.ACCEPT_TIE,
        dr.REJECT_TIE,
        dr.DROP,
        dr.NEXT_GAME,
        *dr.DISCARDS,
        dr.TAKE_DISCARD,
        *(dr.TakeDiscard(k) for k in range(2, MAX_TAKE + 1)),
    ),
)


def max_game_length(rules: Rules) -> int:
    """Each game of the match: every seat's turn up to the turn cap, the deal and the end."""
    games = int(rules.match_game_cap) if rules.match else 1
    return games * (int(rules.turn_cap) * (2 + int(rules.players)) + int(rules.players) + 2)


RESEARCH: Final = GameSpec(
    name="declaration-rummy",
    title="Declaration Rummy",
    actions=ACTIONS,
    layout_for=declaration_rummy_layout,
    encoder=encode_declaration_rummy,
    default_players=4,
    max_game_length=max_game_length,
)
"""Declaration Rummy's research spec, named by its registry declaration."""
