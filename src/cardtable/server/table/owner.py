"""The table owner: the one authority over a game's state and its action log, handed what it
needs from outside (as boardgame.io's master is handed its game, storage and transport):
its game setup (:mod:`~cardtable.server.table.setup`), its services
(:mod:`~cardtable.server.table.services`: the log store, the clock, the computer players'
worker processes, the lobby's callbacks), its audience
(:mod:`~cardtable.server.table.audience`: the connections it sends to), its computer players
(:mod:`~cardtable.server.table.computer_players`) and, at a people's table, the people's part.

Every move, a human's or a computer player's, goes through :meth:`TableOwner.submit` or the
computer players into :meth:`TableOwner.commit` under the table's asyncio lock: the engine's
checked apply, the due chance steps, the move stored in the log (before anyone sees it), record
events for finished deals and games (:mod:`~cardtable.server.table.ending`), then each connected
seat sent its own view (:mod:`~cardtable.server.table.seat_view`). A refused message changes
nothing: the error goes back to its sender only; so does a move the database cannot store (a
full disk): the table stays as it was.

A people's table adds a waiting room before the deal, spectators, presence, turn timers and
computer players moving for people who ran out of time, stayed away past the grace period or
left: :mod:`cardtable.server.people.presence` and :mod:`cardtable.server.people.room_control`
do that part, under the same lock. The owner calls that part only through :class:`PeopleHooks`
(:data:`NO_PEOPLE`, holding nothing and doing nothing, at a table against computer players),
so the table core imports nothing of people's tables' behaviour.

Nothing slow runs on the event loop: the coach answers, and computer players think, in worker
threads or processes, with the table's state as it was when they were asked.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Final, Protocol

from cardtable.driver import advance
from cardtable.errors import CardtableError, IllegalActionError, RuleKey
from cardtable.games.contract import TERMINAL, AnyEngine
from cardtable.replay import replay_actions
from cardtable.server import metrics
from cardtable.server.narration import Outcome, finished_between
from cardtable.server.people.room import Room, RoomAfterMove
from cardtable.server.protocol.messages import (
    ActionMessage,
    AutoReason,
    LastAction,
    ProtocolError,
    RoomJson,
    RoomUpdate,
    ServerMessage,
    SharedRoomJson,
    StateMessage,
    room_message,
)
from cardtable.server.table import ending
from cardtable.server.table.audience import SPECTATORS, Audience, Connection
from cardtable.server.table.computer_players import ComputerPlayers
from cardtable.server.table.seat_view import SharedParts, seat_state, table_info
from cardtable.server.table.seating import Seat
from cardtable.server.table.services import TableServices, Timing
from cardtable.server.table.setup import TableSetup
from cardtable.server.table.summary import summary_after_move
from cardtable.storage import ABANDONED, StorageError
from cardtable.storage.record_totals import RecordDetails

__all__ = [
    "NO_PEOPLE",
    "SPECTATORS",
    "Connection",
    "NoPeople",
    "PeopleHooks",
    "Submitted",
    "TableOwner",
    "Timing",
    "replay_log",
]

logger = logging.getLogger(__name__)

_ACTIONS_BY_KIND: dict[str, Any] = {}
"""The moves counter's children by kind, each looked up once (a ``labels`` lookup per move
costs more than the count), when first counted (as before, a kind shows once it moved)."""


def _count_action(kind: str) -> None:
    child = _ACTIONS_BY_KIND.get(kind)
    if child is None:
        child = _ACTIONS_BY_KIND[kind] = metrics.ACTIONS.labels(kind)
    child.inc()


@dataclass(slots=True)
class TableOwner:
    """One table in memory (see the module docstring)."""

    setup: TableSetup
    seats: list[Seat]
    seated: dict[int, int]
    """Seat -> profile id of the people seated."""
    state: Any
    log: list[tuple[int, str]]
    services: TableServices[TableOwner]
    bots: ComputerPlayers
    status: str = "playing"
    people: PeopleHooks = field(default_factory=lambda: NO_PEOPLE)
    """The people's-table part the owner calls (set with the room, :meth:`open_room`)."""
    last_outcomes: tuple[int, tuple[Outcome, ...]] = (-1, ())
    """The version of the last move and the deals, hands or games it finished."""
    audience: Audience = field(default_factory=Audience)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    # --- what clients see ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        """Moves applied so far: the number clients tag their actions with."""
        return len(self.log)

    def idle(self) -> bool:
        """Nobody is connected, no computer player is thinking, no move is being made."""
        return not self.audience.anyone() and not self.bots.running() and not self.lock.locked()

    @property
    def finished(self) -> bool:
        """The game is over, or the table was closed."""
        return self.status != "playing" or self.setup.engine.current_player(self.state) == TERMINAL

    @property
    def waiting(self) -> bool:
        """A people's table whose host has not started the game yet."""
        return self.people.waiting()

    def names_for(self, viewer: int) -> list[str]:
        """Seat names as ``viewer`` sees them (its own seat is "You")."""
        return ["You" if seat == viewer else spec.name for seat, spec in enumerate(self.seats)]

    def state_for(
        self, seat: int, room: SharedRoomJson | None = None, parts: SharedParts | None = None
    ) -> StateMessage:
        """The state message for ``seat`` or the spectators; ``room`` (a people's table's room
        as every member sees it) and ``parts`` (:class:`SharedParts`), when the caller has them."""
        shown = self.people.room_json(self, seat, room)
        note = self.people.note_last_action
        return seat_state(self, seat, room=shown, note_auto=partial(note, self, seat), shared=parts)

    def message_for(
        self, seat: int, room: SharedRoomJson | None = None, parts: SharedParts | None = None
    ) -> StateMessage | RoomUpdate:
        """What ``seat`` is sent after a change: its state, or the room while waiting."""
        if self.waiting:
            shown = self.people.room_json(self, seat, room)
            assert shown is not None  # only a people's table waits
            return room_message(shown)
        return self.state_for(seat, room, parts)

    def info(self, viewer_profile: int | None) -> dict[str, Any]:
        """The table as GET /api/tables/{id} describes it (with the room for its members)."""
        return table_info(self, viewer_profile) | self.people.member_info(self, viewer_profile)

    # --- connections --------------------------------------------------------------------------

    def open_room(self, people: PeopleHooks) -> None:
        """Make this a people's table: the part that follows its room and the people in it."""
        self.people = people

    def touch(self) -> None:
        """Note that the table is in use now (idle tables leave memory, see the lobby)."""
        self.audience.touch()

    def attach(self, seat: int, connection: Connection) -> None:
        """Send ``seat``'s updates to ``connection`` from now on."""
        self.audience.attach(seat, connection)

    def detach(self, seat: int, connection: Connection) -> None:
        """Stop sending to ``connection`` (at a people's table, a grace period may start)."""
        self.audience.detach(seat, connection)
        self.people.connection_closed(self, seat, connection)

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a connection open."""
        return self.audience.connected(seat)

    async def broadcast_room(self) -> None:
        """Send every connection the room alone (presence, seats, timers changed)."""
        shared = self.people.shared_room(self)
        if shared is not None:
            rooms = self.people.room_json
            send = self.audience.send_rooms
            await send(self.setup.table_id, lambda seat: rooms(self, seat, shared), self.detach)

    async def send_all(self, message: ServerMessage) -> None:
        """Send the same message to every connection (a quick message)."""
        await self.audience.send_each(self.setup.table_id, lambda _seat: message, self.detach)

    async def broadcast(self) -> None:
        """Send every connected seat its own message, built once for the seat and encoded
        once (or as a patch) however many connections it has (see the audience)."""
        parts = SharedParts()  # what every seat's message shares, built once for them all
        make = partial(self.message_for, room=self.people.shared_room(self), parts=parts)
        await self.audience.broadcast(self.setup.table_id, make, self.detach, parts.public_of)

    # --- moves --------------------------------------------------------------------------------

    async def submit(self, seat: int, message: ActionMessage, received: float) -> Submitted:
        """Apply a human's action message and answer the version it led to (``duplicate``, not
        applied again, for a client id already applied), or raise :class:`ProtocolError`
        changing nothing."""
        engine = self.setup.engine
        async with self.lock:
            if self.waiting:
                raise ProtocolError("phase", "the game has not started yet: the host starts it")
            if message.client_id is not None and self.people.seen(seat, message.client_id):
                return Submitted(self.version, duplicate=True)
            if self.finished:
                raise ProtocolError(
                    "finished",
                    "this game is over; start a new game to play again"
                    if self.status != ABANDONED
                    else "this table was closed",
                )
            if message.version != self.version:
                raise ProtocolError(
                    "stale",
                    f"your action was for version {message.version}, but the table is at "
                    f"version {self.version}: look at the new state and try again",
                )
            try:
                action = engine.parse_action(message.action)
            except (CardtableError, ValueError) as exc:
                raise ProtocolError("illegal", str(exc), rule="notation") from None
            to_move = engine.current_player(self.state)
            if to_move != seat and action not in engine.legal_actions(self.state, seat):
                mover = self.names_for(seat)[to_move] if to_move >= 0 else "nobody"
                raise ProtocolError(
                    "not-your-turn",
                    f"it is not your turn: {mover} is to play",
                    rule=RuleKey.NOT_YOUR_TURN,
                )
            try:
                after = engine.apply(self.state, action, seat)
            except IllegalActionError as exc:
                raise ProtocolError("illegal", str(exc), rule=exc.rule) from None
            except (CardtableError, ValueError) as exc:
                raise ProtocolError("illegal", str(exc), rule="illegal") from None
            await self.commit(seat, action, after, client_id=message.client_id)
            applied = self.version
            if self.services.on_timing is not None:
                self.services.on_timing(Timing(self.setup.table_id, received, time.perf_counter()))
        self.wake_bots()
        return Submitted(applied)

    async def commit(
        self,
        seat: int,
        action: Any,
        after: Any,
        *,
        auto: AutoReason | None = None,
        client_id: str | None = None,
    ) -> None:
        """Store and publish a move the engine checked (the lock is held), stored with its
        client id and a people's table's room after it (turn timer, banks) in one write, so
        whoever loads the table next goes on with the clock that followed it. Once stored,
        the move stands: a failure to describe or record the finished deal is only logged."""
        setup, store = self.setup, self.services.store
        after, _steps = advance(setup.engine, after)
        notation = str(action)
        summary = summary_after_move(setup.engine, after, self.version + 1, setup.table_id)
        now = self.services.clock()
        room = self.people.room_after_move(self, after, seat, auto, client_id, now)
        # The move that ends the game stores the finished status with it: a process stopping
        # right after it leaves no game that is over listed as still being played.
        told, ends = ending.foresee(self, after)
        try:
            await store.append(
                setup.table_id,
                self.version,
                seat,
                notation,
                summary,
                client_id=client_id,
                room=None if room is None else room.stored(),
                ending=ends,
            )
        except StorageError as exc:
            raise ProtocolError("unavailable", str(exc)) from None
        self.touch()
        _count_action("bot" if self.bot_seat(seat) else "person")
        before = self.state
        self.state = after
        self.log.append((seat, notation))
        self.people.move_applied(self, seat, auto, client_id, now)
        try:
            outcomes = tuple(finished_between(setup.game, setup.engine, before, after))
        except Exception:
            logger.exception("table %s: the end of a deal could not be recorded", setup.table_id)
            outcomes = ()
        self.last_outcomes = (self.version, outcomes)
        if outcomes and not await self._record(outcomes):
            self.last_outcomes = (self.version, ())
        if self.last_outcomes[1] and self.services.on_outcomes is not None:
            try:
                self.services.on_outcomes(self, before, self.last_outcomes[1])
            except Exception:  # the analysis is extra: it never costs the players their summary
                logger.exception("table %s: the finished deal's listeners failed", setup.table_id)
        await ending.settle(self, store, told, ends)
        await self.broadcast()

    async def settle_after_load(self) -> None:
        """Finish what a process that stopped right after storing the last move may have
        left undone: the record of the deal or game it ended (each event is stored at most
        once) and, when it ended the game, the finished status and result."""
        version, outcomes = self.last_outcomes
        if outcomes and version == self.version:
            await self._record(outcomes)
        await ending.finish_if_over(self, self.services.store)

    async def _record(self, outcomes: Sequence[Outcome]) -> bool:
        """Record finished deals; whether that worked (a failure is logged: the move stands)."""
        try:
            store, marks = self.services.store, self.people.record_marks
            await ending.record(store, self.setup, self.seated, marks, outcomes)
        except Exception:
            logger.exception(
                "table %s: the end of a deal could not be recorded", self.setup.table_id
            )
            return False
        return True

    def start_deal(self, seed: int, state: Any) -> None:
        """Deal a people's table anew from ``seed`` (its host started it; the lock is held)."""
        self.setup = replace(self.setup, seed=seed)
        self.state = state
        self.bots.forget()

    async def deal_seed(self, contributions: dict[int, str]) -> int:
        """The seed a people's table is dealt from when its host starts it."""
        assert self.services.seed_source is not None
        return await self.services.seed_source(self, contributions)

    async def make_rematch(self) -> str:
        """Make this finished people's table's rematch table; its id."""
        assert self.services.rematch_maker is not None
        return await self.services.rematch_maker(self)

    # --- computer players ---------------------------------------------------------------------

    def bot_seat(self, seat: int) -> bool:
        """Whether ``seat`` is played by the computer (at a people's table also for a person
        who stayed away past the grace period or left, while anybody is at the table)."""
        if not 0 <= seat < len(self.seats):
            return False
        if self.seats[seat].is_bot:
            return True
        if self.people.stand_in(seat) is None:
            return False
        # Nobody plays a whole game out for an empty room: the table waits for somebody.
        return self.audience.anyone()

    def takeover(self, seat: int) -> AutoReason | None:
        """Why a computer player moves for the person at ``seat`` (``None``: a bot's own seat)."""
        return None if self.seats[seat].is_bot else self.people.stand_in(seat)

    def wake_bots(self) -> None:
        """Start the computer players if one is to move and they are not playing already."""
        self.bots.wake(self)

    # --- closing ------------------------------------------------------------------------------

    async def close(self, status: str = ABANDONED) -> None:
        """Abandon the table: no more moves; bots stop; clients get a last state."""
        async with self.lock:
            if self.status == "playing":
                await self.services.store.set_status(self.setup.table_id, status, None)
                self.status = status
            await self.broadcast()
        self.stop_bots()

    def stop_bots(self) -> None:
        """Stop the computer players and the timers (at shutdown or when the table closes)."""
        self.bots.stop()
        self.people.stop(self)

    def retire(self) -> None:
        """Another process of a cluster serves the table now: this copy stops its computer
        players and timers, and starts none again."""
        self.people.retire(self)
        self.stop_bots()


class PeopleHooks(Protocol):
    """What the table core asks of a people's table's part
    (:class:`cardtable.server.people.presence.PeoplesTable`): presence, the room as each
    member sees it, the turn timer. Called under the table's lock."""

    @property
    def room(self) -> Room | None:
        """The room (``None`` at a table against computer players): for the lobby's and the
        routes' reading; the core itself asks the hooks below."""
        ...

    def waiting(self) -> bool:
        """Whether the host has not started the game yet."""
        ...

    def room_json(
        self, owner: TableOwner, seat: int, shared: SharedRoomJson | None
    ) -> RoomJson | None:
        """The room as the member at ``seat`` (or the spectators) is sent it; ``shared``:
        :meth:`shared_room` when the caller built it already."""
        ...

    def shared_room(self, owner: TableOwner) -> SharedRoomJson | None:
        """The room as every member is sent it, built once for a broadcast."""
        ...

    def member_info(self, owner: TableOwner, profile_id: int | None) -> dict[str, Any]:
        """The room part of the table's description for ``profile_id``, if a member."""
        ...

    def note_last_action(self, owner: TableOwner, seat: int, last_action: LastAction) -> str:
        """Mark the last action as ``seat`` (or the spectators) is sent it: why a computer
        player made it for a person, if one did, and, to the mover's own seat, the client id
        it was sent with (the page's acknowledgement); the sentence saying why, or ""."""
        ...

    def seen(self, seat: int, client_id: str) -> bool:
        """Whether ``seat`` had an action with this client id applied already."""
        ...

    def stand_in(self, seat: int) -> AutoReason | None:
        """Why a computer player moves for the person at ``seat``, if one does."""
        ...

    def record_marks(self, seat: int) -> RecordDetails:
        """The marks of ``seat``'s results in the record."""
        ...

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """A connection of ``seat`` closed (a grace period may start)."""
        ...

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> RoomAfterMove | None:
        """The room once the move leading to ``after`` is applied, stored in the move's own
        write."""
        ...

    def move_applied(
        self,
        owner: TableOwner,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> None:
        """After a stored move: the room and the turn timer follow it."""
        ...

    def stop(self, owner: TableOwner) -> None:
        """Stop every timer."""
        ...

    def retire(self, owner: TableOwner) -> None:
        """Start no timer again: another process serves the table now."""
        ...


class NoPeople:
    """The hooks of a table against computer players: nobody's presence to follow, and no
    state of its own (one instance serves every such table)."""

    __slots__ = ()

    @property
    def room(self) -> None:
        """No room."""
        return None

    def waiting(self) -> bool:
        """Never waiting: dealt at once."""
        return False

    def room_json(
        self, owner: TableOwner, seat: int, shared: SharedRoomJson | None
    ) -> RoomJson | None:
        """No room."""
        return None

    def shared_room(self, owner: TableOwner) -> SharedRoomJson | None:
        """No room."""
        return None

    def member_info(self, owner: TableOwner, profile_id: int | None) -> dict[str, Any]:
        """No members."""
        return {}

    def note_last_action(self, owner: TableOwner, seat: int, last_action: LastAction) -> str:
        """Nobody's move is made for them (and client ids are acknowledged apart)."""
        return ""

    def seen(self, seat: int, client_id: str) -> bool:
        """Resent actions are refused as stale instead."""
        return False

    def stand_in(self, seat: int) -> AutoReason | None:
        """Computer players move only for their own seats."""
        return None

    def record_marks(self, seat: int) -> RecordDetails:
        """No marks."""
        return {}

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """Nothing follows a closed connection."""

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> RoomAfterMove | None:
        """No room to store."""
        return None

    def move_applied(
        self,
        owner: TableOwner,
        seat: int,
        auto: AutoReason | None,
        client_id: str | None,
        now: float,
    ) -> None:
        """Nothing follows a move."""

    def stop(self, owner: TableOwner) -> None:
        """No timers."""

    def retire(self, owner: TableOwner) -> None:
        """No timers."""


NO_PEOPLE: Final[NoPeople] = NoPeople()
"""The hooks of every table without a room."""


@dataclass(frozen=True, slots=True)
class Submitted:
    """What became of an action message: the table's version after it, and whether its client
    id had been applied already (a resent message: acknowledged again, not applied twice)."""

    version: int
    duplicate: bool = False


def replay_log(
    engine: AnyEngine, rules: Any, seed: int, log: Sequence[tuple[int, str]]
) -> tuple[Any, Any]:
    """The state a stored log leads to and the state before its last move, through the
    checked apply (``RecordError`` naming a move that does not apply)."""
    state, _ = advance(engine, engine.new_game(rules, seed))
    before = state
    for step in replay_actions(engine, state, log):
        before, state = step.before, step.after
    state, _ = advance(engine, state)
    return state, before
