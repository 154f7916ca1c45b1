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
from .encoding import Layout, Vector, as_vector, rel, write_counts, write_history
from .spec import GameSpec

ACTIONS: Final = ActionIndex(
    "indecision", (ind.DRAW_DECK, ind.DRAW_PILE, *ind.DISCARDS, *ind.STOPS)
)


# --- Observation ---------------------------------------------------------------------------------

INDECISION_CARDS: Final = 52
"""Card ids of the pack: 0..51."""
_INDECISION_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(IndecisionPhase)}


def indecision_layout(players: int) -> Layout:
    """The Indecision vector's segments for ``players`` seats."""
    c, n = INDECISION_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("pile", c), ("pile_top", c), ("stop_card", c),
            ("discarded", n * c), ("known", n * c), ("phase", len(_INDECISION_PHASE_INDEX)),
            ("to_act", n + 1), ("dealer", n + 1), ("starter", n + 1), ("stopper", n + 1),
            ("had_turn", n), ("hand_sizes", n), ("totals", n), ("deck_size", 1),
        ]
    )  # fmt: skip


def encode_indecision(view: IndecisionView, layout: Layout) -> Vector:
    """The Indecision vector of ``view`` (see the module docstring)."""
    (
        hand, drawn, pile, pile_top, stop_card, discarded, known, phase, to_act, dealer,
        starter, stopper, had_turn, hand_sizes, totals, deck_size,
    ) = layout.starts  # fmt: skip
    n, me, c = view.rules.players, view.seat, INDECISION_CARDS
    out = layout.blank()
    for card in view.hand:
        out[hand + card] += 1.0
    if (one := view.drawn) is not None and 0 <= one < c:
        out[drawn + one] = 1.0
    cards = view.pile
    write_counts(out, pile, cards, c)
    if cards and 0 <= (card := cards[-1]) < c:
        out[pile_top + card] = 1.0
    if (one := view.stop_card) is not None and 0 <= one < c:
        out[stop_card + one] = 1.0
    write_history(out, view.events, me, n, c, discarded, known)
    out[phase + _INDECISION_PHASE_INDEX[view.phase]] = 1.0
    out[to_act + rel(view.to_act, me, n)] = 1.0
    out[dealer + rel(view.dealer, me, n)] = 1.0
    out[starter + rel(view.starter, me, n)] = 1.0
    out[stopper + rel(view.stopper, me, n)] = 1.0
    turned, sizes, points = view.had_turn, view.hand_sizes, view.totals
    target = max(1, view.rules.target_score)
    for k in range(n):
        seat = (me + k) % n
        if turned[seat]:
            out[had_turn + k] = 1.0
        out[hand_sizes + k] = sizes[seat] / 6
        out[totals + k] = points[seat] / target
    out[deck_size] = view.deck_size / 52
    return as_vector(out)


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
