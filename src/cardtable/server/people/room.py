"""A people's table's room: its settings, who belongs to it (players and spectators), what the
host allowed, and what the table remembers about each person (contribution to the deal, time
bank, moves played for them, rematch answers).

The :class:`Room` is plain data: :meth:`Room.to_json` and :meth:`Room.from_json` store it as
one JSON document beside the table, so a table can be moved to another process and picked up
from storage, with its running turn timer and the grace periods of absent people (in wall-clock
time). What only matters while the process runs (open sockets, the same timers on its own
clock) lives in :class:`~cardtable.server.people.part.Presence`, rebuilt from the room
when a process loads the table: a person who was connected to a process that stopped is
disconnected from then on, with a full grace period; an absent person's grace goes on.
"""

from __future__ import annotations

import secrets
from collections import Counter, deque
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from cardtable.server.people.names import skeleton

WAITING: Final = "waiting"
PLAYING: Final = "playing"
FINISHED: Final = "finished"

Role = Literal["player", "spectator"]
TablePhase = Literal["waiting", "playing", "finished", "abandoned"]
"""A people's table's phase as its members are told it (``abandoned``: closed)."""

PHRASES: Final[dict[str, str]] = {
    "hello": "Hello!",
    "good-luck": "Good luck",
    "good-game": "Good game",
    "well-played": "Well played",
    "your-turn": "Your turn",
    "one-moment": "One moment",
    "thanks": "Thanks",
    # Reactions drawn by the common fonts too (DejaVu has the faces and the heart), so that
    # they show even where no colour emoji font is installed.
    "laugh": "\N{SMILING FACE WITH OPEN MOUTH AND SMILING EYES}",
    "wow": "\N{FACE WITH OPEN MOUTH}",
    "phew": "\N{SMILING FACE WITH OPEN MOUTH AND COLD SWEAT}",
    "love-it": "\N{HEAVY BLACK HEART}\N{VARIATION SELECTOR-16}",
}
"""The quick messages: fixed phrases (a greeting, wishes, a few reactions as emoji) only, so
there is nothing to moderate."""

CLIENT_IDS_KEPT: Final = 256
"""Client ids each seat's dedup memory holds."""
INVITE_PATH: Final = "/#/join/"
"""Where an invite link points (the page's join route); the token follows."""
TAKEOVER_LEVEL: Final = "normal"
"""The computer player that moves for a person who timed out, is away, or left."""


def new_invite_token() -> str:
    """An invite token: 128 bits from the operating system's secure random source."""
    return secrets.token_urlsafe(16)


class RoomSettingsJson(TypedDict):
    """A people's table's settings as stored and sent (:class:`RoomSettings`)."""

    public: bool
    spectators: bool
    turn_seconds: int | None
    bank_seconds: int
    grace_seconds: int


class RoomSettings(BaseModel):
    """A people's table's settings, what the host chose besides the game's rules: listed in
    the lobby, spectators allowed, the turn timer and time bank, and the grace period a
    disconnected person keeps the seat. The request's ``shared`` object is read as this
    model, so each bound is declared here once (unknown fields and loose types refused)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    public: bool = False
    """Listed in the lobby of public tables."""
    spectators: bool = True
    """The invite link also lets people watch."""
    turn_seconds: Annotated[int, Field(ge=10, le=600)] | None = None
    """Each turn's time (``None``: no timer)."""
    bank_seconds: Annotated[int, Field(ge=0, le=600)] = 60
    """A person's extra time for the whole game, used once a turn's own time is out."""
    grace_seconds: Annotated[int, Field(ge=10, le=900)] = 120
    """How long a disconnected person keeps the seat before a computer player moves for them."""

    def to_json(self) -> RoomSettingsJson:
        """JSON-ready data."""
        return RoomSettingsJson(
            public=self.public,
            spectators=self.spectators,
            turn_seconds=self.turn_seconds,
            bank_seconds=self.bank_seconds,
            grace_seconds=self.grace_seconds,
        )

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> RoomSettings:
        """Settings from the stored room (a ``ValidationError`` naming a bad field).

        >>> RoomSettings.from_json({"turn_seconds": 30}).grace_seconds
        120
        """
        return cls.model_validate(data)


@dataclass(slots=True)
class Member:
    """A profile that joined the table: at a seat, or watching (``seat`` is ``None``)."""

    profile_id: int
    name: str
    seat: int | None

    @property
    def role(self) -> Role:
        """``player`` or ``spectator``."""
        return "spectator" if self.seat is None else "player"


@dataclass(slots=True)
class Room:
    """A people's table's room (see the module docstring)."""

    settings: RoomSettings
    invite: str
    host: int
    """The host's profile id."""
    phase: str = WAITING
    commitment: str | None = None
    """The fair deal's commitment, published before anybody contributes."""
    members: dict[int, Member] = field(default_factory=dict)
    """By profile id."""
    removed: set[int] = field(default_factory=set)
    """Profiles the host removed: they may not come back."""
    locked: bool = False
    """The host locked the room: nobody new joins (members keep their places)."""
    contributions: dict[int, str] = field(default_factory=dict)
    """Each seated person's contribution to the fair deal, by seat."""
    banks_ms: dict[int, int] = field(default_factory=dict)
    """Each person's time bank left, by seat."""
    away: set[int] = field(default_factory=set)
    """Seats whose person's grace ran out: a computer player moves for them until they return."""
    away_moves: dict[int, int] = field(default_factory=dict)
    """Moves played for each away person since they were last here."""
    assisted: set[int] = field(default_factory=set)
    """Seats where a computer player moved for the person in this game."""
    left: set[int] = field(default_factory=set)
    """Seats whose person left for good during the game."""
    rematch: dict[int, bool] = field(default_factory=dict)
    """Each person's answer to the rematch, by seat."""
    rematch_contributions: dict[int, str] = field(default_factory=dict)
    """The contribution to the rematch's fair deal sent with each yes, by seat."""
    rematch_table: str | None = None
    client_ids: dict[int, deque[str]] = field(default_factory=dict)
    """The last client ids applied, by seat (a resent action is acknowledged, not re-applied)."""
    turn: tuple[int, int, float] | None = None
    """The running turn timer as another process picks it up: ``(seat, version it started
    at, when it started in seconds since the epoch)``."""
    disconnected: dict[int, float] = field(default_factory=dict)
    """When each absent person's last socket closed (seconds since the epoch), by seat: their
    grace period goes on, not afresh, on the process that serves the table next."""
    _id_counts: dict[int, Counter[str]] = field(default_factory=dict, repr=False, compare=False)
    """Each seat's ``client_ids`` counted, made when first asked and kept in step by
    :meth:`remember`: a new client id is looked up at once, not compared with each kept."""

    # --- who is who ---------------------------------------------------------------------------

    def member(self, profile_id: int) -> Member | None:
        """The member with this profile, if any."""
        return self.members.get(profile_id)

    def person_at(self, seat: int) -> Member | None:
        """The person sitting at ``seat``, if any."""
        for member in self.members.values():  # a plain loop: asked for every seat's view
            if member.seat == seat:
                return member
        return None

    def seated(self) -> dict[int, int]:
        """Seat -> profile id of the people sitting."""
        return {m.seat: m.profile_id for m in self.members.values() if m.seat is not None}

    def spectators(self) -> list[Member]:
        """The members watching."""
        return [m for m in self.members.values() if m.seat is None]

    def name_taken(self, name: str, by: int) -> bool:
        """Whether another member uses ``name``, or one that looks the same (in any case, with
        other accents or look-alike letters)."""
        shape = skeleton(name)
        return any(skeleton(m.name) == shape for m in self.members.values() if m.profile_id != by)

    # --- client ids ---------------------------------------------------------------------------

    def seen(self, seat: int, client_id: str) -> bool:
        """Whether ``seat`` already had an action with this client id applied."""
        counts = self._id_counts.get(seat)
        if counts is None:
            counts = self._id_counts[seat] = Counter(self.client_ids.get(seat, ()))
        return client_id in counts

    def remember(self, seat: int, client_id: str) -> None:
        """Note an applied client id (the oldest are forgotten beyond :data:`CLIENT_IDS_KEPT`)."""
        kept = self.client_ids.setdefault(seat, deque(maxlen=CLIENT_IDS_KEPT))
        counts = self._id_counts.get(seat)
        if counts is not None:
            if len(kept) == kept.maxlen:
                oldest = kept[0]
                counts[oldest] -= 1
                if counts[oldest] <= 0:
                    del counts[oldest]
            counts[client_id] += 1
        kept.append(client_id)

    # --- storage ------------------------------------------------------------------------------

    def move_copy(self) -> Room:
        """A room for working out what a move does to this one: what a move changes (the
        phase, the time banks, the away counts, the assisted seats, the turn) is its own;
        the rest is this room's, shared, only to be read (the move's document is made from
        it), so that the copy made for every move costs little."""
        return replace(
            self,
            banks_ms=dict(self.banks_ms),
            away_moves=dict(self.away_moves),
            assisted=set(self.assisted),
        )

    def to_json(self, *, client_ids: bool = True) -> dict[str, Any]:
        """The stored document; without ``client_ids`` (the document stored with a move)
        the seats' client ids are left out: the move's own row holds its client id, and a
        table loaded again remembers those of its stored moves (``load_room``), so the
        document that goes with every move need not carry them all again."""
        return {
            "settings": self.settings.to_json(),
            "invite": self.invite,
            "host": self.host,
            "phase": self.phase,
            "commitment": self.commitment,
            "members": [
                {"profile": m.profile_id, "name": m.name, "seat": m.seat}
                for m in self.members.values()
            ],
            "removed": sorted(self.removed),
            "locked": self.locked,
            "contributions": {str(s): v for s, v in self.contributions.items()},
            "banks_ms": {str(s): v for s, v in self.banks_ms.items()},
            "away": sorted(self.away),
            "away_moves": {str(s): v for s, v in self.away_moves.items()},
            "assisted": sorted(self.assisted),
            "left": sorted(self.left),
            "rematch": {str(s): v for s, v in self.rematch.items()},
            "rematch_contributions": {str(s): v for s, v in self.rematch_contributions.items()},
            "rematch_table": self.rematch_table,
            "client_ids": {str(s): list(ids) for s, ids in self.client_ids.items()}
            if client_ids
            else {},
            "turn": None if self.turn is None else list(self.turn),
            "disconnected": {str(s): at for s, at in self.disconnected.items()},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Room:
        """A stored room."""
        members = {
            int(m["profile"]): Member(int(m["profile"]), str(m["name"]), m["seat"])
            for m in data.get("members", [])
        }
        return cls(
            settings=RoomSettings.from_json(dict(data.get("settings", {}))),
            invite=str(data["invite"]),
            host=int(data["host"]),
            phase=str(data.get("phase", WAITING)),
            commitment=data.get("commitment"),
            members=members,
            removed={int(p) for p in data.get("removed", [])},
            locked=bool(data.get("locked", False)),
            contributions={int(s): str(v) for s, v in data.get("contributions", {}).items()},
            banks_ms={int(s): int(v) for s, v in data.get("banks_ms", {}).items()},
            away={int(s) for s in data.get("away", [])},
            away_moves={int(s): int(v) for s, v in data.get("away_moves", {}).items()},
            assisted={int(s) for s in data.get("assisted", [])},
            left={int(s) for s in data.get("left", [])},
            rematch={int(s): bool(v) for s, v in data.get("rematch", {}).items()},
            rematch_contributions={
                int(s): str(v) for s, v in data.get("rematch_contributions", {}).items()
            },
            rematch_table=data.get("rematch_table"),
            client_ids={
                int(s): deque((str(i) for i in ids), maxlen=CLIENT_IDS_KEPT)
                for s, ids in data.get("client_ids", {}).items()
            },
            turn=None
            if data.get("turn") is None
            else (int(data["turn"][0]), int(data["turn"][1]), float(data["turn"][2])),
            disconnected={int(s): float(at) for s, at in data.get("disconnected", {}).items()},
        )


@dataclass(frozen=True, slots=True)
class RoomAfterMove:
    """The room as it will be once a move is applied, stored with the move: its phase and
    its document (:meth:`Room.to_json`); ``unchanged``: the document is the one stored
    already, so the move need not store it again."""

    phase: str
    document: dict[str, Any]
    unchanged: bool = False

    def stored(self) -> tuple[str, dict[str, Any]] | None:
        """As the log store takes it with a move (``None``: nothing to store)."""
        return None if self.unchanged else (self.phase, self.document)


class InviteJson(TypedDict):
    """A people's table's invite: its token, and the link (the token in the fragment)."""

    token: str
    url: str


def invite_json(token: str) -> InviteJson:
    """The invite as the host is shown it."""
    return InviteJson(token=token, url=INVITE_PATH + token)
