"""Indian Rummy computer players: Easy, Normal and Hard.

Every level declares as soon as its 14 cards hold a valid show (13 cards in groups with two
sequences, one of them pure, after putting one card down), found by the exact meld solver, and
never declares otherwise: a wrong show costs 80.

* **Easy** keeps cards that touch other cards (same suit a rank or two apart, same rank),
  throws the highest loose card, takes the pile's top card only when it touches its hand, and
  never drops.
* **Normal** weighs whole hands (:mod:`cardtable.bots.indian_shape`): how many useful cards are
  still missing before a valid show, and the points at risk if someone declares first, taking
  the longest pure runs as they come. It keeps near-melds whose completing cards are still live
  (not buried in the pile, not held by an opponent who took them), avoids discarding what the
  next player has been collecting, takes the pile's card only when it improves the hand, and
  drops at its first turn (20 points) when the hand is hopeless.
* **Hard** judges hands by trying every choice of pure sequences, and looks one draw ahead
  (expectimax): each of its best discards is valued by the hand expected after the next stock
  draw, averaged exactly over the unseen cards and the copies of each still unseen.

Between the deals of a Pool game every level rejoins when offered (coming back costs nothing
but the total it is given) and agrees to an agreed finish unless it alone has the lowest total.
In Pool, Normal and Hard decide at the start of every turn whether to drop (the first drop at
their first turn, the middle drop later) by the standing (:mod:`cardtable.bots.indian_standing`):
the penalty now against the deal played on, forecast from the hand's missing cards, the cards
drawn and the rivals still in, each outcome weighed by the chance it leaves them of outlasting
the others (nothing once eliminated, unless a rejoin brings them back). Hard judges the hand by
its finer shape and the points it holds. A hopeless first hand is dropped as well, as in free
play (sooner when a full count would eliminate them, never when the drop itself would). In free
play and Deals they drop only at their first turn, when the hand is hopeless.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from cardtable.bots.base import Bot
from cardtable.bots.indian_shape import analyze, shape_cost
from cardtable.bots.indian_standing import drop_pays
from cardtable.cards import PRINTED_JOKER, Card, without
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.actions import IndianRummyAction
from cardtable.games.indian_rummy.state import Phase
from cardtable.games.indian_rummy.state import pack_of as pack_cards
from cardtable.games.indian_rummy.view import IndianRummyView, known_holdings
from cardtable.melds.indian import card_value, is_joker, raw_points, show_discards

DRAW_PHASE: Final = Phase.DRAW
DISCARD_PHASE: Final = Phase.DISCARD
BETWEEN_DEALS: Final = (Phase.REJOIN, Phase.AGREED_FINISH)
NEAR_LIMIT_DROP: Final = 0.75
"""How much of the usual hopeless-hand cost is enough for a Pool first drop when a full count
would eliminate the player but the drop would not."""


def between_deals(view: IndianRummyView) -> IndianRummyAction:
    """The answer to a rejoin offer or to the agreed finish (see the module docstring)."""
    if view.phase is Phase.REJOIN:
        return act.REJOIN
    standing = view.standing
    assert standing is not None
    seats = standing.seats_in
    low = min(view.totals[seat] for seat in seats)
    leaders = [seat for seat in seats if view.totals[seat] == low]
    return act.PLAY_ON if leaders == [view.seat] else act.FINISH


def showable(view: IndianRummyView) -> tuple[Card, ...]:
    """Cards whose put-down leaves a valid show of the other 13 (only after drawing)."""
    if len(view.hand) != 14:
        return ()
    rules = view.rules
    return show_discards(
        view.hand,
        view.wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )


def valid_declaration(
    view: IndianRummyView, legal: Sequence[IndianRummyAction]
) -> IndianRummyAction | None:
    """A legal declaration that is a valid show, if there is one."""
    cards = showable(view)
    if not cards:
        return None
    for action in legal:
        if isinstance(action, act.Declare) and action.card in cards:
            return action
    return None


@lru_cache(maxsize=1 << 14)
def _cost(
    hand: tuple[Card, ...],
    wild_rank: int | None,
    gone: tuple[tuple[Card, int], ...],
    risk_weight: float,
    greedy: bool,
) -> float:
    shape = analyze(
        hand, wild_rank, gone=Counter(dict(gone)), risk_weight=risk_weight, greedy=greedy
    )
    return shape_cost(shape, risk_weight)


def _frozen(counter: Counter[Card]) -> tuple[tuple[Card, int], ...]:
    return tuple(sorted((card, n) for card, n in counter.items() if n > 0))


def legal_discards(legal: Sequence[IndianRummyAction]) -> list[Card]:
    """The cards that may be discarded now."""
    return [a.card for a in legal if isinstance(a, act.Discard)]


def gone_cards(view: IndianRummyView) -> Counter[Card]:
    """Cards out of this seat's reach: buried in the pile (under its top), the cut wild card,
    and cards the other seats are known to hold (taken from the pile)."""
    gone: Counter[Card] = Counter(view.pile[:-1])
    if view.wild_card is not None:
        gone[view.wild_card] += 1
    for seat, held in enumerate(known_holdings(view)):
        if seat != view.seat:
            gone.update(held)
    return gone


def next_seat(view: IndianRummyView) -> int:
    """The next seat still in the deal after this one."""
    n = view.rules.players
    seat = (view.seat + 1) % n
    while view.drops[seat] is not None and seat != view.seat:
        seat = (seat + 1) % n
    return seat


def touches(card: Card, other: Card) -> bool:
    """Same suit and at most two ranks apart (ace high or low), or same rank."""
    if card in (PRINTED_JOKER, other) or other == PRINTED_JOKER:
        return False
    if card % 13 == other % 13:
        return True
    if card // 13 != other // 13:
        return False
    gap = abs(card % 13 - other % 13)
    return gap <= 2 or gap >= 11


def feed_risk(view: IndianRummyView, card: Card) -> float:
    """How much discarding ``card`` would help the next player, judged by what they took from
    the pile (and, a little, by what they threw away)."""
    seat = next_seat(view)
    if seat == view.seat:
        return 0.0
    held = known_holdings(view)[seat]
    risk = 0.0
    risk = float(sum(1 for taken in held.elements() if touches(card, taken)))
    for event in view.events:
        thrown = event.seat == seat and event.verb == "discard" and event.cards
        if thrown and event.cards[0] % 13 == card % 13:
            risk -= 0.3
    return risk


def easy_usefulness(card: Card, hand: Sequence[Card], wild_rank: int | None) -> float:
    """Easy's worth of keeping a card: its neighbours in hand, less a little of its points."""
    if is_joker(card, wild_rank):
        return 1000.0
    neighbours = sum(1 for other in hand if touches(card, other))
    return 10.0 * min(neighbours, 2) - 0.5 * card_value(card, wild_rank)


class EasyBot:
    """Simple Indian Rummy player (see the module docstring)."""

    name = "easy"
    version = "1"

    def choose(
        self,
        view: IndianRummyView,
        legal_actions: Sequence[IndianRummyAction],
        rng: random.Random,
    ) -> IndianRummyAction:
        """Easy's choice."""
        if view.phase in BETWEEN_DEALS:
            return between_deals(view)
        if view.phase is DRAW_PHASE:
            top = view.pile_top
            takeable = act.DRAW_PILE in legal_actions and top is not None
            if takeable and any(touches(top, card) for card in view.hand):  # type: ignore[arg-type]
                return act.DRAW_PILE
            return act.DRAW_STOCK
        declaration = valid_declaration(view, legal_actions)
        if declaration is not None:
            return declaration
        hand = view.hand
        card = min(
            legal_discards(legal_actions),
            key=lambda c: (easy_usefulness(c, hand, view.wild_rank), -c),
        )
        return act.DISCARDS[card]


class NormalBot:
    """Heuristic Indian Rummy player (see the module docstring).

    ``feed_weight`` is how much feeding the next player costs in the discard choice;
    ``drop_cost`` the hand cost above which a first turn drops; ``risk_scale`` scales the
    weight of the points at risk; ``greedy`` takes pure runs as they come (Hard sets it off);
    ``count_by_points`` scales a Pool drop's forecast counts by the points held (Hard sets it
    on; :mod:`cardtable.bots.indian_standing`).
    """

    name = "normal"
    version = "1"

    def __init__(
        self,
        *,
        feed_weight: float = 1.2,
        drop_cost: float = 27.0,
        risk_scale: float = 1.0,
        greedy: bool = True,
        count_by_points: bool = False,
    ) -> None:
        self.count_by_points = count_by_points
        self.feed_weight = feed_weight
        self.drop_cost = drop_cost
        self.risk_scale = risk_scale
        self.greedy = greedy

    def choose(
        self,
        view: IndianRummyView,
        legal_actions: Sequence[IndianRummyAction],
        rng: random.Random,
    ) -> IndianRummyAction:
        """Normal's choice."""
        if view.phase in BETWEEN_DEALS:
            return between_deals(view)
        if view.phase is DRAW_PHASE:
            return self.draw(view, legal_actions)
        declaration = valid_declaration(view, legal_actions)
        if declaration is not None:
            return declaration
        return act.DISCARDS[self.discard(view, legal_actions)]

    def hand_cost(self, view: IndianRummyView, hand: Sequence[Card], gone: Counter[Card]) -> float:
        """Lower is better: missing cards and points at risk (risk weighs more as the deal
        goes on, since a declaration gets likelier)."""
        risk_weight = self.risk_scale * (0.08 + 0.006 * min(view.turns, 40))
        return _cost(tuple(sorted(hand)), view.wild_rank, _frozen(gone), risk_weight, self.greedy)

    def discard_costs(
        self, view: IndianRummyView, legal: Sequence[IndianRummyAction]
    ) -> dict[Card, float]:
        """Each legal discard's cost: the hand it leaves plus the risk of feeding the next
        player."""
        gone = gone_cards(view)
        out: dict[Card, float] = {}
        for card in dict.fromkeys(legal_discards(legal)):
            if is_joker(card, view.wild_rank):
                out[card] = 1000.0
                continue
            cost = self.hand_cost(view, without(view.hand, card), gone)
            out[card] = cost + self.feed_weight * feed_risk(view, card)
        return out

    def discard(self, view: IndianRummyView, legal: Sequence[IndianRummyAction]) -> Card:
        """The card to discard."""
        costs = self.discard_costs(view, legal)
        return min(costs, key=lambda c: (costs[c], -card_value(c, view.wild_rank), c))

    def draw(self, view: IndianRummyView, legal: Sequence[IndianRummyAction]) -> IndianRummyAction:
        """Drop a hopeless first hand; take the pile's card when it improves the hand."""
        gone = gone_cards(view)
        now = self.hand_cost(view, view.hand, gone)
        if act.DROP in legal and self.should_drop(view, now):
            return act.DROP
        top = view.pile_top
        if act.DRAW_PILE not in legal or top is None:
            return act.DRAW_STOCK
        with_top = (*view.hand, top)
        best = min(
            self.hand_cost(view, without(with_top, card), gone)
            for card in dict.fromkeys(view.hand)
            if not is_joker(card, view.wild_rank)
        )
        return act.DRAW_PILE if best < now - 1.0 else act.DRAW_STOCK

    def should_drop(self, view: IndianRummyView, cost: float) -> bool:
        """In Pool, drop at the start of any turn when the standing says the drop pays, and
        at the first turn also a hopeless hand that the drop keeps in the game (sooner when a
        full count would eliminate: :func:`pool_first_drop_cost`); elsewhere only the
        hopeless first hand."""
        if view.rules.format == "pool":
            shape = analyze(view.hand, view.wild_rank, gone=gone_cards(view), greedy=self.greedy)
            points = points_now(view) if self.count_by_points else None
            if drop_pays(view, shape.missing, points, pure=shape.pure > 0):
                return True
            return self.hopeless_first_hand(view, cost, pool_first_drop_cost(view, self.drop_cost))
        return self.hopeless_first_hand(view, cost, self.drop_cost)

    @staticmethod
    def hopeless_first_hand(view: IndianRummyView, cost: float, threshold: float) -> bool:
        """At the first turn, no joker and a hand cost of at least ``threshold``."""
        if view.has_drawn[view.seat]:
            return False
        jokers = sum(1 for c in view.hand if is_joker(c, view.wild_rank))
        return jokers == 0 and cost >= threshold


def pool_first_drop_cost(view: IndianRummyView, base: float) -> float:
    """The hand cost from which a Pool first hand is hopeless enough to drop: infinite when the
    first drop itself reaches the limit, :data:`NEAR_LIMIT_DROP` of ``base`` when a full count
    would reach it, else ``base``. (Measured heads-up: this rule beats playing every such hand
    on, which the standing forecast alone would do.)"""
    rules = view.rules
    total = view.totals[view.seat]
    if total + rules.first_drop >= rules.pool_limit:
        return float("inf")
    full = rules.max_points if rules.max_points is not None else rules.wrong_show_penalty
    return base * NEAR_LIMIT_DROP if total + full >= rules.pool_limit else base


def draw_odds(view: IndianRummyView) -> dict[Card, int]:
    """Each card that the next stock draw could bring, with the copies of it still unseen
    (not in this hand, not on the pile, not the cut wild card, not known in another hand)."""
    pack: Counter[Card] = Counter(pack_cards(view.rules))
    pack.subtract(view.hand)
    pack.subtract(view.pile)
    if view.wild_card is not None:
        pack[view.wild_card] -= 1
    for seat, held in enumerate(known_holdings(view)):
        if seat != view.seat:
            pack.subtract(held)
    return {card: n for card, n in pack.items() if n > 0}


class HardBot:
    """Look-ahead player (see the module docstring).

    Its hand judgement tries every choice of pure sequences (Normal takes the longest runs as
    they come). Each of its best ``candidates`` discards is then valued by expectimax over the
    next draw: the hand cost expected after drawing any unseen card (weighted by the copies of
    it still unseen, over both decks) and throwing the best card, mixed with the cost of the
    hand left now (``now_weight``).
    """

    name = "hard"
    version = "1"

    def __init__(
        self, *, candidates: int = 4, now_weight: float = 0.3, replies: int = 3, **normal: Any
    ) -> None:
        self.candidates = candidates
        self.now_weight = now_weight
        self.replies = replies
        self.normal = NormalBot(**{"greedy": False, "count_by_points": True, **normal})

    def choose(
        self,
        view: IndianRummyView,
        legal_actions: Sequence[IndianRummyAction],
        rng: random.Random,
    ) -> IndianRummyAction:
        """Hard's choice."""
        if view.phase in BETWEEN_DEALS:
            return between_deals(view)
        if view.phase is DRAW_PHASE:
            return self.normal.draw(view, legal_actions)
        declaration = valid_declaration(view, legal_actions)
        if declaration is not None:
            return declaration
        costs = self.normal.discard_costs(view, legal_actions)
        ranked = sorted(costs, key=lambda c: (costs[c], -card_value(c, view.wild_rank), c))
        picks = ranked[: self.candidates]
        if len(picks) == 1 or self.now_weight >= 1.0:
            return act.DISCARDS[picks[0]]
        gone = gone_cards(view)
        odds = draw_odds(view)
        best: tuple[float, int, Card] | None = None
        for order, card in enumerate(picks):
            ahead = self.expected_after_draw(view, without(view.hand, card), odds, gone)
            value = (1.0 - self.now_weight) * ahead + self.now_weight * costs[card]
            if best is None or (value, order) < best[:2]:
                best = (value, order, card)
        assert best is not None
        return act.DISCARDS[best[2]]

    def expected_after_draw(
        self,
        view: IndianRummyView,
        kept: Sequence[Card],
        odds: dict[Card, int],
        gone: Counter[Card],
    ) -> float:
        """The hand cost expected after drawing one unseen card to ``kept`` and throwing the
        best card (the drawn card itself or one of ``kept``'s ``replies`` likeliest throws)."""
        cost = self.normal.hand_cost
        spares = sorted(
            (c for c in dict.fromkeys(kept) if not is_joker(c, view.wild_rank)),
            key=lambda c: cost(view, without(kept, c), gone),
        )[: self.replies]
        base = cost(view, kept, gone)
        total = 0.0
        copies = 0
        for card, n in odds.items():
            grown = (*kept, card)
            value = base
            for spare in spares:
                value = min(value, cost(view, without(grown, spare), gone))
            total += n * value
            copies += n
        return total / copies if copies else base


def points_now(view: IndianRummyView) -> int:
    """The points this seat's 13 cards would count if someone declared now (capped)."""
    hand = view.hand if len(view.hand) == 13 else view.hand[:13]
    rules = view.rules
    points = raw_points(
        hand,
        view.wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )
    return points if rules.max_points is None else min(points, rules.max_points)


GameBot = Bot[IndianRummyView, IndianRummyAction]
"""A computer player of Indian Rummy."""


def make_bot(level: str) -> GameBot:
    """The Indian Rummy bot of ``level`` (``easy``, ``normal`` or ``hard``)."""
    bots: dict[str, type[GameBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
    return bots[level]()


__all__ = ["EasyBot", "HardBot", "NormalBot", "make_bot"]
