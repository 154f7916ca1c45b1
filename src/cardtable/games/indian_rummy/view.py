"""What one Indian Rummy seat may see, and full states sampled consistent with it.

Everything in Indian Rummy is public except the other hands, the order of the stock, the card a
player drew from the stock, and the hands of dropped players (set aside face down). Every card
that reached the discard pile was seen face up, so the view keeps the whole pile and this deal's
public events (draws from the pile show their card, draws from the stock do not); the stock may
be counted (the seed does not forbid it), so its size is shown. After a deal the view holds its
public summary: the shown hands, the declarer, valid or wrong show, drops and points. In Pool
and Deals it holds the standing, all of it public: who is out, the rejoins used, the chips, the
offer or vote being answered (its JSON has a ``standing`` entry only in those formats, so that
free play's views read as before).

:func:`determinize` deals the unseen cards at random, keeping the cards each opponent is
known to hold (taken from the pile and not discarded since), so that the sampled state's view
for the same seat equals the view it came from.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any, ClassVar, Final

from cardtable.cards import card_labels, format_card
from cardtable.games.contract import (
    PublicEvent,
    by_identity,
    by_prefix,
    events_json,
    view_rules_json,
)
from cardtable.games.indian_rummy.formats import Standing
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import (
    DealSummary,
    IndianRummyState,
    Phase,
    build_deal,
    build_state,
    pack_of,
)

if TYPE_CHECKING:
    from cardtable.games.indian_rummy.scoring import Arrangement

_DISCARD: Final = Phase.DISCARD
_ACTING: Final = (Phase.DRAW, Phase.DISCARD, Phase.REJOIN, Phase.AGREED_FINISH)
_DEAL_ON_TABLE: Final = (Phase.DEAL, Phase.GAME_OVER, Phase.REJOIN, Phase.AGREED_FINISH)


@dataclass(frozen=True, slots=True)
class IndianRummyView:
    """One seat's view of the table.

    ``turn`` is the seat on turn (-1 before the first deal and between deals; during a
    reshuffle, the seat whose turn follows it).
    ``drawn`` is the card this seat drew this turn (``None`` unless it is on turn and has
    drawn); ``taken`` is the card the seat on turn took from the pile this turn, which everyone
    saw (``None`` otherwise). ``drops[seat]`` is a dropped seat's penalty, ``None`` while it
    plays. ``deal_points`` holds each finished deal's points, ``last_deal`` its summary.
    ``standing`` is the Pool or Deals standing (``None`` in free play); in a rejoin offer or the
    agreed finish ``turn`` is the seat answering.
    """

    seat: int
    rules: Rules
    phase: Phase
    deal_number: int
    dealer: int
    turn: int
    hand: tuple[int, ...]
    pile: tuple[int, ...]
    wild_card: int | None
    wild_rank: int | None
    stock_size: int
    hand_sizes: tuple[int, ...]
    drops: tuple[int | None, ...]
    has_drawn: tuple[bool, ...]
    drawn: int | None
    taken: int | None
    opening_on_top: bool
    turns: int
    totals: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...]
    events: tuple[PublicEvent, ...]
    last_deal: DealSummary | None
    standing: Standing | None = None

    @property
    def pile_top(self) -> int | None:
        """The discard pile's top card, or ``None`` when the pile is empty."""
        return self.pile[-1] if self.pile else None

    @property
    def to_act(self) -> int | None:
        """The seat to act (the contract's name): the seat on turn while it draws or
        discards, ``None`` while a chance step is due, between deals and at the end."""
        return self.turn if self.phase is Phase.DRAW or self.phase is _DISCARD else None

    @property
    def scores(self) -> tuple[int, ...]:
        """The contract's name for ``totals``: each seat's penalty points so far."""
        return self.totals

    @property
    def dropped(self) -> tuple[bool, ...]:
        """Which seats have dropped out of this deal."""
        return tuple(drop is not None for drop in self.drops)

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.turn == self.seat and self.phase in _ACTING

    @property
    def discards_seen(self) -> tuple[int, ...]:
        """Every card seen face up on the pile this deal, in order: the opening card, then each
        discard (including cards later taken back or shuffled into the stock)."""
        return tuple(
            event.cards[0] for event in self.events if event.verb in ("open-pile", "discard")
        )

    OWN_JSON: ClassVar[tuple[str, ...]] = ("seat", "hand", "drawn")
    """The keys of :meth:`to_json` whose values differ between the seats' views of one state
    (the rest is the same for every seat: a table sends it built once, see :meth:`own_json`)."""

    def own_json(self) -> dict[str, Any]:
        """:meth:`to_json`'s :data:`OWN_JSON` entries alone: ``to_json()`` is the JSON of any
        seat's view of the same state with these entries put in their places."""
        return {
            "seat": self.seat,
            "hand": card_labels(self.hand),
            "drawn": _label(self.drawn),
        }

    def to_json(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards as labels)."""
        label = _label
        own = self.own_json()
        data: dict[str, Any] = {
            "game": "indian-rummy",
            "seat": own["seat"],
            "rules": view_rules_json(self.rules),
            "phase": self.phase.value,
            "deal_number": self.deal_number,
            "dealer": self.dealer,
            "turn": self.turn,
            "hand": own["hand"],
            "pile": by_identity("pile", self.pile, card_labels),
            "pile_top": label(self.pile_top),
            "discards_seen": by_identity("seen", self.events, _discards_seen_json),
            "wild_card": label(self.wild_card),
            "wild_rank": self.wild_rank,
            "stock_size": self.stock_size,
            "hand_sizes": list(self.hand_sizes),
            "drops": list(self.drops),
            "has_drawn": list(self.has_drawn),
            "drawn": own["drawn"],
            "taken": label(self.taken),
            "opening_on_top": self.opening_on_top,
            "turns": self.turns,
            "totals": list(self.totals),
            "deal_points": [list(points) for points in self.deal_points],
            "events": events_json(self.events),
            "last_deal": None if self.last_deal is None else self.last_deal.to_json(),
        }
        if self.standing is not None:
            data["standing"] = self.standing.to_json(self.rules, self.totals)
        return data


def _label(card: int | None) -> str | None:
    return None if card is None else format_card(card)


def _discards_seen_json(events: tuple[PublicEvent, ...]) -> list[str]:
    return by_prefix("seen", events, _seen_labels)


def _seen_labels(events: tuple[PublicEvent, ...]) -> list[str]:
    return card_labels(e.cards[0] for e in events if e.verb in ("open-pile", "discard"))


_LAST_VIEWS: tuple[IndianRummyState, dict[int, IndianRummyView]] | None = None
"""The views made of the state viewed last, by seat: a table asks for every seat's view of
each state after a move, and the spectators' view is one of them again."""


def make_view(state: IndianRummyState, seat: int) -> IndianRummyView:
    """The view of ``seat`` (0..players-1) of ``state`` (the same object when asked again for
    the state viewed last: views are never changed)."""
    global _LAST_VIEWS
    last = _LAST_VIEWS
    if last is not None and last[0] is state:
        views = last[1]
        known = views.get(seat)
        if known is not None:
            return known
    else:
        views = {}
        _LAST_VIEWS = (state, views)  # one tuple, replaced whole: safe between threads
    view = views[seat] = _view_of(state, seat)
    return view


def _view_of(state: IndianRummyState, seat: int) -> IndianRummyView:
    drawn = state.drawn
    deal = state.deal  # read once: views are built for every seat decision the driver makes
    return IndianRummyView(
        seat,
        deal.rules,
        state.phase,
        deal.deal_number,
        deal.dealer,
        state.turn,
        state.hands[seat],
        state.pile,
        deal.wild_card,
        deal.wild_rank,
        len(state.stock),
        tuple(map(len, state.hands)),
        state.drops,
        state.has_drawn,
        drawn if state.turn == seat else None,
        drawn if state.drawn_from_pile else None,
        state.opening_on_top,
        state.turns,
        deal.totals,
        deal.deal_points,
        state.events,
        deal.last_deal,
        deal.standing,
    )


@lru_cache(maxsize=4096)
def _arrangement(hand: tuple[int, ...], wild_rank: int | None, rules: Rules) -> Arrangement:
    # Imported here: explanations are wanted after a deal, never on the engine's hot path.
    from cardtable.games.indian_rummy.scoring import arrange

    return arrange(hand, wild_rank, rules)


def deal_arrangements(summary: DealSummary, rules: Rules) -> tuple[Arrangement | None, ...]:
    """The best arrangement of each hand shown at the end of a deal (``None`` where hidden)."""
    return tuple(
        None if hand is None else _arrangement(hand, summary.wild_rank, rules)
        for hand in summary.hands
    )


def known_holdings(view: IndianRummyView) -> list[Counter[int]]:
    """Cards each seat is known to hold: taken from the pile this deal and not discarded since.

    A seat that discards an id it took (and might hold twice) is assumed to have let the taken
    copy go, the cautious reading.
    """
    known: list[Counter[int]] = [Counter() for _ in range(view.rules.players)]
    for event in view.events:
        if event.verb == "take-discard":
            known[event.seat][event.cards[0]] += 1
        elif event.verb in ("discard", "declare") and known[event.seat][event.cards[0]] > 0:
            known[event.seat][event.cards[0]] -= 1
    return known


def determinize(view: IndianRummyView, rng: random.Random) -> IndianRummyState:
    """A full state whose view for ``view.seat`` is ``view``: unseen cards dealt at random.

    Hands shown in the last deal's summary (while it is still on the table) are kept as shown,
    cards known to be in a hand stay there, and the rest of the unseen cards are shuffled into
    the other hands and the stock. The seed of later chance steps is drawn from ``rng``.
    """
    rules = view.rules
    n = rules.players
    me = view.seat
    dealt = view.deal_number > 0
    unseen: Counter[int] = Counter(pack_of(rules)) if dealt else Counter()
    unseen.subtract(view.hand)
    unseen.subtract(view.pile)
    if view.wild_card is not None:
        unseen[view.wild_card] -= 1
    summary = view.last_deal
    revealed: tuple[tuple[int, ...] | None, ...] = (None,) * n
    if summary is not None and summary.number == view.deal_number and view.phase in _DEAL_ON_TABLE:
        revealed = summary.hands
    hands: list[list[int]] = [[] for _ in range(n)]
    hands[me] = list(view.hand)
    known = known_holdings(view)
    for seat in range(n):
        if seat == me:
            continue
        shown = revealed[seat]
        fixed = list(shown) if shown is not None else list(known[seat].elements())
        for card in fixed:
            if unseen[card] > 0:
                unseen[card] -= 1
                hands[seat].append(card)
    pool = list(unseen.elements())
    rng.shuffle(pool)
    for seat in range(n):
        if seat == me:
            continue
        missing = view.hand_sizes[seat] - len(hands[seat])
        hands[seat].extend(pool[:missing])
        del pool[:missing]
    stock = tuple(pool)
    turn_state = view.turn
    drawn = view.drawn
    if view.phase is _DISCARD and turn_state != me:
        drawn = view.taken if view.taken is not None else rng.choice(hands[turn_state])
    deal = build_deal(
        rules=rules,
        seed=rng.getrandbits(62),
        chance_steps=0,
        deal_number=view.deal_number,
        dealer=view.dealer,
        wild_card=view.wild_card,
        wild_rank=view.wild_rank,
        totals=view.totals,
        deal_points=view.deal_points,
        last_deal=view.last_deal,
        standing=view.standing,
    )
    return build_state(
        deal=deal,
        phase=view.phase,
        turn=turn_state,
        hands=tuple(tuple(sorted(hand)) for hand in hands),
        stock=stock,
        pile=view.pile,
        opening_on_top=view.opening_on_top,
        drops=view.drops,
        has_drawn=view.has_drawn,
        drawn=drawn,
        drawn_from_pile=view.taken is not None,
        turns=view.turns,
        events=view.events,
    )
