"""The engine contract that Indecision, Indian Rummy and Declaration Rummy all implement.

A game is a set of pure functions over an immutable state, bundled in one :class:`GameEngine`
object per game and found by name through :mod:`cardtable.registry`:

* ``new_game(rules, seed)`` creates the state. The whole game is then determined by
  ``(game, rules, seed, actions)``: every shuffle and cut is drawn from a
  :func:`chance_rng` seeded by the game's seed and the number of chance steps taken so far,
  never from a global generator.
* ``current_player(state)`` says whose turn it is: a seat number ``0..players-1``,
  :data:`CHANCE` (a shuffle, deal or cut is due: call ``chance_step``), or :data:`TERMINAL`.
* ``legal_actions(state, seat)`` lists what ``seat`` may do now. Usually only the seat on turn
  may act, but a game may allow out-of-turn actions (Declaration Rummy's drop).
* Each action is verify / can / do, as PokerKit's: ``why_illegal(state, action, seat)`` gives
  the :class:`~cardtable.errors.IllegalActionError` naming the rule the action breaks (``None``
  when it is legal), and from it ``check`` gives the reason as a sentence, ``is_legal`` a yes or
  no, and ``apply`` (the checked path for untrusted input) raises it or applies the action. The
  unchecked ``apply_unchecked`` is for bots and search feeding back actions from
  ``legal_actions``. ``why_illegal`` is written here once for the checks every game shares
  (one sentence per rule key); a game adds only its own rules, through its hooks.
* ``view(state, seat)`` is all that leaves the engine toward a player: it hides other hands and
  the stock order (and, in Declaration Rummy, even the exact pile sizes). Every view answers
  the same questions under the same names (:class:`View`: the seat to act, the deal number,
  the scores, the pile's top, the seat's hand and every hand's size, the public events).
* ``result(state)`` is ``None`` until the game is over.
* ``determinize(view, rng)`` builds a full state consistent with a view, dealing the unseen
  cards at random; search bots use it, and tests use it to prove bots see only their view.

Actions are frozen objects whose ``str()`` is their short text notation (``draw stock``,
``discard 7H``); ``parse_action`` reads that notation back. Engines never loop: the driver in
:mod:`cardtable.driver` runs chance steps and asks seats for actions, and every game has a cap
that ends a game that would otherwise never end.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Generic, Literal, Protocol, TypeAlias, TypeVar

from cardtable.cards import format_card
from cardtable.errors import IllegalActionError, RuleKey, RulesError

CHANCE: Final = -1
"""``current_player`` value when a chance step (shuffle, cut, deal) is due."""
TERMINAL: Final = -2
"""``current_player`` value when the game is over."""


class Action(Protocol):
    """An action: frozen, hashable, and printed in the game's short text notation."""

    def __str__(self) -> str: ...

    def __hash__(self) -> int: ...


class View(Protocol):
    """What one seat may see; serialisable for the browser.

    Every game's view answers the same questions under the same names, so that code serving
    every game (table listings, the review, the announcements) reads them without knowing the
    game: ``to_act``, ``deal_number``, ``scores``, ``pile_top``, ``hand``, ``hand_sizes`` and
    the public ``events``. A game may
    keep its own words beside them (Indecision's ``hand_number``, Declaration Rummy's
    ``match_wins``), and its wire format keeps the names the page already reads.
    """

    @property
    def seat(self) -> int:
        """The seat whose view this is."""
        ...

    @property
    def to_act(self) -> int | None:
        """The seat to act now; ``None`` during a chance step, between deals and at the end."""
        ...

    @property
    def deal_number(self) -> int:
        """The number of the current deal (Indecision's hand, Declaration Rummy's game of a
        match), counted from 1 (Indecision and Indian Rummy say 0 before the first deal)."""
        ...

    @property
    def scores(self) -> tuple[int | None, ...]:
        """Each seat's running score in the game's own terms: Indecision's points won, Indian
        Rummy's penalty points, Declaration Rummy's games won in the match."""
        ...

    @property
    def pile_top(self) -> int | None:
        """The discard pile's top card (``None`` when the pile is empty)."""
        ...

    @property
    def hand(self) -> tuple[int, ...]:
        """The seat's own cards."""
        ...

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """How many cards each seat holds."""
        ...

    @property
    def events(self) -> tuple[PublicEvent, ...]:
        """The public events the view keeps (each game says how far back they go)."""
        ...

    def to_json(self) -> dict[str, Any]: ...


class Rules(Protocol):
    """A frozen, keyword-only dataclass of every option of a game; ``players`` is the seat count."""

    @property
    def players(self) -> int: ...


@dataclass(frozen=True, slots=True)
class GameResult:
    """How a game ended.

    ``winners`` are the winning seats (several on a tie game; empty when the game was abandoned
    at its cap). ``scores`` are the final totals in the game's own terms (points won in
    Indecision, penalty points in Indian Rummy, the compared counts in Declaration Rummy; ``None``
    where a seat has no score, such as a dropped player). ``utilities`` are per-seat payoffs on
    one scale where higher is better, for bots and the arena. ``reason`` is a short key
    (``"target"``, ``"declared"``, ``"went-out"``, ``"cap"``…) and ``summary`` a sentence.
    """

    winners: tuple[int, ...]
    scores: tuple[int | None, ...]
    utilities: tuple[float, ...]
    reason: str
    summary: str

    def to_json(self) -> dict[str, Any]:
        """The result as JSON-ready data."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "utilities": list(self.utilities),
            "reason": self.reason,
            "summary": self.summary,
        }


def chance_rng(seed: int, step: int) -> random.Random:
    """The generator for chance step number ``step`` of the game seeded with ``seed``.

    Seeding from a string hashes it with SHA-512, so the stream is the same on every platform and
    Python version, and each step's draw does not depend on how much earlier steps consumed.
    """
    return random.Random(f"cardtable:{seed}:{step}")


Verdict: TypeAlias = IllegalActionError | Literal[True] | None
"""What a game's hook in :meth:`GameEngine.why_illegal` says: an error refuses the action,
``True`` lets it be taken whoever's turn it is (the game's own rules still check it), ``None``
leaves it to the shared checks that follow."""

CHANCE_PENDING_SENTENCE: Final = (
    "the cards are being cut, shuffled or dealt: wait for play to start"
)
GAME_OVER_SENTENCE: Final = "the game is over"


def unknown_action(title: str, action: object) -> IllegalActionError:
    """The refusal of something that is not one of the game's actions.

    >>> str(unknown_action("Indian Rummy", "draw"))
    "'draw' is not an Indian Rummy action"
    """
    article = "an" if title[:1].upper() in "AEIOU" else "a"
    return IllegalActionError(
        f"{action!r} is not {article} {title} action", rule=RuleKey.UNKNOWN_ACTION
    )


def no_such_seat(seat: object, players: int) -> IllegalActionError:
    """The refusal of a seat the table does not have (a bool is no seat number).

    >>> str(no_such_seat(True, 2))
    'there is no seat True at this 2-player table'
    """
    return IllegalActionError(
        f"there is no seat {seat!r} at this {players}-player table", rule=RuleKey.NO_SUCH_SEAT
    )


def not_your_turn(acting: int) -> IllegalActionError:
    """The refusal of a move by a seat that is not to act (``acting`` is)."""
    return IllegalActionError(
        f"it is not your turn: seat {acting} is to play", rule=RuleKey.NOT_YOUR_TURN
    )


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT", bound=Action)
RulesT = TypeVar("RulesT", bound=Rules)
ViewT = TypeVar("ViewT", bound=View)


class GameEngine(ABC, Generic[StateT, ActionT, RulesT, ViewT]):
    """One game's engine: pure functions over an immutable state (see the module docstring)."""

    name: ClassVar[str]
    """Registry name: ``indecision``, ``indian-rummy`` or ``declaration-rummy``."""
    title: ClassVar[str]
    """Display name."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    rules_type: ClassVar[type[Any]]
    action_types: ClassVar[tuple[type[Any], ...]]
    """The game's action classes: anything else is refused as an unknown action."""

    @abstractmethod
    def presets(self) -> Mapping[str, RulesT]:
        """Named rule sets; ``"default"`` reproduces the rule book's defaults."""

    @abstractmethod
    def new_game(self, rules: RulesT, seed: int) -> StateT:
        """A new game; usually its first step is a chance step (cut or deal)."""

    @abstractmethod
    def current_player(self, state: StateT) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""

    @abstractmethod
    def legal_actions(self, state: StateT, seat: int) -> Sequence[ActionT]:
        """Every action ``seat`` may take now (empty when it may take none)."""

    def why_illegal(self, state: StateT, action: object, seat: int) -> IllegalActionError | None:
        """The error naming the rule that forbids ``action`` by ``seat`` now (its ``rule`` is a
        :class:`~cardtable.errors.RuleKey`), or ``None`` when the action is legal.

        A template: the checks every game shares come first, in one order and in one sentence
        per rule key (an unknown action; a seat the table does not have, a bool being no seat;
        the game being over; a chance step being due; another seat being to act), and the game
        adds only its own rules through three hooks: :meth:`why_illegal_any_phase` (before the
        chance check: rules that hold whatever is due), :meth:`why_illegal_off_turn` (before
        the turn check: what a seat may or may not do out of turn) and :meth:`why_illegal_now`
        (the game's rules for a seat allowed to act).
        """
        if not isinstance(action, self.action_types):
            return unknown_action(self.title, action)
        players = self.players(state)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < players:
            return no_such_seat(seat, players)
        acting = self.current_player(state)
        if acting == TERMINAL:
            return IllegalActionError(GAME_OVER_SENTENCE, rule=RuleKey.GAME_OVER)
        verdict = self.why_illegal_any_phase(state, action, seat)
        if verdict is None:
            if acting == CHANCE:
                return IllegalActionError(CHANCE_PENDING_SENTENCE, rule=RuleKey.CHANCE_PENDING)
            verdict = self.why_illegal_off_turn(state, action, seat)
            if verdict is None and seat != acting:
                return not_your_turn(acting)
        if verdict is not None and verdict is not True:
            return verdict
        return self.why_illegal_now(state, action, seat)

    def why_illegal_any_phase(self, state: StateT, action: ActionT, seat: int) -> Verdict:
        """The game's rules checked before the chance and turn checks (see :data:`Verdict`);
        by default none."""
        return None

    def why_illegal_off_turn(self, state: StateT, action: ActionT, seat: int) -> Verdict:
        """The game's rules checked before the turn check, once no chance step is due (see
        :data:`Verdict`); by default none."""
        return None

    @abstractmethod
    def why_illegal_now(
        self, state: StateT, action: ActionT, seat: int
    ) -> IllegalActionError | None:
        """The game's own rules for ``action`` by ``seat``, once the shared checks let it act."""

    def check(self, state: StateT, action: object, seat: int) -> str | None:
        """The reason ``seat`` may not take ``action`` now, as a sentence; ``None`` if it may."""
        problem = self.why_illegal(state, action, seat)
        return None if problem is None else str(problem)

    def is_legal(self, state: StateT, action: object, seat: int) -> bool:
        """May ``seat`` take ``action`` now?"""
        return self.why_illegal(state, action, seat) is None

    def apply(self, state: StateT, action: ActionT, seat: int) -> StateT:
        """Checked apply: raise ``IllegalActionError`` naming the rule, else the next state."""
        problem = self.why_illegal(state, action, seat)
        if problem is not None:
            raise problem
        return self.apply_unchecked(state, action, seat)

    @abstractmethod
    def apply_unchecked(self, state: StateT, action: ActionT, seat: int) -> StateT:
        """Fast apply for an action taken from ``legal_actions(state, seat)``."""

    @abstractmethod
    def chance_step(self, state: StateT, rng: random.Random | None = None) -> StateT:
        """Perform the due chance step (shuffle, cut, deal) with :func:`chance_rng`, or with
        ``rng`` when given (the OpenSpiel adapter passes one that answers every draw with a
        chance outcome it chose; draws go through ``randrange``, ``sample``, ``shuffle`` and
        :func:`cardtable.cards.shuffled`)."""

    @abstractmethod
    def view(self, state: StateT, seat: int) -> ViewT:
        """What ``seat`` may see."""

    @abstractmethod
    def result(self, state: StateT) -> GameResult | None:
        """The result once the game is over, else ``None``."""

    @abstractmethod
    def parse_action(self, text: str) -> ActionT:
        """Read an action's text notation; raise ``ActionSyntaxError`` naming the problem."""

    @abstractmethod
    def determinize(self, view: ViewT, rng: random.Random) -> StateT:
        """A full state consistent with ``view``: hidden cards dealt at random from the unseen."""

    @abstractmethod
    def rules_of(self, state: StateT) -> RulesT:
        """The rules a state is played under."""

    def players(self, state: StateT) -> int:
        """Number of seats."""
        return self.rules_of(state).players

    def with_people_seated(self, rules: RulesT) -> RulesT:
        """``rules`` for a table where a person plays (the server and the terminal game call it).

        The turn and hand caps RULES.md keeps for computer-only play abandon a hand or deal
        unscored; with people seated they must not wipe points already earned, so a game whose
        caps would do that has a ``people_seated`` rule the engine reads. It is part of the rules,
        hence of the game record, so a replay ends the same way.
        """
        if any(f.name == "people_seated" for f in dataclasses.fields(rules)):  # type: ignore[arg-type]
            seated: RulesT = dataclasses.replace(rules, people_seated=True)  # type: ignore[type-var]
            return seated
        return rules

    def rules_to_json(self, rules: RulesT) -> dict[str, Any]:
        """A rules object as JSON-ready data (the inverse of :meth:`rules_from_json`)."""
        return rules_to_json(rules)

    def rules_from_json(self, data: Mapping[str, Any]) -> RulesT:
        """Build validated rules from JSON data; unknown keys raise ``RulesError``."""
        built: RulesT = rules_from_json(self.rules_type, data)
        return built


AnyEngine = GameEngine[Any, Any, Any, Any]
"""An engine of any game, as code that serves every game (driver, search, server) holds it."""


def rules_to_json(rules: Any) -> dict[str, Any]:
    """Dataclass fields to JSON data; nested dataclasses become objects, tuples lists."""

    def convert(value: Any) -> Any:
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            return {f.name: convert(getattr(value, f.name)) for f in dataclasses.fields(value)}
        if isinstance(value, tuple | list | frozenset | set):
            items = [convert(v) for v in value]
            return sorted(items) if isinstance(value, frozenset | set) else items
        return value

    converted: dict[str, Any] = convert(rules)
    return converted


def view_rules_json(rules: Any) -> dict[str, Any]:
    """:func:`rules_to_json` for a view's JSON, the same dict for equal rules (never to be
    changed): every seat's view carries the table's rules after every move."""
    try:
        return _view_rules_json(rules)
    except TypeError:  # unhashable rules: converted each time
        return rules_to_json(rules)


@functools.lru_cache(maxsize=256)
def _view_rules_json(rules: Any) -> dict[str, Any]:
    return rules_to_json(rules)


T = TypeVar("T")
_BY_IDENTITY: dict[tuple[str, int], tuple[Any, Any]] = {}
_BY_IDENTITY_SIZE: Final = 256


def by_identity(kind: str, key: Any, make: Callable[[Any], T]) -> T:
    """``make(key)``, remembered while ``key`` is the very same object (kept alive here, so
    that its id is not reused meanwhile): the views of every seat of one state share its
    event list, which the JSON of each view lists whole. The result is never to be changed."""
    slot = (kind, id(key))
    cached = _BY_IDENTITY.get(slot)
    if cached is not None and cached[0] is key:
        made: T = cached[1]
        return made
    made = make(key)
    if len(_BY_IDENTITY) >= _BY_IDENTITY_SIZE:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[slot] = (key, made)
    return made


_BY_PREFIX: dict[tuple[str, Any], list[tuple[tuple[Any, ...], list[Any]]]] = {}
_PREFIX_CANDIDATES: Final = 16
"""Lists remembered per first item: the deals of many tables start alike (engines share their
event objects between tables, and equal events give equal JSON)."""


def by_prefix(
    kind: str, items: tuple[Any, ...], make: Callable[[tuple[Any, ...]], list[Any]]
) -> list[Any]:
    """``make(items)`` for a ``make`` that maps item by item (``make(a + b)`` is ``make(a) +
    make(b)``), worked out for the items added since the last tuple of the same start: a
    deal's event list grows by one event a move, and converting it whole after every move
    costs a deal's length each time. Items are compared by value (equal items map alike);
    unhashable ones are converted each time. The result is never to be changed.

    >>> calls = []
    >>> def double(part):
    ...     calls.append(len(part))
    ...     return [2 * x for x in part]
    >>> first = ("a-deal", 1, 2)
    >>> by_prefix("doctest", first, double), by_prefix("doctest", (*first, 3), double), calls
    (['a-deala-deal', 2, 4], ['a-deala-deal', 2, 4, 6], [3, 1])

    Tuples of many tables that start with the same item are each remembered (each table's
    list grows from its own):

    >>> calls.clear()
    >>> other = ("a-deal", 5)
    >>> _ = by_prefix("doctest", other, double)
    >>> by_prefix("doctest", (*first, 3, 4), double), by_prefix("doctest", (*other, 6), double)
    (['a-deala-deal', 2, 4, 6, 8], ['a-deala-deal', 10, 12])
    >>> calls
    [2, 1, 1]
    """
    if not items:
        return make(items)
    slot = (kind, items[0])
    try:
        candidates = _BY_PREFIX.pop(slot, None)
    except TypeError:  # an unhashable item
        return make(items)
    if candidates is None:
        if len(_BY_PREFIX) >= _BY_IDENTITY_SIZE:
            # The start used least lately goes (a deal long over, or a turn's window gone);
            # views are also made in threads, so another may have just taken it out.
            with contextlib.suppress(KeyError, RuntimeError, StopIteration):
                del _BY_PREFIX[next(iter(_BY_PREFIX))]
        candidates = []
    _BY_PREFIX[slot] = candidates  # last in the order: used now
    count = len(items)
    for before, made in candidates:
        size = len(before)
        if count < size:
            continue
        # The last item first (one comparison, identity first), then the whole prefix.
        last = items[size - 1]
        if (last is before[-1] or last == before[-1]) and items[:size] == before:
            if count == size:
                return made
            # The shorter list stays remembered too: another table's list may have grown to
            # it (equal events), and that table's next list grows from it in its turn.
            grown = made + make(items[size:])
            candidates.insert(0, (items, grown))
            del candidates[_PREFIX_CANDIDATES:]
            return grown
    made = make(items)
    candidates.insert(0, (items, made))
    del candidates[_PREFIX_CANDIDATES:]
    return made


def events_json(events: Sequence[PublicEvent]) -> list[dict[str, Any]]:
    """A view's public events as JSON-ready data (:meth:`PublicEvent.to_json` of each), built
    once for the event list that all seats' views of a state share, and from the list of the
    state before for a list that grew (:func:`by_prefix`). Never to be changed."""
    return by_identity("events", events, _events_json)


def _events_json(events: Sequence[PublicEvent]) -> list[dict[str, Any]]:
    if isinstance(events, tuple):
        return by_prefix("events", events, _each_event_json)
    return [event.to_json() for event in events]


def _each_event_json(events: Sequence[PublicEvent]) -> list[dict[str, Any]]:
    return [event.to_json() for event in events]


def rules_from_json(rules_type: type[Any], data: Mapping[str, Any]) -> Any:
    """Build a frozen rules dataclass (possibly with nested dataclass fields) from JSON data."""
    if not isinstance(data, Mapping):
        raise RulesError(f"rules must be an object, not {type(data).__name__}")
    fields = {f.name: f for f in dataclasses.fields(rules_type)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise RulesError(f"unknown rule option(s) for {rules_type.__name__}: {', '.join(unknown)}")
    defaults = rules_type()
    kwargs: dict[str, Any] = {}
    for name, value in data.items():
        current = getattr(defaults, name)
        if dataclasses.is_dataclass(current) and isinstance(value, Mapping):
            kwargs[name] = rules_from_json(type(current), value)
        elif isinstance(current, frozenset) and isinstance(value, list | tuple):
            kwargs[name] = frozenset(value)
        elif isinstance(current, tuple) and isinstance(value, list):
            kwargs[name] = tuple(value)
        else:
            kwargs[name] = value
    try:
        return rules_type(**kwargs)
    except TypeError as exc:
        raise RulesError(f"bad rules for {rules_type.__name__}: {exc}") from None


@dataclass(frozen=True, slots=True)
class PublicEvent:
    """One thing every seat saw happen, kept in views so that players, bots, the coach and the
    browser can follow the table: ``seat`` did ``verb`` with the face-up ``cards`` (empty when
    the cards were not shown, as for a draw from the stock).

    Verbs used by all games: ``draw-stock``, ``take-discard``, ``discard``, ``drop``, ``deal``,
    ``declare``; each game adds its own (``stop``, ``go-out``, ``propose-tie``, ``accept-tie``…).
    """

    seat: int
    verb: str
    cards: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        """The event as JSON-ready data (cards as labels). The same dict for equal events,
        never to be changed: a view lists the deal's every event, for every seat after every
        move, and most of them were listed before."""
        return _event_json(self.seat, self.verb, self.cards)


@functools.lru_cache(maxsize=1 << 16)
def _event_json(seat: int, verb: str, cards: tuple[int, ...]) -> dict[str, Any]:
    return {"seat": seat, "verb": verb, "cards": [format_card(c) for c in cards]}
