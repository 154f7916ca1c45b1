"""Indecision game state: the frozen :class:`State`, its :class:`Phase`, and the records of a
hand's counting (:class:`SeatResult`, :class:`Counting`, :class:`HandSummary`).

The state is split in two immutable records: :class:`Table`, what changes once per hand (rules,
seed, dealer, totals, the last hand's summary, the result), and :class:`State` itself, what
changes on every action (hands, deck, pile, whose turn). Applying an action builds one new
:class:`State` and usually shares the :class:`Table`, which keeps the hot path of simulations
short. Both are ``NamedTuple`` s, as every game package's state is: the engine builds the next
one with ``replace_state``, naming the fields it changes, which costs less than constructing a
frozen dataclass; the steps every simulated hand takes (a discard, a draw, a stop, the deal)
name every field of the record they build.

Card places during a hand (every card is in exactly one): the seats' ``hands``, the face-down
``deck`` (top card last), the face-up ``pile`` (top card last) and, once a hand is stopped,
the face-down spare card ``counting.stop_card``. Before the first deal every card is in the
deck's box (no place); between hands the places of the hand just played are kept until the
next deal.

The public events of the current hand are a tuple of :class:`PublicEvent` objects, shared with
the views; every event a seat can cause exists once, in :func:`event` 's table, so recording one
allocates nothing but the longer tuple.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, Final, NamedTuple

from cardtable.cards import format_card, parse_cards
from cardtable.games.contract import PublicEvent
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.scoring import HandScore, hand_scorer, score_hand
from cardtable.games.replacing import replacer
from cardtable.melds.indecision import IndecisionScorer


class Phase(Enum):
    """Where a game stands. ``CUT``, ``DEAL`` and ``RESHUFFLE`` are chance steps."""

    CUT = "cut"
    """Chance: the seats in ``Table.cutters`` cut for the first deal (lowest card deals)."""
    DEAL = "deal"
    """Chance: shuffle and deal the next hand."""
    OPENING = "opening"
    """The starter holds six cards and discards one to start the pile (or stops)."""
    DRAW = "draw"
    """The seat on turn draws from the deck or the pile."""
    RESHUFFLE = "reshuffle"
    """Chance: the deck was empty when a seat drew from it; the pile under its top card is
    shuffled into a new deck and the seat gets its top card."""
    DISCARD = "discard"
    """The seat on turn holds six cards and discards one or stops."""
    DECLARE = "declare"
    """Manual declaration mode: the seat on turn announces its hand's score."""
    CONFIRM = "confirm"
    """Manual declaration mode: the seat on turn confirms or corrects its announcement."""
    GAME_OVER = "game-over"
    """The game has ended (a winner, or the hand cap)."""


EVENT_VERBS: Final = (
    "deal",
    "discard",
    "draw-stock",
    "take-discard",
    "stop",
    "reshuffle",
    "declare",
    "confirm",
    "correct",
)
"""Verbs of Indecision's public events; ``discard`` and ``take-discard`` show their card."""
_CARD_VERBS: Final = frozenset(("discard", "take-discard"))
_EVENTS: Final = {
    verb: tuple(
        tuple(PublicEvent(seat, verb, (card,)) for card in range(52))
        if verb in _CARD_VERBS
        else (PublicEvent(seat, verb),)
        for seat in range(4)
    )
    for verb in EVENT_VERBS
}


def event(verb: str, seat: int, card: int = 0) -> PublicEvent:
    """The shared event object of ``seat`` doing ``verb`` (with ``card`` for the verbs that
    show one)."""
    return _EVENTS[verb][seat][card if verb in _CARD_VERBS else 0]


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's count in a finished (or being counted) hand; public once recorded.

    ``score`` is the true score and ``all_cards_used`` stop requirement 2 for these ``cards``;
    ``forfeited`` marks the stopper of an invalid stop (scores 0). In manual declaration mode
    ``declared`` is the recorded number, ``announced`` the first number when it was corrected,
    and ``penalty`` the points taken off the total for an over-declaration. ``points`` were
    added to the total, giving ``total``. ``counted`` is false for seats not reached because
    the game was won earlier in the counting order.
    """

    seat: int
    cards: tuple[int, ...]
    score: int
    all_cards_used: bool
    forfeited: bool = False
    declared: int | None = None
    announced: int | None = None
    penalty: int = 0
    points: int = 0
    total: int = 0
    counted: bool = True

    @property
    def challenged(self) -> bool:
        """Manual mode: the declaration was over the true score (always challenged)."""
        return self.declared is not None and self.declared > self.score

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as labels)."""
        return {
            "seat": self.seat,
            "cards": [format_card(c) for c in self.cards],
            "score": self.score,
            "all_cards_used": self.all_cards_used,
            "forfeited": self.forfeited,
            "declared": self.declared,
            "announced": self.announced,
            "challenged": self.challenged,
            "penalty": self.penalty,
            "points": self.points,
            "total": self.total,
            "counted": self.counted,
        }


class Counting(NamedTuple):
    """The counting of a hand that ended by a stop or an empty deck.

    ``order`` is the counting order (from the stopper, or from the seat that would have drawn
    from the empty deck, clockwise); ``results`` hold the seats counted so far; ``pending`` is an
    announced, not yet recorded number (manual mode; -1 when none). ``stop_problems`` name the
    stop requirements the stopper failed (empty for a valid stop).
    """

    ending: str
    stopper: int
    stop_card: int
    stop_problems: tuple[str, ...]
    order: tuple[int, ...]
    results: tuple[SeatResult, ...] = ()
    pending: int = -1


@dataclass(frozen=True, slots=True)
class HandSummary:
    """The public summary of a finished hand: how it ended, every counted hand with its score,
    forfeits and declarations, and the winners if the game was decided in it.

    ``ending`` is ``stop``, ``deck-exhausted`` (deck exhaustion option ``score-hand``),
    ``turn-limit`` (the turn cap with people seated: every hand counted, as ``deck-exhausted``)
    or ``turn-cap`` (computer-only play: abandoned with no score; no hands are revealed).
    """

    hand_number: int
    dealer: int
    starter: int
    ending: str
    stopper: int | None
    stop_problems: tuple[str, ...]
    results: tuple[SeatResult, ...]
    winners: tuple[int, ...]
    rules: Rules = field(repr=False)

    @property
    def stop_valid(self) -> bool | None:
        """Whether the stop met both requirements (``None`` when nobody stopped)."""
        return None if self.stopper is None else not self.stop_problems

    def hand_score(self, result: SeatResult) -> HandScore:
        """The melds of one counted hand (computed on demand: summaries are built often)."""
        return score_hand(result.cards, self.rules)

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data, with each counted hand's melds."""
        return {
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "starter": self.starter,
            "ending": self.ending,
            "stopper": self.stopper,
            "stop_valid": self.stop_valid,
            "stop_problems": list(self.stop_problems),
            "results": [
                {**r.to_json(), "melds": self.hand_score(r).to_json()["melds"]}
                for r in self.results
            ],
            "winners": list(self.winners),
        }


class Table(NamedTuple):
    """What changes at most once per hand.

    ``dealer`` is -1 until the cut decides it; ``cut_rounds`` are the public cuts for the first
    deal, each round a tuple of ``(seat, card)``; ``cutters`` the seats due to cut next (ties
    re-cut). ``winners`` and ``end_reason`` (``target`` or ``cap``) are set when the game ends.
    ``scorer`` is the rules' hand scorer, carried along as a cache (scorers of equal rules
    compare equal, so it does not change what equal tables are).
    """

    rules: Rules
    seed: int
    dealer: int
    hand_number: int
    totals: tuple[int, ...]
    cut_rounds: tuple[tuple[tuple[int, int], ...], ...]
    cutters: tuple[int, ...]
    last_hand: HandSummary | None
    winners: tuple[int, ...]
    end_reason: str
    scorer: IndecisionScorer

    @property
    def starter(self) -> int:
        """The seat clockwise of the dealer (-1 before the cut)."""
        return -1 if self.dealer < 0 else (self.dealer + 1) % self.rules.players


class State(NamedTuple):
    """An Indecision game at one moment (see the module docstring for the card places).

    ``to_act`` is the seat on turn (-1 during chance steps and at the end); ``turns`` counts the
    turns completed in this hand, the opening discard being the first; ``had_turn`` is a bit
    mask of the seats that completed a turn in this hand (stop requirement 1); ``drawn`` is the
    card drawn on the current turn (-1 if none) and ``drawn_from_pile`` where it came from;
    ``chance_steps`` numbers the chance steps taken (the ``step`` of ``chance_rng``).
    """

    table: Table
    phase: Phase
    chance_steps: int
    hands: tuple[tuple[int, ...], ...]
    deck: tuple[int, ...]
    pile: tuple[int, ...]
    to_act: int
    turns: int
    had_turn: int
    drawn: int
    drawn_from_pile: bool
    events: tuple[PublicEvent, ...]
    counting: Counting | None

    @property
    def rules(self) -> Rules:
        """The rules of this game."""
        return self.table.rules


def scenario(
    rules: Rules,
    hands: Sequence[str | Sequence[int]],
    *,
    pile: str | Sequence[int] = (),
    deck: str | Sequence[int] | None = None,
    dealer: int = 0,
    to_act: int | None = None,
    phase: Phase = Phase.DRAW,
    had_turn: Sequence[int] = (),
    turns: int | None = None,
    totals: Sequence[int] | None = None,
    hand_number: int = 1,
) -> State:
    """An exact position in the middle of a hand, for tests and tools: the given hands and pile;
    the deck holds every other card (top last) unless given; the starter (left of ``dealer``)
    acts unless ``to_act`` says otherwise; ``had_turn`` lists the seats that had a turn."""
    held = tuple(_cards(hand) for hand in hands)
    pile_cards = _cards(pile)
    used = {card for hand in held for card in hand} | set(pile_cards)
    if deck is None:
        deck_cards = tuple(card for card in range(52) if card not in used)
    else:
        deck_cards = _cards(deck)
    players = rules.players
    table = Table(
        rules=rules,
        seed=0,
        dealer=dealer,
        hand_number=hand_number,
        totals=tuple(totals) if totals is not None else (0,) * players,
        cut_rounds=(),
        cutters=(),
        last_hand=None,
        winners=(),
        end_reason="",
        scorer=hand_scorer(rules),
    )
    return State(
        table=table,
        phase=phase,
        chance_steps=1,
        hands=held,
        deck=deck_cards,
        pile=pile_cards,
        to_act=(dealer + 1) % players if to_act is None else to_act,
        turns=len(had_turn) if turns is None else turns,
        had_turn=sum(1 << seat for seat in had_turn),
        drawn=-1,
        drawn_from_pile=False,
        events=(event("deal", dealer),),
        counting=None,
    )


def _cards(value: str | Sequence[int]) -> tuple[int, ...]:
    return parse_cards(value) if isinstance(value, str) else tuple(value)


replace_state: Final = replacer(State)
"""``replace_state(state, **changes)``: ``state._replace(**changes)``, more cheaply
(see :mod:`cardtable.games.replacing`); ``replace_table`` and ``replace_counting`` likewise."""
replace_table: Final = replacer(Table)
replace_counting: Final = replacer(Counting)
