"""The observation encoders as first written, kept as the reference the research modules'
encoders must match byte for byte (``tests/envs/test_encoders_match_reference.py``).

Plain and slow on purpose: each segment is written in layout order through :class:`Writer`
(its non-zero cells gathered in a dict, one numpy write at the end), the public history is
replayed into per-seat dicts, and per-seat values are rotated into lists. They read the same
views and the same layouts as the research modules, and nothing else.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardtable.envs.encoding import Layout
from cardtable.games.contract import PublicEvent
from cardtable.games.declaration_rummy.state import DrawKind
from cardtable.games.declaration_rummy.state import Phase as DeclarationPhase
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.games.indecision.state import Phase as IndecisionPhase
from cardtable.games.indecision.view import IndecisionView
from cardtable.games.indian_rummy.state import Phase
from cardtable.games.indian_rummy.view import IndianRummyView

Vector = npt.NDArray[np.float32]
INDECISION_CARDS: Final = 52
INDIAN_RUMMY_CARDS: Final = 53
DECLARATION_RUMMY_CARDS: Final = 63

_TAKE_VERBS: Final = frozenset({"take-discard", "take-extra"})
_PUT_VERBS: Final = frozenset({"discard", "declare"})
_RESET_VERBS: Final = frozenset({"deal", "next-game"})


def history(
    events: Sequence[PublicEvent], me: int, players: int, cards: int
) -> tuple[list[dict[int, int]], list[dict[int, int]]]:
    """Per relative seat: cards discarded since the deal, and cards known to be held."""
    discarded: list[dict[int, int]] = [{} for _ in range(players)]
    known: list[dict[int, int]] = [{} for _ in range(players)]
    for event in events:
        verb = event.verb
        if verb in _RESET_VERBS:
            discarded = [{} for _ in range(players)]
            known = [{} for _ in range(players)]
            continue
        if not event.cards or not 0 <= event.seat < players:
            continue
        rel = (event.seat - me) % players
        if verb in _TAKE_VERBS:
            held = known[rel]
            for card in event.cards:
                held[card] = held.get(card, 0) + 1
        elif verb in _PUT_VERBS:
            card = event.cards[0]
            if card < cards:
                thrown = discarded[rel]
                thrown[card] = thrown.get(card, 0) + 1
                held = known[rel]
                if held.get(card, 0) > 0:
                    held[card] -= 1
    return discarded, known


class Writer:
    """Collects the non-zero cells of a vector segment by segment (in layout order), then
    builds the array in one step: most cells are zero, and one numpy call per cell would cost
    more than the whole encoding."""

    __slots__ = ("cells", "pos", "size")

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells: dict[int, float] = {}
        self.pos = 0

    def cards(self, cards: Sequence[int], width: int) -> None:
        cells, pos = self.cells, self.pos
        for card in cards:
            key = pos + card
            cells[key] = cells.get(key, 0.0) + 1.0
        self.pos = pos + width

    def counts(self, counts: dict[int, int], width: int) -> None:
        cells, pos = self.cells, self.pos
        for card, count in counts.items():
            if count:
                cells[pos + card] = float(count)
        self.pos = pos + width

    def one(self, index: int | None, width: int) -> None:
        if index is not None and 0 <= index < width:
            self.cells[self.pos + index] = 1.0
        self.pos += width

    def values(self, values: Sequence[float]) -> None:
        cells, pos = self.cells, self.pos
        for offset, value in enumerate(values):
            if value:
                cells[pos + offset] = value
        self.pos = pos + len(values)

    def done(self) -> Vector:
        out: Vector = np.zeros(self.size, dtype=np.float32)
        if self.cells:
            out[list(self.cells)] = list(self.cells.values())
        return out


def rel(seat: int | None, me: int, players: int) -> int:
    """A seat's place after ``me``, or ``players`` for no seat."""
    return players if seat is None or seat < 0 else (seat - me) % players


def rotate(values: Sequence[Any], me: int) -> list[Any]:
    """Per-seat ``values`` in relative order: ``me``'s first, then the seats after it."""
    return [*values[me:], *values[:me]]


_INDECISION_PHASES: Final = tuple(IndecisionPhase)


def encode_indecision(view: IndecisionView, layout: Layout) -> Vector:
    """The Indecision vector of ``view`` (the layout its research module documents)."""
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


_INDIAN_PHASES: Final = tuple(Phase)


def encode_indian_rummy(view: IndianRummyView, layout: Layout) -> Vector:
    """The Indian Rummy vector of ``view`` (the layout its research module documents)."""
    rules = view.rules
    n, me, c = rules.players, view.seat, INDIAN_RUMMY_CARDS
    w = Writer(layout.size)
    w.cards(view.hand, c)
    w.one(view.drawn, c)
    w.one(view.taken, c)
    w.one(view.pile_top, c)
    w.cards(view.pile, c)
    discarded, known = history(view.events, me, n, c)
    for counts in (*discarded, *known):
        w.counts(counts, c)
    w.one(view.wild_card, c)
    w.one(view.wild_rank, 13)
    w.one(_INDIAN_PHASES.index(view.phase), len(_INDIAN_PHASES))
    w.one(rel(view.turn, me, n), n + 1)
    w.one(rel(view.dealer, me, n), n + 1)
    w.values([size / 14 for size in rotate(view.hand_sizes, me)])
    w.values([0.0 if d is None else 1.0 for d in rotate(view.drops, me)])
    w.values([1.0 if d else 0.0 for d in rotate(view.has_drawn, me)])
    scale = 80.0 * max(1, len(view.deal_points))
    w.values([total / scale for total in rotate(view.totals, me)])
    w.values([view.stock_size / 106, 1.0 if view.opening_on_top else 0.0])
    w.values([view.turns / max(1, rules.deal_turn_cap)])
    return w.done()


_DECLARATION_PHASES: Final = tuple(DeclarationPhase)
_DRAW_KINDS: Final = tuple(DrawKind)


def encode_declaration_rummy(view: DeclarationRummyView, layout: Layout) -> Vector:
    """The Declaration Rummy vector of ``view`` (the layout its research module documents)."""
    rules = view.rules
    n, me, c = rules.players, view.seat, DECLARATION_RUMMY_CARDS
    w = Writer(layout.size)
    w.cards(view.hand, c)
    w.cards(view.drawn, c)
    w.one(view.discard_top, c)
    w.cards(view.discard_pile or (), c)
    # The view's public history since the deal: per seat, sets of cards (its no-counting form).
    for k in range(n):
        w.cards(view.discarded_by((me + k) % n), c)
    for k in range(n):
        w.cards(view.held_by((me + k) % n), c)
    w.one(view.stock_level, 6)
    w.one(view.pile_level, 6)
    w.one(_DECLARATION_PHASES.index(view.phase), len(_DECLARATION_PHASES))
    w.one(_DRAW_KINDS.index(view.draw_kind), len(_DRAW_KINDS))
    w.one(rel(view.to_act, me, n), n + 1)
    w.one(rel(view.turn, me, n), n + 1)
    w.one(rel(view.dealer, me, n), n + 1)
    w.values([size / 10 for size in rotate(view.hand_sizes, me)])
    w.values([1.0 if d else 0.0 for d in rotate(view.dropped, me)])
    w.values([1.0 if view.exhaustion else 0.0])
    proposers = set(view.tie_proposers)
    w.values([1.0 if (me + k) % n in proposers else 0.0 for k in range(n)])
    vote = view.vote
    accepted = set(vote.accepted) if vote is not None else set()
    pending = set(vote.pending) if vote is not None else set()
    w.values([1.0 if (me + k) % n in accepted else 0.0 for k in range(n)])
    w.values([1.0 if (me + k) % n in pending else 0.0 for k in range(n)])
    wins = max(1, rules.match_wins)
    w.values([won / wins for won in rotate(view.match_wins, me)])
    return w.done()
