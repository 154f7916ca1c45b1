"""The websocket protocol: every message a client sends and every message it is sent, declared
once here.

**Client messages** are pydantic models, one per ``type`` (:data:`ClientMessage`, a union
discriminated by ``type``), read in one place, :func:`parse_client_message`: a JSON text frame
of at most :data:`MAX_MESSAGE_BYTES` becomes one model, anything else a :class:`ProtocolError`
carrying the error code the client is sent back and a sentence naming the problem (each
field's :class:`Refusal`, declared beside it, says which). The room's messages share bases that
say who may send them and when (:class:`RoomBase`, :class:`HostWaitingBase`…). Fields a model
does not name are ignored; those it names are strict (``1.0`` or ``true`` is not a seat
number). What only the table can judge (whether a seat exists, whose turn it is) is checked
where the message is handled.

**Server messages** are typed dicts (:class:`StateMessage`, :class:`ErrorMessage`…; the union
:data:`ServerMessage`), built by the functions below: a state is sent to every seat after
every move, so a message is the plain dict it is typed as and is encoded to JSON text once, by
orjson, however many connections it goes to (:class:`Frame`). A pydantic model per seat cost
2.5 to 4 times as much to build and encode as the dict, for the same text. pydantic reads the
same declarations (:data:`SERVER_MESSAGES`): the tests check real frames against them, and
the message tables of ``docs/protocol.md`` are generated from both sides
(:mod:`cardtable.server.protocol.doc`).

The parts of a message that another layer owns are JSON objects here (:data:`JsonObject`):
a game's view and result details (each game's ``view.py``) and the coach's near-melds.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Annotated, Any, ClassVar, Final, Literal, NotRequired, TypeAlias, get_args

import orjson
from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
    JsonValue,
    TypeAdapter,
    ValidationError,
)
from typing_extensions import TypedDict

from cardtable.cards import parse_card
from cardtable.errors import CardError, CardtableError
from cardtable.fairness import check_contribution
from cardtable.server.people.player_options import BOT_LEVELS
from cardtable.server.people.room import PHRASES, InviteJson, Role, RoomSettingsJson, TablePhase
from cardtable.server.table.seating import BotLevel

MAX_MESSAGE_BYTES: Final = 4096
MAX_ACTION_LENGTH: Final = 200
MAX_GROUPS: Final = 20
"""More groups than a hand can hold cards is never a real arrangement."""
MAX_CARDS: Final = 40
"""Cards named across all groups (the longest hand is Declaration Rummy's 14 or so)."""
CLIENT_ID_PATTERN: Final = r"^[A-Za-z0-9_-]{1,64}$"
CLIENT_ID: Final = re.compile(CLIENT_ID_PATTERN)

JsonObject: TypeAlias = dict[str, JsonValue]
"""A JSON object whose shape another layer declares (a game's view, a summary)."""

ErrorCode = Literal[
    "malformed",
    "unknown-type",
    "illegal",
    "stale",
    "not-your-turn",
    "too-large",
    "finished",
    "not-seated",
    "no-table",
    "unavailable",
    "forbidden-origin",
    "rate-limited",
    "server",
    "not-member",
    "spectator",
    "not-host",
    "phase",
    "seat-taken",
    "not-ready",
    "bad-seat",
    "bad-phrase",
]
AutoReason = Literal["timeout", "away", "left"]
UnitKind = Literal["deal", "game", "match"]
"""A unit of play that a move can finish (a hand of Indecision is a ``deal``)."""


class ProtocolError(CardtableError, ValueError):
    """A client message the table refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: ErrorCode, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.rule = rule

    def to_message(self) -> ErrorMessage:
        """The error message sent to the client that caused it."""
        return error_message(self.code, str(self), rule=self.rule)


# --- client messages -----------------------------------------------------------------------------


def _notation(text: str) -> str:
    text = text.strip()
    if not text:
        raise ValueError('an action needs "action": its text notation')
    if len(text) > MAX_ACTION_LENGTH:
        raise ValueError(f"action notation longer than {MAX_ACTION_LENGTH} characters")
    return text


PHRASE_SENTENCE: Final = f"phrase must be one of {', '.join(PHRASES)}"


def _phrase(text: str) -> str:
    if text not in PHRASES:
        raise ValueError(PHRASE_SENTENCE)
    return text


def _contribution(text: str) -> str:
    try:
        return check_contribution(text)
    except CardtableError as exc:  # raised as a ValueError, so that pydantic reports it
        raise ValueError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Refusal:
    """A client field's error code and sentence when its value is missing or of the wrong type,
    declared beside the field (``Annotated[..., Refusal(...)]``); ``{type}`` in the sentence is
    the message's type. A check of the field's own (the notation's length) says its own
    sentence."""

    code: ErrorCode
    sentence: str


def _refused(sentence: str, code: ErrorCode = "malformed") -> Refusal:
    return Refusal(code, sentence)


Notation = Annotated[str, AfterValidator(_notation)]
Contribution = Annotated[str, AfterValidator(_contribution)]
Phrase = Annotated[str, AfterValidator(_phrase), Field(json_schema_extra={"enum": list(PHRASES)})]
"""One of the quick messages' phrases (:data:`cardtable.server.people.PHRASES`)."""
SeatNumber = Annotated[
    int,
    Field(description="a seat number, from 0"),
    _refused('"{type}" needs "seat": a seat number'),
]
"""The seat a room message names."""
ContributionField = Annotated[
    Contribution | None, _refused("a contribution must be 8 to 64 hex digits (0-9, a-f)")
]
"""A person's contribution to the fair deal (left out: the server's own randomness)."""


def _tag(model: type[BaseModel]) -> str:
    """A message model's ``type``, from its ``Literal`` annotation."""
    tag: str = get_args(model.model_fields["type"].annotation)[0]
    return tag


class ClientBase(BaseModel):
    """A client message: strict fields, other fields ignored, never changed once read."""

    model_config = ConfigDict(strict=True, extra="ignore", frozen=True)

    refusals: ClassVar[Mapping[str, tuple[ErrorCode, str]]] = {}
    """Per field, the error code and sentence of a value that is missing or of the wrong type,
    gathered from the fields' :class:`Refusal` when the model is declared."""
    people_only: ClassVar[bool] = False
    """Only for tables shared with other people."""
    host_only: ClassVar[bool] = False
    """Only the host of a people's table may send it."""
    waiting_only: ClassVar[bool] = False
    """Only in a people's table's waiting room, before the game starts."""

    @classmethod
    def __pydantic_init_subclass__(cls, **kwargs: Any) -> None:
        super().__pydantic_init_subclass__(**kwargs)
        if "type" not in cls.model_fields:
            return  # a base of messages (the room's), not a message
        tag = _tag(cls)
        cls.refusals = {
            name: (refusal.code, refusal.sentence.format(type=tag))
            for name, field in cls.model_fields.items()
            for refusal in field.metadata
            if isinstance(refusal, Refusal)
        }


class RoomBase(ClientBase):
    """A message of a people's table's room."""

    people_only = True


class WaitingRoomBase(RoomBase):
    """A message of a people's table's waiting room, before the game starts."""

    waiting_only = True


class HostBase(RoomBase):
    """A message only the host of a people's table may send."""

    host_only = True


class HostWaitingBase(HostBase):
    """A message only the host may send, in the waiting room."""

    waiting_only = True


class ActionMessage(ClientBase):
    """A move: the version of the last state the client saw, and the move in the game's
    notation (a string of ``legal``); a client id makes a resend harmless."""

    type: Literal["action"]
    version: Annotated[
        int,
        Field(ge=0),
        _refused('an action needs "version": the whole-number version you last saw'),
    ]
    action: Annotated[Notation, _refused('an action needs "action": its text notation')]
    client_id: Annotated[
        Annotated[str, Field(pattern=CLIENT_ID_PATTERN)] | None,
        _refused("client_id must be 1 to 64 letters, digits, '-' or '_'"),
    ] = None


class HintMessage(ClientBase):
    """Ask for a suggested move."""

    type: Literal["hint"]


class CoachMessage(ClientBase):
    """Ask for the coach's report on the seat's position."""

    type: Literal["coach"]


def _card_label(value: object) -> object:
    """A card label such as ``7H`` (the card is read where the groups are answered); a value
    that is not text is left to the strict type check, which refuses it."""
    if not isinstance(value, str):
        return value
    try:
        parse_card(value)
    except CardError:
        raise ValueError(f"unknown card {value[:8]!r} in the groups") from None
    return value


def _bounded(groups: list[list[str]]) -> list[list[str]]:
    if len(groups) > MAX_GROUPS or sum(len(group) for group in groups) > MAX_CARDS:
        raise ValueError(f"at most {MAX_GROUPS} groups of {MAX_CARDS} cards")
    return groups


CardLabel = Annotated[str, BeforeValidator(_card_label)]


class GroupsMessage(ClientBase):
    """Ask for the server's reading of the seat's own groups of its hand (card labels), with
    the card about to be put down for a declaration, if any; ``seq`` is echoed in the answer
    (Indian Rummy and Declaration Rummy)."""

    type: Literal["groups"]
    groups: Annotated[
        list[list[CardLabel]],
        AfterValidator(_bounded),
        _refused('"groups" must be a list of lists of card labels: a card is a label such as 7H'),
    ] = Field(default_factory=list)
    put_down: Annotated[
        CardLabel | None, _refused('"put_down" must be a card label such as 7H')
    ] = None
    seq: Annotated[int | None, _refused('"seq" must be a whole number')] = None


class PingMessage(ClientBase):
    """Ask for a ``pong``."""

    type: Literal["ping"]


class SitMessage(WaitingRoomBase):
    """Take a free open seat in the waiting room (a spectator sits; a player moves), with the
    person's contribution to the fair deal."""

    type: Literal["sit"]
    seat: SeatNumber
    contribution: ContributionField = None


class WatchMessage(WaitingRoomBase):
    """Give up the seat in the waiting room and watch."""

    type: Literal["watch"]


class SetSeatMessage(HostWaitingBase):
    """The host puts a computer player on an empty seat (``bot``, at ``level``: Normal when
    left out) or takes one out (``open``)."""

    type: Literal["set_seat"]
    seat: SeatNumber
    kind: Annotated[Literal["open", "bot"], _refused('set_seat needs "kind": "open" or "bot"')]
    level: Annotated[BotLevel | None, _refused(f"level must be one of {', '.join(BOT_LEVELS)}")] = (
        None
    )


class RemoveMessage(HostWaitingBase):
    """The host removes the person at ``seat`` (the invite link is replaced)."""

    type: Literal["remove"]
    seat: SeatNumber


class LockMessage(HostBase):
    """The host locks the room against newcomers, or opens it again."""

    type: Literal["lock"]
    locked: Annotated[bool, _refused('lock needs "locked": true or false')]


class StartMessage(HostWaitingBase):
    """The host deals."""

    type: Literal["start"]


class QuickMessage(RoomBase):
    """A quick message: one of the fixed phrases."""

    type: Literal["quick"]
    phrase: Annotated[Phrase, _refused(PHRASE_SENTENCE, "bad-phrase")]


class LeaveMessage(RoomBase):
    """Leave the table for good."""

    type: Literal["leave"]


class RematchMessage(RoomBase):
    """A player's answer to the rematch, with their contribution to its deal."""

    type: Literal["rematch"]
    accept: Annotated[bool, _refused('rematch needs "accept": true or false')]
    contribution: ContributionField = None


RoomMessage: TypeAlias = (
    SitMessage
    | WatchMessage
    | SetSeatMessage
    | RemoveMessage
    | LockMessage
    | StartMessage
    | QuickMessage
    | LeaveMessage
    | RematchMessage
)
"""The messages of a people's table's room (:mod:`cardtable.server.room_control`)."""
ClientMessage: TypeAlias = Annotated[
    ActionMessage | HintMessage | CoachMessage | GroupsMessage | PingMessage | RoomMessage,
    Field(discriminator="type"),
]
"""Any client message, told apart by its ``type`` (the room's last)."""


CLIENT_MODELS: Final[dict[str, type[ClientBase]]] = {
    _tag(model): model for model in get_args(get_args(ClientMessage)[0])
}
"""Each client message type's model, in the protocol's order."""
CLIENT_TYPES: Final = tuple(CLIENT_MODELS)
"""Message types; those after ``ping`` are for people's tables only."""
_CLIENT: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)


def parse_client_message(raw: str | bytes, *, shared: bool = True) -> ClientMessage:
    """Read one client frame, or raise :class:`ProtocolError` naming the problem; at a table
    that is not ``shared`` with other people, a room message is of an unknown type there.

    >>> parse_client_message('{"type": "action", "version": 3, "action": "draw stock"}')
    ActionMessage(type='action', version=3, action='draw stock', client_id=None)
    >>> parse_client_message('{"type": "sit", "seat": 2}').seat
    2
    >>> parse_client_message('{"type": "lock", "locked": "yes"}')
    Traceback (most recent call last):
    ...
    cardtable.server.protocol.messages.ProtocolError: lock needs "locked": true or false
    >>> parse_client_message('[1, 2]')
    Traceback (most recent call last):
    ...
    cardtable.server.protocol.messages.ProtocolError: a message must be a JSON object, not an array
    """
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too-large",
            f"message too large: {size} bytes, the limit is {MAX_MESSAGE_BYTES} bytes",
        )
    if isinstance(raw, bytes):
        raise ProtocolError("malformed", "binary frames are not accepted: send JSON text")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"a message must be a JSON object, not {_json_kind(data)}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", 'a message needs a "type" field holding text')
    model = CLIENT_MODELS.get(kind)
    if model is None:
        raise ProtocolError(
            "unknown-type",
            f"unknown message type {kind[:40]!r}: expected one of {', '.join(CLIENT_TYPES)}",
        )
    if model.people_only and not shared:
        raise ProtocolError("unknown-type", f"{kind!r} is only for tables shared with other people")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        raise _refusal(model, exc) from None


def _refusal(model: type[ClientBase], error: ValidationError) -> ProtocolError:
    """The protocol's error for the first field ``error`` names."""
    first = error.errors(include_url=False)[0]
    # The location is (type tag, field, ...) under the union.
    field = str(first["loc"][1]) if len(first["loc"]) > 1 else ""
    code, sentence = model.refusals.get(field, ("malformed", f"{field!r} is not valid"))
    if first["type"] == "value_error":  # a field's own check says what is wrong
        return ProtocolError(code, str(first["ctx"]["error"]))
    return ProtocolError(code, sentence)


def error_code(value: object) -> ErrorCode:
    """``value`` as an error code (one relayed from another process), or ``server``."""
    for code in get_args(ErrorCode):
        if value == code:
            known: ErrorCode = code
            return known
    return "server"


def _json_kind(value: object) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


# --- server messages -----------------------------------------------------------------------------


class MovePartsJson(TypedDict):
    """The structure that a legal move and the last move share, read from the action object
    (:mod:`cardtable.server.narration.moves`): its verb, and the cards and number it names
    (each left out when it has none)."""

    kind: str
    cards: NotRequired[list[str]]
    number: NotRequired[int]


class MoveJson(MovePartsJson):
    """A legal action as a structured move: its verb, the cards and number it names (left out
    when none), the notation to send back, the words a button shows, a warning where the
    rules ask clients to warn before it, and for a move that scores points for its mover
    (Indian Rummy's drop) the points and the sentence saying so."""

    notation: str
    words: str
    warning: NotRequired[str]
    cost: NotRequired[int]
    cost_words: NotRequired[str]


class LastAction(MovePartsJson):
    """The last move as the reader may see it (a card laid face down is not named): its
    structure as in :class:`MoveJson`, whose move it was, its public notation, and ``said``,
    its sentence in the reader's words."""

    seat: int
    action: str
    said: str
    auto: NotRequired[AutoReason | None]
    """People's tables: why a computer player made the move for the seat's person."""
    client_id: NotRequired[str]
    """People's tables, in the mover's own seat's state only: the client id the move was
    sent with, its acknowledgement (every page of the seat is sent it: a page ignores a
    client id it did not send)."""


class GameResultJson(TypedDict):
    """How the game ended; ``said`` is ``summary`` in the reader's words."""

    winners: list[int]
    scores: list[int | None]
    utilities: list[float]
    reason: str
    summary: str
    said: str


class SummaryScoreJson(TypedDict):
    """One seat in a summary: its points in what finished (null: not counted), and its total
    after it (null where the game keeps none)."""

    seat: int
    name: str
    points: int | None
    total: int | None


class SummaryJson(TypedDict):
    """What the last move finished (a deal or hand, a game, a match), in the reader's words
    (:mod:`cardtable.server.narration`): the biggest unit's ``kind`` and ``number``, its
    headline, lines (the smaller units' headlines and lines after its own), scores and the
    game's details; ``parts`` lists the kinds finished and ``details_by_kind`` each one's
    details."""

    kind: UnitKind
    number: int
    headline: str
    lines: list[str]
    scores: list[SummaryScoreJson]
    details: JsonObject | None
    lead: NotRequired[str]
    """Declaration Rummy: the engine's sentence on how the game ended."""
    parts: list[UnitKind]
    details_by_kind: dict[str, JsonObject | None]


class OwnFactsJson(TypedDict, total=False):
    """What a seat may know of its own hand without working it out, each game its own:
    Declaration Rummy's ``count``, Indian Rummy's ``jokers`` and ``pile_top_joker`` (a
    spectator's is empty)."""

    count: int | None
    """Declaration Rummy: the count of the seat's hand (null with no hand, or one larger than
    the scorer takes)."""
    jokers: list[str]
    """Indian Rummy: the labels of the seat's cards that are jokers this deal."""
    pile_top_joker: bool
    """Indian Rummy: the discard pile's top card is a joker (it cannot be taken)."""


class StateMessage(TypedDict):
    """The table as one seat (or the spectators, ``seat`` null) sees it: after every move, on
    connecting, and to the loser of a race."""

    type: Literal["state"]
    version: int
    seat: int | None
    view: JsonObject
    legal: list[str]
    moves: list[MoveJson]
    to_move: int
    result: GameResultJson | None
    last_action: LastAction | None
    summary: SummaryJson | None
    announce: str
    own: OwnFactsJson
    room: NotRequired[RoomJson]
    """People's tables only."""


class ErrorMessage(TypedDict):
    """A refusal, to the sender only: nothing changed."""

    type: Literal["error"]
    code: ErrorCode
    message: str
    rule: NotRequired[str]
    """An illegal action's broken rule (:class:`cardtable.errors.RuleKey`)."""
    client_id: NotRequired[str]
    """The refused action's client id, when it had one."""


class HintAnswer(TypedDict):
    """A suggested move (null when the seat has nothing to do) and why, for ``version``."""

    type: Literal["hint"]
    action: str | None
    move: MoveJson | None
    reason: str
    version: int


class DiscardAdvice(TypedDict):
    """One discard the coach weighs: the card, what it leaves, a note, and its value."""

    card: str
    leaves: JsonValue
    note: str
    value: NotRequired[float]


class CoachAdvice(TypedDict):
    """The coach's report without its envelope (:func:`cardtable.server.advisors.coach_report`)."""

    tips: list[str]
    discards: list[DiscardAdvice]
    warnings: list[str]
    near_melds: NotRequired[list[JsonValue]]
    hint: NotRequired[JsonValue]


class CoachAnswer(CoachAdvice):
    """The coach's report for the seat's position at ``version``."""

    type: Literal["coach"]
    version: int


class PongMessage(TypedDict):
    """The answer to a ping."""

    type: Literal["pong"]


class LabelledGroupJson(TypedDict):
    """One of the player's groups as the count reads it, the points it adds, and whether its
    cards count all the same."""

    cards: list[str]
    label: str
    points: int
    counts: bool


class BestMeldJson(TypedDict):
    """A meld of the solver's arrangement (``represents``: what each wild card stands for)."""

    kind: str
    cards: list[str]
    represents: NotRequired[list[str]]


class BestGroupsJson(TypedDict):
    """The solver's own arrangement, the one the count and a declaration use."""

    groups: list[BestMeldJson]
    loose: list[str]
    put_down: str | None
    points: int
    category: NotRequired[str]
    valid_show: NotRequired[bool]
    partition: list[list[str]]


class GroupsBody(TypedDict):
    """A ``groups`` answer without its envelope (:mod:`cardtable.server.table.hand_groups`)."""

    placed: list[list[str]]
    put_down: str | None
    show_put_down: NotRequired[str | None]
    """Indian Rummy only."""
    groups: list[LabelledGroupJson]
    category: str | None
    points: int
    valid_show: bool | None
    best: BestGroupsJson | None
    same_as_best: bool


class GroupsAnswer(GroupsBody):
    """The seat's own groups labelled and counted, and the solver's best arrangement, for
    ``version``; ``seq`` echoes the request's."""

    type: Literal["groups"]
    version: int
    seq: int | None


class PatchMessage(TypedDict):
    """Instead of a ``state`` after a move, to a connection that asked for patches: what
    changed since the state at ``base`` (:mod:`cardtable.server.protocol.state_frames`)."""

    type: Literal["patch"]
    base: int
    version: int
    set: JsonObject
    view: JsonObject
    append: dict[str, list[JsonValue]]


class BotSeatJson(TypedDict):
    """A computer player's seat."""

    seat: int
    kind: Literal["bot"]
    name: str
    level: str | None


class OpenSeatJson(TypedDict):
    """A seat waiting for a person (waiting room only)."""

    seat: int
    kind: Literal["open"]


class PersonSeatJson(TypedDict):
    """A person's seat and their presence: connected, the grace left after their last
    socket closed, away (the grace ran out), left for good, their time bank."""

    seat: int
    kind: Literal["person"]
    name: str
    host: bool
    connected: bool
    reconnecting_ms: int | None
    away: bool
    left: bool
    bank_ms: int | None


class TurnJson(TypedDict):
    """The running turn timer: the turn's own time left, then the bank's."""

    seat: int
    remaining_ms: int
    bank_ms: int


class RematchJson(TypedDict):
    """Who accepted, declined, or has not answered the rematch, and its table once made."""

    accepted: list[int]
    declined: list[int]
    waiting: list[int]
    table_id: str | None


class YouJson(TypedDict):
    """The reader's own place."""

    seat: int | None
    role: Role
    host: bool


class SharedRoomJson(TypedDict):
    """The room as every member is sent it (:class:`RoomJson` adds the reader's part)."""

    table_id: str
    phase: TablePhase
    game: str
    title: str
    format: str | None
    """The table's format (``Pool 101``; null in a game played in one format)."""
    table_label: str
    """The format and the players (``Pool 101 · 4 players``)."""
    rules: JsonObject
    host_seat: int | None
    settings: RoomSettingsJson
    seats: list[BotSeatJson | OpenSeatJson | PersonSeatJson]
    spectators: int
    turn: TurnJson | None
    rematch: RematchJson | None
    commitment: str | None
    can_start: bool
    locked: bool
    invite: NotRequired[InviteJson]
    """The host's copy only (:class:`RoomJson`): it changes when the host removes somebody."""


class RoomJson(SharedRoomJson):
    """A people's table's room as one member is sent it (built by
    :mod:`cardtable.server.presence`): the shared part and the reader's place."""

    you: YouJson


class RoomUpdate(TypedDict):
    """The room alone (membership, seats, presence, timers or rematch answers changed)."""

    type: Literal["room"]
    room: RoomJson


class AckMessage(TypedDict):
    """An action with a client id had been applied already (``duplicate``), or was applied at
    a table without a room (at a people's table the move's own state acknowledges it:
    ``last_action.client_id``)."""

    type: Literal["ack"]
    client_id: str
    version: int
    duplicate: bool


class AwayMessage(TypedDict):
    """To a person back after the grace ran out: how many moves were played for them."""

    type: Literal["away"]
    moves: int
    message: str


class QuickSaid(TypedDict):
    """A quick message from the person at ``seat``, to every member."""

    type: Literal["quick"]
    seat: int
    name: str
    phrase: Phrase
    text: str


class RematchMade(TypedDict):
    """The rematch table exists: pages open it."""

    type: Literal["rematch"]
    table_id: str


class RemovedMessage(TypedDict):
    """The host removed this member (the socket closes with 4403)."""

    type: Literal["removed"]
    message: str


class LeftMessage(TypedDict):
    """This member left (the socket closes with 1000)."""

    type: Literal["left"]


ServerMessage: TypeAlias = (
    StateMessage
    | ErrorMessage
    | HintAnswer
    | CoachAnswer
    | GroupsAnswer
    | PatchMessage
    | PongMessage
    | RoomUpdate
    | AckMessage
    | AwayMessage
    | QuickSaid
    | RematchMade
    | RemovedMessage
    | LeftMessage
)
"""Any message the server sends."""
SERVER_MODELS: Final[tuple[type[Any], ...]] = get_args(ServerMessage)
SERVER_MESSAGES: Final[TypeAdapter[ServerMessage]] = TypeAdapter(
    Annotated[ServerMessage, Field(discriminator="type")]
)
"""The server messages as pydantic reads them (tests and the generated documentation)."""


def error_message(
    code: ErrorCode, message: str, *, rule: str | None = None, client_id: str | None = None
) -> ErrorMessage:
    """``{"type": "error", ...}``; ``rule`` names the game rule for illegal actions,
    ``client_id`` the action's client id when it had one."""
    payload = ErrorMessage(type="error", code=code, message=message)
    if rule is not None:
        payload["rule"] = rule
    if client_id is not None:
        payload["client_id"] = client_id
    return payload


def state_message(
    *,
    version: int,
    seat: int | None,
    view: JsonObject,
    legal: list[str],
    to_move: int,
    result: GameResultJson | None,
    last_action: LastAction | None,
    summary: SummaryJson | None,
    announce: str,
    own: OwnFactsJson | None = None,
    room: RoomJson | None = None,
    moves: list[MoveJson] | None = None,
) -> StateMessage:
    """The state one seat sees after a change (or on connecting); ``own`` holds what the seat
    may know of its own hand without working it out (Declaration Rummy's ``count``), ``moves``
    the legal actions as structured moves (:mod:`cardtable.server.narration.moves`), in the
    order of ``legal``. A spectator's ``seat`` is ``None``; ``room`` is a people's table's
    room."""
    message = StateMessage(
        type="state",
        version=version,
        seat=seat,
        view=view,
        legal=legal,
        moves=moves or [],
        to_move=to_move,
        result=result,
        last_action=last_action,
        summary=summary,
        announce=announce,
        own=own or {},
    )
    if room is not None:
        message["room"] = room
    return message


def hint_message(
    action: str | None, reason: str, *, version: int, move: MoveJson | None = None
) -> HintAnswer:
    """A suggested action (``None`` when the seat has nothing to do) and why, for the table at
    ``version`` (the page shows it only while its table is still at that version); ``move``
    is the action as a structured move (:func:`~cardtable.server.narration.moves.hint_move`)."""
    return HintAnswer(type="hint", action=action, move=move, reason=reason, version=version)


def groups_message(body: GroupsBody, *, version: int, seq: int | None) -> GroupsAnswer:
    """The answer to a ``groups`` message, for the table at ``version``; ``seq`` echoes the
    request's, so the page keeps only its latest answer."""
    return {"type": "groups", "version": version, "seq": seq, **body}


def coach_message(report: CoachAdvice, *, version: int) -> CoachAnswer:
    """The coach's report for the seat's position at ``version``."""
    return {"type": "coach", **report, "version": version}


def pong_message() -> PongMessage:
    """The answer to a ping."""
    return PongMessage(type="pong")


def room_message(room: RoomJson) -> RoomUpdate:
    """A people's table's room (waiting room, presence, timers, rematch)."""
    return RoomUpdate(type="room", room=room)


def ack_message(client_id: str, version: int, *, duplicate: bool) -> AckMessage:
    """An action with a client id had been applied already (``duplicate``), or was applied at
    a table without a room (at a people's table the move's own state acknowledges it:
    ``last_action.client_id``)."""
    return AckMessage(type="ack", client_id=client_id, version=version, duplicate=duplicate)


def away_message(moves: int) -> AwayMessage:
    """To a person back after the grace ran out: how many moves were played for them."""
    plural = "move was" if moves == 1 else "moves were"
    return AwayMessage(
        type="away", moves=moves, message=f"You were away: {moves} {plural} played for you."
    )


def quick_message(seat: int, name: str, phrase: Phrase, text: str) -> QuickSaid:
    """A quick message from the person at ``seat``."""
    return QuickSaid(type="quick", seat=seat, name=name, phrase=phrase, text=text)


def rematch_message(table_id: str) -> RematchMade:
    """The rematch table of a finished people's table exists."""
    return RematchMade(type="rematch", table_id=table_id)


def removed_message() -> RemovedMessage:
    """The last message to a member the host removed."""
    return RemovedMessage(type="removed", message="the host removed you from this table")


def left_message() -> LeftMessage:
    """The last message to a member who left."""
    return LeftMessage(type="left")


# --- encoding ------------------------------------------------------------------------------------


class Frame:
    """A server message about to be sent to several connections (a seat's open tabs, the
    spectators, pages relayed from other processes): its JSON text is encoded once, on the
    first send. Not to be changed once sent."""

    __slots__ = ("_text", "message")

    def __init__(self, message: ServerMessage) -> None:
        self.message: Final = message
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The message as compact JSON text (:func:`dumps`)."""
        if self._text is None:
            self._text = _encode(self.message)
        return self._text


Outgoing: TypeAlias = ServerMessage | Frame
"""What a connection sends: a message, or a frame of one encoded once for many."""


def dumps(message: Outgoing | Mapping[str, object]) -> str:
    """A server message (or a frame of one, or a relayed message as it was read) as compact
    JSON text: the same text ``json.dumps`` with compact separators and ``ensure_ascii=False``
    writes, several times faster (a state is encoded for every connected seat after every
    move).

    >>> dumps({"type": "pong", "n": [1, 2], "name": "Zoë", 3: None})
    '{"type":"pong","n":[1,2],"name":"Zoë","3":null}'
    """
    if isinstance(message, Frame):
        return message.text
    return _encode(message)


def _encode(message: object) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
