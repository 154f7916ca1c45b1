"""Declaration Rummy computer players: Easy, Normal and Hard.

Every level goes out whenever it can (going out wins at once), lays down four natural sevens
when that variation allows it, never drops (a dropped player cannot win) and never discards
NO MELD 2 (the engine forbids it anyway).

* **Easy** discards the card whose loss leaves the lowest count, takes the top discard only when
  it lowers its count, declares once its count (with the drawn card) is 5 or less, declines
  the exhausted pile when its count is low, accepts a tie only with a bad hand and never
  proposes one.
* **Normal** also keeps cards that are one card from a meld (so its count can drop next turn),
  throws CAN'T DECLARE 0 early when it blocks declaring, weighs each draw (top discard,
  spread-out pickups, the three-card draw) by the count it leaves against an unseen stock card,
  and declares when its count is well below what a typical hand has come down to by this stage
  of the game (judged from the stock and pile heights). It votes for a tie only when it is not
  the likely winner.
* **Hard** searches over imagined deals: it deals the rivals' hidden hands many times from the
  unseen cards, plays each forward as long as the rivals have played, and keeps the deals in
  which the rival's last discard would have been a natural throw; it declares when its count
  wins in enough of them. It chooses its discard by the count expected after its next draw,
  averaged over every unseen card, and by whether the discard would help the next player in
  the imagined deals; the stock is valued by the same exact average.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Final

from cardtable.bots.base import Bot
from cardtable.cards import CANT_DECLARE_0, NO_MELD_2, WILDCARD, Card, is_regular
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.actions import Action
from cardtable.games.declaration_rummy.engine import hand_count
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import DeclarationRummyState, Phase, pack_cards
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.melds.declaration import card_count, dr_best

NEVER: Final = (act.Drop,)
"""Actions no level takes: a dropped player cannot win."""


def sorted_hand(cards: Sequence[Card]) -> tuple[Card, ...]:
    """A hand in the engine's sorted order (the count cache's key)."""
    return tuple(sorted(cards))


def count_of(cards: Sequence[Card]) -> int:
    """The count of a hand (cached by the engine)."""
    return hand_count(sorted_hand(cards))


def without(hand: Sequence[Card], card: Card) -> tuple[Card, ...]:
    """The hand with one copy of ``card`` removed."""
    cards = list(hand)
    cards.remove(card)
    return tuple(cards)


def legal_discards(legal: Sequence[Action]) -> list[Card]:
    """Cards that may be discarded now."""
    return [a.card for a in legal if isinstance(a, act.Discard)]


def touches(card: Card, other: Card) -> bool:
    """Two regular cards that could share a meld: same rank, or same suit at most two ranks
    apart (no wrap: K-A-2 is no sequence, but Q-K-A is)."""
    if not (is_regular(card) and is_regular(other)) or card == other:
        return False
    if card % 13 == other % 13:
        return True
    if card // 13 != other // 13:
        return False
    low, high = sorted((card % 13, other % 13))
    return high - low <= 2 or (low == 0 and high >= 11)


@lru_cache(maxsize=1 << 15)
def shaped_count(hand: tuple[Card, ...], keep_weight: float) -> float:
    """The count, less a share of the unmelded cards that touch another card of the hand (they
    are one card from a meld, so the count is likely to drop)."""
    count, _, unmelded = dr_best(hand)
    promising = 0
    for card in unmelded:
        if card == WILDCARD:
            continue
        if any(touches(card, other) for other in hand):
            promising += card_count(card)
    return count - keep_weight * promising


def best_discard(
    hand: Sequence[Card], allowed: Sequence[Card], keep_weight: float = 0.0
) -> tuple[float, Card]:
    """The discard leaving the lowest (shaped) count: ``(value, card)``; ties throw the card
    counting most."""
    best: tuple[float, int, Card] | None = None
    for card in dict.fromkeys(allowed):
        rest = sorted_hand(without(hand, card))
        value = shaped_count(rest, keep_weight) if keep_weight else float(hand_count(rest))
        key = (value, -card_count(card), card)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[0], best[2]


def unseen_cards(view: DeclarationRummyView) -> list[Card]:
    """Cards of the pack this seat has not seen: its hand, the visible discards, the cards known
    to be in other hands and the discards buried in the pile since the deal aside (all of them
    followed from the view's public history, not only the recent turns)."""
    pool: Counter[Card] = Counter(pack_cards(view.rules))
    pool.subtract(view.hand)
    visible = view.discard_pile if view.discard_pile is not None else ()
    if view.discard_pile is None and view.discard_top is not None:
        visible = (view.discard_top,)
    pool.subtract(visible)
    pickups = recent_pickups(view)
    for seat, cards in pickups.items():
        if seat != view.seat:
            pool.subtract(cards)
    if view.discard_pile is None and not view.rules.declare_or_go_out:
        # A card discarded since the deal and held by nobody lies under the top discard (with
        # Declare or Go Out the pile may have gone back into the stock, so nothing is buried).
        held = {card for cards in pickups.values() for card in cards}
        held.update(view.hand)
        buried = {
            card
            for seat in range(len(view.discard_masks))
            for card in view.discarded_by(seat)
            if card not in held and card != view.discard_top
        }
        for card in buried:
            if pool[card] > 0:
                pool[card] -= 1
    return [card for card, n in sorted(pool.items()) for _ in range(max(0, n))]


def recent_pickups(view: DeclarationRummyView) -> dict[int, list[Card]]:
    """Cards seen going face up into each hand since the deal and not discarded since (the
    recent events give repeated copies, the view's held sets every earlier turn)."""
    held: dict[int, list[Card]] = {}
    for event in view.events:
        if event.verb in ("take-discard", "take-extra"):
            held.setdefault(event.seat, []).extend(event.cards)
        elif event.verb == "discard" and event.cards:
            cards = held.get(event.seat, [])
            if event.cards[0] in cards:
                cards.remove(event.cards[0])
        elif event.verb in ("deal", "next-game"):
            held.clear()
    for seat in range(len(view.held_masks)):
        known = view.held_by(seat)
        if known:
            cards = held.setdefault(seat, [])
            cards.extend(card for card in known if card not in cards)
    return held


def rivals(view: DeclarationRummyView) -> list[int]:
    """The other seats still in the game."""
    return [s for s in range(view.rules.players) if s != view.seat and not view.dropped[s]]


def tie_winner_rank(view: DeclarationRummyView, seat: int) -> int:
    """The clockwise offset from the first player: on equal counts the highest wins."""
    order = view.order
    first = order.index(view.first_player) if view.first_player in order else 0
    return (order.index(seat) - first) % len(order)


STOCK_RANGES: Final = ((0, 0), (1, 5), (6, 12), (13, 24), (25, 40), (41, 999))
"""Stock sizes shown by each visual stock level."""
PILE_RANGES: Final = ((0, 0), (1, 1), (2, 5), (6, 12), (13, 24), (25, 999))
"""Discard-pile sizes shown by each visual pile level."""


def stock_draws(view: DeclarationRummyView) -> float:
    """How many cards have been drawn from the stock so far, judged from the two stack levels:
    a turn either draws from the stock and discards (both stacks change by one) or takes the
    top discard and discards (neither changes), so the pile holds about as many cards as were
    drawn from the stock."""
    rules = view.rules
    start = len(pack_cards(rules)) - rules.players * rules.hand_size - view.removed_unseen
    low_s, high_s = STOCK_RANGES[view.stock_level]
    low, high = max(0, start - high_s), max(0, start - low_s)
    if view.discard_pile is None:
        low_p, high_p = PILE_RANGES[view.pile_level]
        if max(low, low_p) <= min(high, high_p):
            low, high = max(low, low_p), min(high, high_p)
    else:
        low = high = max(low, min(high, len(view.discard_pile)))
    return (low + high) / 2.0


def rival_improvement_steps(view: DeclarationRummyView) -> int:
    """How many draw-and-discard steps to improve a random hand by so that it looks like a hand
    that has been played as long as the rivals' (pickups from the pile count as turns too)."""
    turns = stock_draws(view) * 1.25 / max(1, view.rules.players)
    return max(0, min(36, round(2.4 * turns)))


def quick_throw(hand: Sequence[Card]) -> Card:
    """A fast guess at a player's discard: the card counting most, halved when it has a
    partner for a meld (same rank, or same suit one or two ranks away); wildcards stay."""
    ranks: Counter[int] = Counter()
    places = set()
    for card in hand:
        if is_regular(card):
            ranks[card % 13] += 1
            places.add(card)
    best_card = hand[0]
    best_value = -1.0
    for card in hand:
        if card in (WILDCARD, NO_MELD_2):
            continue
        value = float(card_count(card))
        if is_regular(card):
            rank, suit_base = card % 13, card - card % 13
            partnered = ranks[rank] > 1 or any(
                0 <= rank + step <= 12 and suit_base + rank + step in places
                for step in (-2, -1, 1, 2)
            )
            if partnered:
                value *= 0.4
        if value > best_value:
            best_card, best_value = card, value
    return best_card


def sample_rival_hand(
    pool: Sequence[Card], known: Sequence[Card], size: int, steps: int, rng: random.Random
) -> tuple[Card, ...]:
    """A plausible hidden hand: the known cards plus random unseen ones, then ``steps`` times
    a random unseen card drawn and a card thrown by :func:`quick_throw`."""
    need = max(0, size - len(known))
    rest = list(pool)
    for card in known:
        if card in rest:
            rest.remove(card)
    steps = min(steps, max(0, len(rest) - need))
    draw = rng.sample(rest, need + steps)
    hand = [*known[:size], *draw[:need]]
    for extra in draw[need:]:
        hand.append(extra)
        hand.remove(quick_throw(hand))
    return sorted_hand(hand)


@lru_cache(maxsize=256)
def typical_count(rules: Rules, size: int, turns: float) -> float:
    """The count a hand of ``size`` cards typically has after ``turns`` turns of play: the mean
    count of random hands from this pack (sampled once per rules), shrinking by a fifth a turn
    as players meld and throw their high cards."""
    shrink: float = 0.8 ** max(0.0, turns)
    return _random_hand_count(rules, size) * shrink


@lru_cache(maxsize=64)
def _random_hand_count(rules: Rules, size: int) -> float:
    rng = random.Random(f"typical:{size}")
    pack = list(pack_cards(rules))
    size = min(size, len(pack))
    total = sum(count_of(rng.sample(pack, size)) for _ in range(48))
    return total / 48


def throw_value(card: Card, hand: Sequence[Card]) -> float:
    """How readily a player throws ``card`` from ``hand`` (see :func:`quick_throw`)."""
    if card in (WILDCARD, NO_MELD_2):
        return -1.0
    value = float(card_count(card))
    if is_regular(card):
        for other in hand:
            if other != card and touches(card, other):
                return value * 0.4
    return value


def last_discards(view: DeclarationRummyView) -> dict[int, Card]:
    """The latest discard each other seat made in the recent events."""
    out: dict[int, Card] = {}
    for event in view.events:
        if event.verb == "discard" and event.cards and event.seat != view.seat:
            out[event.seat] = event.cards[0]
        elif event.verb in ("deal", "next-game"):
            out.clear()
    return out


def informed_rival_hand(
    pool: Sequence[Card],
    known: Sequence[Card],
    size: int,
    steps: int,
    rng: random.Random,
    thrown: Card | None,
    tries: int = 10,
) -> tuple[Card, ...]:
    """Like :func:`sample_rival_hand`, but keeps a hand from which the rival's last discard
    ``thrown`` would have been a natural throw (no card of it more readily thrown): a rival who
    just threw a 4 holds few loose cards above 4."""
    hand = sample_rival_hand(pool, known, size, steps, rng)
    if thrown is None:
        return hand
    limit = throw_value(thrown, (*hand, thrown))
    best, best_excess = hand, float("inf")
    for attempt in range(tries):
        if attempt:
            hand = sample_rival_hand(pool, known, size, steps, rng)
        excess = max((throw_value(c, (*hand, thrown)) for c in hand), default=0.0) - limit
        if excess <= 1.0:
            return hand
        if excess < best_excess:
            best, best_excess = hand, excess
    return best


def estimate_rival_counts(
    view: DeclarationRummyView, rng: random.Random, samples: int = 24, *, informed: bool = False
) -> dict[int, list[int]]:
    """Sampled counts of each rival's hand (see :func:`sample_rival_hand`; ``informed`` also
    reads each rival's last discard, :func:`informed_rival_hand`)."""
    pool = unseen_cards(view)
    pickups = recent_pickups(view)
    steps = rival_improvement_steps(view)
    thrown = last_discards(view) if informed else {}
    out: dict[int, list[int]] = {}
    for seat in rivals(view):
        size = view.hand_sizes[seat]
        known = pickups.get(seat, [])
        out[seat] = [
            hand_count(
                informed_rival_hand(pool, known, size, steps, rng, thrown.get(seat))
                if informed
                else sample_rival_hand(pool, known, size, steps, rng)
            )
            for _ in range(samples)
        ]
    return out


def win_chance(view: DeclarationRummyView, my_count: int, samples: dict[int, list[int]]) -> float:
    """The chance that ``my_count`` (compared as the declarer's) is lowest, ties broken by
    seat, over the sampled rival counts."""
    rules = view.rules
    compared = my_count - 1 if rules.declare_bonus else my_count
    my_rank = tie_winner_rank(view, view.seat)
    if not samples:
        return 1.0
    length = min(len(v) for v in samples.values())
    wins = 0
    for index in range(length):
        beaten = True
        for seat, counts in samples.items():
            other = counts[index]
            if other < compared or (other == compared and tie_winner_rank(view, seat) > my_rank):
                beaten = False
                break
        wins += beaten
    return wins / max(1, length)


class EasyBot:
    """Simple Declaration Rummy player (see the module docstring)."""

    name = "easy"
    version = "1"
    declare_at = 5

    def choose(
        self, view: DeclarationRummyView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Easy's choice."""
        forced = _automatic(legal_actions)
        if forced is not None:
            return forced
        hand = view.hand
        if view.phase is Phase.TIE_VOTE:
            return act.ACCEPT_TIE if count_of(hand) > 40 else act.REJECT_TIE
        if view.phase is Phase.DRAW:
            now = count_of(hand)
            top = view.discard_top
            if act.DECLINE in legal_actions:
                if now <= 10 or top is None or act.TAKE_DISCARD not in legal_actions:
                    return act.DECLINE
                return act.TAKE_DISCARD
            if top is not None and act.TAKE_DISCARD in legal_actions:
                allowed = [c for c in hand if c != NO_MELD_2]
                after, _ = best_discard((*hand, top), allowed) if allowed else (now, top)
                if after < now:
                    return act.TAKE_DISCARD
            return act.DRAW_STOCK
        if act.DECLARE in legal_actions and count_of(hand) <= self.declare_at:
            return act.DECLARE
        _, card = best_discard(hand, legal_discards(legal_actions))
        return act.DISCARDS[card]


class NormalBot:
    """Heuristic Declaration Rummy player (see the module docstring).

    ``keep_weight`` is the share of a promising card's count taken off when comparing discards;
    ``declare_chance`` the estimated chance of having the lowest count needed to declare.
    """

    name = "normal"
    version = "1"

    def __init__(
        self, *, keep_weight: float = 0.3, declare_chance: float = 0.62, margin: float = 1.0
    ) -> None:
        self.keep_weight = keep_weight
        self.declare_chance = declare_chance
        self.margin = margin

    def choose(
        self, view: DeclarationRummyView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Normal's choice."""
        forced = _automatic(legal_actions)
        if forced is not None:
            return forced
        if view.phase is Phase.TIE_VOTE:
            chance = self.winning_chance(view, rng, count_of(view.hand))
            return act.ACCEPT_TIE if chance < 0.5 else act.REJECT_TIE
        if view.phase is Phase.DRAW:
            return self.draw(view, legal_actions, rng)
        return self.play(view, legal_actions, rng)

    def winning_chance(self, view: DeclarationRummyView, rng: random.Random, count: int) -> float:
        """Estimated chance that ``count`` is the lowest at the table now, judged against the
        count a typical hand has come down to by this stage (:func:`typical_count`)."""
        rules = view.rules
        compared = count - (1 if rules.declare_bonus else 0)
        chance = 1.0
        turns = stock_draws(view) * 1.25 / max(1, rules.players)
        for seat in rivals(view):
            typical = typical_count(rules, view.hand_sizes[seat], turns)
            spread = 0.3 * typical + 2.0
            chance *= 1.0 / (1.0 + math.exp((compared - self.margin * typical) / spread))
        return chance

    def draw(
        self, view: DeclarationRummyView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Choose a draw: stock, top discard, a spread-out pickup, or declining."""
        hand = view.hand
        if act.DECLINE in legal:
            chance = self.winning_chance(view, rng, count_of(hand))
            if chance >= 0.5 or act.TAKE_DISCARD not in legal:
                return act.DECLINE
            return act.TAKE_DISCARD
        best_value = self.stock_value(view, rng) if act.DRAW_STOCK in legal else float("inf")
        best: Action = act.DRAW_STOCK if act.DRAW_STOCK in legal else legal[0]
        for action in legal:
            if not isinstance(action, act.TakeDiscard):
                continue
            taken = self.taken_by(view, action)
            if taken is None:
                continue
            value = self.after_taking(hand, taken)
            if value < best_value - 0.5:
                best_value, best = value, action
        return best

    def after_taking(self, hand: Sequence[Card], taken: Sequence[Card]) -> float:
        """The shaped count after taking ``taken`` and making the best discard; each card taken
        beyond one stays in the hand for good, which costs a little."""
        grown = (*hand, *taken)
        allowed = [c for c in grown if c != NO_MELD_2]
        if not allowed:
            return self.shaped(grown)
        value, _ = best_discard(grown, allowed, self.keep_weight)
        return value + 1.5 * (len(taken) - 1)

    def stock_value(
        self, view: DeclarationRummyView, rng: random.Random, samples: int = 8
    ) -> float:
        """The expected shaped count after drawing an unseen card and the best discard."""
        pool = unseen_cards(view)
        if not pool:
            return self.shaped(view.hand)
        draws = rng.sample(pool, min(samples, len(pool)))
        return sum(self.after_taking(view.hand, (card,)) for card in draws) / len(draws)

    def taken_by(
        self, view: DeclarationRummyView, action: act.TakeDiscard
    ) -> tuple[Card, ...] | None:
        """The cards a pickup would bring into the hand (``None`` when not visible)."""
        if action.count == 1:
            return None if view.discard_top is None else (view.discard_top,)
        pile = view.discard_pile
        if pile is None or action.count > len(pile):
            return None
        return tuple(pile[-action.count :])

    def shaped(self, hand: Sequence[Card]) -> float:
        """The shaped count of a hand (see :func:`shaped_count`)."""
        return shaped_count(sorted_hand(hand), self.keep_weight)

    def play(
        self, view: DeclarationRummyView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """After drawing: declare when likely lowest, else the best discard."""
        hand = view.hand
        if act.DECLARE in legal:
            chance = self.winning_chance(view, rng, count_of(hand))
            if chance >= self.declare_chance:
                return act.DECLARE
        if act.TAKE_EXTRA in legal and self.extra_helps(view):
            return act.TAKE_EXTRA
        allowed = legal_discards(legal)
        if CANT_DECLARE_0 in allowed and not view.rules.gin_rummy:
            return act.DISCARDS[CANT_DECLARE_0]
        _, card = best_discard(hand, allowed, self.keep_weight)
        return act.DISCARDS[card]

    def extra_helps(self, view: DeclarationRummyView) -> bool:
        """Three-Card Draw: take the two extra cards only when the hand is nearly melded (the
        hand grows by two for good, so it must be likely to meld them)."""
        return count_of(view.hand) <= 3 and len(view.hand) <= 6


def biased_deal(view: DeclarationRummyView, rng: random.Random) -> DeclarationRummyState:
    """A full state consistent with the view whose hidden hands look played: the engine's
    random deal, then each rival's hand improved by swapping cards with the hidden pool as a
    player would have over the turns played so far (:func:`rival_improvement_steps`)."""
    from cardtable.games.declaration_rummy.engine import ENGINE

    state = ENGINE.determinize(view, rng)
    steps = rival_improvement_steps(view)
    if steps == 0:
        return state
    pickups = recent_pickups(view)
    hidden_pile = list(state.pile[:-1]) if view.discard_pile is None else []
    pool = [*state.stock, *hidden_pile]
    hands = list(state.hands)
    for seat in rivals(view):
        hand = list(hands[seat])
        fixed = Counter(pickups.get(seat, []))
        for _ in range(min(steps, len(pool))):
            index = rng.randrange(len(pool))
            hand.append(pool[index])
            throw = quick_throw(hand)
            if fixed[throw] > 0 and throw != pool[index]:
                throw = pool[index]
            hand.remove(throw)
            pool[index] = throw
        hands[seat] = sorted_hand(hand)
    rng.shuffle(pool)
    stock = tuple(pool[: len(state.stock)])
    pile = (*pool[len(state.stock) :], *state.pile[-1:]) if hidden_pile else state.pile
    return state._replace(hands=tuple(hands), stock=stock, pile=pile)


class HardBot:
    """Look-ahead player (see the module docstring).

    After drawing it declares like Normal, but chooses its discard among Normal's best
    ``candidates`` by the count expected after its next draw (averaged over every unseen card)
    plus the risk of feeding the next player: it deals the hidden hands ``samples`` times from
    its view, improved as played hands would be (:func:`biased_deal`), and checks whether the
    discard would lower the next player's count. Draws compare the top discard with the
    expected stock card the same way.
    """

    name = "hard"
    version = "1"

    def __init__(
        self,
        *,
        candidates: int = 6,
        now_weight: float = 0.3,
        feed_weight: float = 3.0,
        samples: int = 12,
        lookahead_samples: int = 40,
        declare_chance: float = 0.47,
    ) -> None:
        self.lookahead_samples = lookahead_samples
        self.declare_chance = declare_chance
        self.candidates = candidates
        self.now_weight = now_weight
        self.feed_weight = feed_weight
        self.samples = samples
        self.normal = NormalBot()

    def choose(
        self, view: DeclarationRummyView, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Hard's choice."""
        forced = _automatic(legal_actions)
        if forced is not None:
            return forced
        if view.phase is Phase.TIE_VOTE:
            return self.normal.choose(view, legal_actions, rng)
        if view.phase is Phase.DRAW:
            return self.draw(view, legal_actions, rng)
        allowed = legal_discards(legal_actions)
        if act.DECLARE in legal_actions and self.declare_now(view, allowed, rng):
            return act.DECLARE
        if act.TAKE_EXTRA in legal_actions and self.normal.extra_helps(view):
            return act.TAKE_EXTRA
        if CANT_DECLARE_0 in allowed and not view.rules.gin_rummy:
            return act.DISCARDS[CANT_DECLARE_0]
        return act.DISCARDS[self.discard(view, allowed, rng)]

    def declare_now(
        self, view: DeclarationRummyView, allowed: Sequence[Card], rng: random.Random
    ) -> bool:
        """Declare when the count is likely the lowest: the rivals' hands are dealt many times
        from the unseen cards, played forward as long as the rivals have played, and kept only
        when their last discard would have been a natural throw from them."""
        count = count_of(view.hand)
        samples = estimate_rival_counts(view, rng, self.lookahead_samples, informed=True)
        return win_chance(view, count, samples) >= self.declare_chance

    def discard(
        self, view: DeclarationRummyView, allowed: Sequence[Card], rng: random.Random
    ) -> Card:
        """The discard with the best look-ahead value (see the class docstring)."""
        hand = view.hand
        ranked = sorted(
            dict.fromkeys(allowed),
            key=lambda c: (self.normal.shaped(without(hand, c)), -card_count(c), c),
        )[: self.candidates]
        if len(ranked) == 1:
            return ranked[0]
        pool = unseen_cards(view)
        feeds = self.feed_chances(view, ranked, rng)
        best: tuple[float, Card] | None = None
        for card in ranked:
            rest = without(hand, card)
            value = self.now_weight * self.normal.shaped(rest)
            value += (1.0 - self.now_weight) * expected_after_draw(rest, pool)
            value += self.feed_weight * feeds.get(card, 0.0)
            if best is None or value < best[0]:
                best = (value, card)
        assert best is not None
        return best[1]

    def feed_chances(
        self, view: DeclarationRummyView, cards: Sequence[Card], rng: random.Random
    ) -> dict[Card, float]:
        """For each card, the share of imagined next-player hands whose count it would lower by
        more than a stock card would on average (a card worth picking up)."""
        players = view.rules.players
        nxt = (view.order.index(view.seat) + 1) % players
        seat = view.order[nxt]
        while view.dropped[seat] and seat != view.seat:
            nxt = (nxt + 1) % players
            seat = view.order[nxt]
        if seat == view.seat:
            return {}
        out = dict.fromkeys(cards, 0.0)
        for _ in range(self.samples):
            state = biased_deal(view, rng)
            theirs = state.hands[seat]
            base = count_of(theirs)
            for card in cards:
                grown = (*theirs, card)
                allowed = [c for c in grown if c != NO_MELD_2 and c != card] or list(grown)
                after, _ = best_discard(grown, allowed)
                if after < base - 3:
                    out[card] += 1.0 / self.samples
        return out

    def draw(
        self, view: DeclarationRummyView, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """Normal's draw rules, with the stock valued by an exact average over unseen cards."""
        if act.DECLINE in legal or act.DRAW_STOCK not in legal:
            return self.normal.draw(view, legal, rng)
        hand = view.hand
        pool = unseen_cards(view)
        stock = expected_after_draw(hand, pool, shaped=True)
        best: tuple[float, Action] = (stock, act.DRAW_STOCK)
        for action in legal:
            if not isinstance(action, act.TakeDiscard):
                continue
            taken = self.normal.taken_by(view, action)
            if taken is None:
                continue
            value = self.normal.after_taking(hand, taken)
            if value < best[0] - 0.25:
                best = (value, action)
        return best[1]


def expected_after_draw(
    hand: Sequence[Card], pool: Sequence[Card], *, shaped: bool = False
) -> float:
    """The count (or shaped count) expected after drawing one card of ``pool`` to ``hand`` and
    making the best discard."""
    if not pool:
        return float(count_of(hand))
    total = 0.0
    for card in pool:
        grown = (*hand, card)
        allowed = [c for c in grown if c != NO_MELD_2] or list(grown)
        value, _ = best_discard(grown, allowed, 0.3 if shaped else 0.0)
        total += value
    return total / len(pool)


def _automatic(legal: Sequence[Action]) -> Action | None:
    """Moves every level makes without thinking: winning at once, starting a match game, and
    the only move left."""
    for winning in (act.GO_OUT, act.FOUR_SEVENS, act.NEXT_GAME):
        if winning in legal:
            return winning
    choices = [a for a in legal if not isinstance(a, (*NEVER, act.ProposeTie))]
    if len(choices) == 1:
        return choices[0]
    if not choices:
        return legal[0]
    return None


def make_bot(level: str) -> Bot:
    """The Declaration Rummy bot of ``level`` (``easy``, ``normal`` or ``hard``)."""
    bots: dict[str, Any] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
    bot: Bot = bots[level]()
    return bot


__all__ = ["EasyBot", "HardBot", "NormalBot", "make_bot"]
