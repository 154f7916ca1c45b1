"""The HTTP API's request and answer shapes, as pydantic models.

Requests are strict (``extra="forbid"``, no type coercion: ``2.0`` or ``true`` is not a whole
number, ``"yes"`` is not a boolean) and bounded (lengths of text and lists), so the OpenAPI
document at ``/api/openapi.json`` describes exactly what the server accepts; answers are
declared too, so the document says what comes back.
"""

from __future__ import annotations

import typing
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, create_model, field_validator

from cardtable.server.people.names import MAX_NAME_LENGTH, check_name
from cardtable.server.people.player_options import PLAYER_OPTIONS, PlayerOptions
from cardtable.server.people.room import RoomSettings, TablePhase
from cardtable.server.table.seating import BotLevel, SeatRequest

RecordKind = Literal["deal", "game", "match"]

MAX_SEATS = 10
"""The most players any game takes (Declaration Rummy: 10); the game checks its own."""
MAX_RECORD_EVENTS = 10_000
MAX_POINTS = 1_000_000
MAX_DETAILS = 16


class Request(BaseModel):
    """A request body: unknown fields and loose types are refused."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Answer(BaseModel):
    """An answer body."""

    model_config = ConfigDict(extra="forbid")


DisplayName = Annotated[
    str,
    Field(
        max_length=MAX_NAME_LENGTH,
        # In the document only: the check itself says why a name is refused, in a sentence.
        json_schema_extra={"pattern": r"[^\W_]", "minLength": 1},
        description="A display name: 1-40 characters with a letter or digit (normalised: "
        "Unicode NFKC, runs of spaces made one). Refused with 400: control, invisible "
        "formatting, private-use or unassigned characters; a word mixing Latin, Greek and "
        "Cyrillic letters; more than two combining marks on a letter; the names the table "
        "uses itself (You, the computer players'; at a people's table also Player and Open seat) "
        "in any case, accents or look-alike letters.",
    ),
]


class Refusal(Answer):
    """Any refused request: one sentence naming the problem."""

    detail: str


BAD_INPUT: Final = (400, "Bad input: the detail names the problem.")
"""The refusal of a route that reads a body or a query (for :func:`refusals`)."""
NO_PROFILE: Final = (401, "No profile cookie: load the page (or POST /api/profile) first.")
"""The refusal of a route for the caller's own profile (for :func:`refusals`)."""


def refusals(*statuses: tuple[int, str]) -> dict[int | str, dict[str, Any]]:
    """A route's documented refusals, each a :class:`Refusal`, from ``(status, meaning)``.

    >>> refusals((404, "No such table."))[404]["description"]
    'No such table.'
    """
    return {status: {"description": text, "model": Refusal} for status, text in statuses}


# --- games -------------------------------------------------------------------------------------


class RuleGroupEntry(Answer):
    """One heading of the house-rules form."""

    name: str
    """What a rules schema entry's ``group`` says."""
    title: str
    folded: bool
    """Shown folded away (the safeguards against endless games)."""


class GameEntry(Answer):
    """One game of the catalogue: what the start page and the table need to offer it."""

    name: str
    title: str
    min_players: int
    max_players: int
    presets: dict[str, dict[str, Any]]
    rules_schema: list[dict[str, Any]]
    """Every rule option: name, label, type, default, help, group, and its bounds or choices."""
    rule_groups: list[RuleGroupEntry]
    """The groups of the house-rules form, in the order it shows them."""
    max_table_moves: int
    """The most moves a table has in all, whatever its rules: at this many an unfinished
    table is closed (its finished deals stay in the record)."""
    bot_levels: list[BotLevel]
    deal_word: str
    """What one deal is called at this table: ``hand``, ``deal`` or ``game``."""
    points_good: bool
    """Whether more points are better."""
    face_down_verbs: list[str]
    """Moves whose card other seats do not see."""
    computer_names: list[str]
    """The names computer players sit under, in seat order of their choosing."""
    notice: str


class HowToPlaySection(Answer):
    """A section of a How to play page (short trusted HTML)."""

    heading: str
    html: str


class HowToPlayExample(Answer):
    """A worked example: a hand drawn as cards and the score it makes."""

    caption: str
    cards: list[str]
    score: int


class HowToPlay(Answer):
    """How to play one game: sections, worked examples and the notice."""

    title: str
    sections: list[HowToPlaySection]
    examples: list[HowToPlayExample]
    notice: str


# --- tables ------------------------------------------------------------------------------------


class NewTable(Request):
    """``POST /api/tables``: the game, rule options (missing ones take their defaults), seats
    (default: the caller against computer players), and for a provably fair deal a commitment
    and the page's contribution. No seed: the server alone draws it."""

    game: Annotated[str, Field(min_length=1, max_length=40)]
    rules: dict[str, Any] | None = None
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=MAX_SEATS)] | None = None
    commitment: Annotated[str, Field(max_length=64)] | None = None
    """A commitment from ``POST /api/commitments`` (a provably fair deal), with…"""
    contribution: Annotated[str, Field(max_length=64)] | None = None
    """…the page's own random contribution: 8 to 64 hex digits."""
    shared: RoomSettings | None = None
    """A table for people: every human seat but the creator's is open for a person who
    comes with the invite link, and the game starts when the host says so."""


class SeatAnswer(Answer):
    """``POST /api/tables`` and ``join``: the table and the caller's seat."""

    table_id: str
    seat: int


class Invite(Answer):
    """A people's table's invite: its token, and the link (the token in the fragment)."""

    token: str
    url: str


class SharedTableAnswer(SeatAnswer):
    """``POST /api/tables`` for a people's table: also its invite."""

    invite: Invite


class InviteRequest(Request):
    """``POST /api/invites/peek``: the token from the invite link's fragment."""

    token: Annotated[str, Field(min_length=1, max_length=64)]


class JoinRequest(InviteRequest):
    """``POST /api/invites/join``: the token, a display name, and a seat (the first free one
    when left out) or ``watch``; the page's contribution to the fair deal."""

    name: DisplayName
    seat: Annotated[int, Field(ge=0, lt=MAX_SEATS)] | None = None
    watch: bool = False
    contribution: Annotated[str, Field(max_length=64)] | None = None


class Joined(Answer):
    """The table joined, the seat taken (``None`` for a spectator) and the role."""

    table_id: str
    seat: int | None
    role: Literal["player", "spectator"]


class InviteSeat(Answer):
    """A seat as an invite shows it: open for a person, a person's name, or a computer
    player (with its level)."""

    seat: int
    kind: Literal["open", "person", "bot"]
    name: str | None = None
    level: BotLevel | None = None


class InvitePlace(Answer):
    """The caller's place at the table an invite opens (both ``null`` before joining)."""

    seat: int | None
    role: Literal["player", "spectator"] | None


class TableHeading(Answer):
    """How every answer about a table names it: its id, game, title, format and label."""

    table_id: str
    game: str
    title: str
    format: str | None
    """The table's format (``Pool 101``, ``Deals (best of 3)``); ``null`` in a game played in
    one format."""
    table_label: str
    """The format and players as a listing shows them: ``Pool 101 · 4 players``."""


class InvitePeek(TableHeading):
    """``POST /api/invites/peek``: the table an invite opens, as seen before joining."""

    phase: TablePhase
    rules: dict[str, Any]
    host: str | None
    """The host's name."""
    settings: RoomSettings
    seats: list[InviteSeat]
    commitment: str | None
    """The fair deal's commitment, published before anybody contributes."""
    you: InvitePlace


class PublicTable(TableHeading):
    """One table of ``GET /api/lobby``: a public people's table waiting for people or open
    to spectators."""

    phase: Literal["waiting", "playing"]
    host: str | None
    rules_summary: str
    seats: int
    seats_free: int
    spectators: bool
    invite: str
    """The invite token (a public table's link is no secret)."""


class PublicSeat(Answer):
    """A seat as every client sees it."""

    seat: int
    kind: Literal["human", "bot"]
    name: str
    level: BotLevel | None = None
    """Computer players only."""
    taken: bool | None = None
    """Human seats only: somebody sits there."""


class TableBasics(TableHeading):
    """What every description of a table says."""

    seats: list[PublicSeat]
    version: int
    your_seat: int | None
    finished: bool
    status: Literal["playing", "finished", "abandoned"]


class TableInfo(TableBasics):
    """One table, as ``GET /api/tables/{id}`` describes it: with its rules."""

    rules: dict[str, Any]
    shared: dict[str, Any] | None = None
    """A people's table's room as its members see it (the host's copy holds the invite);
    ``null`` at a table against computer players."""


class ListedTable(TableBasics):
    """One table of ``GET /api/tables``: without its rules, with where the game stands."""

    yours: bool
    """The caller started the table."""
    deal: int | None
    """The deal being played (``null`` until the table's summary is known)."""
    scores: list[int | None] | None
    """Each seat's score so far."""
    to_move: int | None
    """The seat to move (``null`` at the end or while the cards are dealt)."""
    updated_at: str
    """When the last move was made (ISO 8601)."""
    shared: bool
    """A people's table (played with other people through an invite)."""


class LeftTable(Answer):
    """``DELETE /api/tables/{id}``: the table's status afterwards."""

    table_id: str
    status: Literal["playing", "finished", "abandoned"]


# --- review ------------------------------------------------------------------------------------


class CommitmentAnswer(Answer):
    """``POST /api/commitments``: a commitment to a fresh secret server seed."""

    commitment: str


class FinishedGame(Answer):
    """One of the caller's finished games (``GET /api/replays``)."""

    table_id: str
    game: str
    title: str
    summary: str | None
    """The result in one sentence, with the seats named as the caller knew them at the table
    (``null`` if the game has none)."""
    shared: bool = False
    """Played at a table shared with other people."""
    assisted: bool = False
    """A computer player moved for the caller in this game (a turn timed out, they were
    away, or they left)."""


class ShareLink(Answer):
    """``POST /api/tables/{id}/share``: a read-only link to a finished game's replay."""

    token: str
    url: str


# --- profile -----------------------------------------------------------------------------------


def _options_model(name: str, base: type[BaseModel], doc: str, *, partial: bool) -> Any:
    """A model with one field per declared player option (:class:`PlayerOptions`): every one
    present, or (``partial``) each one optional and left out when unchanged."""
    hints = typing.get_type_hints(PlayerOptions)
    fields: dict[str, Any] = {}
    for declared in PLAYER_OPTIONS:
        kind = hints[declared.name]
        described = (
            Field(default=None, description=declared.option.help)
            if partial
            else (Field(description=declared.option.help))
        )
        fields[declared.name] = (kind | None if partial else kind, described)
    return create_model(name, __base__=base, __doc__=doc, __module__=__name__, **fields)


# The two models are generated from the one declaration; to the type checker they are their
# bases (code reads them through model_dump).
if TYPE_CHECKING:
    Options = Answer
    OptionsChange = Request
else:
    Options = _options_model(
        "Options", Answer, "A profile's options, every one present.", partial=False
    )
    OptionsChange = _options_model(
        "OptionsChange",
        Request,
        "Options to change; those left out keep their value.",
        partial=True,
    )


class OptionEntry(Answer):
    """One player option as the page offers it (``GET /api/options``)."""

    name: str
    label: str
    type: Literal["bool", "choice"]
    default: bool | str
    help: str
    choices: list[str] | None = None
    choice_labels: list[str] | None = None
    """Each choice in words, in the order of ``choices``."""


class ProfileChange(Request):
    """``PUT /api/profile``: a new display name and/or options."""

    name: DisplayName | None = None
    options: OptionsChange | None = None

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else check_name(value)


class ProfileAnswer(Answer):
    """The caller's profile."""

    name: str
    options: Options


class ImportAnswer(ProfileAnswer):
    """``POST /api/profile/import``: the profile afterwards, and how many results were new."""

    record_events_added: int


# --- record ------------------------------------------------------------------------------------


class RecordExtra(Answer):
    """One of a game's own facts (drops, stops, declarations…)."""

    key: str
    label: str
    value: int


class RecordStats(Answer):
    """What a set of results adds up to."""

    games_played: int
    games_won: int
    deals_played: int
    deals_won: int
    matches_played: int
    matches_won: int
    points_per_deal: float | None
    total_points: int
    best: int | None
    worst: int | None
    extras: list[RecordExtra]


class SharedRecordStats(RecordStats):
    """Results at tables shared with other people, and how many games and deals a computer
    player made moves in for the person."""

    assisted_games: int
    assisted_deals: int


class FormatRecord(RecordStats):
    """One format's record (Indian Rummy's Pool 101): every game of that format played on this
    server, against computer players and at shared tables."""

    format: str
    """The format's key, as the record keeps it: ``pool-101``."""
    title: str
    """The format's name: ``Pool 101``."""


class GameRecord(RecordStats):
    """One game's record: results played on this server, and apart from them, results
    imported from an exported profile (``null`` when none were)."""

    game: str
    title: str
    deal_word: str
    points_word: str
    """What the rules call a deal's score: ``points``, or Declaration Rummy's ``count``."""
    points_are: Literal["good", "bad"]
    imported: RecordStats | None = None
    shared: SharedRecordStats | None = None
    """Games at tables shared with other people, counted apart from games against computer
    players (``null`` when none were played)."""
    formats: list[FormatRecord] = []
    """A game played in several formats: its record by format, the most played first (empty
    for other games, and before any game recorded its format)."""


class RecordEventDocument(Request):
    """One result in an exported profile."""

    model_config = ConfigDict(extra="forbid", strict=True)

    key: Annotated[str, Field(min_length=1, max_length=120)]
    game: Annotated[str, Field(min_length=1, max_length=40)]
    kind: RecordKind
    won: bool = False
    points: Annotated[int, Field(ge=-MAX_POINTS, le=MAX_POINTS)] | None = None
    details: Annotated[dict[str, Any], Field(max_length=MAX_DETAILS)] = Field(default_factory=dict)
    """The game's own facts about the result: flat values only (text, numbers, yes/no)."""
    at: Annotated[str, Field(max_length=40)] | None = None
    imported: bool = False

    @field_validator("details")
    @classmethod
    def _flat(cls, value: dict[str, Any]) -> dict[str, Any]:
        for key, item in value.items():
            if len(key) > 40:
                raise ValueError(f"detail names must be at most 40 characters: {key[:40]!r}...")
            flat = item is None or isinstance(item, bool | int | str)
            if not flat or (isinstance(item, str) and len(item) > 80):
                raise ValueError(
                    f"detail {key!r} must be text of at most 80 characters, a whole number, "
                    "true, false or null"
                )
            if isinstance(item, int) and abs(item) > MAX_POINTS:
                raise ValueError(f"detail {key!r} must be at most {MAX_POINTS} in size")
        return value

    @field_validator("at")
    @classmethod
    def _date(cls, value: str | None) -> str | None:
        if value is not None:
            try:
                datetime.fromisoformat(value)
            except ValueError:
                raise ValueError(
                    f"{value[:40]!r} is not a date such as 2026-01-31T12:00:00+00:00"
                ) from None
        return value


class ProfileDocument(Request):
    """An exported profile: ``GET /api/profile/export`` answers one, ``POST
    /api/profile/import`` takes one."""

    format: Literal["cardtable-profile"]
    version: Literal[1]
    name: Annotated[str, Field(max_length=200)] | None = None
    options: OptionsChange | None = None
    record: Annotated[list[RecordEventDocument], Field(max_length=MAX_RECORD_EVENTS)] = Field(
        default_factory=list
    )

    @field_validator("name")
    @classmethod
    def _name(cls, value: str | None) -> str | None:
        return None if value is None else check_name(value)
