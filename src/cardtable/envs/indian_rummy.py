"""Indian Rummy as the research environments see it: its action table, observation, the rules
an environment plays and its OpenSpiel facts (the ``research`` part of the game's spec).

Actions (113): ``0`` draw stock, ``1`` draw pile, ``2`` drop, ``3 + c`` discard card ``c``,
``56 + c`` declare (show) putting ``c`` down, ``c`` in 0..52 (the printed joker is 52); then
Pool's answers between deals, ``109`` rejoin, ``110`` stay out, ``111`` finish, ``112`` play on.

Free play (``deals=None``) has no end, so an environment plays one deal unless ``deals`` is
given; Pool and Deals (RULES.md 2.13) are played whole, their utilities one point shared by the
winners of the final standing (a seat out of the game shows as dropped in the observation).
Rewards can be each finished deal's points (``shaped_rewards``). A search's rollout stops
early at a draw and guesses the show (:func:`rollout_values`).

Observation (53 card ids): ``hand``, ``drawn``, ``taken`` (the card the seat on turn took from
the pile), ``pile_top``, ``pile`` (every card on the pile), ``discarded`` (n x 53), ``known``
(n x 53), ``wild_card``, ``wild_rank`` (13), ``phase``, ``turn``, ``dealer`` (relative),
``hand_sizes`` (/ 14), ``dropped``, ``has_drawn``, ``totals`` (/ 80 per deal), ``stock_size``
(/ 106), ``opening_on_top``, ``turns`` (/ the deal's turn cap).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Final

from cardtable.cards import PRINTED_JOKER
from cardtable.games.contract import PublicEvent
from cardtable.games.indian_rummy import actions as ir
from cardtable.games.indian_rummy.engine import hand_points
from cardtable.games.indian_rummy.playouts import valid_shows
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from cardtable.games.indian_rummy.view import IndianRummyView

from .actions import ActionIndex
from .encoding import Layout, Vector, as_vector, rel, write_counts, write_history
from .spec import ResearchSpec, RolloutCut

ACTIONS: Final = ActionIndex(
    "indian-rummy",
    (
        ir.DRAW_STOCK, ir.DRAW_PILE, ir.DROP, *ir.DISCARDS, *ir.DECLARES,
        ir.REJOIN, ir.STAY_OUT, ir.FINISH, ir.PLAY_ON,
    ),
)  # fmt: skip


# --- Observation ---------------------------------------------------------------------------------

INDIAN_RUMMY_CARDS: Final = PRINTED_JOKER + 1
"""Card ids of the pack: 0..51 and the printed joker 52."""
_INDIAN_PHASE_INDEX: Final = {phase: i for i, phase in enumerate(Phase)}


def indian_rummy_layout(players: int) -> Layout:
    """The Indian Rummy vector's segments for ``players`` seats."""
    c, n = INDIAN_RUMMY_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("taken", c), ("pile_top", c), ("pile", c),
            ("discarded", n * c), ("known", n * c), ("wild_card", c), ("wild_rank", 13),
            ("phase", len(_INDIAN_PHASE_INDEX)), ("turn", n + 1), ("dealer", n + 1),
            ("hand_sizes", n), ("dropped", n), ("has_drawn", n), ("totals", n),
            ("stock_size", 1), ("opening_on_top", 1), ("turns", 1),
        ]
    )  # fmt: skip


def encode_indian_rummy(view: IndianRummyView, layout: Layout) -> Vector:
    """The Indian Rummy vector of ``view`` (see the module docstring)."""
    return _encode(
        layout, view.rules, view.seat, view.hand, view.drawn, view.taken, view.pile,
        view.events, view.wild_card, view.wild_rank, view.phase, view.turn, view.dealer,
        view.hand_sizes, view.drops, view.has_drawn, view.totals, len(view.deal_points),
        view.stock_size, view.opening_on_top, view.turns,
    )  # fmt: skip


def observe_indian_rummy(state: IndianRummyState, seat: int, layout: Layout) -> Vector:
    """``encode_indian_rummy(make_view(state, seat), layout)`` without building the view: the
    environments' step path. It reads what that view shows ``seat`` and nothing else: its own
    hand, the card drawn this turn only when the seat is on turn (or took it from the pile),
    the other hands' sizes."""
    deal, turn = state.deal, state.turn
    drawn = state.drawn
    return _encode(
        layout, deal.rules, seat, state.hands[seat], drawn if turn == seat else None,
        drawn if state.drawn_from_pile else None, state.pile, state.events, deal.wild_card,
        deal.wild_rank, state.phase, turn, deal.dealer, tuple(map(len, state.hands)),
        state.drops, state.has_drawn, deal.totals, len(deal.deal_points), len(state.stock),
        state.opening_on_top, state.turns,
    )  # fmt: skip


def _encode(
    layout: Layout,
    rules: Rules,
    me: int,
    held: Sequence[int],
    one_drawn: int | None,
    one_taken: int | None,
    cards: Sequence[int],
    events: Sequence[PublicEvent],
    wild: int | None,
    rank: int | None,
    now: Phase,
    mover: int | None,
    dealt_by: int | None,
    sizes: Sequence[int],
    drops: Sequence[int | None],
    drawn_now: Sequence[bool],
    points: Sequence[int],
    deals: int,
    stock: int,
    opening: bool,
    turned: int,
) -> Vector:
    """The vector from what one seat sees (``deals``: the deals scored so far)."""
    (
        hand, drawn, taken, pile_top, pile, discarded, known, wild_card, wild_rank, phase,
        turn, dealer, hand_sizes, dropped, has_drawn, totals, stock_size, opening_on_top, turns,
    ) = layout.starts  # fmt: skip
    n, c = rules.players, INDIAN_RUMMY_CARDS
    out = layout.blank()
    for card in held:  # two decks: a card id can be held twice
        out[hand + card] += 1.0
    if one_drawn is not None and 0 <= one_drawn < c:
        out[drawn + one_drawn] = 1.0
    if one_taken is not None and 0 <= one_taken < c:
        out[taken + one_taken] = 1.0
    if cards and 0 <= (card := cards[-1]) < c:
        out[pile_top + card] = 1.0
    write_counts(out, pile, cards, c)
    write_history(out, events, me, n, c, discarded, known)
    if wild is not None and 0 <= wild < c:
        out[wild_card + wild] = 1.0
    if rank is not None and 0 <= rank < 13:
        out[wild_rank + rank] = 1.0
    out[phase + _INDIAN_PHASE_INDEX[now]] = 1.0
    out[turn + rel(mover, me, n)] = 1.0
    out[dealer + rel(dealt_by, me, n)] = 1.0
    scale = 80.0 * max(1, deals)
    for k in range(n):
        seat = (me + k) % n
        out[hand_sizes + k] = sizes[seat] / 14
        if drops[seat] is not None:
            out[dropped + k] = 1.0
        if drawn_now[seat]:
            out[has_drawn + k] = 1.0
        out[totals + k] = points[seat] / scale
    out[stock_size] = stock / 106
    if opening:
        out[opening_on_top] = 1.0
    out[turns] = turned / max(1, rules.deal_turn_cap)
    return as_vector(out)


def one_deal_at_least(rules: Rules) -> Rules:
    """Free play becomes one deal: an environment's game must end (Pool and Deals end by
    themselves)."""
    if rules.deals is None and rules.format == "free-play":
        return dataclasses.replace(rules, deals=1)
    return rules


def utility_bounds(rules: Rules) -> tuple[float, float]:
    """Utilities are minus the average points per deal: at worst a capped hand, a wrong show
    or a drop, every deal; in Pool and Deals a share of one point for the winners."""
    if rules.format != "free-play":
        return 0.0, 1.0
    worst = max(
        rules.max_points if rules.max_points is not None else 140,
        rules.wrong_show_penalty,
        rules.first_drop,
        rules.middle_drop,
    )
    return -float(worst), 0.0


def max_game_length(rules: Rules) -> int:
    """Each deal: two actions a turn up to the turn cap, the deal and a reshuffle or two (and
    in Pool, a rejoin answer and an agreed-finish answer from each seat between deals)."""
    if rules.format != "free-play":
        deals = int(rules.game_deal_cap)
        return deals * (2 * int(rules.deal_turn_cap) + 2 + 2 * int(rules.players)) + 1
    return int(rules.deals or 1) * (2 * int(rules.deal_turn_cap) + 2) + 1


ROLLOUT_HORIZON: Final = 40
"""Seat decisions of a search's rollout before it is valued by hand points."""


def at_a_draw(state: IndianRummyState) -> bool:
    """A rollout stops at the start of a turn, every hand at 13 cards."""
    return state.phase is Phase.DRAW


def rollout_values(state: IndianRummyState) -> list[float]:
    """Each seat's guessed value of a deal in progress at a draw, where a search's rollout
    stops: two playing seats seldom reach a valid show (most deals would be abandoned at the
    turn cap, worth 0 to both), so the live seat whose hand has the fewest points (its best
    arrangement, capped) is taken to show first and gets 0 (every such seat, on a tie), each
    other live seat minus its hand's points, a dropped seat minus its drop penalty. Valuing
    every seat at minus its own points instead would make a first drop (20) look better than
    playing nearly any hand."""
    rules, wild = state.rules, state.wild_rank
    points = [
        None if drop is not None else hand_points(hand, wild, rules)
        for hand, drop in zip(state.hands, state.drops, strict=True)
    ]
    best = min((p for p in points if p is not None), default=0)
    return [
        -float(drop or 0) if p is None else 0.0 if p == best else -float(p)
        for p, drop in zip(points, state.drops, strict=True)
    ]


def without_wrong_shows(
    state: IndianRummyState, seat: int, legal: Sequence[object]
) -> Sequence[object]:
    """``legal`` without the declarations whose show would be wrong (the research spec's
    ``without_wrong_shows``); the solver runs only when ``legal`` holds a declaration."""
    if not any(type(action) is ir.Declare for action in legal):
        return legal
    valid = valid_shows(state, state.hands[seat])
    return [action for action in legal if type(action) is not ir.Declare or action.card in valid]


RESEARCH: Final = ResearchSpec(
    name="indian-rummy",
    title="Indian Rummy",
    actions=ACTIONS,
    layout_for=indian_rummy_layout,
    encoder=encode_indian_rummy,
    observe=observe_indian_rummy,
    default_players=2,
    max_game_length=max_game_length,
    adapt_rules=one_deal_at_least,
    utility_bounds=utility_bounds,
    shaped_rewards=True,
    rollout_cut=RolloutCut(ROLLOUT_HORIZON, at_a_draw, rollout_values),
    without_wrong_shows=without_wrong_shows,
)
"""Indian Rummy's research spec, named by its registry declaration."""
