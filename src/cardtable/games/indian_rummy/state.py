"""The immutable state of an Indian Rummy game, its phases, and the summary of a finished deal.

A game is a run of deals (RULES.md 2.2-2.9). The state holds everything: the seed and the number
of chance steps taken (which together fix every later shuffle), the current deal's cards, the
totals and the summary of the last finished deal. It is a frozen dataclass of what a turn changes
plus one :class:`DealRecord` of what changes only between deals; the engine builds a new state
for every action with :func:`build_state`, sharing the deal record and the unchanged tuples.

Card places, each a tuple of card ids (the pack has two of every regular card, so an id may
appear twice; hands are kept sorted so that equal hands compare equal):

* ``hands[seat]``: the seat's cards (a dropped seat's cards stay here, set aside face down);
* ``stock``: face down, its **top is the last element**;
* ``pile``: the discard pile, face up, its top is the last element;
* ``wild_card``: the cut wild joker, face up and out of play (``None`` when not cut).

After a declaration the put-down card lies on top of the pile. Every physical card of the pack is
in exactly one of these places from the first deal on (tests check it).

Tests and tools build exact mid-deal positions with :func:`scenario`.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple

from cardtable.cards import PRINTED_JOKER, format_card, parse_cards, rank_of
from cardtable.errors import CardError, RulesError
from cardtable.games.contract import PublicEvent
from cardtable.games.indian_rummy.formats import Standing, new_standing
from cardtable.games.indian_rummy.rules import Rules


class Phase(enum.Enum):
    """Where a game stands; the first three are chance steps for the driver."""

    CHOOSE_DEALER = "choose-dealer"
    """Chance: the first dealer is drawn at random."""
    DEAL = "deal"
    """Chance: shuffle, deal 13 each, turn up the pile's first card, cut the wild joker."""
    RESHUFFLE = "reshuffle"
    """Chance: the stock ran out; the pile under its top card becomes the new stock."""
    DRAW = "draw"
    """The seat on turn draws from the stock or the pile, or drops."""
    DISCARD = "discard"
    """The seat on turn, holding 14 cards, discards or declares."""
    REJOIN = "rejoin"
    """Pool, between deals: an eliminated player answers a rejoin offer (``rejoin``, ``stay
    out``)."""
    AGREED_FINISH = "agreed-finish"
    """Pool, between deals: the players left answer the agreed finish (``finish``, ``play
    on``)."""
    GAME_OVER = "game-over"
    """The last deal of the game has been played."""


CHANCE_PHASES: Final = frozenset({Phase.CHOOSE_DEALER, Phase.DEAL, Phase.RESHUFFLE})

_SlotSetter = Callable[[Any, Any], None]
"""A slot's setter (``member_descriptor.__set__``), as the record builders use it."""

DealOutcome = Literal["valid-show", "wrong-show", "all-dropped", "turn-limit", "abandoned"]
"""How a deal ended: a declaration (valid or wrong), all others dropping, or the turn cap: with
people seated ``turn-limit`` (drop penalties stand), in computer-only play ``abandoned``."""


def pack_of(rules: Rules) -> tuple[int, ...]:
    """Every physical card of the pack the rules play with (104, or 106 with printed jokers)."""
    return _PACKS[rules.printed_jokers]


_PACKS: Final = {
    2: tuple(sorted((*range(52), *range(52), PRINTED_JOKER, PRINTED_JOKER))),
    0: tuple(sorted((*range(52), *range(52)))),
}


def wild_rank_of(wild_card: int | None) -> int | None:
    """The wild rank a cut card makes: its rank, Aces (0) for a printed joker, ``None`` uncut."""
    if wild_card is None:
        return None
    return 0 if wild_card == PRINTED_JOKER else rank_of(wild_card)


@dataclass(frozen=True, slots=True)
class DealSummary:
    """The public record of a finished deal, shown to every seat after it.

    ``hands`` are the hands shown at the end (``None`` for a seat whose cards stay hidden: a
    dropped player, or everybody when the deal ended without a show). ``drops`` gives each
    dropped seat's penalty. ``points`` are the deal's points per seat (all 0 when abandoned at
    the turn cap). The arrangement of each shown hand is computed on demand by
    :func:`cardtable.games.indian_rummy.view.deal_arrangements`.
    """

    number: int
    dealer: int
    outcome: DealOutcome
    declarer: int | None
    put_down: int | None
    winner: int | None
    wild_card: int | None
    wild_rank: int | None
    hands: tuple[tuple[int, ...] | None, ...]
    drops: tuple[int | None, ...]
    points: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """The summary as JSON-ready data (cards as labels)."""
        return {
            "number": self.number,
            "dealer": self.dealer,
            "outcome": self.outcome,
            "declarer": self.declarer,
            "put_down": None if self.put_down is None else format_card(self.put_down),
            "winner": self.winner,
            "wild_card": None if self.wild_card is None else format_card(self.wild_card),
            "wild_rank": self.wild_rank,
            "hands": [
                None if hand is None else [format_card(c) for c in hand] for hand in self.hands
            ],
            "drops": list(self.drops),
            "points": list(self.points),
        }


class DealRecord(NamedTuple):
    """What changes only between deals and at chance steps: the rules, the seed and the chance
    steps taken, the deal's number, dealer and wild joker, the totals and the finished deals.

    ``deal_number`` counts deals started (0 before the first deal); ``dealer`` is -1 until the
    first dealer is chosen. ``deal_points`` are each finished deal's points, ``last_deal`` the
    summary of the last one. ``standing`` is the Pool or Deals standing
    (:class:`~cardtable.games.indian_rummy.formats.Standing`), ``None`` in free play. A
    ``NamedTuple``: the engine builds one per chance step and per finished deal, and a tuple is
    the cheapest record to build (see :func:`build_deal`).
    """

    rules: Rules
    seed: int
    chance_steps: int
    deal_number: int
    dealer: int
    wild_card: int | None
    wild_rank: int | None
    totals: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...]
    last_deal: DealSummary | None
    standing: Standing | None = None


@dataclass(frozen=True, slots=True)
class IndianRummyState:
    """A whole Indian Rummy game at one moment (see the module docstring for the card places).

    The fields are what a turn changes; ``deal`` holds the rest (:class:`DealRecord`), shared
    unchanged by every state of a deal, and its fields read as the state's own (``state.rules``,
    ``state.dealer``...). Splitting them keeps the state the engine builds for every action
    small. ``turn`` is the seat to act in ``DRAW``/``DISCARD`` (and the seat whose turn comes
    after a reshuffle). ``drops[seat]`` is the penalty of a seat that dropped this deal,
    ``None`` while it plays; ``has_drawn`` tells a first drop from a middle drop. ``drawn`` is
    the card the seat on turn drew this turn, ``drawn_from_pile`` whether it came from the pile
    (then it may not be discarded or put down, RULES.md 2.3). ``turns`` counts finished turns
    (drops included) of the deal for the turn cap. ``opening_on_top``: the pile's top is still
    the card turned up at the deal (house rule on taking an opening joker). ``events`` are this
    deal's public events.
    """

    deal: DealRecord
    phase: Phase
    turn: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    opening_on_top: bool
    drops: tuple[int | None, ...]
    has_drawn: tuple[bool, ...]
    drawn: int | None
    drawn_from_pile: bool
    turns: int
    events: tuple[PublicEvent, ...]

    @property
    def rules(self) -> Rules:
        """The rules the game is played under."""
        return self.deal.rules

    @property
    def seed(self) -> int:
        """The game's seed (with ``chance_steps`` it fixes every later shuffle)."""
        return self.deal.seed

    @property
    def chance_steps(self) -> int:
        """How many chance steps have been taken."""
        return self.deal.chance_steps

    @property
    def deal_number(self) -> int:
        """Deals started (0 before the first deal)."""
        return self.deal.deal_number

    @property
    def dealer(self) -> int:
        """The deal's dealer (-1 until the first dealer is chosen)."""
        return self.deal.dealer

    @property
    def wild_card(self) -> int | None:
        """The cut wild joker (``None`` when not cut)."""
        return self.deal.wild_card

    @property
    def wild_rank(self) -> int | None:
        """The deal's wild rank (``None`` without a cut)."""
        return self.deal.wild_rank

    @property
    def totals(self) -> tuple[int, ...]:
        """Each seat's points over the finished deals."""
        return self.deal.totals

    @property
    def deal_points(self) -> tuple[tuple[int, ...], ...]:
        """Each finished deal's points per seat."""
        return self.deal.deal_points

    @property
    def last_deal(self) -> DealSummary | None:
        """The summary of the last finished deal."""
        return self.deal.last_deal

    @property
    def standing(self) -> Standing | None:
        """The Pool or Deals standing (``None`` in free play)."""
        return self.deal.standing

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.deal.rules.players

    def live_seats(self) -> tuple[int, ...]:
        """Seats still playing this deal (not dropped)."""
        return tuple(seat for seat, drop in enumerate(self.drops) if drop is None)

    def card_places(self) -> Counter[int]:
        """How many of each card id lie in all places together (the whole pack once dealt)."""
        counts: Counter[int] = Counter(self.stock)
        counts.update(self.pile)
        for hand in self.hands:
            counts.update(hand)
        if self.deal.wild_card is not None:
            counts[self.deal.wild_card] += 1
        return counts


State = IndianRummyState
"""The state type under the name every game package gives it."""

# Building the records. A frozen dataclass's ``__init__`` stores each field through
# ``object.__setattr__`` to get past the frozen guard; the builders below store each field
# through its slot instead, the same record at about a third of the cost (and a deal record,
# a tuple, is made in one step). The engine builds a
# new state for every action (random playouts and search bots build millions), a deal record
# and summary for every deal, and search bots a state for every determinization, so those use
# them; everything else uses the constructors. Every field is named: no positional factories.


def _setter(cls: type, name: str) -> _SlotSetter:
    """The setter of the slot ``name`` of the slotted class ``cls``."""
    setter: _SlotSetter = cls.__dict__[name].__set__
    return setter


_new_object: Final = object.__new__
_set_deal: Final = _setter(IndianRummyState, "deal")
_set_phase: Final = _setter(IndianRummyState, "phase")
_set_turn: Final = _setter(IndianRummyState, "turn")
_set_hands: Final = _setter(IndianRummyState, "hands")
_set_stock: Final = _setter(IndianRummyState, "stock")
_set_pile: Final = _setter(IndianRummyState, "pile")
_set_opening_on_top: Final = _setter(IndianRummyState, "opening_on_top")
_set_drops: Final = _setter(IndianRummyState, "drops")
_set_has_drawn: Final = _setter(IndianRummyState, "has_drawn")
_set_drawn: Final = _setter(IndianRummyState, "drawn")
_set_drawn_from_pile: Final = _setter(IndianRummyState, "drawn_from_pile")
_set_turns: Final = _setter(IndianRummyState, "turns")
_set_events: Final = _setter(IndianRummyState, "events")


def build_state(
    *,
    deal: DealRecord,
    phase: Phase,
    turn: int,
    hands: tuple[tuple[int, ...], ...],
    stock: tuple[int, ...],
    pile: tuple[int, ...],
    opening_on_top: bool,
    drops: tuple[int | None, ...],
    has_drawn: tuple[bool, ...],
    drawn: int | None,
    drawn_from_pile: bool,
    turns: int,
    events: tuple[PublicEvent, ...],
) -> IndianRummyState:
    """The state :class:`IndianRummyState` ``(...)`` gives, built the engine's way (see above).

    Only for callers passing well-formed values, as the engine does.

    >>> s = new_state(Rules(), 7)
    >>> values = {name: getattr(s, name) for name in IndianRummyState.__match_args__}
    >>> built = build_state(**values)
    >>> built == IndianRummyState(**values), type(built) is IndianRummyState, hash(built) == hash(s)
    (True, True, True)
    """
    state: IndianRummyState = _new_object(IndianRummyState)
    _set_deal(state, deal)
    _set_phase(state, phase)
    _set_turn(state, turn)
    _set_hands(state, hands)
    _set_stock(state, stock)
    _set_pile(state, pile)
    _set_opening_on_top(state, opening_on_top)
    _set_drops(state, drops)
    _set_has_drawn(state, has_drawn)
    _set_drawn(state, drawn)
    _set_drawn_from_pile(state, drawn_from_pile)
    _set_turns(state, turns)
    _set_events(state, events)
    return state


_new_tuple: Final = tuple.__new__


def build_deal(
    *,
    rules: Rules,
    seed: int,
    chance_steps: int,
    deal_number: int,
    dealer: int,
    wild_card: int | None,
    wild_rank: int | None,
    totals: tuple[int, ...],
    deal_points: tuple[tuple[int, ...], ...],
    last_deal: DealSummary | None,
    standing: Standing | None,
) -> DealRecord:
    """The record ``DealRecord(...)`` gives, built the engine's way: the tuple of the values in
    field order, made directly rather than through the generated ``__new__`` (about half the
    cost).

    >>> d = new_state(Rules(), 7).deal
    >>> values = d._asdict()
    >>> built = build_deal(**values)
    >>> built == DealRecord(**values) == d, type(built) is DealRecord, built._asdict() == values
    (True, True, True)
    """
    record: DealRecord = _new_tuple(
        DealRecord,
        (rules, seed, chance_steps, deal_number, dealer, wild_card, wild_rank, totals,
         deal_points, last_deal, standing),
    )  # fmt: skip
    return record


_set_number: Final = _setter(DealSummary, "number")
_set_summary_dealer: Final = _setter(DealSummary, "dealer")
_set_outcome: Final = _setter(DealSummary, "outcome")
_set_declarer: Final = _setter(DealSummary, "declarer")
_set_put_down: Final = _setter(DealSummary, "put_down")
_set_winner: Final = _setter(DealSummary, "winner")
_set_summary_wild_card: Final = _setter(DealSummary, "wild_card")
_set_summary_wild_rank: Final = _setter(DealSummary, "wild_rank")
_set_summary_hands: Final = _setter(DealSummary, "hands")
_set_summary_drops: Final = _setter(DealSummary, "drops")
_set_points: Final = _setter(DealSummary, "points")


def build_summary(
    *,
    number: int,
    dealer: int,
    outcome: DealOutcome,
    declarer: int | None,
    put_down: int | None,
    winner: int | None,
    wild_card: int | None,
    wild_rank: int | None,
    hands: tuple[tuple[int, ...] | None, ...],
    drops: tuple[int | None, ...],
    points: tuple[int, ...],
) -> DealSummary:
    """The summary :class:`DealSummary` ``(...)`` gives, built the engine's way (see above).

    >>> values = dict(number=1, dealer=0, outcome="all-dropped", declarer=None, put_down=None,
    ...               winner=1, wild_card=None, wild_rank=None, hands=(None, None),
    ...               drops=(20, None), points=(20, 0))
    >>> build_summary(**values) == DealSummary(**values)
    True
    """
    summary: DealSummary = _new_object(DealSummary)
    _set_number(summary, number)
    _set_summary_dealer(summary, dealer)
    _set_outcome(summary, outcome)
    _set_declarer(summary, declarer)
    _set_put_down(summary, put_down)
    _set_winner(summary, winner)
    _set_summary_wild_card(summary, wild_card)
    _set_summary_wild_rank(summary, wild_rank)
    _set_summary_hands(summary, hands)
    _set_summary_drops(summary, drops)
    _set_points(summary, points)
    return summary


def new_state(rules: Rules, seed: int) -> IndianRummyState:
    """A game before its first chance step (choosing the first dealer)."""
    if not isinstance(rules, Rules):
        raise RulesError(f"Indian Rummy needs its own Rules, not {type(rules).__name__}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError(f"the seed must be a whole number, not {seed!r}")
    n = rules.players
    deal = build_deal(
        rules=rules,
        seed=seed,
        chance_steps=0,
        deal_number=0,
        dealer=-1,
        wild_card=None,
        wild_rank=None,
        totals=(0,) * n,
        deal_points=(),
        last_deal=None,
        standing=new_standing(rules),
    )
    return build_state(
        deal=deal,
        phase=Phase.CHOOSE_DEALER,
        turn=-1,
        hands=((),) * n,
        stock=(),
        pile=(),
        opening_on_top=False,
        drops=(None,) * n,
        has_drawn=(False,) * n,
        drawn=None,
        drawn_from_pile=False,
        turns=0,
        events=(),
    )


def _cards(value: str | Sequence[int]) -> tuple[int, ...]:
    return parse_cards(value, deck=None) if isinstance(value, str) else tuple(value)


def scenario(
    rules: Rules,
    hands: Sequence[str | Sequence[int]],
    *,
    pile: str | Sequence[int] = (),
    wild_card: str | int | None = None,
    stock: str | Sequence[int] | None = None,
    dealer: int = 0,
    turn: int | None = None,
    phase: Phase = Phase.DRAW,
    drawn: str | int | None = None,
    drawn_from_pile: bool = False,
    drops: Sequence[int | None] | None = None,
    has_drawn: Sequence[bool] | None = None,
    totals: Sequence[int] | None = None,
    deal_number: int = 1,
    turns: int = 0,
    opening_on_top: bool | None = None,
    seed: int = 0,
    standing: Standing | None = None,
) -> IndianRummyState:
    """An exact mid-deal position, for tests, puzzles and the coach.

    Cards may be given as text (``"AS 2S 3S"``) or ids. ``stock`` defaults to every card of the
    pack not placed elsewhere (its order is then the pack order, top last); ``turn`` defaults to
    the dealer's left (the first seat still in). In ``DISCARD`` the seat on turn holds 14 cards
    and ``drawn`` names the card it drew (``drawn_from_pile`` if from the pile).
    ``opening_on_top`` defaults to true when the pile holds one card and nobody has drawn.
    ``standing`` is the Pool or Deals standing (by default the one a new game of ``rules``
    starts with); a seat out of the game holds no cards and sits the deal out (its ``drops``
    entry 0, unless given). Raises :class:`CardError` when the cards are not exactly the pack
    and :class:`RulesError` for an impossible position. The position has no history: its public
    events are the deal, the pile's first card and the wild joker cut.

    >>> from cardtable.games.indian_rummy.rules import Rules
    >>> s = scenario(Rules(), ["AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS",
    ...                          "AH 2H 3H 4H 5H 6H 7H 8H 9H 10H JH QH KH"],
    ...                pile="5C", wild_card="7D")
    >>> len(s.stock), s.turn, s.wild_rank
    (78, 1, 6)
    """
    n = rules.players
    if len(hands) != n:
        raise RulesError(f"{n} players need {n} hands, not {len(hands)}")
    hand_tuples = tuple(tuple(sorted(_cards(hand))) for hand in hands)
    pile_cards = _cards(pile)
    wild = parse_cards(wild_card, deck=None)[0] if isinstance(wild_card, str) else wild_card
    if wild is not None and not rules.wild_joker_cut:
        raise RulesError("these rules cut no wild joker")
    if wild is None and rules.wild_joker_cut:
        raise RulesError("these rules cut a wild joker: give wild_card")
    placed: Counter[int] = Counter(pile_cards)
    for hand in hand_tuples:
        placed.update(hand)
    if wild is not None:
        placed[wild] += 1
    pack = Counter(pack_of(rules))
    over = sorted(card for card in placed if placed[card] > pack[card])
    if over:
        raise CardError(
            "more copies than the pack holds: " + " ".join(format_card(c) for c in over)
        )
    if stock is None:
        rest = pack - placed
        stock_cards = tuple(card for card in sorted(rest) for _ in range(rest[card]))
    else:
        stock_cards = _cards(stock)
        if placed + Counter(stock_cards) != pack:
            raise CardError("hands, pile, stock and wild card must be exactly the pack")
    if standing is None:
        standing = new_standing(rules)
    out = standing.out if standing is not None else (False,) * n
    if any(hand_tuples[s] for s in range(n) if out[s]):
        raise RulesError("a seat out of the game holds no cards")
    seat = (dealer + 1) % n if turn is None else turn
    while turn is None and out[seat] and seat != dealer:  # the dealer's left among those in
        seat = (seat + 1) % n
    if not (0 <= dealer < n and 0 <= seat < n):
        raise RulesError("dealer and turn must be seats of the table")
    drop_tuple = tuple(drops) if drops is not None else tuple(0 if o else None for o in out)
    drawn_card = parse_cards(drawn, deck=None)[0] if isinstance(drawn, str) else drawn
    if phase is Phase.DISCARD and (drawn_card is None or drawn_card not in hand_tuples[seat]):
        raise RulesError("in the discard phase, drawn must name a card of the hand on turn")
    drew = tuple(has_drawn) if has_drawn is not None else (False,) * n
    if phase is Phase.DISCARD:
        drew = (*drew[:seat], True, *drew[seat + 1 :])
    events = [PublicEvent(dealer, "deal")]
    if pile_cards:
        events.append(PublicEvent(dealer, "open-pile", pile_cards[:1]))
    if wild is not None:
        events.append(PublicEvent(dealer, "cut-wild", (wild,)))
    if opening_on_top is None:
        opening_on_top = len(pile_cards) == 1 and not any(drew) and phase is Phase.DRAW
    deal = DealRecord(
        rules=rules,
        seed=seed,
        chance_steps=2,
        deal_number=deal_number,
        dealer=dealer,
        wild_card=wild,
        wild_rank=wild_rank_of(wild) if rules.wild_joker_cut else None,
        totals=tuple(totals) if totals is not None else (0,) * n,
        deal_points=(),
        last_deal=None,
        standing=standing,
    )
    return IndianRummyState(
        deal=deal,
        phase=phase,
        turn=seat,
        hands=hand_tuples,
        stock=stock_cards,
        pile=pile_cards,
        opening_on_top=opening_on_top,
        drops=drop_tuple,
        has_drawn=drew,
        drawn=drawn_card if phase is Phase.DISCARD else None,
        drawn_from_pile=drawn_from_pile and phase is Phase.DISCARD,
        turns=turns,
        events=tuple(events),
    )
