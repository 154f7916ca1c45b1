"""Indian Rummy's playout seats (:mod:`cardtable.playouts`): the playing seat never drops and
declares only a valid show; the improving seat of search rollouts draws the pile's card only
when it completes a pure sequence or a set, shows whenever the show is valid, otherwise keeps
every card in a pure sequence or a set and throws the card with the fewest links to the others
(another suit of its rank, its suit within two ranks), the highest of those, never a joker,
never drops. A few bit tests rule out most hands before the exact solver
(:func:`~cardtable.melds.indian.show_discards`) is asked for a show; the improving seat does
not count points with the solver (that cost several times as much and reached shows later).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from cardtable.cards import PRINTED_JOKER
from cardtable.games.indian_rummy import actions as ir_act
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from cardtable.melds.indian import card_value, show_discards, surely_no_show

_IR_DISCARD: Final = Phase.DISCARD


def valid_shows(state: IndianRummyState, hand: Sequence[int]) -> tuple[int, ...]:
    """Indian Rummy: the cards whose put-down leaves a valid show of ``hand``'s other 13 (a few
    bit tests first: most hands of a playout are far from a show)."""
    if surely_no_show(hand, state.wild_rank):
        return ()
    rules = state.rules
    return show_discards(
        hand,
        state.wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )


def playing(state: IndianRummyState, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    """The playing seat's choices: never a drop, a declaration only when it shows."""
    if state.phase is not _IR_DISCARD:
        return [action for action in legal if action is not ir_act.DROP]
    valid = valid_shows(state, state.hands[seat])
    # legal lists the discards, then as many declarations; keep the declarations that show.
    half = len(legal) // 2
    if not valid:
        return legal[:half]
    return [*legal[:half], *(a for a in legal[half:] if a.card in valid)]


# --- The improving seat (search rollouts) ---------------------------------------------------

_IR_DRAW: Final = Phase.DRAW
_IR_VALUES: Final = (*(card_value(c, None) for c in range(PRINTED_JOKER)), 0)
_IR_RANK: Final = (*(c % 13 for c in range(PRINTED_JOKER)), -1)
_IR_SUIT: Final = (*(c // 13 for c in range(PRINTED_JOKER)), 4)
_IR_NEAR: Final = tuple(
    sum(1 << r for r in range(13) if 0 < min(abs(rank - r), 13 - abs(rank - r)) <= 2)
    for rank in range(13)
)
"""``_IR_NEAR[rank]``: the ranks at most two places from ``rank``, round the corner too (the
link test only has to let through every card that could share a sequence)."""
_ALL_RANKS: Final = (1 << 13) - 1


def _melded(cards: Sequence[int], wild: int | None) -> int:
    """The natural cards of ``cards`` (by card id, as bits) that lie in a pure sequence of
    three or more (ace low or high) or in a set of three or four suits."""
    suits = [0, 0, 0, 0]
    suits_of_rank = [0] * 13
    for c in cards:
        rank = _IR_RANK[c]
        if rank < 0 or rank == wild:
            continue
        suits[_IR_SUIT[c]] |= 1 << rank
        suits_of_rank[rank] |= 1 << _IR_SUIT[c]
    out = 0
    for suit, m in enumerate(suits):
        m |= (m & 1) << 13  # the ace played high, above the king
        starts = m & (m >> 1) & (m >> 2)
        if starts:
            covered = starts | (starts << 1) | (starts << 2)
            out |= ((covered | covered >> 13) & _ALL_RANKS) << (13 * suit)
    for rank, held in enumerate(suits_of_rank):
        if held.bit_count() >= 3:
            for suit in range(4):
                if held >> suit & 1:
                    out |= 1 << (13 * suit + rank)
    return out


def _links(card: int, hand: Sequence[int]) -> int:
    """How many natural cards of ``hand`` could share a group with ``card`` (its rank in
    another suit, or its suit at most two ranks away), counted up to 2."""
    rank, suit, near = _IR_RANK[card], _IR_SUIT[card], _IR_NEAR[_IR_RANK[card]]
    links = 0
    for c in hand:
        if c != PRINTED_JOKER and (
            (_IR_RANK[c] == rank and _IR_SUIT[c] != suit)
            or (_IR_SUIT[c] == suit and near >> _IR_RANK[c] & 1)
        ):
            links += 1
            if links == 2:
                break
    return links


def improving(state: IndianRummyState, seat: int, legal: Sequence[Any]) -> Sequence[Any]:
    """The improving seat's choices (see the module docstring): one draw, the valid shows, or
    the tied best discards."""
    hand = state.hands[seat]
    wild = state.wild_rank
    if state.phase is not _IR_DRAW and state.phase is not _IR_DISCARD:
        return legal  # Pool's answers between deals (a rejoin offer, the agreed finish)
    if state.phase is _IR_DRAW:
        if ir_act.DRAW_PILE in legal:
            top = state.pile[-1]
            # Take the pile's card only when it completes a pure sequence or a set (a twin of
            # a card already in one completes nothing).
            if _melded((*hand, top), wild) >> top & 1 and not _melded(hand, wild) >> top & 1:
                return (ir_act.DRAW_PILE,)
        return (ir_act.DRAW_STOCK,)
    valid = valid_shows(state, hand)
    if valid:
        shows = [a for a in legal[len(legal) // 2 :] if a.card in valid]
        if shows:
            return shows
    kept = state.drawn if state.drawn_from_pile else None
    melded = _melded(hand, wild)
    best: tuple[int, int, int] | None = None
    out: list[Any] = []
    for c in dict.fromkeys(hand):
        rank = _IR_RANK[c]
        if c == kept or rank < 0 or rank == wild:
            continue
        key = (melded >> c & 1, _links(c, hand), -_IR_VALUES[c])
        if best is None or key < best:
            best, out = key, [ir_act.DISCARDS[c]]
        elif key == best:
            out.append(ir_act.DISCARDS[c])
    return out or legal[: len(legal) // 2]


def ending(state: IndianRummyState) -> str | None:
    """How the last deal ended (``valid-show``, ``abandoned`` at the turn cap, ...): every
    game ends with "deals-played", so the deal's outcome says whether the seats reached a
    show."""
    last_deal = getattr(state, "last_deal", None)
    return None if last_deal is None else f"last deal {last_deal.outcome}"
