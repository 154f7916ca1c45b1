"""Declaration Rummy as the research environments see it: its action table, observation and
OpenSpiel facts (the ``research`` part of the game's spec).

Actions (138): ``0`` draw stock, ``1`` take extra, ``2`` decline, ``3`` declare, ``4`` go out,
``5`` four sevens, ``6`` propose tie, ``7`` accept tie, ``8`` reject tie, ``9`` drop, ``10``
next game (unchanged rules), ``11 + c`` discard ``c`` (``c`` in 0..62), ``74 + k - 1`` take
the top ``k`` discards (``k`` 1..64; more than one only with the Spread-Out Discard-Pile). A
``next game`` that changes the rules has no number.

Observation (63 card ids): ``hand``, ``drawn``, ``discard_top``, ``discard_pile`` (only
with the Spread-Out Discard-Pile, where the table shows it), ``discarded`` and ``known``
(n x 63 each, **presence** 0/1 rather than counts: the view's sets of cards each seat discarded
since the deal and took face up without discarding since), ``stock_level`` and ``pile_level``
(one-hot 0-5: the no-counting rule leaves only the stack's look), ``phase``, ``draw_kind``,
``to_act``, ``turn``, ``dealer`` (relative), ``hand_sizes`` (/ 10), ``dropped``, ``exhaustion``,
``tie_proposers`` (n: seats that proposed a tie this turn), ``tie_accepted`` (n), ``tie_pending``
(n), ``match_wins`` (n, / wins needed).
No exact pile or stock size and no count of discards appears, so the vector keeps the rule.

"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtable.games.declaration_rummy import actions as dr
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import (
    BEFORE_DEAL,
    DeclarationRummyState,
    DrawKind,
    TieVote,
)
from cardtable.games.declaration_rummy.state import Phase as DeclarationPhase
from cardtable.games.declaration_rummy.view import (
    DeclarationRummyView,
    pile_level,
    stock_level,
    to_act_of,
)

from .actions import ActionIndex
from .encoding import Layout, Vector, as_vector, rel, write_counts
from .spec import ResearchSpec

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


# --- Observation ---------------------------------------------------------------------------------

DECLARATION_RUMMY_CARDS: Final = 63
"""Card ids of the pack: 0..51, then the optional and special cards."""
_DECLARATION_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(DeclarationPhase)}
_DRAW_KIND_INDEX: Final = {kind: i for i, kind in enumerate(DrawKind)}
_PLAY, _TIE_VOTE = DeclarationPhase.PLAY, DeclarationPhase.TIE_VOTE


def declaration_rummy_layout(players: int) -> Layout:
    """The Declaration Rummy vector's segments for ``players`` seats."""
    c, n = DECLARATION_RUMMY_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("discard_top", c), ("discard_pile", c),
            ("discarded", n * c), ("known", n * c), ("stock_level", 6), ("pile_level", 6),
            ("phase", len(_DECLARATION_PHASE_INDEX)), ("draw_kind", len(_DRAW_KIND_INDEX)),
            ("to_act", n + 1), ("turn", n + 1), ("dealer", n + 1), ("hand_sizes", n),
            ("dropped", n), ("exhaustion", 1), ("tie_proposers", n), ("tie_accepted", n),
            ("tie_pending", n), ("match_wins", n),
        ]
    )  # fmt: skip


def encode_declaration_rummy(view: DeclarationRummyView, layout: Layout) -> Vector:
    """The Declaration Rummy vector of ``view`` (see the module docstring)."""
    return _encode(
        layout, view.rules, view.seat, view.hand, view.drawn, view.discard_top,
        view.discard_pile, view.discard_masks, view.held_masks, view.stock_level,
        view.pile_level, view.phase, view.draw_kind, view.to_act, view.turn, view.dealer,
        view.hand_sizes, view.dropped, view.match_wins, view.exhaustion, view.vote,
        view.tie_proposers,
    )  # fmt: skip


def observe_declaration_rummy(state: DeclarationRummyState, seat: int, layout: Layout) -> Vector:
    """``encode_declaration_rummy(make_view(state, seat), layout)`` without building the view:
    the environments' step path. It reads what that view shows ``seat`` and nothing else: its
    own hand (none once it dropped), the cards it drew only while it plays its turn, the other
    hands' sizes, the stock and pile as levels, the pile's cards only where the rules spread it
    out."""
    rules, phase, pile = state.rules, state.phase, state.pile
    own_dropped = state.dropped[seat]
    mine_on_turn = seat == state.turn and (phase is _PLAY or phase is _TIE_VOTE)
    return _encode(
        layout, rules, seat, () if own_dropped else state.hands[seat],
        state.drawn if mine_on_turn and not own_dropped else (), pile[-1] if pile else None,
        pile if rules.spread_out_discard else None, state.discard_masks, state.held_masks,
        0 if phase in BEFORE_DEAL else stock_level(len(state.stock)), pile_level(len(pile)),
        phase, state.draw_kind, to_act_of(state), state.turn, state.dealer,
        tuple(map(len, state.hands)), state.dropped, state.match_wins, state.exhaustion,
        state.vote, state.tie_proposers,
    )  # fmt: skip


def _encode(
    layout: Layout,
    rules: Rules,
    me: int,
    held: Sequence[int],
    drawn_now: Sequence[int],
    top: int | None,
    spread: Sequence[int] | None,
    discard_masks: Sequence[int],
    held_masks: Sequence[int],
    stock: int,
    pile: int,
    now: DeclarationPhase,
    kind: DrawKind,
    mover: int | None,
    playing: int | None,
    dealt_by: int | None,
    sizes: Sequence[int],
    out_of_game: Sequence[bool],
    wins: Sequence[int],
    exhausted: bool,
    vote: TieVote | None,
    proposers: Sequence[int],
) -> Vector:
    """The vector from what one seat sees (``stock`` and ``pile``: the stack levels 0-5)."""
    (
        hand, drawn, discard_top, discard_pile, discarded, known, stock_level_at, pile_level_at,
        phase, draw_kind, to_act, turn, dealer, hand_sizes, dropped, exhaustion,
        tie_proposers, tie_accepted, tie_pending, match_wins,
    ) = layout.starts  # fmt: skip
    n, c = rules.players, DECLARATION_RUMMY_CARDS
    out = layout.blank()
    for card in held:  # up to 3 WILDCARDs share an id
        out[hand + card] += 1.0
    for card in drawn_now:
        out[drawn + card] += 1.0
    if top is not None and 0 <= top < c:
        out[discard_top + top] = 1.0
    write_counts(out, discard_pile, spread or (), c)
    # The public history since the deal: per seat, sets of cards (its no-counting form), read
    # from the bitmasks bit by bit.
    for block, masks in ((discarded, discard_masks), (known, held_masks)):
        if not masks:
            continue
        for k in range(n):
            mask, row = masks[(me + k) % n], block + k * c
            while mask:
                low = mask & -mask
                out[row + low.bit_length() - 1] = 1.0
                mask ^= low
    if 0 <= stock < 6:
        out[stock_level_at + stock] = 1.0
    if 0 <= pile < 6:
        out[pile_level_at + pile] = 1.0
    out[phase + _DECLARATION_PHASE_INDEX[now]] = 1.0
    out[draw_kind + _DRAW_KIND_INDEX[kind]] = 1.0
    out[to_act + rel(mover, me, n)] = 1.0
    out[turn + rel(playing, me, n)] = 1.0
    out[dealer + rel(dealt_by, me, n)] = 1.0
    needed = max(1, rules.match_wins)
    for k in range(n):
        seat = (me + k) % n
        out[hand_sizes + k] = sizes[seat] / 10
        if out_of_game[seat]:
            out[dropped + k] = 1.0
        out[match_wins + k] = wins[seat] / needed
    if exhausted:
        out[exhaustion] = 1.0
    for block, seats in (
        (tie_proposers, proposers),
        (tie_accepted, vote.accepted if vote is not None else ()),
        (tie_pending, vote.pending if vote is not None else ()),
    ):
        for seat in seats:
            if 0 <= seat < n:
                out[block + (seat - me) % n] = 1.0
    return as_vector(out)


def max_game_length(rules: Rules) -> int:
    """Each game of the match: every seat's turn up to the turn cap, the deal and the end."""
    games = int(rules.match_game_cap) if rules.match else 1
    return games * (int(rules.turn_cap) * (2 + int(rules.players)) + int(rules.players) + 2)


RESEARCH: Final = ResearchSpec(
    name="declaration-rummy",
    title="Declaration Rummy",
    actions=ACTIONS,
    layout_for=declaration_rummy_layout,
    encoder=encode_declaration_rummy,
    observe=observe_declaration_rummy,
    default_players=4,
    max_game_length=max_game_length,
)
"""Declaration Rummy's research spec, named by its registry declaration."""
