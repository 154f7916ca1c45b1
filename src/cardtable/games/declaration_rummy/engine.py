"""The Declaration Rummy engine (RULES.md section 3): setup, turns, endings, variations and
matches, as pure functions over the immutable
:class:`~cardtable.games.declaration_rummy.state.DeclarationRummyState`.

How a game runs, step by step (chance steps are run by the driver):

1. **Preliminary** (first game only; one chance step). Seat 0 is the agreed shuffler; it
   shuffles, the player to its right may cut (when ``rules.offer_cut``), and cards are dealt
   face up, clockwise from the shuffler's left, to each player until that player holds a
   regular card (optional cards dealt face up are passed over). The highest regular card
   deals: K high, A low, ties by suit spades > clubs > diamonds > hearts.
2. **Seating** (variation, first game only; chance). The lowest Preliminary card picks any place
   at random, the first dealer takes the place to its right, then each next-lowest card picks a
   free place at random. Seat numbers never change: the table order (``state.order``) does.
3. **Shuffle** (chance): the dealer builds the pack (the chosen optional cards; Missing Cards
   removes the top ``missing_optional`` optional cards, capped at how many were chosen, then the
   top ``missing_regular`` cards of the shuffled pack, unseen) and shuffles it; the Shuffle
   Option then deals seven piles and stacks them. **Cut** (chance, when ``rules.offer_cut``): a
   cut at a random depth, depth 0 standing for the player who chose not to cut. Then the deal:
   one card at a time, clockwise from the dealer's left.
4. **Turns**, from the dealer's left: draw (stock, top discard; Spread-Out: any depth of the
   pile; Three-Card Draw: after the top discard, ``take extra``), then declare, go out, lay down
   four sevens, or discard (never NO MELD 2). Any remaining player may propose a tie at any
   moment of a turn, even out of turn (RULES.md 3.9: "at any time"), at most once per turn
   each, so a refused proposal cannot be repeated until a new turn begins; the other remaining
   players then answer one by one, clockwise from the proposer, each being the player to act;
   one rejection resumes the turn where it was. Any
   remaining player may drop at any moment of a game, even out of turn (``legal_actions``
   offers ``drop`` to every remaining seat); a player on turn who drops takes any drawn card
   along, and the next player's turn begins.
5. **Endings**: declare (lowest compared count wins; ties to the highest clockwise offset from
   the first player), go out, four sevens, the last remaining player, an agreed tie, or the
   exhausted stock (RULES.md 3.9: each turn may only take the top discard or decline; declining
   ends the game). Any turn that begins with an empty stockpile is played that way (normally
   right after the last stock card was drawn and a card discarded; also when its drawer
   dropped). Declare or Go Out reshuffles the discard pile but its top card into a new stock
   (chance, then a cut) instead, while the pile has a card under its top. Safeguards end
   the game as if declined: ``exhaustion_circuits`` full circuits of exhausted turns, and
   ``turn_cap`` turns.
6. **Match** (``rules.match``): after a game, the phase is ``BETWEEN_GAMES`` and the next first
   player (the winner, or the same first player after a tie game) acts ``next game``, which may
   carry rule changes for the next game (deal size, optional cards, variations; never the
   players or the match settings); :meth:`DeclarationRummyEngine.next_game` does it from a
   ``Rules`` object. The dealer is the first player's right-hand neighbour; dropped players are
   back for the next game (so ``drop`` is not offered between games: it leaves a game, not the
   match); seats stay as the first game set them. The first to
   ``match_wins`` game wins takes the match; after ``match_game_cap`` games the most wins do.

The dealing itself lives in :mod:`~cardtable.games.declaration_rummy.dealing`, the cached hand
questions (count, going out, declaring) in :mod:`~cardtable.games.declaration_rummy.hands`, and
how an ending is counted and explained in :mod:`~cardtable.games.declaration_rummy.outcome`.

Results: a game's ``scores`` are the compared counts of the players still in (``None`` for
dropped players), ``utilities`` 1 for the winner and 0 for the others; an agreed tie game has no
winner and splits one point evenly among the players still in. A match's result has the game
wins as scores and utility 1 for the match winner (split among those level at the game cap).
"""

from __future__ import annotations

import dataclasses
import random
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final

from cardtable.cards import (
    CANT_DECLARE_0,
    NO_MELD_2,
    format_card,
    is_regular,
    rank_of,
    shuffled,
    without,
)
from cardtable.errors import IllegalActionError, RuleKey, RulesError
from cardtable.games.contract import (
    CHANCE,
    TERMINAL,
    GameEngine,
    GameResult,
    PublicEvent,
    Verdict,
    chance_rng,
)
from cardtable.games.declaration_rummy.actions import (
    ACCEPT_TIE,
    DECLARE,
    DECLINE,
    DISCARDS,
    DRAW_STOCK,
    DROP,
    FIXED_FOR_MATCH,
    FOUR_SEVENS,
    GO_OUT,
    NEXT_GAME,
    PROPOSE_TIE,
    REJECT_TIE,
    TAKE_DISCARD,
    TAKE_EXTRA,
    AcceptTie,
    Action,
    Declare,
    Decline,
    Discard,
    DrawStock,
    Drop,
    FourSevens,
    GoOut,
    NextGame,
    ProposeTie,
    RejectTie,
    TakeDiscard,
    TakeExtra,
    parse_action,
)
from cardtable.games.declaration_rummy.dealing import (
    RandomDraws,
    choose_places,
    cut_pack,
    deal_hands,
    preliminary_deal,
    shuffled_pack,
)
from cardtable.games.declaration_rummy.hands import hand_can_go_out, hand_count, may_declare
from cardtable.games.declaration_rummy.outcome import game_result, make_outcome, match_result
from cardtable.games.declaration_rummy.rules import DEAL_SIZES, PRESETS, Rules
from cardtable.games.declaration_rummy.state import (
    DrawKind,
    Phase,
    State,
    TieVote,
    next_remaining,
    pack_cards,
    replace_state,
    seat_left_of,
    seat_right_of,
)
from cardtable.games.declaration_rummy.view import DeclarationRummyView, determinize, make_view
from cardtable.melds.declaration import has_four_natural_sevens

SEVEN: Final = 6
"""The rank index of the sevens (Four 7's)."""
# The phases asked about on every call of the hot paths, as module names (no class lookup).
_DRAW: Final = Phase.DRAW
_PLAY: Final = Phase.PLAY
_BETWEEN_GAMES: Final = Phase.BETWEEN_GAMES
_TIE_VOTE: Final = Phase.TIE_VOTE
_OVER: Final = Phase.OVER
_TAKES: Final = tuple(TakeDiscard(k) if k != 1 else TAKE_DISCARD for k in range(70))
_TIE_ANSWERS: Final = (AcceptTie, RejectTie)
"""The answers to a tie proposal (a tuple: isinstance tests it faster than a union)."""
_ANY_TURN: Final = (Drop, ProposeTie, AcceptTie, RejectTie)
"""Actions whose checks are all made before the turn's own (drops, tie proposals, answers)."""


def _with(hand: tuple[int, ...], cards: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(hand + tuple(cards)))


# The events of every turn, made once: frozen dataclasses are costly to build, and equal events
# are interchangeable.
_DRAW_STOCK_EVENTS: Final = tuple(PublicEvent(seat, "draw-stock") for seat in range(10))
_DISCARD_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "discard", (card,)) for card in range(63)) for seat in range(10)
)
_TAKE_TOP_EVENTS: Final = tuple(
    tuple(PublicEvent(seat, "take-discard", (card,)) for card in range(63)) for seat in range(10)
)


_PLAIN_EVENTS: Final[dict[tuple[int, str], PublicEvent]] = {}
"""Events without cards (shuffle, cut, deal, drop…) by seat and verb, each made once."""


def _plain_event(seat: int, verb: str) -> PublicEvent:
    event = _PLAIN_EVENTS.get((seat, verb))
    if event is None:
        event = _PLAIN_EVENTS[seat, verb] = PublicEvent(seat, verb)
    return event


def _event(state: State, seat: int, verb: str, cards: tuple[int, ...] = ()) -> tuple[Any, ...]:
    event = PublicEvent(seat, verb, cards) if cards else _plain_event(seat, verb)
    return (*state.events, event)


def _masks(masks: tuple[int, ...], players: int) -> list[int]:
    return list(masks) if masks else [0] * players


def _after_take(state: State, seat: int, cards: tuple[int, ...]) -> tuple[int, ...]:
    """The held masks once ``seat`` has taken ``cards`` face up from the pile."""
    held = _masks(state.held_masks, len(state.hands))
    for card in cards:
        held[seat] |= 1 << card
    return tuple(held)


def _after_discard(state: State, seat: int, card: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The discard and held masks once ``seat`` has discarded ``card`` face up."""
    n = len(state.hands)
    discarded = _masks(state.discard_masks, n)
    discarded[seat] |= 1 << card
    held = _masks(state.held_masks, n)
    held[seat] &= ~(1 << card)
    return tuple(discarded), tuple(held)


class DeclarationRummyEngine(GameEngine[State, Action, Rules, DeclarationRummyView]):
    """Declaration Rummy for 2-10 players, with every optional card, variation and matches."""

    name = "declaration-rummy"
    title = "Declaration Rummy"
    min_players = 2
    max_players = 10
    rules_type = Rules
    action_types = typing.get_args(Action)

    def __init__(self) -> None:
        self._blank: State | None = None
        """The last new game made, kept as a template: a new game differs from another under
        the same rules only by its seed, and playouts and environments start one per game."""
        self._chance: dict[Phase, Callable[[State, random.Random, int], State]] = {
            Phase.PRELIMINARY: self._preliminary,
            Phase.SEATING: self._seating,
            Phase.SHUFFLE: self._shuffle,
            Phase.CUT: self._cut_and_deal,
            Phase.RESHUFFLE: self._reshuffle,
            Phase.RESHUFFLE_CUT: self._reshuffle_cut,
        }

    # --- contract: setup and queries -----------------------------------------------------------

    def presets(self) -> Mapping[str, Rules]:
        """Named rule sets (see :data:`~cardtable.games.declaration_rummy.rules.PRESETS`)."""
        return PRESETS

    def new_game(self, rules: Rules, seed: int) -> State:
        """A new game (or match); its first step is the Preliminary shuffle (a chance step).

        >>> s = ENGINE.new_game(Rules(players=3), seed=7)
        >>> s.phase.value, ENGINE.current_player(s) == CHANCE
        ('preliminary', True)
        """
        blank = self._blank
        if blank is None or blank.rules is not rules:
            _validate(rules)
            blank = None
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RulesError(f"the seed must be a whole number, not {seed!r}")
        if blank is None:
            n = rules.players
            blank = self._blank = State(
                seed=seed,
                chance_steps=0,
                order=tuple(range(n)),
                positions=tuple(range(n)),
                phase=Phase.PRELIMINARY,
                dealer=-1,
                turn=-1,
                match_wins=(0,) * n,
                history=(),
                **_fresh_table(rules, events=(), game_number=1),
            )
        return replace_state(blank, seed=seed)

    def rules_of(self, state: State) -> Rules:
        """The rules the current game is played under."""
        return state.rules

    def current_player(self, state: State) -> int:
        """The seat to act, ``CHANCE`` or ``TERMINAL`` (a tie vote's voter acts in its turn)."""
        phase = state.phase
        if phase is _DRAW or phase is _PLAY or phase is _BETWEEN_GAMES:
            return state.turn
        if phase is _TIE_VOTE:
            assert state.vote is not None
            return state.vote.pending[0]
        if phase is _OVER:
            return TERMINAL
        return CHANCE

    def legal_actions(self, state: State, seat: int) -> Sequence[Action]:
        """What ``seat`` may do now: its turn's actions; out of turn, ``propose tie`` (during a
        turn, once per turn) and ``drop``. ``propose tie`` and ``drop`` always come last, in
        that order (the random playouts cut them off the end)."""
        phase = state.phase
        if phase is not _DRAW and phase is not _PLAY:
            return self._legal_between_turns(state, seat)
        if not 0 <= seat < len(state.dropped) or state.dropped[seat]:
            return ()
        if seat != state.turn:
            return (DROP,) if seat in state.tie_proposers else (PROPOSE_TIE, DROP)
        rules = state.rules
        hand = state.hands[seat]
        actions: list[Action] = []
        if phase is _DRAW:
            if state.exhaustion:
                if state.pile:
                    actions.append(TAKE_DISCARD)
                actions.append(DECLINE)
            else:
                actions.append(DRAW_STOCK)
                if state.pile:
                    actions.append(TAKE_DISCARD)
                    if rules.spread_out_discard:
                        actions.extend(_TAKES[2 : len(state.pile) + 1])
        else:
            if may_declare(hand, rules):
                actions.append(DECLARE)
            if hand_can_go_out(hand, rules.going_out_single_meld):
                actions.append(GO_OUT)
            if self._may_take_extra(state):
                actions.append(TAKE_EXTRA)
            previous = -1
            for card in hand:
                if card != previous and card != NO_MELD_2:
                    actions.append(DISCARDS[card])
                previous = card
        if rules.four_sevens and has_four_natural_sevens(hand):
            actions.append(FOUR_SEVENS)
        if seat not in state.tie_proposers:
            actions.append(PROPOSE_TIE)
        actions.append(DROP)
        return actions

    @staticmethod
    def _legal_between_turns(state: State, seat: int) -> Sequence[Action]:
        """``legal_actions`` outside a turn's draw and play (the common case, kept apart)."""
        phase = state.phase
        if phase is Phase.OVER:
            return ()
        if phase is Phase.BETWEEN_GAMES:
            return (NEXT_GAME,) if seat == state.turn else ()
        if not 0 <= seat < len(state.dropped) or state.dropped[seat]:
            return ()
        if phase is Phase.TIE_VOTE:
            assert state.vote is not None
            if seat == state.vote.pending[0]:
                return (ACCEPT_TIE, REJECT_TIE, DROP)
            return (DROP,)
        return (DROP,)  # a chance phase (CHANCE_PHASES): a shuffle, cut or deal is due

    @staticmethod
    def _may_take_extra(state: State) -> bool:
        return (
            state.rules.three_card_draw
            and state.draw_kind is DrawKind.TOP_DISCARD
            and bool(state.pile)
            and bool(state.stock)
        )

    def view(self, state: State, seat: int) -> DeclarationRummyView:
        """What ``seat`` may see (see :mod:`cardtable.games.declaration_rummy.view`)."""
        return make_view(state, seat)

    def determinize(self, view: DeclarationRummyView, rng: random.Random) -> State:
        """A full state consistent with ``view``, hidden cards dealt at random."""
        return determinize(view, rng)

    def parse_action(self, text: str) -> Action:
        """Read an action's notation (see :mod:`cardtable.games.declaration_rummy.actions`)."""
        return parse_action(text)

    def result(self, state: State) -> GameResult | None:
        """The game's (or the match's) result once it is over, else ``None``."""
        if state.phase is not Phase.OVER:
            return None
        if state.rules.match:
            return match_result(state)
        assert state.outcome is not None
        return game_result(state.outcome, state.dropped)

    # --- contract: applying actions -------------------------------------------------------------

    def why_illegal_any_phase(self, state: State, action: Action, seat: int) -> Verdict:
        """The break between a match's games admits only ``next game``, which nothing else
        does; a dropped seat takes no further part; anyone else may drop at any moment."""
        if state.phase is _BETWEEN_GAMES:
            if not isinstance(action, NextGame):
                return IllegalActionError(
                    "this game of the match is over: the next game's first player starts it "
                    "with 'next game'",
                    rule=RuleKey.BETWEEN_GAMES,
                )
            return None
        if isinstance(action, NextGame):
            return IllegalActionError(
                "'next game' is only for the break between the games of a match",
                rule=RuleKey.NOT_BETWEEN,
            )
        if state.dropped[seat]:
            return IllegalActionError(
                f"seat {seat} has dropped out of this game", rule=RuleKey.DROPPED
            )
        return True if isinstance(action, Drop) else None

    def why_illegal_off_turn(self, state: State, action: Action, seat: int) -> Verdict:
        """A tie proposal being answered admits only its answers (by the next voter, the seat
        to act); out of turn a seat may propose a tie, once a turn."""
        if state.phase is _TIE_VOTE:
            if not isinstance(action, _TIE_ANSWERS):
                assert state.vote is not None
                return IllegalActionError(
                    f"a tie proposal is being answered (seat {state.vote.pending[0]} answers "
                    "now): only 'accept tie', 'reject tie' or 'drop'",
                    rule=RuleKey.TIE_VOTE,
                )
            return None
        if isinstance(action, _TIE_ANSWERS):
            return IllegalActionError("no tie proposal is being answered", rule=RuleKey.NO_TIE_VOTE)
        if isinstance(action, ProposeTie):
            if seat in state.tie_proposers:
                return IllegalActionError(
                    "you already proposed a tie this turn: propose again once a new turn begins",
                    rule=RuleKey.ONE_TIE_PROPOSAL,
                )
            return True
        return None

    def why_illegal_now(self, state: State, action: Action, seat: int) -> IllegalActionError | None:
        """Declaration Rummy's own rules once the shared checks and the hooks above let the
        seat act; every action but ``next game`` must then also be among the legal ones."""
        if isinstance(action, NextGame):
            return _check_next_rules(state.rules, action)
        if not isinstance(action, _ANY_TURN):
            problem = self._why_illegal_on_turn(state, action, seat)
            if problem is not None:
                return problem
        if action not in self.legal_actions(state, seat):
            return IllegalActionError(f"'{action}' is not allowed now", rule=RuleKey.ILLEGAL)
        return None

    def apply_unchecked(self, state: State, action: Action, seat: int) -> State:
        """Fast apply for an action taken from ``legal_actions(state, seat)``."""
        match action:
            case Discard():
                return self._discard(state, action, seat)
            case DrawStock():
                return self._draw_stock(state, action, seat)
            case TakeDiscard():
                return self._take_discard(state, action, seat)
            case TakeExtra():
                return self._take_extra(state, action, seat)
            case Decline():
                return self._decline(state, action, seat)
            case Declare():
                return self._declare(state, action, seat)
            case GoOut():
                return self._go_out(state, action, seat)
            case FourSevens():
                return self._four_sevens(state, action, seat)
            case ProposeTie():
                return self._propose_tie(state, action, seat)
            case AcceptTie():
                return self._accept_tie(state, action, seat)
            case RejectTie():
                return self._reject_tie(state, action, seat)
            case Drop():
                return self._drop(state, action, seat)
            case NextGame():
                return self._next_game(state, action, seat)

    def chance_step(self, state: State, rng: random.Random | None = None) -> State:
        """Perform the due shuffle, cut, seating choice or reshuffle."""
        handler = self._chance.get(state.phase)
        if handler is None:
            raise IllegalActionError("no chance step is due now", rule=RuleKey.NO_CHANCE_STEP)
        if rng is None:
            rng = chance_rng(state.seed, state.chance_steps)
        # Each step counts itself in the one new state it builds (``chance_steps=steps``).
        return handler(state, rng, state.chance_steps + 1)

    def next_game(self, state: State, rules: Rules | None = None) -> State:
        """Start a match's next game, with ``rules`` for it (``None`` keeps the current ones).

        The same as the first player applying ``next game`` with the changed rule fields, so
        the change is recorded and replays.
        """
        if state.phase is not Phase.BETWEEN_GAMES:
            raise IllegalActionError(
                "no match is waiting for its next game", rule=RuleKey.NOT_BETWEEN
            )
        changes: tuple[tuple[str, Any], ...] = ()
        if rules is not None:
            if not isinstance(rules, Rules):
                raise RulesError(f"rules must be Declaration Rummy Rules, not {rules!r}")
            changes = tuple(
                (f.name, getattr(rules, f.name))
                for f in dataclasses.fields(Rules)
                if getattr(rules, f.name) != getattr(state.rules, f.name)
            )
        return self.apply(state, NextGame(changes), state.turn)

    # --- checks ----------------------------------------------------------------------------------

    def _why_illegal_on_turn(
        self, state: State, action: Action, seat: int
    ) -> IllegalActionError | None:
        rules = state.rules
        hand = state.hands[seat]
        drawing = state.phase is Phase.DRAW
        if isinstance(action, DrawStock | TakeDiscard | Decline) and not drawing:
            return IllegalActionError("you have already drawn this turn", rule=RuleKey.ALREADY_DREW)
        if isinstance(action, DrawStock):
            if state.exhaustion or not state.stock:
                return IllegalActionError(
                    "the stockpile is exhausted: take the top discard or decline it",
                    rule=RuleKey.STOCK_EXHAUSTED,
                )
        elif isinstance(action, TakeDiscard):
            if not state.pile:
                return IllegalActionError("the discard pile is empty", rule=RuleKey.EMPTY_PILE)
            if action.count > 1 and not rules.spread_out_discard:
                return IllegalActionError(
                    "the discard pile is squared: only its top card may be taken "
                    "(Spread-Out Discard-Pile is not in play)",
                    rule=RuleKey.SQUARED_PILE,
                )
            if action.count > 1 and state.exhaustion:
                return IllegalActionError(
                    "once the stockpile is exhausted only the top discard may be taken",
                    rule=RuleKey.EXHAUSTED_TOP_ONLY,
                )
            if action.count > len(state.pile):
                return IllegalActionError(
                    f"the discard pile holds fewer than {action.count} cards",
                    rule=RuleKey.PILE_TOO_SHORT,
                )
        elif isinstance(action, Decline):
            if not state.exhaustion:
                return IllegalActionError(
                    "you may decline the discard pile only once the stockpile is exhausted",
                    rule=RuleKey.NOT_EXHAUSTED,
                )
        elif isinstance(action, TakeExtra):
            return self._why_no_extra(state)
        elif isinstance(action, Discard | Declare | GoOut) and drawing:
            return IllegalActionError(
                f"draw first: you may {str(action).split()[0]} only after drawing",
                rule=RuleKey.DRAW_FIRST,
            )
        elif isinstance(action, Discard):
            if action.card not in hand:
                return IllegalActionError(
                    f"you do not hold {format_card(action.card)}", rule=RuleKey.NOT_IN_HAND
                )
            if action.card == NO_MELD_2:
                return IllegalActionError(
                    "NO MELD 2 may never be discarded", rule=RuleKey.NO_MELD_2_DISCARD
                )
        elif isinstance(action, Declare):
            if CANT_DECLARE_0 in hand:
                return IllegalActionError(
                    "you hold CAN'T DECLARE 0, so you may not declare (you may still go out)",
                    rule=RuleKey.CANT_DECLARE,
                )
            if rules.gin_rummy and hand_count(hand) > rules.gin_threshold:
                return IllegalActionError(
                    f"Gin Rummy variation: you may declare only with a count of "
                    f"{rules.gin_threshold} or less, and yours is {hand_count(hand)}",
                    rule=RuleKey.GIN_THRESHOLD,
                )
        elif isinstance(action, GoOut):
            if not hand_can_go_out(hand, rules.going_out_single_meld):
                if rules.going_out_single_meld:
                    message = (
                        "Going Out Major or Minor: all your cards, or all but one, must form "
                        "one single meld"
                    )
                else:
                    message = "you cannot meld all your cards, or all but one"
                return IllegalActionError(message, rule=RuleKey.CANNOT_GO_OUT)
        elif isinstance(action, FourSevens):
            if not rules.four_sevens:
                return IllegalActionError("Four 7's is not in play", rule=RuleKey.NO_FOUR_SEVENS)
            if not has_four_natural_sevens(hand):
                return IllegalActionError(
                    "you do not hold all four natural sevens", rule=RuleKey.NO_FOUR_SEVENS
                )
        return None

    def _why_no_extra(self, state: State) -> IllegalActionError | None:
        if not state.rules.three_card_draw:
            return IllegalActionError("Three-Card Draw is not in play", rule=RuleKey.NO_EXTRA)
        if state.phase is not Phase.PLAY or state.draw_kind is not DrawKind.TOP_DISCARD:
            return IllegalActionError(
                "the extra cards may be taken only right after taking the top discard alone",
                rule=RuleKey.NO_EXTRA,
            )
        if not state.pile:
            return IllegalActionError(
                "Three-Card Draw needs at least two cards in the discard pile",
                rule=RuleKey.NO_EXTRA,
            )
        if not state.stock:
            return IllegalActionError(
                "Three-Card Draw needs a card in the stockpile", rule=RuleKey.NO_EXTRA
            )
        return None

    # --- chance steps ----------------------------------------------------------------------------

    def _preliminary(self, state: State, rng: random.Random, steps: int) -> State:
        # Shuffling, cutting and dealing from the top of a uniformly shuffled pack hands out
        # cards uniformly at random without replacement, whatever the cut; so the face-up
        # cards are drawn at random one by one, which is exact and needs only the few cards
        # the Preliminary deals.
        rules = state.rules
        shuffler = state.order[0]
        events = [*state.events, _plain_event(shuffler, "shuffle")]
        if rules.offer_cut:
            events.append(_plain_event(seat_right_of(state, shuffler), "cut"))
        pack = pack_cards(rules)
        dealt, dealer = preliminary_deal(state.order, state.dropped, RandomDraws(pack, rng))
        # Every face-up card is public in ``state.preliminary``; one event names the dealer.
        events.append(PublicEvent(dealer, "first-dealer", (dealt[dealer][-1],)))
        return replace_state(
            state,
            chance_steps=steps,
            phase=Phase.SEATING if rules.seating else Phase.SHUFFLE,
            stock=pack,
            preliminary=dealt,
            dealer=dealer,
            events=tuple(events),
        )

    def _seating(self, state: State, rng: random.Random, steps: int) -> State:
        order = choose_places(state.preliminary, state.dealer, rng)
        positions = [0] * len(order)
        for position, seat in enumerate(order):
            positions[seat] = position
        lowest = seat_left_of(
            replace_state(state, order=order, positions=tuple(positions)), state.dealer
        )
        return replace_state(
            state,
            chance_steps=steps,
            phase=Phase.SHUFFLE,
            order=order,
            positions=tuple(positions),
            events=_event(state, lowest, "seating"),
        )

    def _shuffle(self, state: State, rng: random.Random, steps: int) -> State:
        pack, removed = shuffled_pack(state.rules, rng)
        events = _event(state, state.dealer, "shuffle")
        if state.rules.offer_cut:
            return replace_state(
                state,
                chance_steps=steps,
                phase=Phase.CUT,
                stock=tuple(pack),
                removed=tuple(removed),
                events=events,
            )
        return self._deal(state, tuple(pack), steps, events, removed=tuple(removed))

    def _cut_and_deal(self, state: State, rng: random.Random, steps: int) -> State:
        cutter = seat_right_of(state, state.dealer)
        events = _event(state, cutter, "cut")
        return self._deal(state, cut_pack(state.stock, rng), steps, events, removed=state.removed)

    def _deal(
        self,
        state: State,
        pack: tuple[int, ...],
        steps: int,
        events: tuple[PublicEvent, ...],
        *,
        removed: tuple[int, ...],
    ) -> State:
        """Deal ``pack`` and begin the first turn; the chance step's count, its ``events`` and
        the cards it ``removed`` go into the same new state."""
        dealer = state.dealer
        rules = state.rules
        hands, stock = deal_hands(state.order, dealer, state.dropped, rules.hand_size, pack)
        first = next_remaining(state, seat_left_of(state, dealer), include_self=True)
        events = (*events, _plain_event(dealer, "deal"))
        state = replace_state(
            state,
            chance_steps=steps,
            hands=hands,
            stock=stock,
            pile=(),
            removed=removed,
            first_player=first,
            events=events,
        )
        return self._begin_turn(state, first)

    def _reshuffle(self, state: State, rng: random.Random, steps: int) -> State:
        state = replace_state(
            state,
            chance_steps=steps,
            stock=shuffled(state.pile[:-1], rng),
            pile=state.pile[-1:],
            events=_event(state, state.dealer, "reshuffle"),
        )
        if state.rules.offer_cut:
            return replace_state(state, phase=Phase.RESHUFFLE_CUT)
        return self._begin_turn(state, state.turn)

    def _reshuffle_cut(self, state: State, rng: random.Random, steps: int) -> State:
        cutter = seat_right_of(state, state.dealer)
        state = replace_state(
            state,
            chance_steps=steps,
            stock=cut_pack(state.stock, rng),
            events=_event(state, cutter, "cut"),
        )
        return self._begin_turn(state, state.turn)

    # --- turns -----------------------------------------------------------------------------------

    def _begin_turn(self, state: State, seat: int) -> State:
        """Start ``seat``'s turn (or the next remaining player's), applying the stock-exhausted
        rules and the safeguards."""
        seat = next_remaining(state, seat, include_self=True)
        rules = state.rules
        if state.turns >= rules.turn_cap:
            return self._finish(state, "turn-cap")
        exhaustion = False
        exhausted_turns = state.exhausted_turns
        if not state.stock:
            if rules.declare_or_go_out and len(state.pile) >= 2:
                return replace_state(
                    state, phase=Phase.RESHUFFLE, turn=seat, drawn=(), draw_kind=DrawKind.NONE
                )
            remaining = len(state.dropped) - sum(state.dropped)
            if exhausted_turns >= rules.exhaustion_circuits * remaining:
                return self._finish(state, "exhaustion-cap")
            exhaustion = True
            exhausted_turns += 1
        events = state.events[state.turn_event_start :]
        return replace_state(
            state,
            phase=Phase.DRAW,
            turn=seat,
            turns=state.turns + 1,
            drawn=(),
            draw_kind=DrawKind.NONE,
            tie_proposers=(),
            vote=None,
            exhaustion=exhaustion,
            exhausted_turns=exhausted_turns,
            events=events,
            turn_event_start=len(events),
        )

    def _draw_stock(self, state: State, action: DrawStock, seat: int) -> State:
        card = state.stock[-1]
        hands = list(state.hands)
        hands[seat] = _with(hands[seat], (card,))
        return replace_state(
            state,
            phase=Phase.PLAY,
            hands=tuple(hands),
            stock=state.stock[:-1],
            drawn=(card,),
            draw_kind=DrawKind.STOCK,
            events=(*state.events, _DRAW_STOCK_EVENTS[seat]),
        )

    def _take_discard(self, state: State, action: TakeDiscard, seat: int) -> State:
        count = action.count
        taken = state.pile[-count:]
        hands = list(state.hands)
        hands[seat] = _with(hands[seat], taken)
        return replace_state(
            state,
            phase=Phase.PLAY,
            hands=tuple(hands),
            pile=state.pile[:-count],
            drawn=taken,
            draw_kind=DrawKind.TOP_DISCARD if count == 1 else DrawKind.SPREAD,
            held_masks=_after_take(state, seat, taken),
            events=(
                *state.events,
                _TAKE_TOP_EVENTS[seat][taken[0]]
                if count == 1
                else PublicEvent(seat, "take-discard", taken),
            ),
        )

    def _take_extra(self, state: State, action: TakeExtra, seat: int) -> State:
        from_pile = state.pile[-1]
        from_stock = state.stock[-1]
        hands = list(state.hands)
        hands[seat] = _with(hands[seat], (from_pile, from_stock))
        return replace_state(
            state,
            hands=tuple(hands),
            pile=state.pile[:-1],
            stock=state.stock[:-1],
            drawn=(*state.drawn, from_pile, from_stock),
            draw_kind=DrawKind.EXTRA,
            events=_event(state, seat, "take-extra", (from_pile,)),
            held_masks=_after_take(state, seat, (from_pile,)),
        )

    def _discard(self, state: State, action: Discard, seat: int) -> State:
        card = action.card
        hands = list(state.hands)
        hands[seat] = without(hands[seat], card)
        pile = (*state.pile, card)
        events = (*state.events, _DISCARD_EVENTS[seat][card])
        discard_masks, held_masks = _after_discard(state, seat, card)
        rules = state.rules
        following = next_remaining(state, seat, include_self=False)
        if state.stock and state.turns < rules.turn_cap:
            # The common case, in one step: the next player's ordinary turn begins.
            kept = events[state.turn_event_start :]
            return replace_state(
                state,
                phase=Phase.DRAW,
                hands=tuple(hands),
                pile=pile,
                turn=following,
                turns=state.turns + 1,
                drawn=(),
                draw_kind=DrawKind.NONE,
                tie_proposers=(),
                exhaustion=False,
                events=kept,
                turn_event_start=len(kept),
                discard_masks=discard_masks,
                held_masks=held_masks,
            )
        state = replace_state(
            state,
            hands=tuple(hands),
            pile=pile,
            events=events,
            discard_masks=discard_masks,
            held_masks=held_masks,
        )
        return self._begin_turn(state, following)

    def _decline(self, state: State, action: Decline, seat: int) -> State:
        events = _event(state, seat, "decline")
        return self._finish(state, "declined", ender=seat, events=events)

    def _declare(self, state: State, action: Declare, seat: int) -> State:
        events = _event(state, seat, "declare", state.hands[seat])
        return self._finish(state, "declared", ender=seat, declarer=seat, events=events)

    def _go_out(self, state: State, action: GoOut, seat: int) -> State:
        events = _event(state, seat, "go-out", state.hands[seat])
        return self._finish(state, "went-out", ender=seat, winner=seat, events=events)

    def _four_sevens(self, state: State, action: FourSevens, seat: int) -> State:
        sevens = tuple(
            card for card in state.hands[seat] if is_regular(card) and rank_of(card) == SEVEN
        )
        events = _event(state, seat, "four-sevens", sevens)
        return self._finish(state, "four-sevens", ender=seat, winner=seat, events=events)

    def _propose_tie(self, state: State, action: ProposeTie, seat: int) -> State:
        voters: list[int] = []
        voter = next_remaining(state, seat, include_self=False)
        while voter != seat:
            voters.append(voter)
            voter = next_remaining(state, voter, include_self=False)
        vote = TieVote(proposer=seat, accepted=(), pending=tuple(voters), resume=state.phase)
        return replace_state(
            state,
            phase=Phase.TIE_VOTE,
            vote=vote,
            tie_proposers=(*state.tie_proposers, seat),
            events=_event(state, seat, "propose-tie"),
        )

    def _accept_tie(self, state: State, action: AcceptTie, seat: int) -> State:
        vote = state.vote
        assert vote is not None
        pending = tuple(s for s in vote.pending if s != seat)
        state = replace_state(
            state,
            vote=dataclasses.replace(vote, accepted=(*vote.accepted, seat), pending=pending),
            events=_event(state, seat, "accept-tie"),
        )
        if not pending:
            return self._finish(state, "tie")
        return state

    def _reject_tie(self, state: State, action: RejectTie, seat: int) -> State:
        vote = state.vote
        assert vote is not None
        state = replace_state(
            state, phase=vote.resume, vote=None, events=_event(state, seat, "reject-tie")
        )
        if state.dropped[state.turn]:
            # The player whose turn the vote interrupted dropped meanwhile.
            return self._begin_turn(state, next_remaining(state, state.turn, include_self=False))
        return state

    def _drop(self, state: State, action: Drop, seat: int) -> State:
        dropped = list(state.dropped)
        dropped[seat] = True
        state = replace_state(state, dropped=tuple(dropped), events=_event(state, seat, "drop"))
        if sum(dropped) == len(dropped) - 1:
            return self._finish(state, "last-player", winner=dropped.index(False))
        phase = state.phase
        if phase is Phase.TIE_VOTE:
            vote = state.vote
            assert vote is not None
            pending = tuple(s for s in vote.pending if s != seat)
            if not pending:
                return self._finish(state, "tie")
            return replace_state(state, vote=dataclasses.replace(vote, pending=pending))
        if seat == state.turn and phase in (Phase.DRAW, Phase.PLAY):
            return self._begin_turn(state, next_remaining(state, seat, include_self=False))
        return state

    # --- endings and matches ---------------------------------------------------------------------

    def _finish(
        self,
        state: State,
        reason: str,
        *,
        ender: int | None = None,
        declarer: int | None = None,
        winner: int | None = None,
        events: tuple[PublicEvent, ...] | None = None,
    ) -> State:
        """End the game with ``reason``; ``events``, when given, replace the state's events in
        the same new state (the ending action's own event added)."""
        outcome = make_outcome(state, reason, ender=ender, declarer=declarer, winner=winner)
        rules = state.rules
        ended: dict[str, Any] = {
            "outcome": outcome,
            "history": (*state.history, outcome),
            "vote": None,
            "drawn": (),
            "draw_kind": DrawKind.NONE,
            "events": state.events if events is None else events,
        }
        if not rules.match:
            return replace_state(state, phase=Phase.OVER, turn=-1, **ended)
        wins = list(state.match_wins)
        if outcome.winner is not None:
            wins[outcome.winner] += 1
        if max(wins) >= rules.match_wins or state.game_number >= rules.match_game_cap:
            return replace_state(state, phase=Phase.OVER, turn=-1, match_wins=tuple(wins), **ended)
        first = outcome.winner if outcome.winner is not None else state.first_player
        return replace_state(
            state, phase=Phase.BETWEEN_GAMES, turn=first, match_wins=tuple(wins), **ended
        )

    def _next_game(self, state: State, action: NextGame, seat: int) -> State:
        rules = dataclasses.replace(state.rules, **dict(action.changes))
        first = state.turn
        return replace_state(
            state,
            phase=Phase.SHUFFLE,
            dealer=seat_right_of(state, first),
            **_fresh_table(
                rules,
                events=(PublicEvent(seat, "next-game"),),
                game_number=state.game_number + 1,
            ),
        )


def _fresh_table(
    rules: Rules, *, events: tuple[PublicEvent, ...], game_number: int
) -> dict[str, Any]:
    """The fields every new game starts from, the first of a match and each one after it."""
    n = rules.players
    return {
        "rules": rules,
        "first_player": -1,
        "hands": ((),) * n,
        "stock": pack_cards(rules),
        "pile": (),
        "removed": (),
        "dropped": (False,) * n,
        "drawn": (),
        "draw_kind": DrawKind.NONE,
        "exhaustion": False,
        "exhausted_turns": 0,
        "turns": 0,
        "tie_proposers": (),
        "vote": None,
        "events": events,
        "turn_event_start": 0,
        "preliminary": ((),) * n,
        "outcome": None,
        "game_number": game_number,
        "discard_masks": (),
        "held_masks": (),
    }


def _validate(rules: Rules) -> None:
    if not isinstance(rules, Rules):
        raise RulesError(f"Declaration Rummy needs its own Rules, not {type(rules).__name__}")
    low, high = DEAL_SIZES[rules.players]
    if not low <= rules.hand_size <= high:
        raise RulesError(
            f"with {rules.players} players each is dealt {low} to {high} cards, "
            f"not {rules.hand_size}"
        )


def _check_next_rules(rules: Rules, action: NextGame) -> IllegalActionError | None:
    names = {name for name, _ in action.changes}
    fixed = sorted(names & FIXED_FOR_MATCH)
    if fixed:
        return IllegalActionError(
            f"a match keeps its {', '.join(fixed)} from its first game", rule=RuleKey.MATCH_FIXED
        )
    try:
        dataclasses.replace(rules, **dict(action.changes))
    except (RulesError, TypeError) as exc:
        return IllegalActionError(
            f"the next game's rules are invalid: {exc}", rule=RuleKey.BAD_RULES
        )
    return None


# --- outcomes and results ------------------------------------------------------------------------


ENGINE: Final = DeclarationRummyEngine()
"""The engine the registry finds under ``declaration-rummy``."""

# The hand questions are re-exported: callers may keep importing them from the engine.
__all__ = [
    "CHANCE",
    "ENGINE",
    "TERMINAL",
    "DeclarationRummyEngine",
    "hand_can_go_out",
    "hand_count",
    "may_declare",
]
