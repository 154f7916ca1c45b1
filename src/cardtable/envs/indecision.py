"""Indecision as the research environments see it: its action table, observation, the rules an
environment plays and its OpenSpiel facts (the ``research`` part of the game's spec).

Actions (106): ``0`` draw deck, ``1`` draw pile, ``2 + c`` discard card ``c``, ``54 + c`` stop
with ``c`` as the spare card, ``c`` in 0..51. Manual declaration mode (announced numbers) has
no fixed action space and is refused.
"""

from __future__ import annotations

from typing import Final

from cardtable.errors import RulesError
from cardtable.games.indecision import actions as ind
from cardtable.games.indecision.rules import Rules

from .actions import ActionIndex
from .encoding import encode_indecision, indecision_layout
from .spec import GameSpec

ACTIONS: Final = ActionIndex(
    "indecision", (ind.DRAW_DECK, ind.DRAW_PILE, *ind.DISCARDS, *ind.STOPS)
)


def automatic_scoring_only(rules: Rules) -> Rules:
    """The rules as asked, unless they announce scores by hand (refused, naming why)."""
    if rules.manual_declaration:
        raise RulesError(
            "manual declaration (announced numbers) is not offered by the research "
            "environments: its announcements have no fixed action space"
        )
    return rules


def max_game_length(rules: Rules) -> int:
    """Each hand: two actions a turn up to the turn cap and its deal; the cut for the dealer."""
    return int(rules.hand_cap) * (2 * int(rules.hand_turn_cap) + 2) + int(rules.players)


RESEARCH: Final = GameSpec(
    name="indecision",
    title="Indecision",
    actions=ACTIONS,
    layout_for=indecision_layout,
    encoder=encode_indecision,
    default_players=2,
    max_game_length=max_game_length,
    adapt_rules=automatic_scoring_only,
)
"""Indecision's research spec, named by its registry declaration."""
