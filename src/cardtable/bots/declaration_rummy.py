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

What the rivals likely hold is the rival model's job (:mod:`cardtable.bots.declaration_rivals`);
hand arithmetic shared with it and the coach is in :mod:`cardtable.bots.declaration_hand`.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Final

from cardtable.bots.base import Bot
from cardtable.bots.declaration_hand import (
    best_discard,
    count_of,
    legal_discards,
    shaped_count,
    sorted_hand,
)
from cardtable.bots.declaration_rivals import (
    biased_deal,
    estimate_rival_counts,
    rivals,
    stock_draws,
    typical_count,
    unseen_cards,
    win_chance,
)
from cardtable.cards import CANT_DECLARE_0, NO_MELD_2, Card, without
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.actions import Action
from cardtable.games.declaration_rummy.state import Phase
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.melds.declaration import card_count

NEVER: Final = (act.Drop,)
"""Actions no level takes: a dropped player cannot win."""


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


GameBot = Bot[DeclarationRummyView, Action]
"""A computer player of Declaration Rummy."""


def make_bot(level: str) -> GameBot:
    """The Declaration Rummy bot of ``level`` (``easy``, ``normal`` or ``hard``)."""
    bots: dict[str, type[GameBot]] = {"easy": EasyBot, "normal": NormalBot, "hard": HardBot}
    return bots[level]()


__all__ = ["EasyBot", "HardBot", "NormalBot", "make_bot"]
