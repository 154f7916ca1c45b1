"""People's tables in the lobby: opening a room for a new table, finding a table by its invite
token, joining it (as a player or a spectator), the lobby of public tables, the seed drawn at
the start from every seated person's contribution, and the rematch table.

The invite token travels only in request bodies (the page reads it from the link's fragment),
so no server log ever holds it; the table id grants nothing by itself: only members may open a
people's table's websocket.
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Sequence
from typing import Any, Final, Protocol

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.fairness import FairDeal, check_contribution, derive_seed
from cardtable.registry import format_fields, table_format_of, table_label
from cardtable.rule_options import Declared, options_of
from cardtable.server.people.connections import resume as resume_play
from cardtable.server.people.connections import save_room
from cardtable.server.people.names import check_table_name
from cardtable.server.people.presence import PeoplesTable
from cardtable.server.people.room import (
    PLAYING,
    WAITING,
    Member,
    Room,
    RoomSettings,
    new_invite_token,
)
from cardtable.server.people.room_control import start_now
from cardtable.server.people.room_view import open_seats, phase_of
from cardtable.server.settings import Settings
from cardtable.server.table.fair_deals import fresh_deal
from cardtable.server.table.owner import TableOwner
from cardtable.server.table.seating import Seat, public_seats
from cardtable.storage import Database, LogStore, RoomStore, reviews
from cardtable.storage.shared import StoredRoom


class Lobby(Protocol):
    """What people's tables ask of the lobby that holds them
    (:class:`cardtable.server.hosting.lobby.Lobby`): its database, settings and log store, a
    table in memory (``get``) or read for a look (``read``), and a rematch table added."""

    @property
    def db(self) -> Database: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def store(self) -> LogStore: ...

    async def get(self, table_id: str) -> TableOwner | None: ...

    async def read(self, table_id: str) -> TableOwner | None: ...

    async def add_rematch_owner(
        self, old: TableOwner, table_id: str, seats: list[Seat], room: Room
    ) -> TableOwner: ...


LOBBY_SIZE: Final = 50
"""The most public tables the lobby lists."""


class InviteError(CardtableError):
    """An invite token that opens no table."""


class JoinRefused(CardtableError):
    """A join the table refuses (``status``: 403 not allowed, 409 conflict)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


async def open_room(
    store: RoomStore,
    table_id: str,
    host: storage.Profile,
    seat: int,
    settings: RoomSettings,
    fair: FairDeal | None,
) -> Room:
    """The room of a new people's table, stored."""
    room = Room(
        settings=settings,
        invite=new_invite_token(),
        host=host.id,
        members={host.id: Member(host.id, host.name, seat)},
        commitment=None if fair is None else fair.commitment,
    )
    if fair is not None:
        room.contributions = dict(fair.contributions)
    await store.create_room(
        StoredRoom(table_id, room.invite, settings.public, room.phase, room.to_json())
    )
    return room


async def load_room(
    store: RoomStore,
    owner: TableOwner,
    *,
    resume: bool = True,
    client_ids: Sequence[tuple[int, str]] = (),
    time_scale: float = 1.0,
) -> None:
    """Give a table loaded from storage its room, if it is a people's table; ``resume``: its
    timers and grace periods go on (not for a copy that is only read). ``client_ids``: those
    stored with the moves, ``(seat, id)`` in the log's order: the room knows them all, even
    those of moves made after the room was last stored. ``time_scale``: of its timers."""
    stored = await store.load_room(owner.setup.table_id)
    if stored is None:
        return
    room = Room.from_json(stored.room)
    for seat, client_id in client_ids:
        if not room.seen(seat, client_id):
            room.remember(seat, client_id)
    owner.open_room(PeoplesTable(room, time_scale=time_scale))
    owner.seated = room.seated()
    if resume:
        resume_play(owner)


async def start_seed(lobby: Lobby, owner: TableOwner, contributions: dict[int, str]) -> int:
    """The seed of a people's table at its start: the committed server seed with the
    contribution of each person seated now (the settings' test seed in tests)."""
    if lobby.settings.test_seed is not None:
        return lobby.settings.test_seed
    stored = await asyncio.to_thread(reviews.load_fairness, lobby.db, owner.setup.table_id)
    seated = set(owner.seated)
    if stored is None or stored.server_seed is None:
        return secrets.randbelow(2**62)
    fair = FairDeal(commitment=stored.commitment, server_seed=stored.server_seed)
    for seat, value in sorted(contributions.items()):
        if seat in seated:
            fair = fair.with_contribution(seat, value)
    await asyncio.to_thread(reviews.save_fairness, lobby.db, owner.setup.table_id, fair)
    return derive_seed(stored.server_seed, fair.contributions)


# --- invites ------------------------------------------------------------------------------------


async def table_of_invite(lobby: Lobby, token: Any) -> TableOwner:
    """The people's table an invite token opens, or :class:`InviteError`."""
    if not isinstance(token, str) or not 16 <= len(token) <= 64:
        raise InviteError("this invite link is not valid: it may have been mistyped")
    table_id = await lobby.store.table_of_invite(token)
    owner = None if table_id is None else await lobby.get(table_id)
    if (
        owner is None
        or owner.people.room is None
        or not secrets.compare_digest(owner.people.room.invite, token)
    ):
        raise InviteError(
            "this invite link is not valid (it may have been mistyped, or the table is gone)"
        )
    return owner


def peek(owner: TableOwner, profile_id: int) -> dict[str, Any]:
    """The waiting room as seen before joining (and the caller's place if it has one)."""
    assert owner.people.room is not None
    room = owner.people.room
    member = room.member(profile_id)
    host = room.member(room.host)
    return {
        "table_id": owner.setup.table_id,
        "game": owner.setup.game,
        "title": owner.setup.engine.title,
        **format_fields(owner.setup.game, owner.setup.rules, len(owner.seats)),
        "phase": phase_of(owner),
        "rules": owner.setup.engine.rules_to_json(owner.setup.rules),
        "host": None if host is None else host.name,
        "settings": room.settings.to_json(),
        "seats": _seats(owner),
        "commitment": room.commitment,
        "you": {
            "seat": None if member is None else member.seat,
            "role": None if member is None else member.role,
        },
    }


def _seats(owner: TableOwner) -> list[dict[str, Any]]:
    assert owner.people.room is not None
    free = set(open_seats(owner))
    shown = []
    for entry in public_seats(owner.seats, owner.seated):
        if entry["seat"] in free:
            shown.append({"seat": entry["seat"], "kind": "open"})
        elif entry["kind"] == "bot":
            shown.append(entry)
        else:
            shown.append({"seat": entry["seat"], "kind": "person", "name": entry["name"]})
    return shown


async def join(
    lobby: Lobby,
    owner: TableOwner,
    profile: storage.Profile,
    *,
    name: Any,
    seat: Any,
    watch: bool,
    contribution: Any,
) -> tuple[int | None, str]:
    """Seat ``profile`` (or let it watch) at a people's table; its seat and role.
    ``JoinRefused`` or ``RulesError`` naming the problem; nothing changes then."""
    assert owner.people.room is not None
    room = owner.people.room
    if profile.id in room.removed:
        raise JoinRefused(403, "the host removed you from this table")
    member = room.member(profile.id)
    if member is not None:  # the same profile on another device: its place back
        return member.seat, member.role
    if room.locked:
        raise JoinRefused(403, "the host has locked this table: nobody new may join it")
    display = check_table_name(name)
    value = None if contribution is None else check_contribution(contribution)
    async with owner.lock:
        if room.name_taken(display, profile.id):
            raise JoinRefused(409, f"somebody at this table is already called {display}")
        if watch:
            if not room.settings.spectators:
                raise JoinRefused(403, "the host does not allow spectators at this table")
            room.members[profile.id] = Member(profile.id, display, None)
        else:
            if room.phase != WAITING:
                raise JoinRefused(
                    409,
                    "the game has started: every seat is taken"
                    + ("; you can watch" if room.settings.spectators else ""),
                )
            free = open_seats(owner)
            if seat is None:
                if not free:
                    raise JoinRefused(
                        409,
                        "every seat is taken"
                        + ("; you can watch" if room.settings.spectators else ""),
                    )
                seat = free[0]
            if not isinstance(seat, int) or isinstance(seat, bool) or seat not in free:
                raise JoinRefused(409, f"seat {seat} is not free: choose another")
            await owner.services.store.sit(owner.setup.table_id, seat, profile.id, display)
            owner.seats[seat] = owner.seats[seat].named(display)
            room.members[profile.id] = Member(profile.id, display, seat)
            if value is not None:
                room.contributions[seat] = value
            owner.seated = room.seated()
        await save_room(owner)
        await owner.broadcast()
    if display != profile.name:
        await asyncio.to_thread(storage.update_profile, lobby.db, profile.id, name=display)
    joined = room.members[profile.id]
    return joined.seat, joined.role


async def public_tables(lobby: Lobby, viewer: int | None = None) -> list[dict[str, Any]]:
    """The lobby: public tables waiting for people, and those open to spectators; ``viewer``
    (a profile id) is not shown the tables whose host removed them, which would refuse them."""
    ids = await lobby.store.public_rooms((WAITING, PLAYING), LOBBY_SIZE)
    listed = []
    for table_id in ids:
        owner = await lobby.read(table_id)  # a copy, for a table another process owns
        if owner is None or owner.people.room is None or owner.status != storage.PLAYING:
            continue
        room = owner.people.room
        if viewer is not None and viewer in room.removed:
            continue
        phase = phase_of(owner)
        free = len(open_seats(owner))
        # A table nobody can sit at is still listed for watching when it allows spectators,
        # before its start as much as after it.
        if not room.settings.spectators and (phase == PLAYING or not free):
            continue
        if room.locked:
            continue
        if phase not in (WAITING, PLAYING):
            continue
        host = room.member(room.host)
        listed.append(
            {
                "table_id": owner.setup.table_id,
                "game": owner.setup.game,
                "title": owner.setup.engine.title,
                **format_fields(owner.setup.game, owner.setup.rules, len(owner.seats)),
                "phase": phase,
                "host": None if host is None else host.name,
                "rules_summary": rules_summary(owner),
                "seats": len(owner.seats),
                "seats_free": free,
                "spectators": room.settings.spectators,
                "invite": room.invite,
            }
        )
    return listed


def rules_summary(owner: TableOwner) -> str:
    """A line about the table's rules for the lobby, in the words of the start page's form:
    the format and players (``Pool 101 · 4 players``), then the house rules that differ from
    the game's defaults (the format's own choice is in the first part)."""
    defaults = owner.setup.engine.rules_from_json({})
    named = table_format_of(owner.setup.game, owner.setup.rules) is not None
    changed = [
        _rule_words(declared, getattr(owner.setup.rules, declared.name))
        for declared in options_of(type(owner.setup.rules))
        if not declared.option.table_sets
        and declared.name != "players"
        and not (named and declared.name == "format")
        and getattr(owner.setup.rules, declared.name) != getattr(defaults, declared.name)
    ]
    parts = [table_label(owner.setup.game, owner.setup.rules, len(owner.seats))]
    parts.append("standard rules" if not changed else ", ".join(changed[:4]))
    if len(changed) > 4:
        parts[-1] += f" and {len(changed) - 4} more"
    return "; ".join(parts)


def _rule_words(declared: Declared, value: Any) -> str:
    """One changed rule as the form names it: ``Manual declaration``, ``Target score 30``,
    ``Seating: random``."""
    spec = declared.option
    if isinstance(value, bool):
        return spec.label if value else f"{spec.label}: off"
    if value is None:
        return f"{spec.label}: no limit"
    if spec.choices:
        return f"{spec.label}: {spec.choice_labels.get(value, str(value))}"
    if isinstance(value, int):
        return f"{spec.label} {value}"
    if isinstance(value, tuple | list):
        return f"{spec.label}: {' '.join(str(item) for item in value) or 'none'}"
    return f"{spec.label} changed"


# --- the rematch --------------------------------------------------------------------------------


async def rematch(lobby: Lobby, owner: TableOwner) -> str:
    """The rematch table of a finished people's table: the same game, rules, seats and room
    settings; the people who accepted sit where they sat, the seats of those who declined or
    left open again (computer players stay), and the spectators watch it too. It starts at
    once when no seat is open; otherwise it waits for its host: the old host if they
    accepted, else the first who did."""
    assert owner.people.room is not None
    old = owner.people.room
    accepted = {
        seat: profile for seat, profile in old.seated().items() if old.rematch.get(seat) is True
    }
    host_id = old.host if old.host in accepted.values() else accepted[min(accepted)]
    host_seat = next(s for s, p in accepted.items() if p == host_id)
    seats = [spec if spec.is_bot else Seat("human", "Player") for spec in owner.seats]
    table_id = secrets.token_urlsafe(9)
    await lobby.store.create(
        table_id=table_id,
        owner_id=host_id,
        game=owner.setup.game,
        rules=owner.setup.engine.rules_to_json(owner.setup.rules),
        seed=0,
        seats=[s.to_json() for s in seats],
        owner_seat=host_seat,
    )
    fair = None
    if lobby.settings.test_seed is None:
        fair = fresh_deal()
        await asyncio.to_thread(reviews.save_fairness, lobby.db, table_id, fair)
    room = Room(
        settings=old.settings,
        invite=new_invite_token(),
        host=host_id,
        commitment=None if fair is None else fair.commitment,
    )
    for seat, profile_id in accepted.items():
        person = old.member(profile_id)
        name = person.name if person is not None else owner.seats[seat].name
        room.members[profile_id] = Member(profile_id, name, seat)
        seats[seat] = seats[seat].named(name)
        if seat in old.rematch_contributions:
            room.contributions[seat] = old.rematch_contributions[seat]
        if profile_id != host_id:
            await lobby.store.sit(table_id, seat, profile_id, name)
    if room.settings.spectators:  # those watching watch the rematch too
        for watcher in old.spectators():
            room.members[watcher.profile_id] = Member(watcher.profile_id, watcher.name, None)
    await lobby.store.set_seats(table_id, [s.to_json() for s in seats])
    await lobby.store.create_room(
        StoredRoom(table_id, room.invite, room.settings.public, room.phase, room.to_json())
    )
    fresh = await lobby.add_rematch_owner(owner, table_id, seats, room)
    if not open_seats(fresh):
        await start_now(fresh)
    return table_id
