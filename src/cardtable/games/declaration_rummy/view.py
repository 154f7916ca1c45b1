"""What one seat may see of a Declaration Rummy table, and :func:`determinize`, its inverse.

A view holds the seat's own hand, every other hand's **size** (on a real table you see how many
cards each player holds), the top of the discard pile, the public events of the previous and the
current turn, the table order, any tie vote, and the outcome of a finished game with every
non-dropped hand revealed. It hides the other hands, the stock order, the cards removed unseen
(Missing Cards), every dropped hand (even at the end, even to its owner), and **exact pile sizes**:
the seed forbids counting the stockpile and the discard pile, so a view only gives a coarse
stack level (:func:`stock_level`, :func:`pile_level`):

=====  ============================  ==================================
level  stock (cards: label)          discard pile (cards: label)
=====  ============================  ==================================
0      0: ``empty``                  0: ``empty``
1      1-5: ``a few cards``          1: ``one card``
2      6-12: ``a small stack``       2-5: ``a few cards``
3      13-24: ``a stack``            6-12: ``a small stack``
4      25-40: ``a tall stack``       13-24: ``a stack``
5      41 or more: ``a very tall     25 or more: ``a tall stack``
       stack``
=====  ============================  ==================================

The discard pile's level 1 is exact on purpose: whether a card lies under the top one is plain to
see and decides the Three-Card Draw and the Declare or Go Out reshuffle. With the Spread-Out
Discard-Pile every discard is visible (``discard_pile``), as it is on the table. Events are
kept only for the previous and the current turn; the public history since the deal is carried
compactly as two sets per seat (``discard_masks``: the cards it discarded; ``held_masks``: the
cards it took face up and has not discarded since), which is what a player watching the table
remembers. Sets, not lists: they keep no order and no repeats, so the view is still no ledger
from which to count the piles. The view's JSON (what a page is sent) lists only the seat's own
discards: the pile is kept squared, and the others' covered discards are not on the wire.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, ClassVar, Final

from cardtable.cards import card_labels, format_card
from cardtable.errors import RulesError
from cardtable.games.contract import PublicEvent, by_identity, events_json, view_rules_json
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import (
    BEFORE_DEAL,
    DeclarationRummyState,
    DrawKind,
    GameOutcome,
    Phase,
    TieVote,
    pack_cards,
)

STOCK_LABELS: Final = (
    "empty",
    "a few cards",
    "a small stack",
    "a stack",
    "a tall stack",
    "a very tall stack",
)
STOCK_BOUNDS: Final = (0, 5, 12, 24, 40)
"""Upper bound of stock levels 0-4 (level 5 is anything above)."""
PILE_LABELS: Final = (
    "empty",
    "one card",
    "a few cards",
    "a small stack",
    "a stack",
    "a tall stack",
)
PILE_BOUNDS: Final = (0, 1, 5, 12, 24)
"""Upper bound of discard-pile levels 0-4 (level 5 is anything above)."""


def _level(size: int, bounds: tuple[int, ...]) -> int:
    for level, bound in enumerate(bounds):
        if size <= bound:
            return level
    return len(bounds)


def stock_level(size: int) -> int:
    """The visual level 0-5 of a stockpile of ``size`` cards.

    >>> [stock_level(n) for n in (0, 1, 5, 6, 24, 25, 41)]
    [0, 1, 1, 2, 3, 4, 5]
    """
    return _level(size, STOCK_BOUNDS)


def pile_level(size: int) -> int:
    """The visual level 0-5 of a discard pile of ``size`` cards.

    >>> [pile_level(n) for n in (0, 1, 2, 5, 6, 13, 30)]
    [0, 1, 2, 2, 3, 4, 5]
    """
    return _level(size, PILE_BOUNDS)


@dataclass(frozen=True, slots=True)
class DeclarationRummyView:
    """One seat's view (see the module docstring for what is shown and hidden)."""

    seat: int
    rules: Rules
    phase: Phase
    to_act: int | None
    """The seat acting now (``None`` during a chance step and at the end)."""
    game_number: int
    order: tuple[int, ...]
    dealer: int
    first_player: int
    turn: int
    hand: tuple[int, ...]
    """This seat's cards (empty once it dropped)."""
    drawn: tuple[int, ...]
    """Cards this seat took during its current turn."""
    hand_sizes: tuple[int, ...]
    """Cards each seat holds (a dropped seat: its face-down hand)."""
    dropped: tuple[bool, ...]
    draw_kind: DrawKind
    """How the player on turn drew this turn."""
    stock_level: int
    pile_level: int
    discard_top: int | None
    discard_pile: tuple[int, ...] | None
    """Every discard, bottom to top: only with the Spread-Out Discard-Pile."""
    removed_unseen: int
    """Cards out of play unseen (Missing Cards): a number the table agreed on."""
    exhaustion: bool
    """This turn is played under the stock-exhausted ending."""
    tie_proposers: tuple[int, ...]
    """Seats that proposed a tie during this turn (each may propose once per turn)."""
    vote: TieVote | None
    events: tuple[PublicEvent, ...]
    turn_events_from: int
    """Index in ``events`` where the current turn's events begin."""
    preliminary: tuple[tuple[int, ...], ...]
    outcome: GameOutcome | None
    match_wins: tuple[int, ...]
    history: tuple[GameOutcome, ...]
    discard_masks: tuple[int, ...] = ()
    """Per seat, a bitmask of the cards it discarded this game (empty before any discard)."""
    held_masks: tuple[int, ...] = ()
    """Per seat, a bitmask of the cards it took face up and has not discarded since."""

    def discarded_by(self, seat: int) -> tuple[int, ...]:
        """The distinct cards ``seat`` discarded face up since the deal, by card id."""
        return _mask_cards(self.discard_masks[seat]) if self.discard_masks else ()

    def held_by(self, seat: int) -> tuple[int, ...]:
        """The distinct cards ``seat`` is known to hold: taken face up, not discarded since."""
        return _mask_cards(self.held_masks[seat]) if self.held_masks else ()

    @property
    def deal_number(self) -> int:
        """The contract's name for ``game_number``: each game of a match is one deal."""
        return self.game_number

    @property
    def scores(self) -> tuple[int, ...]:
        """The contract's name for ``match_wins``: the games each seat has won in the match."""
        return self.match_wins

    @property
    def pile_top(self) -> int | None:
        """The contract's name for ``discard_top``."""
        return self.discard_top

    @property
    def stock_label(self) -> str:
        """The stock's level in words."""
        return STOCK_LABELS[self.stock_level]

    @property
    def pile_label(self) -> str:
        """The discard pile's level in words."""
        return PILE_LABELS[self.pile_level]

    OWN_JSON: ClassVar[tuple[str, ...]] = ("seat", "hand", "drawn", "discarded")
    """The keys of :meth:`to_json` whose values differ between the seats' views of one state
    (the rest is the same for every seat: a table sends it built once, see :meth:`own_json`)."""

    def own_json(self) -> dict[str, Any]:
        """:meth:`to_json`'s :data:`OWN_JSON` entries alone: ``to_json()`` is the JSON of any
        seat's view of the same state with these entries put in their places."""
        return {
            "seat": self.seat,
            "hand": card_labels(self.hand),
            "drawn": card_labels(self.drawn),
            "discarded": self._own_discards_json(),
        }

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards as labels)."""
        labels = card_labels
        own = self.own_json()
        vote = self.vote
        return {
            "seat": own["seat"],
            "rules": view_rules_json(self.rules),
            "phase": self.phase.value,
            "to_act": self.to_act,
            "game_number": self.game_number,
            "order": list(self.order),
            "dealer": self.dealer,
            "first_player": self.first_player,
            "turn": self.turn,
            "hand": own["hand"],
            "drawn": own["drawn"],
            "hand_sizes": list(self.hand_sizes),
            "dropped": list(self.dropped),
            "draw_kind": self.draw_kind.value,
            "stock": {"level": self.stock_level, "label": self.stock_label},
            "discard_pile": {
                "level": self.pile_level,
                "label": self.pile_label,
                "top": None if self.discard_top is None else format_card(self.discard_top),
                "cards": None if self.discard_pile is None else labels(self.discard_pile),
            },
            "removed_unseen": self.removed_unseen,
            "exhaustion": self.exhaustion,
            "tie_proposers": list(self.tie_proposers),
            "vote": None
            if vote is None
            else {
                "proposer": vote.proposer,
                "accepted": list(vote.accepted),
                "pending": list(vote.pending),
            },
            "events": events_json(self.events),
            "turn_events_from": self.turn_events_from,
            # Shared by every seat's view of a state, and by the states after it.
            "preliminary": by_identity("dr-preliminary", self.preliminary, _preliminary_json),
            "outcome": None
            if self.outcome is None
            else by_identity("dr-outcome", self.outcome, _outcome_json),
            "match_wins": list(self.match_wins),
            "history": by_identity("dr-history", self.history, _history_json),
            "discarded": own["discarded"],
            "known_held": self._masks_json(self.held_masks),
        }

    def _own_discards_json(self) -> list[list[str]]:
        """Per seat, the cards it discarded this game: this seat's own, the others' empty.
        The discard pile is kept squared and nobody may look through earlier discards
        (RULES.md 3.4), so the wire carries no ledger of the others' covered discards (the
        previous and current turn's events show what was just discarded; with the
        Spread-Out Discard-Pile the pile itself is in ``discard_pile``)."""
        lists: list[list[str]] = [[] for _ in range(self.rules.players)]
        if self.discard_masks and 0 <= self.seat < len(lists):
            lists[self.seat] = card_labels(_mask_cards(self.discard_masks[self.seat]))
        return lists

    def _masks_json(self, masks: tuple[int, ...]) -> list[list[str]]:
        """Each seat's cards of a per-seat bitmask, labelled; the same list for every seat's
        view of one state (the masks are public and shared): never to be changed."""
        if not masks:
            return [[] for _ in range(self.rules.players)]
        return by_identity("dr-masks", masks, _masks_labels)


def _preliminary_json(preliminary: tuple[tuple[int, ...], ...]) -> list[list[str]]:
    return [card_labels(cards) for cards in preliminary]


def _outcome_json(outcome: GameOutcome) -> dict[str, Any]:
    return outcome.to_json()


def _history_json(history: tuple[GameOutcome, ...]) -> list[dict[str, Any]]:
    return [outcome.to_json() for outcome in history]


def _masks_labels(masks: tuple[int, ...]) -> list[list[str]]:
    return [card_labels(_mask_cards(mask)) for mask in masks]


@lru_cache(maxsize=4096)
def _mask_cards(mask: int) -> tuple[int, ...]:
    # Remembered: each seat's own discards are sent after every move, and change only with
    # that seat's discards.
    return tuple(card for card in range(mask.bit_length()) if mask >> card & 1)


def to_act_of(state: DeclarationRummyState) -> int | None:
    """The seat a view shows on turn: the seat playing, the next voter in a tie vote, ``None``
    while nobody acts."""
    phase = state.phase
    if phase is Phase.DRAW or phase is Phase.PLAY or phase is Phase.BETWEEN_GAMES:
        return state.turn
    if phase is Phase.TIE_VOTE:
        assert state.vote is not None
        return state.vote.pending[0]
    return None


def make_view(state: DeclarationRummyState, seat: int) -> DeclarationRummyView:
    """The view of ``state`` from ``seat``."""
    if not 0 <= seat < state.rules.players:
        raise RulesError(f"there is no seat {seat!r} at this table")
    own_dropped = state.dropped[seat]
    mine_on_turn = seat == state.turn and state.phase in _OWN_TURN_PHASES
    hand = () if own_dropped else state.hands[seat]
    drawn = state.drawn if mine_on_turn and not own_dropped else ()
    global _LAST_VIEW
    last = _LAST_VIEW
    if last is None or last[0] is not state:
        view = _whole_view(state, seat, hand, drawn)
        _LAST_VIEW = (state, view)  # one tuple, replaced whole: safe between threads
        return view
    # Another seat's view of the state viewed last: every field but the seat's own is that
    # view's (a table builds every seat's view of each state after every move; positional,
    # as keywords cost more).
    v = last[1]
    return DeclarationRummyView(
        seat,
        v.rules,
        v.phase,
        v.to_act,
        v.game_number,
        v.order,
        v.dealer,
        v.first_player,
        v.turn,
        hand,
        drawn,
        v.hand_sizes,
        v.dropped,
        v.draw_kind,
        v.stock_level,
        v.pile_level,
        v.discard_top,
        v.discard_pile,
        v.removed_unseen,
        v.exhaustion,
        v.tie_proposers,
        v.vote,
        v.events,
        v.turn_events_from,
        v.preliminary,
        v.outcome,
        v.match_wins,
        v.history,
        v.discard_masks,
        v.held_masks,
    )


_OWN_TURN_PHASES: Final = frozenset((Phase.PLAY, Phase.TIE_VOTE))
_LAST_VIEW: tuple[DeclarationRummyState, DeclarationRummyView] | None = None
"""The last state :func:`make_view` was asked for, and the view it made of it first."""


def _whole_view(
    state: DeclarationRummyState, seat: int, hand: tuple[int, ...], drawn: tuple[int, ...]
) -> DeclarationRummyView:
    phase = state.phase
    pile = state.pile
    return DeclarationRummyView(
        seat=seat,
        rules=state.rules,
        phase=phase,
        to_act=to_act_of(state),
        game_number=state.game_number,
        order=state.order,
        dealer=state.dealer,
        first_player=state.first_player,
        turn=state.turn,
        hand=hand,
        drawn=drawn,
        hand_sizes=tuple(map(len, state.hands)),
        dropped=state.dropped,
        draw_kind=state.draw_kind,
        # Before the deal the undealt pack is a stack on the table, not a stockpile.
        stock_level=0 if phase in BEFORE_DEAL else stock_level(len(state.stock)),
        pile_level=pile_level(len(pile)),
        discard_top=pile[-1] if pile else None,
        discard_pile=pile if state.rules.spread_out_discard else None,
        removed_unseen=len(state.removed),
        exhaustion=state.exhaustion,
        tie_proposers=state.tie_proposers,
        vote=state.vote,
        events=state.events,
        turn_events_from=state.turn_event_start,
        preliminary=state.preliminary,
        outcome=state.outcome,
        match_wins=state.match_wins,
        history=state.history,
        discard_masks=state.discard_masks,
        held_masks=state.held_masks,
    )


# --- determinization ----------------------------------------------------------------------------


def _known_holdings(view: DeclarationRummyView) -> dict[int, list[int]]:
    """Cards known to be in other players' hands: taken face up from the discard pile since the
    deal and not discarded since (the recent events give repeats, the held sets the rest)."""
    known: dict[int, list[int]] = {}
    for event in view.events:
        if event.seat == view.seat:
            continue
        if event.verb in ("take-discard", "take-extra"):
            known.setdefault(event.seat, []).extend(event.cards)
        elif event.verb == "discard":
            held = known.get(event.seat, [])
            if event.cards and event.cards[0] in held:
                held.remove(event.cards[0])
        elif event.verb == "deal" or event.verb == "next-game":
            known.clear()
    for seat in range(len(view.held_masks)):
        if seat != view.seat:
            held = known.setdefault(seat, [])
            held.extend(card for card in view.held_by(seat) if card not in held)
    return known


def determinize(view: DeclarationRummyView, rng: random.Random) -> DeclarationRummyState:
    """A full state consistent with ``view``: the unseen cards dealt at random.

    The state gives the same view for ``view.seat``. Cards the recent events show going into
    another hand are placed there, and a finished game's revealed hands stay as shown; the
    split of the unseen cards between the stock and the hidden part of the discard pile is
    drawn among the splits that show the same stack levels.
    The seed is drawn from ``rng`` (future shuffles are unknown) and the safeguard counters
    start afresh (a view does not show them).
    """
    rules = view.rules
    n = rules.players
    unseen = Counter(pack_cards(rules))
    unseen.subtract(view.hand)
    visible_pile = view.discard_pile if view.discard_pile is not None else ()
    if view.discard_pile is None and view.discard_top is not None:
        visible_pile = (view.discard_top,)
    unseen.subtract(visible_pile)
    known = _known_holdings(view)
    if view.outcome is not None and view.phase in (Phase.OVER, Phase.BETWEEN_GAMES):
        # A finished game shows every hand still in it.
        known = {
            seat: list(hand)
            for seat, hand in enumerate(view.outcome.hands)
            if hand is not None and seat != view.seat
        }
    for cards in known.values():
        unseen.subtract(cards)
    if any(v < 0 for v in unseen.values()):
        raise RulesError("the view is inconsistent: a card is shown in two places")
    pool = [card for card, copies in sorted(unseen.items()) for _ in range(copies)]
    rng.shuffle(pool)

    hidden_in_hands = 0
    for seat in range(n):
        if seat != view.seat or view.dropped[seat]:
            hidden_in_hands += view.hand_sizes[seat] - len(known.get(seat, ()))
    removed = view.removed_unseen
    rest = len(pool) - hidden_in_hands - removed
    if rest < 0:
        raise RulesError("the view is inconsistent: fewer unseen cards than hidden places")
    before_deal = view.phase in BEFORE_DEAL
    pile_total = len(visible_pile)
    if before_deal or view.discard_pile is not None or view.discard_top is None:
        # Nothing of the pile is hidden: every unseen card left is in the stock (or the pack).
        stock_size = rest
    else:
        options = [
            size
            for size in range(rest + 1)
            if stock_level(size) == view.stock_level
            and pile_level(1 + rest - size) == view.pile_level
        ]
        if not options:
            raise RulesError("the view is inconsistent: no stock size fits its stack levels")
        stock_size = options[rng.randrange(len(options))]
        pile_total = 1 + rest - stock_size

    hands: list[tuple[int, ...]] = []
    for seat in range(n):
        if seat == view.seat and not view.dropped[seat]:
            hands.append(view.hand)
            continue
        own = list(known.get(seat, ()))
        need = view.hand_sizes[seat] - len(own)
        own.extend(pool[:need])
        del pool[:need]
        hands.append(tuple(sorted(own)))
    removed_cards = tuple(pool[:removed])
    del pool[:removed]
    stock = tuple(pool[:stock_size])
    del pool[:stock_size]
    if view.discard_pile is not None:
        pile = view.discard_pile
    elif view.discard_top is not None:
        pile = (*pool, view.discard_top)
        assert len(pile) == pile_total
    else:
        pile = ()
    drawn = view.drawn
    positions = [0] * n
    for position, seat in enumerate(view.order):
        positions[seat] = position
    return DeclarationRummyState(
        rules=rules,
        seed=rng.randrange(1 << 62),
        phase=view.phase,
        chance_steps=0,
        order=view.order,
        positions=tuple(positions),
        dealer=view.dealer,
        first_player=view.first_player,
        turn=view.turn,
        hands=tuple(hands),
        stock=stock,
        pile=pile,
        removed=removed_cards,
        dropped=view.dropped,
        drawn=drawn,
        draw_kind=view.draw_kind,
        exhaustion=view.exhaustion,
        exhausted_turns=1 if view.exhaustion else 0,
        turns=1 if view.phase not in BEFORE_DEAL else 0,
        tie_proposers=view.tie_proposers,
        vote=view.vote,
        events=view.events,
        turn_event_start=view.turn_events_from,
        preliminary=view.preliminary,
        outcome=view.outcome,
        game_number=view.game_number,
        match_wins=view.match_wins,
        history=view.history,
        discard_masks=view.discard_masks,
        held_masks=view.held_masks,
    )
