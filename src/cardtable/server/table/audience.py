"""A table's audience: the open connections of each seat (and of a people's table's
spectators, under :data:`SPECTATORS`), what each was last sent, and when the table was last
in use. It sends; what is sent is the table core's to build.

Each message goes out as one :class:`~cardtable.server.protocol.messages.Frame`, encoded once
however many connections take it; a connection that takes patches and has its seat's last
state is sent the patch from it instead (:mod:`~cardtable.server.protocol.state_frames`). A
connection that fails to take a message is handed to ``drop`` and the others go on.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from cardtable.server.protocol.messages import (
    Frame,
    Outgoing,
    RoomJson,
    RoomUpdate,
    ServerMessage,
    StateMessage,
    room_message,
)
from cardtable.server.protocol.state_frames import Public, StateFrames, ViewChanges, state_patch

logger = logging.getLogger(__name__)

SPECTATORS = -1
"""The key under which a people's table keeps its spectators' connections."""


class Connection(Protocol):
    """A client connection: sends one server message (or a frame of one, encoded once)."""

    async def send(self, message: Outgoing) -> None: ...


Drop = Callable[[int, Connection], None]
"""Called with a seat and its connection that could not be sent to."""


@dataclass(slots=True)
class Audience:
    """The connections of one table (see the module docstring)."""

    connections: dict[int, list[Connection]] = field(default_factory=dict)
    frames: StateFrames = field(default_factory=StateFrames)
    """The last state each seat was broadcast, and which connections take patches."""
    last_active: float = field(default_factory=time.monotonic)
    """When the table last moved, was asked for, or lost a connection (``time.monotonic``)."""

    def touch(self) -> None:
        """Note that the table is in use now (idle tables leave memory, see the lobby)."""
        self.last_active = time.monotonic()

    def anyone(self) -> bool:
        """Whether any connection is open."""
        return any(self.connections.values())

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a connection open."""
        return bool(self.connections.get(seat))

    def attach(self, seat: int, connection: Connection) -> None:
        """Send ``seat``'s updates to ``connection`` from now on (its next state is whole: it
        has not seen this seat's last one)."""
        self.connections.setdefault(seat, []).append(connection)
        self.frames.unsync(connection)

    def move(self, connection: Connection, before: int, after: int) -> None:
        """A connection attached at ``before`` gets ``after``'s updates from now on (a person
        who changed seats); one attached elsewhere stays where it is."""
        listeners = self.connections.get(before, [])
        if connection in listeners:
            listeners.remove(connection)
            self.attach(after, connection)

    def detach(self, seat: int, connection: Connection) -> None:
        """Stop sending to ``connection``."""
        listeners = self.connections.get(seat, [])
        if connection in listeners:
            listeners.remove(connection)
        self.frames.forget(connection)
        self.touch()

    async def send_each(
        self, table_id: str, make: Callable[[int], ServerMessage], drop: Drop
    ) -> None:
        """Send every connected seat the message ``make`` builds for it, once per seat."""
        for seat, listeners in list(self.connections.items()):
            if not listeners:
                continue
            message = Frame(make(seat))
            for connection in list(listeners):
                try:
                    await connection.send(message)
                except Exception:  # a dead connection must not stop the others' updates
                    logger.info("dropping a connection of table %s seat %d", table_id, seat)
                    drop(seat, connection)

    async def send_rooms(
        self, table_id: str, make: Callable[[int], RoomJson | None], drop: Drop
    ) -> None:
        """Send every connected seat the room alone, as ``make`` builds it for the seat."""

        def message(seat: int) -> RoomUpdate:
            room = make(seat)
            assert room is not None  # only a people's table sends its room alone
            self.frames.room_sent(seat, room)
            return room_message(room)

        await self.send_each(table_id, message, drop)

    async def broadcast(
        self,
        table_id: str,
        make: Callable[[int], StateMessage | RoomUpdate],
        drop: Drop,
        public_of: Callable[[object], Public | None] | None = None,
    ) -> None:
        """Send every connected seat its state (or room) ``make`` builds, or the patch to it
        to each connection in step (see the module docstring); ``public_of``: the public
        part a view ``make`` built was made of, if it was (then the changes of the public
        parts are worked out once for every seat's patch)."""
        frames = self.frames
        seen = ViewChanges()
        for seat, listeners in list(self.connections.items()):
            if not listeners:
                continue
            built = make(seat)
            message = Frame(built)
            patch: Frame | None = None
            base: int | None = None
            version: int | None = None
            if built["type"] == "state":
                version = built["version"]
                public = None if public_of is None else public_of(built["view"])
                previous, was_public = frames.state_sent(seat, built, public)
                if previous is not None and any(
                    frames.in_step(connection, previous["version"]) for connection in listeners
                ):
                    made = state_patch(previous, built, seen, (was_public, public))
                    if made is not None:
                        patch, base = Frame(made), made["base"]
            else:
                frames.room_sent(seat, built["room"])
            for connection in list(listeners):
                frame = message
                if patch is not None and base is not None and frames.in_step(connection, base):
                    frame = patch
                try:
                    await connection.send(frame)
                except Exception:  # a dead connection must not stop the others' updates
                    logger.info("dropping a connection of table %s seat %d", table_id, seat)
                    drop(seat, connection)
                    continue
                if version is not None:
                    frames.sent(connection, version)
