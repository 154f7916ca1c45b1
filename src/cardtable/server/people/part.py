"""The people's part of a people's table as data (:class:`PeopleState`, which
:class:`~cardtable.server.people.presence.PeoplesTable` answers the table core's hooks with):
the room, the presence (what only the running process knows), the table's clock in the
room's terms, the tasks that run beside the table, and what the room as sent keeps between
broadcasts. The other people's modules reach it through :func:`people_of` and the
accessors here.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from typing import Any

from cardtable.games.contract import view_rules_json
from cardtable.registry import format_fields
from cardtable.server.people.room import InviteJson, Room, RoomSettings, RoomSettingsJson
from cardtable.server.protocol.messages import (
    AutoReason,
    JsonObject,
    RoomJson,
    SharedRoomJson,
    YouJson,
)
from cardtable.server.table.owner import Connection, TableOwner


@dataclass(slots=True)
class Presence:
    """What only the running process knows about the people at a table: which profile is
    behind each connection, when each person's last socket closed, the running turn (seat,
    when it started, the version it started at), the timer tasks, and whether another
    process serves the table now."""

    profiles: dict[Connection, int] = field(default_factory=dict)
    """The profile behind each connection, by connection."""
    disconnected_at: dict[int, float] = field(default_factory=dict)
    turn: tuple[int, float, int] | None = None
    """``(seat, started, version)`` of the turn the timer runs for."""
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    """The grace, turn and room-saving tasks, by name."""
    retired: bool = False
    """Another process of a cluster serves the table now: this copy starts no timers."""


@dataclass(frozen=True, slots=True)
class RoomHead:
    """What the room says of the table that only changes with its setup (game, rules,
    format, number of seats): worked out once, not for every broadcast. Its ``rules`` dict
    is shared by every room sent (never changed)."""

    setup: object
    players: int
    table_id: str
    game: str
    title: str
    format: str | None
    table_label: str
    rules: JsonObject

    @classmethod
    def of(cls, owner: TableOwner) -> RoomHead:
        """The head of ``owner``'s room as its setup is now."""
        setup = owner.setup
        shown = format_fields(setup.game, setup.rules, len(owner.seats))
        return cls(
            setup,
            len(owner.seats),
            setup.table_id,
            setup.game,
            setup.engine.title,
            shown["format"],
            shown["table_label"],
            view_rules_json(setup.rules),
        )


@dataclass(slots=True)
class SentRooms:
    """The room as last broadcast: the shared part and each seat's, kept while a new one is
    equal, so that every broadcast of an unchanged room sends the same objects (a state's
    patch tells an unchanged room by its identity, without comparing it). Rebuilt for every
    broadcast all the same: nothing here must be told that the room changed. The rooms kept
    are never changed (as every message broadcast)."""

    shared: SharedRoomJson | None = None
    by_seat: dict[int, tuple[SharedRoomJson, RoomJson]] = field(default_factory=dict)

    def same_shared(self, built: SharedRoomJson) -> SharedRoomJson:
        """``built``, or the shared room kept when equal to it."""
        kept = self.shared
        if kept is not None and kept == built:
            return kept
        self.shared = built
        return built

    def kept_room(
        self, seat: int, shared: SharedRoomJson, you: YouJson, invite: InviteJson | None
    ) -> RoomJson | None:
        """The room kept for ``seat`` when it was made from ``shared`` with this reader's
        part (its ``you``, and the host's invite), else ``None``: nothing to build then."""
        kept = self.by_seat.get(seat)
        if kept is None or kept[0] is not shared:
            return None
        room = kept[1]
        if room["you"] != you or room.get("invite") != invite:
            return None
        return room

    def same_room(self, seat: int, shared: SharedRoomJson, built: RoomJson) -> RoomJson:
        """``built`` (made from ``shared``), or the room kept for ``seat`` when it was made
        from the same shared room and is equal to it."""
        kept = self.by_seat.get(seat)
        if kept is not None and kept[0] is shared and kept[1] == built:
            return kept[1]
        self.by_seat[seat] = (shared, built)
        return built


@dataclass(slots=True)
class PeopleState:
    """What the people's part of one people's table keeps (see the module docstring)."""

    room: Room
    presence: Presence = field(default_factory=Presence)
    time_scale: float = 1.0
    """Multiplies every timer and grace period (tests shorten them)."""
    last_auto: tuple[int, AutoReason] | None = None
    """``(version, why)`` when a computer player made the last move for a person."""
    last_client: tuple[int, str] | None = None
    """``(version, client id)`` of the last move when it was sent with a client id: the
    mover's seat is sent it with that state, as its acknowledgement."""
    over_after: tuple[Any, bool] | None = None
    """``(state, over)`` of the move being stored (``room_after_move``), for
    ``move_applied`` once that state is the table's."""
    pending_room: dict[str, Any] | None = None
    """The room document of the move being stored (``room_after_move``)."""
    stored_room: dict[str, Any] | None = None
    """The room document the last stored move stored or kept, while the room was not stored
    otherwise since (``None``: not known, so the next move stores its own)."""
    sent_rooms: SentRooms = field(default_factory=SentRooms)
    _head: RoomHead | None = None
    _settings: tuple[RoomSettings, RoomSettingsJson] | None = None

    def head(self, owner: TableOwner) -> RoomHead:
        """The room's :class:`RoomHead`, worked out again only when the table's setup (a
        new deal's seed) or its number of seats changed."""
        head = self._head
        if head is None or head.setup is not owner.setup or head.players != len(owner.seats):
            head = self._head = RoomHead.of(owner)
        return head

    def settings_json(self) -> RoomSettingsJson:
        """The room's settings as sent, the same dict (never changed) while the settings
        stay (they are frozen: the host's change replaces them)."""
        settings = self.room.settings
        cached = self._settings
        if cached is None or cached[0] is not settings:
            cached = self._settings = (settings, settings.to_json())
        return cached[1]


def people_of(owner: TableOwner) -> PeopleState:
    """The people's part of a people's table (only called for people's tables)."""
    people = owner.people
    assert isinstance(people, PeopleState)
    return people


def room_of(owner: TableOwner) -> Room:
    """The room of a people's table."""
    return people_of(owner).room


def presence_of(owner: TableOwner) -> Presence:
    """The presence at a people's table."""
    return people_of(owner).presence


def seconds(owner: TableOwner, value: float) -> float:
    """A setting's seconds on this table's clock (tests shorten them)."""
    return value * people_of(owner).time_scale


def wall_time(owner: TableOwner, moment: float) -> float:
    """A moment of the table's clock in seconds since the epoch (as stored: another process's
    clock is another)."""
    return time.time() - (owner.services.clock() - moment)


def clock_time(owner: TableOwner, stored: float) -> float:
    """A stored moment (seconds since the epoch) on the table's clock."""
    return owner.services.clock() - (time.time() - stored)


# --- tasks --------------------------------------------------------------------------------------


def spawn(owner: TableOwner, name: str, work: Coroutine[Any, Any, None]) -> None:
    """Run ``work`` beside the table under ``name`` (replacing a task of that name)."""
    cancel(owner, name)
    presence_of(owner).timers[name] = asyncio.get_running_loop().create_task(work)


def cancel(owner: TableOwner, name: str) -> None:
    task = presence_of(owner).timers.pop(name, None)
    if task is not None and task is not asyncio.current_task() and not task.done():
        task.cancel()


def cancel_all(owner: TableOwner) -> None:
    """Stop every timer of the table."""
    timers = presence_of(owner).timers
    for name in list(timers):
        cancel(owner, name)
    with contextlib.suppress(Exception):
        timers.clear()
