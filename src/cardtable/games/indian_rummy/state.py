"""The immutable state of an Indian Rummy game, its phases, and the summary of a finished deal.

A game is a run of deals (RULES.md 2.2-2.9). The state holds everything: the seed and the number
of chance steps taken (which together fix every later shuffle), the current deal's cards, the
totals and the summary of the last finished deal. It is a frozen dataclass; the engine builds a
new one for every action, sharing the unchanged tuples.

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
from collections.abc import Sequence
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, Final, Literal

from cardtable.cards import PRINTED_JOKER, format_card, parse_cards, rank_of
from cardtable.errors import CardError, RulesError
from cardtable.games.contract import PublicEvent
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
    GAME_OVER = "game-over"
    """The last deal of the game has been played."""


CHANCE_PHASES: Final = frozenset({Phase.CHOOSE_DEALER, Phase.DEAL, Phase.RESHUFFLE})

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


@dataclass(frozen=True, slots=True)
class IndianRummyState:
    """A whole Indian Rummy game at one moment (see the module docstring for the card places).

    ``deal_number`` counts deals started (0 before the first deal); ``dealer`` is -1 until the
    first dealer is chosen. ``turn`` is the seat to act in ``DRAW``/``DISCARD`` (and the seat
    whose turn comes after a reshuffle). ``drops[seat]`` is the penalty of a seat that dropped
    this deal, ``None`` while it plays; ``has_drawn`` tells a first drop from a middle drop.
    ``drawn`` is the card the seat on turn drew this turn, ``drawn_from_pile`` whether it came
    from the pile (then it may not be discarded or put down, RULES.md 2.3). ``turns`` counts
    finished turns (drops included) of the deal for the turn cap. ``opening_on_top``: the pile's
    top is still the card turned up at the deal (house rule on taking an opening joker).
    ``events`` are this deal's public events, ``deal_points`` each finished deal's points.
    """

    rules: Rules
    seed: int
    chance_steps: int
    phase: Phase
    deal_number: int
    dealer: int
    turn: int
    hands: tuple[tuple[int, ...], ...]
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    wild_card: int | None
    wild_rank: int | None
    opening_on_top: bool
    drops: tuple[int | None, ...]
    has_drawn: tuple[bool, ...]
    drawn: int | None
    drawn_from_pile: bool
    turns: int
    totals: tuple[int, ...]
    deal_points: tuple[tuple[int, ...], ...]
    last_deal: DealSummary | None
    events: tuple[PublicEvent, ...]

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    def live_seats(self) -> tuple[int, ...]:
        """Seats still playing this deal (not dropped)."""
        return tuple(seat for seat, drop in enumerate(self.drops) if drop is None)

    def card_places(self) -> Counter[int]:
        """How many of each card id lie in all places together (the whole pack once dealt)."""
        counts: Counter[int] = Counter(self.stock)
        counts.update(self.pile)
        for hand in self.hands:
            counts.update(hand)
        if self.wild_card is not None:
            counts[self.wild_card] += 1
        return counts


State = IndianRummyState
"""The state type under the name every game package gives it."""


def _positional_builder(cls: type[Any]) -> Any:
    """A function building ``cls`` (a frozen slotted dataclass) from its fields in order, without
    the checks of the generated ``__init__``: it stores each slot through its descriptor, about
    twice as fast, which matters because the engine builds a new state for every action.
    Only for callers that pass well-formed values, as the engine does.

    >>> s = new_state(Rules(), 7)
    >>> values = [getattr(s, f.name) for f in fields(s)]
    >>> built = build_state(*values)
    >>> built == IndianRummyState(*values), type(built) is IndianRummyState, hash(built) == hash(s)
    (True, True, True)
    """
    names = [f.name for f in fields(cls)]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    namespace.update({f"_set_{name}": cls.__dict__[name].__set__ for name in names})
    body = "".join(f"    _set_{name}(self, {name})\n" for name in names)
    source = f"def build({', '.join(names)}):\n    self = _new(_cls)\n{body}    return self\n"
    # The source is made only from the dataclass's own field names, never from outside input.
    exec(source, namespace)
    return namespace["build"]


if TYPE_CHECKING:
    build_state = IndianRummyState
    build_summary = DealSummary
else:
    build_state = _positional_builder(IndianRummyState)
    """Build an :class:`IndianRummyState` from its fields in order (the engine's hot path)."""
    build_summary = _positional_builder(DealSummary)
    """Build a :class:`DealSummary` from its fields in order."""


def new_state(rules: Rules, seed: int) -> IndianRummyState:
    """A game before its first chance step (choosing the first dealer)."""
    if not isinstance(rules, Rules):
        raise RulesError(f"Indian Rummy needs its own Rules, not {type(rules).__name__}")
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise RulesError(f"the seed must be a whole number, not {seed!r}")
    n = rules.players
    return build_state(
        rules, seed, 0, Phase.CHOOSE_DEALER, 0, -1, -1, ((),) * n, (), (), None, None, False,
        (None,) * n, (False,) * n, None, False, 0, (0,) * n, (), None, (),
    )  # fmt: skip


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
) -> IndianRummyState:
    """An exact mid-deal position, for tests, puzzles and the coach.

    Cards may be given as text (``"AS 2S 3S"``) or ids. ``stock`` defaults to every card of the
    pack not placed elsewhere (its order is then the pack order, top last); ``turn`` defaults to
    the dealer's left. In ``DISCARD`` the seat on turn holds 14 cards and ``drawn`` names the card
    it drew (``drawn_from_pile`` if from the pile). ``opening_on_top`` defaults to true when the
    pile holds one card and nobody has drawn. Raises :class:`CardError` when the cards are not
    exactly the pack and :class:`RulesError` for an impossible position. The position has no
    history: its public events are the deal, the pile's first card and the wild joker cut.

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
    seat = (dealer + 1) % n if turn is None else turn
    if not (0 <= dealer < n and 0 <= seat < n):
        raise RulesError("dealer and turn must be seats of the table")
    drop_tuple = tuple(drops) if drops is not None else (None,) * n
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
    return IndianRummyState(
        rules=rules,
        seed=seed,
        chance_steps=2,
        phase=phase,
        deal_number=deal_number,
        dealer=dealer,
        turn=seat,
        hands=hand_tuples,
        stock=stock_cards,
        pile=pile_cards,
        wild_card=wild,
        wild_rank=wild_rank_of(wild) if rules.wild_joker_cut else None,
        opening_on_top=opening_on_top,
        drops=drop_tuple,
        has_drawn=drew,
        drawn=drawn_card if phase is Phase.DISCARD else None,
        drawn_from_pile=drawn_from_pile and phase is Phase.DISCARD,
        turns=turns,
        totals=tuple(totals) if totals is not None else (0,) * n,
        deal_points=(),
        last_deal=None,
        events=tuple(events),
    )
