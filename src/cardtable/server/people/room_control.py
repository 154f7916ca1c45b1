"""The room messages of a people's table: taking a seat or watching in the waiting room, the
host's controls (computer players in and out of empty seats, removing a person, which also
replaces the invite link, locking the room against newcomers, starting the game), quick
messages, leaving, and the rematch.

Each handler runs under the table owner's lock, checks everything before changing anything
(a refusal is a :class:`~cardtable.server.protocol.messages.ProtocolError` naming the problem,
and the table stays as it was), then stores the room and sends every member the new room or state.
"""

from __future__ import annotations

import asyncio

from cardtable.server.people.connections import save_room
from cardtable.server.people.names import BOT_NAMES
from cardtable.server.people.part import presence_of, room_of
from cardtable.server.people.room import (
    FINISHED,
    PHRASES,
    PLAYING,
    TAKEOVER_LEVEL,
    WAITING,
    Member,
    new_invite_token,
)
from cardtable.server.people.room_view import open_seats
from cardtable.server.people.turns import track_turn
from cardtable.server.protocol.messages import (
    LeaveMessage,
    LockMessage,
    Outgoing,
    ProtocolError,
    QuickMessage,
    RematchMessage,
    RemoveMessage,
    RoomMessage,
    SetSeatMessage,
    SitMessage,
    StartMessage,
    WatchMessage,
    left_message,
    quick_message,
    rematch_message,
    removed_message,
)
from cardtable.server.table.owner import TableOwner, replay_log
from cardtable.server.table.seating import Seat

SPECTATORS = -1
"""Where a people's table keeps its spectators' sockets (as :mod:`cardtable.server.table.owner`)."""

CLOSE_REMOVED = 4403
CLOSE_LEFT = 1000


def _seat_number(seat: int, owner: TableOwner) -> int:
    """``seat``, when the table has it (the message's reading checked it is a number)."""
    if not 0 <= seat < len(owner.seats):
        raise ProtocolError(
            "bad-seat", f"there is no seat {seat}: seats are 0 to {len(owner.seats) - 1}"
        )
    return seat


async def handle(owner: TableOwner, profile_id: int, message: RoomMessage) -> None:
    """Apply one room message from ``profile_id`` (see the module docstring)."""
    leaving = False
    async with owner.lock:
        room = room_of(owner)
        member = room.member(profile_id)
        if member is None:
            raise ProtocolError("not-member", "you are no longer at this table")
        if message.host_only and profile_id != room.host:
            raise ProtocolError("not-host", "only the host can do that")
        if message.waiting_only and room.phase != WAITING:
            raise ProtocolError("phase", "the game has started: that is only for the waiting room")
        if isinstance(message, SitMessage):
            await _sit(owner, member, message)
        elif isinstance(message, WatchMessage):
            await _watch(owner, member)
        elif isinstance(message, SetSeatMessage):
            await _set_seat(owner, message)
        elif isinstance(message, RemoveMessage):
            await _remove(owner, message)
        elif isinstance(message, LockMessage):
            room.locked = message.locked
        elif isinstance(message, StartMessage):
            await _start(owner)
        elif isinstance(message, QuickMessage):
            await _quick(owner, member, message)
            return
        elif isinstance(message, LeaveMessage):
            await _leave(owner, member)
            leaving = True
        elif isinstance(message, RematchMessage):
            await _rematch(owner, member, message)
        owner.seated = room.seated()
        await save_room(owner)
        await owner.broadcast()
    owner.wake_bots()
    if leaving:
        # The leaver's sockets close last, once the room is stored and the others were told:
        # this handler runs in the leaver's own socket, and a server may cancel a socket's
        # handler once it is closed (the test client does), which would lose both.
        await _close_member(owner, profile_id, left_message(), CLOSE_LEFT)


async def _sit(owner: TableOwner, member: Member, message: SitMessage) -> None:
    room = room_of(owner)
    seat = _seat_number(message.seat, owner)
    contribution = message.contribution
    if seat == member.seat:
        return
    if seat not in open_seats(owner):
        raise ProtocolError("seat-taken", f"seat {seat} is not free: choose another")
    before = SPECTATORS if member.seat is None else member.seat
    if member.seat is not None:
        await _free(owner, member.seat)
    await owner.services.store.sit(owner.setup.table_id, seat, member.profile_id, member.name)
    owner.seats[seat] = owner.seats[seat].named(member.name)
    member.seat = seat
    _move_sockets(owner, member.profile_id, before, seat)
    if contribution is not None:
        room.contributions[seat] = contribution


async def _free(owner: TableOwner, seat: int) -> None:
    """A person's seat opens again (waiting room)."""
    room = room_of(owner)
    room.contributions.pop(seat, None)
    await owner.services.store.unsit(owner.setup.table_id, seat)
    owner.seats[seat] = owner.seats[seat].named("Player")


async def _watch(owner: TableOwner, member: Member) -> None:
    room = room_of(owner)
    if member.profile_id == room.host:
        raise ProtocolError("not-host", "the host keeps a seat: seat a computer player elsewhere")
    if not room.settings.spectators:
        raise ProtocolError("spectator", "the host does not allow spectators at this table")
    if member.seat is not None:
        await _free(owner, member.seat)
        _move_sockets(owner, member.profile_id, member.seat, SPECTATORS)
        member.seat = None


def _move_sockets(owner: TableOwner, profile_id: int, before: int, after: int) -> None:
    """A member changed places: their sockets get the new place's messages from now on."""
    for connection, profile in presence_of(owner).profiles.items():
        if profile == profile_id:
            owner.audience.move(connection, before, after)


async def _set_seat(owner: TableOwner, message: SetSeatMessage) -> None:
    seat = _seat_number(message.seat, owner)
    spec = owner.seats[seat]
    if message.kind == "bot":
        level = message.level or TAKEOVER_LEVEL
        if not spec.is_bot and seat not in open_seats(owner):
            raise ProtocolError("bad-seat", f"seat {seat} has a person in it: remove them first")
        used = {s.name for s in owner.seats if s.is_bot}
        name = spec.name if spec.is_bot else next(n for n in BOT_NAMES if n not in used)
        owner.seats[seat] = Seat("bot", name, level)
    else:
        if not spec.is_bot:
            raise ProtocolError("bad-seat", f"seat {seat} has no computer player to take out")
        owner.seats[seat] = Seat("human", "Player")
    await owner.services.store.set_seats(owner.setup.table_id, [s.to_json() for s in owner.seats])


async def _remove(owner: TableOwner, message: RemoveMessage) -> None:
    room = room_of(owner)
    seat = _seat_number(message.seat, owner)
    person = room.person_at(seat)
    if person is None:
        raise ProtocolError("bad-seat", f"nobody sits at seat {seat}")
    if person.profile_id == room.host:
        raise ProtocolError("bad-seat", "the host cannot remove themselves")
    await _free(owner, seat)
    del room.members[person.profile_id]
    room.removed.add(person.profile_id)
    # The link they had opens nothing now (a fresh cookie would otherwise bring them back):
    # the host is sent the new one with the room, and the store finds the table by it.
    room.invite = new_invite_token()
    await _close_member(owner, person.profile_id, removed_message(), CLOSE_REMOVED)


async def _close_member(owner: TableOwner, profile_id: int, last: Outgoing, code: int) -> None:
    """Send a member's sockets a last message, and close them."""
    profiles = presence_of(owner).profiles
    for connection, profile in list(profiles.items()):
        if profile == profile_id:
            profiles.pop(connection, None)
            closer = getattr(connection, "close_with", None)
            if closer is not None:
                await closer(last, code)


async def _start(owner: TableOwner) -> None:
    room = room_of(owner)
    missing = open_seats(owner)
    if missing:
        raise ProtocolError(
            "not-ready",
            f"seat {missing[0]} is still open: wait for a person, or seat a computer player",
        )
    seed = await owner.deal_seed(room.contributions)
    state, _ = await asyncio.to_thread(replay_log, owner.setup.engine, owner.setup.rules, seed, [])
    await owner.services.store.set_seed(owner.setup.table_id, seed)
    await owner.services.store.set_seats(owner.setup.table_id, [s.to_json() for s in owner.seats])
    owner.start_deal(seed, state)
    room.phase = PLAYING
    track_turn(owner)


async def _quick(owner: TableOwner, member: Member, message: QuickMessage) -> None:
    if member.seat is None:
        raise ProtocolError("spectator", "spectators watch quietly: quick messages are for players")
    phrase = message.phrase
    await owner.send_all(quick_message(member.seat, member.name, phrase, PHRASES[phrase]))


async def _leave(owner: TableOwner, member: Member) -> None:
    room = room_of(owner)
    seat = member.seat
    if room.phase == WAITING:
        if member.profile_id == room.host:
            raise ProtocolError(
                "not-host", "the host cannot leave the waiting room: close the table"
            )
        if seat is not None:
            await _free(owner, seat)
    elif seat is not None:
        if room.phase == PLAYING and not owner.finished:
            room.left.add(seat)
            room.away.discard(seat)
            presence_of(owner).disconnected_at.pop(seat, None)
            room.disconnected.pop(seat, None)
        else:
            room.rematch[seat] = False
        await owner.services.store.unsit(owner.setup.table_id, seat)
    del room.members[member.profile_id]
    if room.phase == PLAYING:
        track_turn(owner)
    # Its sockets are closed by handle, after the room is stored and broadcast.


async def _rematch(owner: TableOwner, member: Member, message: RematchMessage) -> None:
    room = room_of(owner)
    accept, contribution = message.accept, message.contribution
    if not owner.finished or room.phase not in (PLAYING, FINISHED):
        raise ProtocolError("phase", "a rematch is for when the game is over")
    if member.seat is None:
        raise ProtocolError("spectator", "spectators do not vote on the rematch")
    if room.rematch_table is not None:
        raise ProtocolError("phase", "the rematch table is already made")
    room.phase = FINISHED
    room.rematch[member.seat] = accept
    # The rematch is dealt from the contributions of those who said yes, like a first game
    # from those who sat down.
    if accept and contribution is not None:
        room.rematch_contributions[member.seat] = contribution
    else:
        room.rematch_contributions.pop(member.seat, None)
    if all(seat in room.rematch for seat in room.seated()):
        accepted = [seat for seat in room.seated() if room.rematch[seat]]
        if accepted:
            room.rematch_table = await owner.make_rematch()
            await owner.send_all(rematch_message(room.rematch_table))


async def start_now(owner: TableOwner) -> None:
    """Start a people's table whose seats are all filled (a rematch everybody accepted)."""
    async with owner.lock:
        await _start(owner)
        await save_room(owner)
        await owner.broadcast()
    owner.wake_bots()
