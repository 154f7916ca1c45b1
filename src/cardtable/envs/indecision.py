"""Indecision as the research environments see it: its action table, observation, the rules an
environment plays and its OpenSpiel facts (the ``research`` part of the game's spec).

Actions (106): ``0`` draw deck, ``1`` draw pile, ``2 + c`` discard card ``c``, ``54 + c`` stop
with ``c`` as the spare card, ``c`` in 0..51. Manual declaration mode (announced numbers) has
no fixed action space and is refused.

Observation (``n`` seats, 52 card ids): ``hand``, ``drawn`` (this turn's card, if known),
``pile`` (every card on the face-up pile), ``pile_top``, ``stop_card`` (own face-down spare),
``discarded`` (n x 52: by each seat this hand), ``known`` (n x 52: held by each seat), ``phase``
(one-hot), ``to_act``, ``dealer``, ``starter``, ``stopper`` (relative one-hots, n + 1 with a
last entry for "none"), ``had_turn`` (n), ``hand_sizes`` (n, / 6), ``totals`` (n, / target),
``deck_size`` (/ 52).
"""

from __future__ import annotations

from typing import Final

from cardtable.errors import RulesError
from cardtable.games.indecision import actions as ind
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.state import Phase as IndecisionPhase
from cardtable.games.indecision.view import IndecisionView

from .actions import ActionIndex
from .encoding import Layout, Vector, Writer, history, rel, rotate
from .spec import GameSpec

ACTIONS: Final = ActionIndex(
    "indecision", (ind.DRAW_DECK, ind.DRAW_PILE, *ind.DISCARDS, *ind.STOPS)
)


# --- Observation ---------------------------------------------------------------------------------

INDECISION_CARDS: Final = 52
"""Card ids of the pack: 0..51."""
_INDECISION_PHASES: Final = tuple(IndecisionPhase)


def indecision_layout(players: int) -> Layout:
    """The Indecision vector's segments for ``players`` seats."""
    c, n = INDECISION_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("pile", c), ("pile_top", c), ("stop_card", c),
            ("discarded", n * c), ("known", n * c), ("phase", len(_INDECISION_PHASES)),
            ("to_act", n + 1), ("dealer", n + 1), ("starter", n + 1), ("stopper", n + 1),
            ("had_turn", n), ("hand_sizes", n), ("totals", n), ("deck_size", 1),
        ]
    )  # fmt: skip


def encode_indecision(view: IndecisionView, layout: Layout) -> Vector:
    """The Indecision vector of ``view`` (see the module docstring)."""
    n, me, c = view.rules.players, view.seat, INDECISION_CARDS
    w = Writer(layout.size)
    w.cards(view.hand, c)
    w.one(view.drawn, c)
    w.cards(view.pile, c)
    w.one(view.pile_top, c)
    w.one(view.stop_card, c)
    discarded, known = history(view.events, me, n, c)
    for counts in (*discarded, *known):
        w.counts(counts, c)
    w.one(_INDECISION_PHASES.index(view.phase), len(_INDECISION_PHASES))
    w.one(rel(view.to_act, me, n), n + 1)
    w.one(rel(view.dealer, me, n), n + 1)
    w.one(rel(view.starter, me, n), n + 1)
    w.one(rel(view.stopper, me, n), n + 1)
    w.values([1.0 if t else 0.0 for t in rotate(view.had_turn, me)])
    w.values([size / 6 for size in rotate(view.hand_sizes, me)])
    target = max(1, view.rules.target_score)
    w.values([total / target for total in rotate(view.totals, me)])
    w.values([view.deck_size / 52])
    return w.done()


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
