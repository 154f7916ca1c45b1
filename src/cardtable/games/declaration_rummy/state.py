"""The Declaration Rummy game state: one immutable record, its :class:`Phase`, the records of a
finished game, table geometry helpers and :func:`scenario` for mid-game scenarios.

The state is a ``NamedTuple``: immutable like a frozen dataclass, but ``_replace`` costs a
fraction of ``dataclasses.replace``, and the engine makes one new state per action (random
playouts and search bots make millions). Every field is plain data (ints, tuples, enums, frozen
records), so equal games give equal states and a replayed record compares equal to the original.

Cards are ints (:mod:`cardtable.cards`); the stock and the discard pile are tuples whose **last**
element is the top card. Seats are player numbers ``0..players-1`` and never change; ``order``
says who sits at each table position, clockwise (to the left), which only the Seating variation
makes differ from ``0, 1, 2…``. One state is one game, or one whole match when ``rules.match``
is set (``game_number`` counts its games).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any, Final, NamedTuple

from cardtable.cards import (
    DECLARATION_RUMMY_DECK,
    SPECIAL_LABELS,
    check_hand,
    format_card,
    format_cards,
    parse_cards,
)
from cardtable.errors import RulesError
from cardtable.games.contract import PublicEvent
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.replacing import replacer
from cardtable.melds.declaration import card_count, dr_best, dr_go_out_arrangement

_OPTIONAL_IDS: Final = {label: card for card, label in SPECIAL_LABELS.items() if card != 52}


class Phase(Enum):
    """Where a game stands. Chance phases are run by the driver (``chance_step``)."""

    PRELIMINARY = "preliminary"
    """Chance: the agreed shuffler (seat 0) shuffles, the player to its right may cut, and
    cards are dealt face up to choose the first dealer."""
    SEATING = "seating"
    """Chance (Seating variation): players choose their places, lowest card first."""
    SHUFFLE = "shuffle"
    """Chance: the dealer shuffles (and removes the Missing Cards, and deals seven piles)."""
    CUT = "cut"
    """Chance: the player to the dealer's right may cut; then the deal."""
    RESHUFFLE = "reshuffle"
    """Chance (Declare or Go Out): the discard pile but its top card becomes a new stock."""
    RESHUFFLE_CUT = "reshuffle-cut"
    """Chance: the player to the dealer's right may cut the new stock."""
    DRAW = "draw"
    """The player on turn must draw (or, once the stock is exhausted, take the top discard or
    decline)."""
    PLAY = "play"
    """The player on turn has drawn: declare, go out, take extra cards, or discard."""
    TIE_VOTE = "tie-vote"
    """A tie was proposed; the remaining players answer one by one in turn order."""
    BETWEEN_GAMES = "between-games"
    """Match: a game is over; the next game's first player starts it (``next game``)."""
    OVER = "over"
    """The game (or the match) is over."""


CHANCE_PHASES: Final = frozenset(
    {
        Phase.PRELIMINARY,
        Phase.SEATING,
        Phase.SHUFFLE,
        Phase.CUT,
        Phase.RESHUFFLE,
        Phase.RESHUFFLE_CUT,
    }
)
BEFORE_DEAL: Final = frozenset({Phase.PRELIMINARY, Phase.SEATING, Phase.SHUFFLE, Phase.CUT})
"""Phases in which no cards are in the hands yet."""


class DrawKind(Enum):
    """How the player on turn drew this turn (public: everyone sees where cards come from)."""

    NONE = "none"
    STOCK = "stock"
    TOP_DISCARD = "top-discard"
    SPREAD = "spread"
    """Several cards from a spread-out discard pile."""
    EXTRA = "extra"
    """The top discard, then the Three-Card Draw extra pair."""


@dataclass(frozen=True, slots=True)
class TieVote:
    """A tie proposal under vote: ``pending`` seats still to answer, first one answering now."""

    proposer: int
    accepted: tuple[int, ...]
    pending: tuple[int, ...]
    resume: Phase
    """The phase play resumes in if someone rejects."""


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """How one game ended, with every non-dropped hand revealed.

    ``reason``: ``declared``, ``went-out``, ``four-sevens``, ``declined`` (stock exhausted and a
    player declined the discard pile), ``exhaustion-cap`` / ``turn-cap`` (safeguards, ending as
    if declined), ``last-player`` (all others dropped) or ``tie`` (agreed tie game, no winner).
    ``counts`` are the true counts of the revealed hands and ``compared`` the counts compared
    (the declarer's reduced by one under Declare Bonus); both ``None`` for dropped players, whose
    ``hands`` are ``None`` too. ``ender`` is the seat whose action ended the game. The melds of
    each revealed hand are worked out on demand (:meth:`melds_of`): random playouts and search
    end many games whose hands nobody looks at.
    """

    game: int
    reason: str
    winner: int | None
    ender: int | None
    declarer: int | None
    hands: tuple[tuple[int, ...] | None, ...]
    counts: tuple[int | None, ...]
    compared: tuple[int | None, ...]
    tie_break: str | None
    summary: str
    single_meld: bool = False
    """Going Out Major or Minor was in play (how a winner who went out laid the cards)."""

    def melds_of(self, seat: int) -> tuple[tuple[int, ...], ...] | None:
        """The melds ``seat`` shows: how it went out, else a best arrangement of its hand;
        ``None`` for a dropped player."""
        hand = self.hands[seat]
        if hand is None:
            return None
        if self.reason == "went-out" and seat == self.winner:
            arrangement = dr_go_out_arrangement(hand, single_meld=self.single_meld)
            if arrangement is not None:
                return arrangement[0]
        return dr_best(hand)[1]

    def unmelded_points(self, seat: int) -> list[list[str | int]] | None:
        """``[label, points]`` of each card of ``seat``'s shown hand outside its melds, in
        hand order; ``None`` for a dropped player."""

        hand, melds = self.hands[seat], self.melds_of(seat)
        if hand is None or melds is None:
            return None
        left = Counter(hand)
        left.subtract(card for meld in melds for card in meld)
        loose: list[list[str | int]] = []
        for card in hand:
            if left[card] > 0:
                left[card] -= 1
                loose.append([format_card(card), card_count(card)])
        return loose

    def to_json(self) -> dict[str, Any]:
        """The outcome as JSON-ready data (cards as labels)."""
        return {
            "game": self.game,
            "reason": self.reason,
            "winner": self.winner,
            "ender": self.ender,
            "declarer": self.declarer,
            "hands": [None if h is None else format_cards(h).split() for h in self.hands],
            "counts": list(self.counts),
            "compared": list(self.compared),
            "melds": [
                None if m is None else [format_cards(meld).split() for meld in m]
                for m in (self.melds_of(seat) for seat in range(len(self.hands)))
            ],
            # What each unmelded card adds to the count, so that no reader works it out.
            "unmelded_points": [self.unmelded_points(seat) for seat in range(len(self.hands))],
            "tie_break": self.tie_break,
            "summary": self.summary,
        }


class DeclarationRummyState(NamedTuple):
    """A Declaration Rummy game (or match) at one moment. See the module docstring."""

    rules: Rules
    seed: int
    phase: Phase
    chance_steps: int
    """Chance steps taken so far in the whole match (the index of the next one)."""
    order: tuple[int, ...]
    """Seat at each table position, clockwise."""
    positions: tuple[int, ...]
    """Table position of each seat (the inverse of ``order``)."""
    dealer: int
    """Seat of this game's dealer; -1 before the Preliminary has chosen one."""
    first_player: int
    """Seat that draws first in this game (tie breaks count from it); -1 before the deal."""
    turn: int
    """Seat on turn (or whose turn a reshuffle precedes); -1 outside play."""
    hands: tuple[tuple[int, ...], ...]
    """Every seat's cards, including dropped players' face-down hands."""
    stock: tuple[int, ...]
    pile: tuple[int, ...]
    removed: tuple[int, ...]
    """Cards put out of play unseen (Missing Cards)."""
    dropped: tuple[bool, ...]
    drawn: tuple[int, ...]
    """Cards the player on turn took this turn (their own knowledge; shown to them)."""
    draw_kind: DrawKind
    exhaustion: bool
    """This turn is played under the stock-exhausted ending (RULES.md 3.9)."""
    exhausted_turns: int
    """Turns begun with an exhausted stock (for the ``exhaustion_circuits`` safeguard)."""
    turns: int
    """Turns begun in this game (for the ``turn_cap`` safeguard)."""
    tie_proposers: tuple[int, ...]
    """Seats that proposed a tie during the current turn (one proposal per seat per turn)."""
    vote: TieVote | None
    events: tuple[PublicEvent, ...]
    """Public events of the previous and the current turn."""
    turn_event_start: int
    """Index in ``events`` where the current turn's events begin."""
    preliminary: tuple[tuple[int, ...], ...]
    """Cards each seat was dealt face up in the Preliminary of the first game."""
    outcome: GameOutcome | None
    """The last finished game's outcome (cleared when the next game is dealt)."""
    game_number: int
    match_wins: tuple[int, ...]
    history: tuple[GameOutcome, ...]
    """Every finished game of the match, in order."""
    discard_masks: tuple[int, ...] = ()
    """The public history of this game, compactly: per seat, a bitmask (bit ``c`` for card id
    ``c``) of the cards it discarded face up since the deal (empty before any discard)."""
    held_masks: tuple[int, ...] = ()
    """Per seat, a bitmask of the cards it took face up from the discard pile since the deal and
    has not discarded since: cards everyone knows it holds (empty before any such take)."""


# --- table geometry ---------------------------------------------------------------------------


State = DeclarationRummyState
"""The state type under the name every game package gives it."""

replace_state: Final = replacer(DeclarationRummyState)
"""``replace_state(state, **changes)``: ``state._replace(**changes)``, more cheaply
(the engine builds a new state for every action and chance step; see
:mod:`cardtable.games.replacing`)."""


def seat_left_of(state: DeclarationRummyState, seat: int) -> int:
    """The seat immediately to the left (clockwise) of ``seat``, dropped or not."""
    n = len(state.order)
    return state.order[(state.positions[seat] + 1) % n]


def seat_right_of(state: DeclarationRummyState, seat: int) -> int:
    """The seat immediately to the right of ``seat``, dropped or not."""
    n = len(state.order)
    return state.order[(state.positions[seat] - 1) % n]


def next_remaining(state: DeclarationRummyState, seat: int, *, include_self: bool) -> int:
    """The first seat still in the game clockwise from ``seat`` (``seat`` itself if allowed)."""
    n = len(state.order)
    position = state.positions[seat]
    if True not in state.dropped:
        return seat if include_self else state.order[(position + 1) % n]
    for step in range(0 if include_self else 1, n + 1):
        candidate = state.order[(position + step) % n]
        if not state.dropped[candidate]:
            return candidate
    raise RulesError("no player remains in the game")


def remaining_seats(state: DeclarationRummyState) -> tuple[int, ...]:
    """Seats still in the game, in table order starting from position 0."""
    return tuple(seat for seat in state.order if not state.dropped[seat])


def offset_from_first(state: DeclarationRummyState, seat: int) -> int:
    """Clockwise offset of ``seat`` from the first player (first player 0; ties favour the
    highest: RULES.md 3.8)."""
    n = len(state.order)
    return (state.positions[seat] - state.positions[state.first_player]) % n


def pack_cards(rules: Rules) -> tuple[int, ...]:
    """The 52 regular cards and the optional cards chosen for the game, in id order."""
    return _pack_of(rules.optional_cards)


def optional_card_ids(labels: tuple[str, ...]) -> tuple[int, ...]:
    """Card ids of optional card labels, in the order given."""
    return tuple(_OPTIONAL_IDS[label] for label in labels)


@lru_cache(maxsize=256)
def _pack_of(labels: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(range(52)) + tuple(sorted(optional_card_ids(labels)))


def removed_count(rules: Rules) -> int:
    """How many cards the Missing Cards variation puts out of play unseen."""
    if not rules.missing_cards:
        return 0
    return min(rules.missing_optional, len(rules.optional_cards)) + rules.missing_regular


# --- scenario builder ---------------------------------------------------------------------------

CardsLike = str | Sequence[int]


def _cards(value: CardsLike) -> tuple[int, ...]:
    if isinstance(value, str):
        return parse_cards(value, deck=None)
    return tuple(value)


def scenario(
    rules: Rules,
    hands: Sequence[CardsLike],
    *,
    stock: CardsLike = "",
    pile: CardsLike = "",
    removed: CardsLike = "",
    dealer: int = 0,
    first_player: int | None = None,
    turn: int | None = None,
    phase: Phase = Phase.DRAW,
    dropped: Iterable[int] = (),
    drawn: CardsLike = "",
    draw_kind: DrawKind | None = None,
    exhaustion: bool = False,
    order: Sequence[int] | None = None,
    turns: int = 1,
    seed: int = 0,
    chance_steps: int = 3,
    game_number: int = 1,
    match_wins: Sequence[int] | None = None,
) -> DeclarationRummyState:
    """A mid-game state for scenario tests, tutorials and puzzles.

    Cards are given as text (``"2H 3H 4H"``, top of stock and pile **last**) or as card ids;
    hands are stored sorted, as the engine keeps them.
    ``first_player`` defaults to the seat left of ``dealer``, ``turn`` to the first player;
    ``phase`` is ``DRAW`` (start of a turn) or ``PLAY`` (after drawing: then give ``drawn``, the
    cards already added to the hand, and optionally ``draw_kind``). The cards must be ones the
    pack of ``rules`` could hold, each at most once (WILDCARD three times); cards of the pack
    that appear nowhere are simply out of this scenario. Raises ``CardError`` for a card given
    twice and ``RulesError`` for one the rules leave out of the pack.

    >>> s = scenario(Rules(players=2), ["2H 3H", "KS KD"], stock="5C 9D", pile="7S")
    >>> s.turn, s.stock[-1] == parse_cards("9D")[0], s.phase.value
    (1, True, 'draw')
    """
    players = rules.players
    if len(hands) != players:
        raise RulesError(f"scenario needs {players} hands, got {len(hands)}")
    hand_cards = tuple(tuple(sorted(_cards(h))) for h in hands)
    stock_cards, pile_cards, removed_cards = _cards(stock), _cards(pile), _cards(removed)
    everything = [c for h in hand_cards for c in h] + [*stock_cards, *pile_cards, *removed_cards]
    check_hand(everything, DECLARATION_RUMMY_DECK)
    in_pack = Counter(pack_cards(rules))
    for card, n in Counter(everything).items():
        if n > in_pack[card]:
            raise RulesError(
                f"card {format_cards([card])} is not (or not that often) in this game's pack; "
                "add it to rules.optional_cards"
            )
    table = tuple(order) if order is not None else tuple(range(players))
    if sorted(table) != list(range(players)):
        raise RulesError(f"order must list every seat once, not {table!r}")
    positions = [0] * players
    for position, seat in enumerate(table):
        positions[seat] = position
    dropped_flags = tuple(seat in set(dropped) for seat in range(players))
    first = first_player if first_player is not None else table[(positions[dealer] + 1) % players]
    on_turn = turn if turn is not None else first
    drawn_cards = _cards(drawn)
    kind = draw_kind
    if kind is None:
        kind = DrawKind.STOCK if phase is Phase.PLAY else DrawKind.NONE
    return DeclarationRummyState(
        rules=rules,
        seed=seed,
        phase=phase,
        chance_steps=chance_steps,
        order=table,
        positions=tuple(positions),
        dealer=dealer,
        first_player=first,
        turn=on_turn,
        hands=hand_cards,
        stock=stock_cards,
        pile=pile_cards,
        removed=removed_cards,
        dropped=dropped_flags,
        drawn=drawn_cards,
        draw_kind=kind,
        exhaustion=exhaustion,
        exhausted_turns=1 if exhaustion else 0,
        turns=turns,
        tie_proposers=(),
        vote=None,
        events=(),
        turn_event_start=0,
        preliminary=tuple(() for _ in range(players)),
        outcome=None,
        game_number=game_number,
        match_wins=tuple(match_wins) if match_wins is not None else (0,) * players,
        history=(),
    )
