"""The rival model of the Declaration Rummy computer players: what the other seats are likely
to hold, read from one seat's view.

It works out the unseen cards (the pack less this seat's hand, the visible discards and the
cards the others were seen to take), how long the rivals have played (judged from the two stack
levels, since exact pile sizes are hidden), samples hidden hands that look played that long
(random hands improved by the throws a player would make, optionally kept only when the rival's
last discard would have been a natural throw from them), and turns sampled counts into the
chance that a count wins. Normal and Hard declare and vote on ties with it, Hard's search deals
its imagined states with :func:`biased_deal`, and the coach quotes its chances.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Final

from cardtable.bots.declaration_hand import count_of, sorted_hand, touches
from cardtable.cards import NO_MELD_2, WILDCARD, Card, is_regular
from cardtable.games.declaration_rummy.engine import ENGINE, hand_count
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import DeclarationRummyState, pack_cards
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.melds.declaration import card_count


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


def biased_deal(view: DeclarationRummyView, rng: random.Random) -> DeclarationRummyState:
    """A full state consistent with the view whose hidden hands look played: the engine's
    random deal, then each rival's hand improved by swapping cards with the hidden pool as a
    player would have over the turns played so far (:func:`rival_improvement_steps`)."""
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
