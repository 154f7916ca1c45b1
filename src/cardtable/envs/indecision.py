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

from collections.abc import Sequence
from typing import Final

from cardtable.errors import RulesError
from cardtable.games.contract import PublicEvent
from cardtable.games.indecision import actions as ind
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.state import Phase as IndecisionPhase
from cardtable.games.indecision.state import State
from cardtable.games.indecision.view import NOBODY_ACTS, IndecisionView

from .actions import ActionIndex
from .encoding import Layout, Vector, as_vector, rel, write_counts, write_history
from .spec import ResearchSpec

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
    turned = sum(1 << seat for seat, had in enumerate(view.had_turn) if had)
    return _encode(
        layout, view.rules, view.seat, view.hand, view.drawn, view.pile, view.stop_card,
        view.events, view.phase, view.to_act, view.dealer, view.starter, view.stopper,
        turned, view.hand_sizes, view.totals, view.deck_size,
    )  # fmt: skip


def observe_indecision(state: State, seat: int, layout: Layout) -> Vector:
    """``encode_indecision(make_view(state, seat), layout)`` without building the view: the
    environments' step path. It reads what that view shows ``seat`` and nothing else: its own
    hand, a drawn card only when the seat drew it or it came from the pile, its own face-down
    stop card, the other hands' sizes."""
    table, counting = state.table, state.counting
    mover = state.to_act
    drawn = state.drawn if state.drawn >= 0 and (state.drawn_from_pile or mover == seat) else None
    stopper = -1 if counting is None else counting.stopper
    return _encode(
        layout, table.rules, seat, state.hands[seat], drawn, state.pile,
        counting.stop_card if counting is not None and stopper == seat else None,
        state.events, state.phase, -1 if state.phase in NOBODY_ACTS else mover, table.dealer,
        table.starter, stopper, state.had_turn, tuple(map(len, state.hands)), table.totals,
        len(state.deck),
    )  # fmt: skip


def _encode(
    layout: Layout,
    rules: Rules,
    me: int,
    held: Sequence[int],
    one_drawn: int | None,
    cards: Sequence[int],
    spare: int | None,
    events: Sequence[PublicEvent],
    now: IndecisionPhase,
    mover: int | None,
    dealt_by: int | None,
    first: int | None,
    stopped_by: int | None,
    turned: int,
    sizes: Sequence[int],
    points: Sequence[int],
    deck: int,
) -> Vector:
    """The vector from what one seat sees (``turned``: a bit mask of the seats that had a turn;
    a seat of ``None`` or below 0 is "none")."""
    (
        hand, drawn, pile, pile_top, stop_card, discarded, known, phase, to_act, dealer,
        starter, stopper, had_turn, hand_sizes, totals, deck_size,
    ) = layout.starts  # fmt: skip
    n, c = rules.players, INDECISION_CARDS
    out = layout.blank()
    for card in held:
        out[hand + card] += 1.0
    if one_drawn is not None and 0 <= one_drawn < c:
        out[drawn + one_drawn] = 1.0
    write_counts(out, pile, cards, c)
    if cards and 0 <= (card := cards[-1]) < c:
        out[pile_top + card] = 1.0
    if spare is not None and 0 <= spare < c:
        out[stop_card + spare] = 1.0
    write_history(out, events, me, n, c, discarded, known)
    out[phase + _INDECISION_PHASE_INDEX[now]] = 1.0
    out[to_act + rel(mover, me, n)] = 1.0
    out[dealer + rel(dealt_by, me, n)] = 1.0
    out[starter + rel(first, me, n)] = 1.0
    out[stopper + rel(stopped_by, me, n)] = 1.0
    target = max(1, rules.target_score)
    for k in range(n):
        seat = (me + k) % n
        if turned >> seat & 1:
            out[had_turn + k] = 1.0
        out[hand_sizes + k] = sizes[seat] / 6
        out[totals + k] = points[seat] / target
    out[deck_size] = deck / 52
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


RESEARCH: Final = ResearchSpec(
    name="indecision",
    title="Indecision",
    actions=ACTIONS,
    layout_for=indecision_layout,
    encoder=encode_indecision,
    observe=observe_indecision,
    default_players=2,
    max_game_length=max_game_length,
    adapt_rules=automatic_scoring_only,
)
"""Indecision's research spec, named by its registry declaration."""
