"""The people's part of a people's table as the table core calls it (:class:`PeoplesTable`,
the core's :class:`~cardtable.server.table.owner.PeopleHooks`): each hook handed to the
module doing that job: the room as sent (:mod:`~cardtable.server.people.room_view`), sockets
opening and closing and the grace period (:mod:`~cardtable.server.people.connections`), moves
and the turn timer (:mod:`~cardtable.server.people.turns`), over what the part keeps
(:mod:`~cardtable.server.people.part`). The part holds what the core does not (the room, the
presence, the timers), and asks the core only through its methods.

Everything here runs on the table owner's event loop and changes the table only under its
lock: the grace and timer tasks sleep outside it, then check under it that nothing moved
meanwhile (the person came back, the turn ended) before acting. A computer player moving for
a person goes through the owner's checked apply like every other move.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.server.people.connections import connection_closed
from cardtable.server.people.part import PeopleState
from cardtable.server.people.room import WAITING, RoomAfterMove, invite_json
from cardtable.server.people.room_view import room_json, shared_room_json, you_json
from cardtable.server.people.turns import move_applied, room_after_move
from cardtable.server.protocol.messages import (
    AutoReason,
    LastAction,
    RoomJson,
    SharedRoomJson,
)
from cardtable.server.table.owner import SPECTATORS, Connection, TableOwner

AUTO_SENTENCES: dict[AutoReason, str] = {
    "timeout": "Time ran out for {name}: the computer player moved for them.",
    "away": "{name} is away: the computer player moved for them.",
    "left": "{name} left: the computer player moved for them.",
}


@dataclass(slots=True)
class PeoplesTable(PeopleState):
    """The people's part of one people's table (see the module docstring): the hooks the
    table core calls, with what they keep."""

    def waiting(self) -> bool:
        """Whether the host has not started the game yet."""
        return self.room.phase == WAITING

    def room_json(self, owner: TableOwner, seat: int, shared: SharedRoomJson | None) -> RoomJson:
        """:func:`room_json`; for a broadcast (``shared`` given), the very room the seat was
        sent last while it is the same (see :meth:`shared_room`)."""
        if shared is None:
            return room_json(owner, seat, shared)
        you = you_json(owner, seat)
        invite = invite_json(self.room.invite) if you["host"] else None
        kept = self.sent_rooms.kept_room(seat, shared, you, invite)
        if kept is not None:
            return kept
        return self.sent_rooms.same_room(seat, shared, room_json(owner, seat, shared))

    def shared_room(self, owner: TableOwner) -> SharedRoomJson:
        """:func:`shared_room_json`, built for every broadcast (cheap) but the very room
        sent last while it is the same: the room rarely changes with a move, and a patch
        tells an unchanged room by its identity at once."""
        return self.sent_rooms.same_shared(shared_room_json(owner))

    def member_info(self, owner: TableOwner, profile_id: int | None) -> dict[str, Any]:
        """The room for a member (the host also gets the invite); nothing for others."""
        member = None if profile_id is None else self.room.member(profile_id)
        if member is None:
            return {}
        shared = room_json(owner, SPECTATORS if member.seat is None else member.seat)
        if profile_id == self.room.host:
            shared["invite"] = invite_json(self.room.invite)
        return {"shared": shared}

    def note_last_action(self, owner: TableOwner, seat: int, last_action: LastAction) -> str:
        """Mark the last action with why a computer player made it for a person (``None``:
        the person's own move) and, for the mover's own seat, the client id it was sent with
        (its acknowledgement: the mover is sent no ``ack`` besides); the sentence saying
        why, or ""."""
        client = self.last_client
        if client is not None and client[0] == owner.version and owner.log[-1][0] == seat:
            last_action["client_id"] = client[1]
        auto: AutoReason | None = None
        if self.last_auto is not None and self.last_auto[0] == owner.version:
            auto = self.last_auto[1]
        last_action["auto"] = auto
        if auto is None:
            return ""
        name = owner.seats[owner.log[-1][0]].name
        return AUTO_SENTENCES[auto].format(name=name) + " "

    def seen(self, seat: int, client_id: str) -> bool:
        """Whether ``seat`` had an action with this client id applied already."""
        return self.room.seen(seat, client_id)

    def stand_in(self, seat: int) -> AutoReason | None:
        """``left`` or ``away`` for a person a computer player moves for, else ``None``."""
        if seat in self.room.left:
            return "left"
        return "away" if seat in self.room.away else None

    def record_marks(self, seat: int) -> dict[str, Any]:
        """Shared-table results are counted apart; "assisted": a computer player moved for
        this person during the game."""
        return {"shared": True, "assisted": seat in self.room.assisted}

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """:func:`connection_closed`."""
        connection_closed(owner, seat, connection)

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> RoomAfterMove:
        """:func:`room_after_move`."""
        return room_after_move(owner, after, seat, auto, client_id, now)

    def move_applied(
        self,
        owner: TableOwner,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> None:
        """:func:`move_applied`."""
        move_applied(owner, seat, auto, client_id, now)

    def stop(self, owner: TableOwner) -> None:
        """Stop every timer."""
        timers = self.presence.timers
        for task in timers.values():
            task.cancel()
        timers.clear()

    def retire(self, owner: TableOwner) -> None:
        """Start no timer again: another process serves the table now."""
        self.presence.retired = True
