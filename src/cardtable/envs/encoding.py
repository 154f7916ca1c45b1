"""Observation vectors: one seat's view of a game as a fixed-length ``float32`` array.

Each game's vector is a concatenation of named segments (:class:`Layout`); ``describe()`` lists
them with their offsets. Only the seat's view is read, so the vector holds nothing the seat may
not know. Seats are **relative**: segment entry ``k`` of a per-seat block is the seat ``k``
places after the observer (``0`` is the observer). Card blocks are indexed by card id (see
:mod:`cardtable.envs.actions`) and hold the number of copies (0-2 in Indian Rummy, up to 3
WILDCARDs in Declaration Rummy) unless said otherwise. Public history since the deal is encoded
compactly as, per seat, the cards it discarded and the cards it is known to hold (taken face up
from the pile and not discarded since).

Indecision (``n`` seats, 52 card ids): ``hand``, ``drawn`` (this turn's card, if known),
``pile`` (every card on the face-up pile), ``pile_top``, ``stop_card`` (own face-down spare),
``discarded`` (n x 52: by each seat this hand), ``known`` (n x 52: held by each seat), ``phase``
(one-hot), ``to_act``, ``dealer``, ``starter``, ``stopper`` (relative one-hots, n + 1 with a
last entry for "none"), ``had_turn`` (n), ``hand_sizes`` (n, / 6), ``totals`` (n, / target),
``deck_size`` (/ 52).

Indian Rummy (53 card ids): ``hand``, ``drawn``, ``taken`` (the card the seat on turn took from
the pile), ``pile_top``, ``pile`` (every card on the pile), ``discarded`` (n x 53), ``known``
(n x 53), ``wild_card``, ``wild_rank`` (13), ``phase``, ``turn``, ``dealer`` (relative),
``hand_sizes`` (/ 14), ``dropped``, ``has_drawn``, ``totals`` (/ 80 per deal), ``stock_size``
(/ 106), ``opening_on_top``, ``turns`` (/ the deal's turn cap).

Declaration Rummy (63 card ids): ``hand``, ``drawn``, ``discard_top``, ``discard_pile`` (only
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

from collections.abc import Callable, Sequence
from typing import Any, Final

import numpy as np
import numpy.typing as npt

from cardtable.cards import PRINTED_JOKER
from cardtable.games.contract import PublicEvent
from cardtable.games.declaration_rummy.state import DrawKind
from cardtable.games.declaration_rummy.state import Phase as DeclarationPhase
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.games.indecision.state import Phase as IndecisionPhase
from cardtable.games.indecision.view import IndecisionView
from cardtable.games.indian_rummy.state import Phase as IndianPhase
from cardtable.games.indian_rummy.view import IndianRummyView

Vector = npt.NDArray[np.float32]

INDECISION_CARDS: Final = 52
INDIAN_RUMMY_CARDS: Final = PRINTED_JOKER + 1
DECLARATION_RUMMY_CARDS: Final = 63
_TAKE_VERBS: Final = frozenset({"take-discard", "take-extra"})
_PUT_VERBS: Final = frozenset({"discard", "declare"})
_RESET_VERBS: Final = frozenset({"deal", "next-game"})


class Layout:
    """Named segments of an observation vector, in order."""

    def __init__(self, segments: Sequence[tuple[str, int]]) -> None:
        self.segments = tuple(segments)
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, size in self.segments:
            self.offsets[name] = offset
            offset += size
        self.size = offset

    def describe(self) -> list[str]:
        """One line per segment: ``name: start-end``."""
        return [
            f"{name}: {self.offsets[name]}-{self.offsets[name] + size - 1}"
            for name, size in self.segments
        ]


def _history(
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


class _Writer:
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


def _rel(seat: int | None, me: int, players: int) -> int:
    """A seat's place after ``me``, or ``players`` for no seat."""
    return players if seat is None or seat < 0 else (seat - me) % players


def _rotate(values: Sequence[Any], me: int) -> list[Any]:
    return [*values[me:], *values[:me]]


# --- Indecision -------------------------------------------------------------------------------

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
    w = _Writer(layout.size)
    w.cards(view.hand, c)
    w.one(view.drawn, c)
    w.cards(view.pile, c)
    w.one(view.pile_top, c)
    w.one(view.stop_card, c)
    discarded, known = _history(view.events, me, n, c)
    for counts in (*discarded, *known):
        w.counts(counts, c)
    w.one(_INDECISION_PHASES.index(view.phase), len(_INDECISION_PHASES))
    w.one(_rel(view.to_act, me, n), n + 1)
    w.one(_rel(view.dealer, me, n), n + 1)
    w.one(_rel(view.starter, me, n), n + 1)
    w.one(_rel(view.stopper, me, n), n + 1)
    w.values([1.0 if t else 0.0 for t in _rotate(view.had_turn, me)])
    w.values([size / 6 for size in _rotate(view.hand_sizes, me)])
    target = max(1, view.rules.target_score)
    w.values([total / target for total in _rotate(view.totals, me)])
    w.values([view.deck_size / 52])
    return w.done()


# --- Indian Rummy -----------------------------------------------------------------------------

_INDIAN_PHASES: Final = tuple(IndianPhase)


def indian_rummy_layout(players: int) -> Layout:
    """The Indian Rummy vector's segments for ``players`` seats."""
    c, n = INDIAN_RUMMY_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("taken", c), ("pile_top", c), ("pile", c),
            ("discarded", n * c), ("known", n * c), ("wild_card", c), ("wild_rank", 13),
            ("phase", len(_INDIAN_PHASES)), ("turn", n + 1), ("dealer", n + 1),
            ("hand_sizes", n), ("dropped", n), ("has_drawn", n), ("totals", n),
            ("stock_size", 1), ("opening_on_top", 1), ("turns", 1),
        ]
    )  # fmt: skip


def encode_indian_rummy(view: IndianRummyView, layout: Layout) -> Vector:
    """The Indian Rummy vector of ``view`` (see the module docstring)."""
    rules = view.rules
    n, me, c = rules.players, view.seat, INDIAN_RUMMY_CARDS
    w = _Writer(layout.size)
    w.cards(view.hand, c)
    w.one(view.drawn, c)
    w.one(view.taken, c)
    w.one(view.pile_top, c)
    w.cards(view.pile, c)
    discarded, known = _history(view.events, me, n, c)
    for counts in (*discarded, *known):
        w.counts(counts, c)
    w.one(view.wild_card, c)
    w.one(view.wild_rank, 13)
    w.one(_INDIAN_PHASES.index(view.phase), len(_INDIAN_PHASES))
    w.one(_rel(view.turn, me, n), n + 1)
    w.one(_rel(view.dealer, me, n), n + 1)
    w.values([size / 14 for size in _rotate(view.hand_sizes, me)])
    w.values([0.0 if d is None else 1.0 for d in _rotate(view.drops, me)])
    w.values([1.0 if d else 0.0 for d in _rotate(view.has_drawn, me)])
    scale = 80.0 * max(1, len(view.deal_points))
    w.values([total / scale for total in _rotate(view.totals, me)])
    w.values([view.stock_size / 106, 1.0 if view.opening_on_top else 0.0])
    w.values([view.turns / max(1, rules.deal_turn_cap)])
    return w.done()


# --- Declaration Rummy ------------------------------------------------------------------------

_DECLARATION_PHASES: Final = tuple(DeclarationPhase)
_DRAW_KINDS: Final = tuple(DrawKind)


def declaration_rummy_layout(players: int) -> Layout:
    """The Declaration Rummy vector's segments for ``players`` seats."""
    c, n = DECLARATION_RUMMY_CARDS, players
    return Layout(
        [
            ("hand", c), ("drawn", c), ("discard_top", c), ("discard_pile", c),
            ("discarded", n * c), ("known", n * c), ("stock_level", 6), ("pile_level", 6),
            ("phase", len(_DECLARATION_PHASES)), ("draw_kind", len(_DRAW_KINDS)),
            ("to_act", n + 1), ("turn", n + 1), ("dealer", n + 1), ("hand_sizes", n),
            ("dropped", n), ("exhaustion", 1), ("tie_proposers", n), ("tie_accepted", n),
            ("tie_pending", n), ("match_wins", n),
        ]
    )  # fmt: skip


def encode_declaration_rummy(view: DeclarationRummyView, layout: Layout) -> Vector:
    """The Declaration Rummy vector of ``view`` (see the module docstring)."""
    rules = view.rules
    n, me, c = rules.players, view.seat, DECLARATION_RUMMY_CARDS
    w = _Writer(layout.size)
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
    w.one(_rel(view.to_act, me, n), n + 1)
    w.one(_rel(view.turn, me, n), n + 1)
    w.one(_rel(view.dealer, me, n), n + 1)
    w.values([size / 10 for size in _rotate(view.hand_sizes, me)])
    w.values([1.0 if d else 0.0 for d in _rotate(view.dropped, me)])
    w.values([1.0 if view.exhaustion else 0.0])
    proposers = set(view.tie_proposers)
    w.values([1.0 if (me + k) % n in proposers else 0.0 for k in range(n)])
    vote = view.vote
    accepted = set(vote.accepted) if vote is not None else set()
    pending = set(vote.pending) if vote is not None else set()
    w.values([1.0 if (me + k) % n in accepted else 0.0 for k in range(n)])
    w.values([1.0 if (me + k) % n in pending else 0.0 for k in range(n)])
    wins = max(1, rules.match_wins)
    w.values([won / wins for won in _rotate(view.match_wins, me)])
    return w.done()


Encoder = Callable[[Any, Layout], Vector]
