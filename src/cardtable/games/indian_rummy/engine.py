"""The Indian Rummy rules engine: legal actions, the checked and fast apply, chance steps, results.

It implements :class:`cardtable.games.contract.GameEngine` for RULES.md section 2 and every house
rule of 2.11 (see :class:`~cardtable.games.indian_rummy.rules.Rules`). Decisions made here where
the rule book leaves room:

* Chance steps, each drawn from ``chance_rng(seed, step)``: choosing the first dealer; each deal
  (shuffle, 13 cards each one at a time from the dealer's left, the pile's first card, then the
  wild joker cut at a random place of the stock); and each reshuffle of the pile into the stock.
  The stock is reshuffled lazily, at the end of the turn that leaves it empty.
* Two identical cards (two decks): the rule against discarding the card just taken from the
  pile names the card by rank and suit (RULES.md IR13), so a player holding the other copy may
  not discard or put that one down either this turn; otherwise taking a card only to let its
  twin go would be a pass the rule forbids.
* Declaring is always legal after drawing; whether the show is valid is decided when it is made
  (wrong shows cost ``wrong_show_penalty``). Legal actions therefore never run the meld solver.
  Before the exact search, :func:`surely_wrong_show` (the melds' ``surely_no_show``) rejects
  in a few microseconds the hands that plainly cannot be a show (most random ones); it only
  ever answers "wrong" when the exact search would, which the tests check against the solver.
* The turn cap (``deal_turn_cap``, drops included) ends a deal with no show, and the deal counts
  towards ``deals``. In computer-only play (RULES.md 2.3: the cap is for AI-only simulations)
  the deal is abandoned and nobody scores, not even the players who dropped. When people are
  seated (``rules.people_seated``, set by the table) points already earned stand: the drop
  penalties are kept and the others score 0 (outcome ``turn-limit``).
* ``result``: winners are the seats with the lowest total; ``scores`` the totals; ``utilities``
  minus the average points per deal played (higher is better, about -80..0 per deal).
  Free play (``deals=None``) never ends by itself: ``result`` stays ``None``.
* Pool and Deals (``rules.format``, RULES.md 2.13) keep a standing between deals
  (:mod:`~cardtable.games.indian_rummy.formats`, which owns their decisions): only the players
  still in are dealt cards (a seat out of the game sits each deal out with an empty hand and a
  ``drops`` entry of 0, so that turns pass it by), the dealer passes among them, and between
  deals a rejoin offer (``rejoin``/``stay out``) and the agreed finish (``finish``/``play on``)
  are seat decisions in their own phases. Their ``result`` names the winners (the last player
  left, those sharing an agreed finish, the most chips); ``scores`` are the final totals in
  Pool and the chips in Deals; ``utilities`` one point shared by the winners.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from operator import itemgetter
from typing import Final

from cardtable.cards import PRINTED_JOKER, format_card, random_below, rank_of, shuffled
from cardtable.errors import IllegalActionError, RuleKey
from cardtable.games.contract import (
    CHANCE,
    TERMINAL,
    GameEngine,
    GameResult,
    PublicEvent,
    Verdict,
    chance_rng,
)
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.actions import IndianRummyAction
from cardtable.games.indian_rummy.formats import (
    Next,
    Standing,
    after_deal,
    answer_finish,
    answer_rejoin,
    clockwise_from,
    format_title,
    next_dealer,
)
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.state import (
    DealOutcome,
    IndianRummyState,
    Phase,
    build_deal,
    build_state,
    build_summary,
    new_state,
    pack_of,
    wild_rank_of,
)
from cardtable.games.indian_rummy.view import IndianRummyView, determinize, make_view
from cardtable.melds.indian import is_valid_show, raw_points, surely_no_show

HAND_SIZE: Final = 13

_DRAW: Final = Phase.DRAW
_DISCARD: Final = Phase.DISCARD
_CHOOSE_DEALER: Final = Phase.CHOOSE_DEALER
_DEAL: Final = Phase.DEAL
_RESHUFFLE: Final = Phase.RESHUFFLE
_GAME_OVER: Final = Phase.GAME_OVER
_DISCARDS: Final = act.DISCARDS
_DECLARES: Final = act.DECLARES
_REJOIN: Final = Phase.REJOIN
_AGREED_FINISH: Final = Phase.AGREED_FINISH
_ACTION_TYPES: Final = (
    act.DrawStock,
    act.DrawPile,
    act.Discard,
    act.Declare,
    act.Drop,
    act.Rejoin,
    act.StayOut,
    act.Finish,
    act.PlayOn,
)
_BETWEEN_DEALS: Final = (act.Rejoin, act.StayOut, act.Finish, act.PlayOn)
_REJOIN_CHOICES: Final = (act.REJOIN, act.STAY_OUT)
_FINISH_CHOICES: Final = (act.FINISH, act.PLAY_ON)

# The public events of the hot path, built once (seats 0..5, cards 0..52).
_SEATS: Final = range(6)
_CARD_IDS: Final = range(PRINTED_JOKER + 1)
_STOCK_EVENTS: Final = tuple(PublicEvent(seat, "draw-stock") for seat in _SEATS)
_DROP_EVENTS: Final = tuple(PublicEvent(seat, "drop") for seat in _SEATS)
_TAKE_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "take-discard", (card,)) for card in _CARD_IDS) for seat in _SEATS
)
_DISCARD_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "discard", (card,)) for card in _CARD_IDS) for seat in _SEATS
)
_DECLARE_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "declare", (card,)) for card in _CARD_IDS) for seat in _SEATS
)
_DEAL_EVENTS: Final = tuple(PublicEvent(seat, "deal") for seat in _SEATS)
# Each card's rank (-1 for the printed joker): a table rather than calls, read on every draw.
_RANK_OF: Final = (*(rank_of(card) for card in range(PRINTED_JOKER)), -1)
_OPEN_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "open-pile", (card,)) for card in _CARD_IDS) for seat in _SEATS
)
_CUT_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "cut-wild", (card,)) for card in _CARD_IDS) for seat in _SEATS
)


surely_wrong_show: Final = surely_no_show
"""True when 13 cards certainly cannot be laid as a valid show; ``False`` means "maybe" (the
melds' quick filter, :func:`cardtable.melds.indian.surely_no_show`)."""


def show_is_valid(hand: Sequence[int], wild_rank: int | None, rules: Rules) -> bool:
    """Can the 13 cards shown be laid as a valid declaration under ``rules`` (RULES.md 2.7)?"""
    if surely_wrong_show(hand, wild_rank):
        return False
    return is_valid_show(
        hand,
        wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )


def hand_points(hand: Sequence[int], wild_rank: int | None, rules: Rules) -> int:
    """A 13-card hand's points after someone else's show: its best arrangement (RULES.md 2.8),
    capped at ``max_points``; the same number as ``scoring.arrange(...).points``."""
    points = raw_points(
        hand,
        wild_rank,
        jokers_per_sequence=rules.jokers_per_sequence,
        all_joker_groups=rules.all_joker_groups,
    )
    cap = rules.max_points
    return points if cap is None or points <= cap else cap


def pile_top_takeable(state: IndianRummyState) -> bool:
    """May the seat on turn take the pile's top card? (Not a joker, unless the house rule lets
    the opening card be taken; not when the pile is empty.)"""
    pile = state.pile
    if not pile:
        return False
    top = pile[-1]
    wild_rank = state.deal.wild_rank
    if top != PRINTED_JOKER and (wild_rank is None or _RANK_OF[top] != wild_rank):
        return True
    return state.opening_on_top and state.deal.rules.joker_from_discard == "opening-card"


def may_put_down(state: IndianRummyState, card: int) -> bool:
    """May the seat on turn discard (or put down on declaring) ``card``, which it holds?

    The card just taken from the pile is forbidden by rank and suit: a twin in hand stays too.
    """
    return card != state.drawn or not state.drawn_from_pile


class IndianRummyEngine(GameEngine[IndianRummyState, IndianRummyAction, Rules, IndianRummyView]):
    """Indian Rummy (RULES.md section 2) on the engine contract; see the module docstring."""

    name = "indian-rummy"
    title = "Indian Rummy"
    min_players = 2
    max_players = 6
    rules_type = Rules
    action_types = _ACTION_TYPES

    # ------------------------------------------------------------------ setup and queries

    def presets(self) -> Mapping[str, Rules]:
        """The named rule sets of :data:`~cardtable.games.indian_rummy.rules.PRESETS`."""
        return PRESETS

    def new_game(self, rules: Rules, seed: int) -> IndianRummyState:
        """A new game; its first step is the chance step choosing the first dealer."""
        return new_state(rules, seed)

    def rules_of(self, state: IndianRummyState) -> Rules:
        """The rules the state is played under."""
        return state.rules

    def current_player(self, state: IndianRummyState) -> int:
        """The seat on turn (or answering a rejoin offer or the agreed finish); ``CHANCE`` when a
        dealer, deal or reshuffle is due; ``TERMINAL``."""
        phase = state.phase
        if phase is _DRAW or phase is _DISCARD or phase is _REJOIN or phase is _AGREED_FINISH:
            return state.turn
        if phase is _GAME_OVER:
            return TERMINAL
        return CHANCE

    def legal_actions(self, state: IndianRummyState, seat: int) -> Sequence[IndianRummyAction]:
        """Draws (and drop) at the start of a turn; after drawing, a discard and a declaration
        for each distinct card that may be put down (discards first, by card id); between the
        deals of a Pool game, the two answers to a rejoin offer or to the agreed finish."""
        if seat != state.turn:
            return ()
        phase = state.phase
        if phase is _DRAW:
            out: list[IndianRummyAction] = [act.DRAW_STOCK]
            if pile_top_takeable(state):
                out.append(act.DRAW_PILE)
            if state.deal.rules.drops_allowed:
                out.append(act.DROP)
            return out
        if phase is _DISCARD:
            hand = state.hands[seat]
            cards = list(dict.fromkeys(hand))
            taken = state.drawn
            if taken is not None and state.drawn_from_pile:
                cards.remove(taken)
            if len(cards) < 2:  # only in hand-made positions: itemgetter needs two to give a tuple
                return [_DISCARDS[c] for c in cards] + [_DECLARES[c] for c in cards]
            pick = itemgetter(*cards)
            return [*pick(_DISCARDS), *pick(_DECLARES)]
        if phase is _REJOIN:
            return _REJOIN_CHOICES
        if phase is _AGREED_FINISH:
            return _FINISH_CHOICES
        return ()

    def parse_action(self, text: str) -> IndianRummyAction:
        """Read ``draw stock``, ``draw pile``, ``discard 7H``, ``declare 8C``, ``drop`` or, in
        Pool, ``rejoin``, ``stay out``, ``finish``, ``play on``."""
        return act.parse_action(text)

    def view(self, state: IndianRummyState, seat: int) -> IndianRummyView:
        """What ``seat`` may see (:mod:`cardtable.games.indian_rummy.view`)."""
        return make_view(state, seat)

    def determinize(self, view: IndianRummyView, rng: random.Random) -> IndianRummyState:
        """A full state consistent with ``view`` (hidden cards dealt at random)."""
        return determinize(view, rng)

    # ------------------------------------------------------------------ checked apply

    def why_illegal_off_turn(
        self, state: IndianRummyState, action: IndianRummyAction, seat: int
    ) -> Verdict:
        """Between the deals of a Pool game only the answers to a rejoin offer or to the agreed
        finish, by the seat asked (and those answers at no other time); a seat out of a Pool or
        Deals game, or dropped out of the deal, takes no further part in it."""
        if (
            state.phase is _REJOIN
            or state.phase is _AGREED_FINISH
            or isinstance(action, _BETWEEN_DEALS)
        ):
            problem = _why_illegal_between_deals(state, action, seat)
            return True if problem is None else problem
        standing = state.deal.standing
        if standing is not None and standing.out[seat]:
            return IllegalActionError(
                "you are out of this game and take no part in its deals", rule=RuleKey.ELIMINATED
            )
        if state.drops[seat] is not None:
            return IllegalActionError("you have dropped out of this deal", rule=RuleKey.DROPPED)
        return None

    def why_illegal_now(
        self, state: IndianRummyState, action: IndianRummyAction, seat: int
    ) -> IllegalActionError | None:
        """Indian Rummy's own rules for the seat on turn (the shared checks come first: see
        :meth:`GameEngine.why_illegal`)."""
        if isinstance(action, _BETWEEN_DEALS):
            return None  # checked in full by why_illegal_off_turn
        phase = state.phase
        if isinstance(action, act.Drop):
            if not state.deal.rules.drops_allowed:
                return IllegalActionError(
                    "dropping is switched off by the house rules", rule=RuleKey.DROPS_OFF
                )
            if phase is not _DRAW:
                return IllegalActionError(
                    "you may only drop at the start of your turn, before drawing",
                    rule=RuleKey.DROP_AT_START_OF_TURN,
                )
            return None
        if isinstance(action, act.DrawStock | act.DrawPile):
            if phase is not _DRAW:
                return IllegalActionError(
                    "you have already drawn this turn: discard or declare",
                    rule=RuleKey.ALREADY_DREW,
                )
            if isinstance(action, act.DrawPile):
                if not state.pile:
                    return IllegalActionError("the discard pile is empty", rule=RuleKey.EMPTY_PILE)
                if not pile_top_takeable(state):
                    return IllegalActionError(
                        f"a joker on the discard pile cannot be taken "
                        f"({format_card(state.pile[-1])} is a joker this deal)",
                        rule=RuleKey.JOKER_ON_PILE,
                    )
            return None
        verb = "discard" if isinstance(action, act.Discard) else "put down"
        if phase is not _DISCARD:
            return IllegalActionError(
                f"draw a card first: you may only {verb} a card after drawing",
                rule=RuleKey.DRAW_FIRST,
            )
        card = action.card
        hand = state.hands[seat]
        if not isinstance(card, int) or card not in hand:
            label = format_card(card) if isinstance(card, int) and 0 <= card <= 52 else repr(card)
            return IllegalActionError(f"you do not hold {label}", rule=RuleKey.NOT_IN_HAND)
        if not may_put_down(state, card):
            twin = " (nor its twin)" if state.hands[seat].count(card) > 1 else ""
            return IllegalActionError(
                f"you cannot {verb} the card you just took from the discard pile "
                f"({format_card(card)}){twin} this turn",
                rule=RuleKey.CARD_TAKEN_FROM_PILE,
            )
        return None

    # ------------------------------------------------------------------ fast apply

    def apply_unchecked(
        self, state: IndianRummyState, action: IndianRummyAction, seat: int
    ) -> IndianRummyState:
        """Apply an action taken from ``legal_actions(state, seat)`` without checking it."""
        s = state
        match action:
            case act.DrawStock():
                return _draw(s, seat, False)
            case act.DrawPile():
                return _draw(s, seat, True)
            case act.Discard():
                card = action.card
                hand = list(s.hands[seat])
                hand.remove(card)
                hands = s.hands
                new_hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
                pile = (*s.pile, card)
                events = (*s.events, _DISCARD_EVENTS[seat][card])
                return self._end_turn(s, seat, new_hands, pile, s.drops, events, False)
            case act.Drop():
                drops = s.drops
                rules = s.deal.rules
                penalty = rules.middle_drop if s.has_drawn[seat] else rules.first_drop
                new_drops = (*drops[:seat], penalty, *drops[seat + 1 :])
                events = (*s.events, _DROP_EVENTS[seat])
                if new_drops.count(None) == 1:
                    return _finish_deal(
                        s, "all-dropped", None, None, s.hands, s.pile, new_drops, events
                    )
                # A drop comes before any draw and leaves the pile alone: a card turned up at
                # the deal still lies untouched on top for the next seat (RULES.md 2.3, 2.11).
                return self._end_turn(s, seat, s.hands, s.pile, new_drops, events, s.opening_on_top)
            case act.Rejoin() | act.StayOut():
                return _answer_rejoin(s, seat, isinstance(action, act.Rejoin))
            case act.Finish() | act.PlayOn():
                return _answer_finish(s, seat, isinstance(action, act.Finish))
            case act.Declare():
                card = action.card
                hand = list(s.hands[seat])
                hand.remove(card)
                hands = s.hands
                new_hands = (*hands[:seat], tuple(hand), *hands[seat + 1 :])
                events = (*s.events, _DECLARE_EVENTS[seat][card])
                valid = show_is_valid(tuple(hand), s.deal.wild_rank, s.deal.rules)
                return _finish_deal(
                    s,
                    "valid-show" if valid else "wrong-show",
                    seat,
                    card,
                    new_hands,
                    (*s.pile, card),
                    s.drops,
                    events,
                )
        raise IllegalActionError(
            f"{action!r} is not an Indian Rummy action", rule=RuleKey.UNKNOWN_ACTION
        )

    @staticmethod
    def _end_turn(
        s: IndianRummyState,
        seat: int,
        hands: tuple[tuple[int, ...], ...],
        pile: tuple[int, ...],
        drops: tuple[int | None, ...],
        events: tuple[PublicEvent, ...],
        opening_on_top: bool,
    ) -> IndianRummyState:
        """Pass the turn on from ``seat`` (or end the deal at the turn cap); ``opening_on_top``
        says whether the card turned up at the deal still lies untouched on the pile."""
        turns = s.turns + 1
        rules = s.deal.rules
        if turns >= rules.deal_turn_cap:
            ending: DealOutcome = "turn-limit" if rules.people_seated else "abandoned"
            return _finish_deal(s, ending, None, None, hands, pile, drops, events)
        n = rules.players
        nxt = (seat + 1) % n
        while drops[nxt] is not None:
            nxt = (nxt + 1) % n
        stock = s.stock
        return build_state(
            deal=s.deal,
            phase=_DRAW if stock else _RESHUFFLE,
            turn=nxt,
            hands=hands,
            stock=stock,
            pile=pile,
            opening_on_top=opening_on_top,
            drops=drops,
            has_drawn=s.has_drawn,
            drawn=None,
            drawn_from_pile=False,
            turns=turns,
            events=events,
        )

    # ------------------------------------------------------------------ chance

    def chance_step(
        self, state: IndianRummyState, rng: random.Random | None = None
    ) -> IndianRummyState:
        """Choose the first dealer, deal, or reshuffle the pile into the stock."""
        phase = state.phase
        record = state.deal
        if rng is None:
            rng = chance_rng(record.seed, record.chance_steps)
        steps = record.chance_steps + 1
        s = state
        if phase is _CHOOSE_DEALER:
            dealer = random_below(rng, record.rules.players)
            return build_state(
                deal=build_deal(
                    rules=record.rules, seed=record.seed, chance_steps=steps, deal_number=0,
                    dealer=dealer, wild_card=None, wild_rank=None, totals=record.totals,
                    deal_points=record.deal_points, last_deal=record.last_deal,
                    standing=record.standing,
                ),
                phase=_DEAL, turn=-1, hands=s.hands, stock=s.stock, pile=s.pile,
                opening_on_top=False, drops=s.drops, has_drawn=s.has_drawn, drawn=None,
                drawn_from_pile=False, turns=0, events=(),
            )  # fmt: skip
        if phase is _DEAL:
            return _deal(s, rng, steps)
        if phase is _RESHUFFLE:
            under = shuffled(s.pile[:-1], rng)
            return build_state(
                deal=build_deal(
                    rules=record.rules, seed=record.seed, chance_steps=steps,
                    deal_number=record.deal_number, dealer=record.dealer,
                    wild_card=record.wild_card, wild_rank=record.wild_rank,
                    totals=record.totals, deal_points=record.deal_points,
                    last_deal=record.last_deal, standing=record.standing,
                ),
                phase=_DRAW, turn=s.turn,
                hands=s.hands, stock=under, pile=s.pile[-1:], opening_on_top=False,
                drops=s.drops, has_drawn=s.has_drawn, drawn=None, drawn_from_pile=False,
                turns=s.turns, events=(*s.events, PublicEvent(record.dealer, "reshuffle")),
            )  # fmt: skip
        raise IllegalActionError("no chance step is due", rule=RuleKey.NO_CHANCE_STEP)

    # ------------------------------------------------------------------ result

    def result(self, state: IndianRummyState) -> GameResult | None:
        """The game's result once its last deal is played (never in free play without
        ``deals``)."""
        if state.phase is not Phase.GAME_OVER:
            return None
        if state.deal.standing is not None:
            return _format_result(state, state.deal.standing)
        totals = state.totals
        best = min(totals)
        winners = tuple(seat for seat, total in enumerate(totals) if total == best)
        deals = max(1, len(state.deal_points))
        names = " and ".join(f"seat {seat}" for seat in winners)
        verb = "wins" if len(winners) == 1 else "tie"
        return GameResult(
            winners=winners,
            scores=tuple(totals),
            utilities=tuple(-total / deals for total in totals),
            reason="deals-played",
            summary=(
                f"{names} {verb} with {best} point{'s' if best != 1 else ''} "
                f"after {len(state.deal_points)} deal{'s' if deals != 1 else ''} "
                f"(totals {', '.join(str(t) for t in totals)})"
            ),
        )


def _draw(s: IndianRummyState, seat: int, from_pile: bool) -> IndianRummyState:
    """``seat`` draws from the pile or the stock: its turn goes on to the discard."""
    if from_pile:
        card = s.pile[-1]
        stock = s.stock
        pile = s.pile[:-1]
        event = _TAKE_EVENTS[seat][card]
    else:
        card = s.stock[-1]
        stock = s.stock[:-1]
        pile = s.pile
        event = _STOCK_EVENTS[seat]
    hand = list(s.hands[seat])
    insort(hand, card)
    hands = s.hands
    has_drawn = s.has_drawn
    return build_state(
        deal=s.deal,
        phase=_DISCARD,
        turn=seat,
        hands=(*hands[:seat], tuple(hand), *hands[seat + 1 :]),
        stock=stock,
        pile=pile,
        opening_on_top=False,
        drops=s.drops,
        has_drawn=(
            has_drawn if has_drawn[seat] else (*has_drawn[:seat], True, *has_drawn[seat + 1 :])
        ),
        drawn=card,
        drawn_from_pile=from_pile,
        turns=s.turns,
        events=(*s.events, event),
    )


def _deal(s: IndianRummyState, rng: random.Random, steps: int) -> IndianRummyState:
    record = s.deal
    rules = record.rules
    n = rules.players
    number = record.deal_number + 1
    standing = record.standing
    if record.deal_number == 0:
        dealer = record.dealer
    elif standing is None:
        dealer = (record.dealer + 1) % n
    else:
        dealer = next_dealer(standing, record.dealer)
    deck = shuffled(pack_of(rules), rng)
    hands: list[tuple[int, ...]] = [()] * n
    drops: tuple[int | None, ...]
    if standing is None:
        dealt = HAND_SIZE * n
        first = (dealer + 1) % n
        # One card at a time from the dealer's left: the i-th card dealt goes to first + i.
        for offset in range(n):
            hands[(first + offset) % n] = tuple(sorted(deck[offset:dealt:n]))
        drops = (None,) * n
    else:
        # Pool and Deals: only the players still in are dealt, from the dealer's left; a seat
        # out of the game sits the deal out (drops 0, so that turns pass it by).
        seats = clockwise_from((dealer + 1) % n, standing.seats_in, n)
        k = len(seats)
        dealt = HAND_SIZE * k
        first = seats[0]
        for offset, seat in enumerate(seats):
            hands[seat] = tuple(sorted(deck[offset:dealt:k]))
        drops = tuple(0 if out else None for out in standing.out)
    opening = deck[dealt]
    events: tuple[PublicEvent, ...]
    wild_card: int | None = None
    if rules.wild_joker_cut:
        # The cut takes the card at a random place of the stock (deck[dealt + 1:]).
        cut = dealt + 1 + random_below(rng, len(deck) - dealt - 1)
        wild_card = deck[cut]
        stock = deck[dealt + 1 : cut] + deck[cut + 1 :]
        events = (
            _DEAL_EVENTS[dealer],
            _OPEN_EVENTS[dealer][opening],
            _CUT_EVENTS[dealer][wild_card],
        )
    else:
        stock = deck[dealt + 1 :]
        events = (_DEAL_EVENTS[dealer], _OPEN_EVENTS[dealer][opening])
    return build_state(
        deal=build_deal(
            rules=rules, seed=record.seed, chance_steps=steps, deal_number=number,
            dealer=dealer, wild_card=wild_card, wild_rank=wild_rank_of(wild_card),
            totals=record.totals, deal_points=record.deal_points, last_deal=record.last_deal,
            standing=standing,
        ),
        phase=_DRAW, turn=first, hands=tuple(hands), stock=stock, pile=(opening,),
        opening_on_top=True, drops=drops, has_drawn=(False,) * n, drawn=None,
        drawn_from_pile=False, turns=0, events=events,
    )  # fmt: skip


def deal_points_after_show(
    s: IndianRummyState,
    hands: tuple[tuple[int, ...], ...],
    drops: tuple[int | None, ...],
    declarer: int,
    valid: bool,
) -> tuple[int, ...]:
    """Each seat's points when ``declarer`` has shown (RULES.md 2.7, 2.8)."""
    rules = s.deal.rules
    count_others = valid or rules.wrong_show_others == "counted"
    points: list[int] = []
    for seat, hand in enumerate(hands):
        drop = drops[seat]
        if drop is not None:
            points.append(drop)
        elif seat == declarer:
            points.append(0 if valid else rules.wrong_show_penalty)
        elif count_others:
            points.append(hand_points(hand, s.deal.wild_rank, rules))
        else:
            points.append(0)
    return tuple(points)


def _finish_deal(
    s: IndianRummyState,
    outcome: DealOutcome,
    declarer: int | None,
    put_down: int | None,
    hands: tuple[tuple[int, ...], ...],
    pile: tuple[int, ...],
    drops: tuple[int | None, ...],
    events: tuple[PublicEvent, ...],
) -> IndianRummyState:
    record = s.deal
    n = record.rules.players
    winner: int | None = None
    shown: tuple[tuple[int, ...] | None, ...] = (None,) * n
    if outcome == "abandoned":
        points: tuple[int, ...] = (0,) * n
    elif outcome == "turn-limit":
        points = tuple(0 if drop is None else drop for drop in drops)
    elif outcome == "all-dropped":
        winner = drops.index(None)
        points = tuple(0 if drop is None else drop for drop in drops)
    else:
        assert declarer is not None
        valid = outcome == "valid-show"
        winner = declarer if valid else None
        points = deal_points_after_show(s, hands, drops, declarer, valid)
        shown = tuple(
            [hand if drop is None else None for hand, drop in zip(hands, drops, strict=True)]
        )
    standing = record.standing
    summary = build_summary(
        number=record.deal_number,
        dealer=record.dealer,
        outcome=outcome,
        declarer=declarer,
        put_down=put_down,
        winner=winner,
        wild_card=record.wild_card,
        wild_rank=record.wild_rank,
        hands=shown,
        # A seat out of the game sat the deal out: it did not drop.
        drops=drops if standing is None else _sat_out(drops, standing.out),
        points=points,
    )
    totals = tuple([t + p for t, p in zip(record.totals, points, strict=True)])
    phase = _DEAL
    turn = -1
    if standing is None:
        deals = record.rules.deals
        if deals is not None and record.deal_number >= deals:
            phase = _GAME_OVER
    else:
        standing, following = after_deal(
            record.rules,
            standing,
            totals=totals,
            points=points,
            outcome=outcome,
            winner=winner,
            declarer=declarer,
            dealer=record.dealer,
            deals_played=record.deal_number,
        )
        phase, turn = _next_phase(standing, following)
        events = (*events, *(PublicEvent(seat, "eliminated") for seat in standing.eliminated))
    return build_state(
        deal=build_deal(
            rules=record.rules,
            seed=record.seed,
            chance_steps=record.chance_steps,
            deal_number=record.deal_number,
            dealer=record.dealer,
            wild_card=record.wild_card,
            wild_rank=record.wild_rank,
            totals=totals,
            deal_points=(*record.deal_points, points),
            last_deal=summary,
            standing=standing,
        ),
        phase=phase,
        turn=turn,
        hands=hands,
        stock=s.stock,
        pile=pile,
        opening_on_top=False,
        drops=drops,
        has_drawn=s.has_drawn,
        drawn=None,
        drawn_from_pile=False,
        turns=s.turns + 1,
        events=events,
    )


# ---------------------------------------------------------------------- Pool and Deals


def _sat_out(drops: tuple[int | None, ...], out: tuple[bool, ...]) -> tuple[int | None, ...]:
    return tuple([None if o else d for d, o in zip(drops, out, strict=True)])


_NEXT_PHASES: Final[dict[Next, Phase]] = {
    "deal": _DEAL,
    "rejoin": _REJOIN,
    "agreed-finish": _AGREED_FINISH,
    "over": _GAME_OVER,
}


def _next_phase(standing: Standing, following: Next) -> tuple[Phase, int]:
    """The phase and the seat to act that ``following`` means."""
    if following == "rejoin":
        return _REJOIN, standing.offers[0]
    if following == "agreed-finish":
        return _AGREED_FINISH, standing.votes[0]
    return _NEXT_PHASES[following], -1


def _why_illegal_between_deals(
    state: IndianRummyState, action: object, seat: int
) -> IllegalActionError | None:
    """The checks of a rejoin offer and of the agreed finish (RULES.md 2.13)."""
    phase = state.phase
    answering = state.turn
    if phase is _REJOIN:
        if not isinstance(action, act.Rejoin | act.StayOut):
            return IllegalActionError(
                f"seat {answering} is answering a rejoin offer: only 'rejoin' or 'stay out' now",
                rule=RuleKey.REJOIN_OFFER,
            )
        if seat != answering:
            return IllegalActionError(
                f"the rejoin offer is seat {answering}'s to answer", rule=RuleKey.NOT_YOUR_TURN
            )
        return None
    if phase is _AGREED_FINISH:
        if not isinstance(action, act.Finish | act.PlayOn):
            return IllegalActionError(
                f"seat {answering} is answering the agreed finish: only 'finish' or 'play on' now",
                rule=RuleKey.FINISH_VOTE,
            )
        if seat != answering:
            return IllegalActionError(
                f"seat {answering} answers the agreed finish now", rule=RuleKey.NOT_YOUR_TURN
            )
        return None
    if isinstance(action, act.Rejoin | act.StayOut):
        return IllegalActionError(
            "no rejoin offer is open: in Pool one is made between deals to a player the last "
            "deal eliminated",
            rule=RuleKey.NO_REJOIN_OFFER,
        )
    return IllegalActionError(
        "nobody is asked to finish by agreement now: in Pool, with the agreed finish on, it is "
        "asked between deals when few players are left",
        rule=RuleKey.NO_FINISH_VOTE,
    )


def _between_deals(
    s: IndianRummyState,
    standing: Standing,
    following: Next,
    totals: tuple[int, ...],
    event: PublicEvent,
) -> IndianRummyState:
    """The state after an answer between deals: the last deal stays on the table."""
    record = s.deal
    phase, turn = _next_phase(standing, following)
    return build_state(
        deal=build_deal(
            rules=record.rules, seed=record.seed, chance_steps=record.chance_steps,
            deal_number=record.deal_number, dealer=record.dealer, wild_card=record.wild_card,
            wild_rank=record.wild_rank, totals=totals, deal_points=record.deal_points,
            last_deal=record.last_deal, standing=standing,
        ),
        phase=phase, turn=turn, hands=s.hands, stock=s.stock, pile=s.pile,
        opening_on_top=False, drops=s.drops, has_drawn=s.has_drawn, drawn=None,
        drawn_from_pile=False, turns=s.turns, events=(*s.events, event),
    )  # fmt: skip


def _answer_rejoin(s: IndianRummyState, seat: int, rejoin: bool) -> IndianRummyState:
    record = s.deal
    assert record.standing is not None
    standing, totals, following = answer_rejoin(
        record.rules, record.standing, record.totals, seat, rejoin, record.dealer
    )
    event = PublicEvent(seat, "rejoin" if rejoin else "stay-out")
    return _between_deals(s, standing, following, totals, event)


def _answer_finish(s: IndianRummyState, seat: int, agree: bool) -> IndianRummyState:
    record = s.deal
    assert record.standing is not None
    standing, following = answer_finish(record.standing, seat, agree)
    event = PublicEvent(seat, "finish" if agree else "play-on")
    return _between_deals(s, standing, following, record.totals, event)


def _format_result(state: IndianRummyState, standing: Standing) -> GameResult:
    """A Pool or Deals game's result: the winners share one point; ``scores`` are the totals
    (Pool) or the chips (Deals)."""
    rules = state.rules
    winners = standing.winners
    n = rules.players
    share = 1.0 / len(winners)
    pool = rules.format == "pool"
    scores = state.totals if pool else standing.chips
    names = " and ".join(f"seat {seat}" for seat in winners)
    wins = "wins" if len(winners) == 1 else "share the win"
    played = len(state.deal_points)
    deals = f"{played} deal{'s' if played != 1 else ''}"
    listed = ", ".join(str(score) for score in scores)
    standing_words = f"totals {listed}" if pool else f"chips {listed}"
    title = format_title(rules)
    end = standing.end
    if end == "last-player":
        summary = (
            f"{title}: {names} is the last player left and wins after {deals} ({standing_words})."
        )
    elif end == "all-eliminated":
        summary = (
            f"{title}: every player left reached {rules.pool_limit} in deal {played}; {names} "
            f"{wins} with the lowest total ({standing_words})."
        )
    elif end == "agreed-finish":
        summary = (
            f"{title}: {names} agreed to finish after {deals} and share the win ({standing_words})."
        )
    elif end == "most-chips":
        summary = (
            f"{title}: {names} {wins} with {scores[winners[0]]} chips after {deals} "
            f"({standing_words})."
        )
    else:
        summary = (
            f"{title}: the game reached its limit after {deals}; {names} {wins} on the standing "
            f"({standing_words})."
        )
    return GameResult(
        winners=winners,
        scores=tuple(scores),
        utilities=tuple(share if seat in winners else 0.0 for seat in range(n)),
        reason=end or "deal-cap",
        summary=summary,
    )


ENGINE: Final = IndianRummyEngine()
"""The Indian Rummy engine instance the registry finds."""
