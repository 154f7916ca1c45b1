"""The table owner: the one authority over a game's state, its action log and its connections.

Every move, a human's or a bot's, goes through :meth:`TableOwner.submit` or the bot runner
into :meth:`TableOwner._commit` under the table's asyncio lock: the engine's checked apply,
the due chance steps, the move stored in the log (before anyone sees it), record events for
finished deals and games, then each connected seat sent its own view. A refused message
changes nothing: the error goes back to its sender only; so does a move the database cannot
store (a full disk): the table stays as it was.

A people's table (one with a :class:`~cardtable.server.people.room.Room`) adds a waiting room before
the deal, spectators (connected under :data:`SPECTATORS`, sent the public view), presence, and
computer players moving for people who ran out of time, stayed away past the grace period or
left: :mod:`cardtable.server.people.presence` and :mod:`cardtable.server.people.room_control`
do that part, under the same lock. The owner calls that part only through :class:`PeopleHooks`
(:data:`NO_PEOPLE`, doing nothing, at a table against computer players), so the table core
imports nothing of people's tables' behaviour.

Nothing slow runs on the event loop: the coach answers, and computer players think, in worker
threads (the Hard search in the lobby's worker processes, so that it does not hold the
interpreter lock the loop needs), with the table's state as it was when they were asked.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from typing import Any, Protocol, cast

from cardtable.bots.base import RandomBot
from cardtable.driver import advance
from cardtable.errors import CardtableError, IllegalActionError, RuleKey
from cardtable.games.contract import TERMINAL, AnyEngine, GameResult
from cardtable.registry import format_fields, table_format_of
from cardtable.replay import replay_actions
from cardtable.server import metrics
from cardtable.server.logs import bind_table
from cardtable.server.narration import Outcome, finished_between, merge_summaries, own_facts
from cardtable.server.narration.announce import announcement, public_notation
from cardtable.server.narration.moves import last_move, legal_moves
from cardtable.server.narration.naming import name_seats
from cardtable.server.people.player_options import PAUSE_AFTER_DEAL
from cardtable.server.people.room import TAKEOVER_LEVEL, WAITING, InviteJson, Presence, Room
from cardtable.server.protocol.messages import (
    ActionMessage,
    AutoReason,
    CoachAdvice,
    Frame,
    GameResultJson,
    LastAction,
    MoveJson,
    Outgoing,
    OwnFactsJson,
    ProtocolError,
    RoomJson,
    RoomUpdate,
    ServerMessage,
    SharedRoomJson,
    StateMessage,
    room_message,
    state_message,
)
from cardtable.server.protocol.state_frames import StateFrames, state_patch
from cardtable.server.table import advisors
from cardtable.server.table.seating import Seat, public_seats
from cardtable.server.table.spectate import onlooker_seat, spectator_view
from cardtable.server.table.summary import summarize
from cardtable.storage import (
    ABANDONED,
    FINISHED,
    PLAYING,
    FencedOutError,
    LogStore,
    RecordEvent,
    StorageError,
)

logger = logging.getLogger(__name__)

MAX_STORE_RETRY_SECONDS = 30.0
"""The longest a computer player waits before trying again a move the database could not
store (a database that is away, a full disk)."""
SPECTATORS = -1
"""The key under which a people's table keeps its spectators' connections."""
AUTO_SENTENCES = {
    "timeout": "Time ran out for {name}: the computer player moved for them.",
    "away": "{name} is away: the computer player moved for them.",
    "left": "{name} left: the computer player moved for them.",
}


class Connection(Protocol):
    """A client connection: sends one server message (or a frame of one, encoded once)."""

    async def send(self, message: Outgoing) -> None: ...


class PeopleHooks(Protocol):
    """What the table core asks of a people's table's part (presence, the room as each member
    sees it, the turn timer): :data:`cardtable.server.people.presence.ROOM_HOOKS`. Each hook is
    handed the table and called under its lock, only at a table with a room."""

    def room_json(self, owner: TableOwner, seat: int, shared: SharedRoomJson | None) -> RoomJson:
        """The room as the member at ``seat`` (or the spectators) is sent it; ``shared``:
        :meth:`shared_room` when the caller built it already."""
        ...

    def shared_room(self, owner: TableOwner) -> SharedRoomJson | None:
        """The room as every member is sent it, built once for a broadcast."""
        ...

    def host_invite(self, owner: TableOwner) -> InviteJson:
        """The invite as the host is shown it."""
        ...

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """A connection of ``seat`` closed (a grace period may start)."""
        ...

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: str | None,
        client_id: str | None,
        now: float,
    ) -> tuple[str, dict[str, Any]] | None:
        """The room's phase and document once the move leading to ``after`` is applied,
        stored in the move's own write."""
        ...

    def move_applied(self, owner: TableOwner, seat: int, auto: str | None, now: float) -> None:
        """After a stored move: the room and the turn timer follow it."""
        ...


class NoPeople:
    """The hooks of a table against computer players: nobody's presence to follow."""

    def room_json(self, owner: TableOwner, seat: int, shared: SharedRoomJson | None) -> RoomJson:
        """No room: never asked (only a people's table sends one)."""
        raise CardtableError("a table against computer players has no room")

    def shared_room(self, owner: TableOwner) -> SharedRoomJson | None:
        """No room."""
        return None

    def host_invite(self, owner: TableOwner) -> InviteJson:
        """No invite: never asked (only a people's table has one)."""
        raise CardtableError("a table against computer players has no invite")

    def connection_closed(self, owner: TableOwner, seat: int, connection: Connection) -> None:
        """Nothing follows a closed connection."""

    def room_after_move(
        self,
        owner: TableOwner,
        after: Any,
        seat: int,
        auto: str | None,
        client_id: str | None,
        now: float,
    ) -> tuple[str, dict[str, Any]] | None:
        """No room to store."""
        return None

    def move_applied(self, owner: TableOwner, seat: int, auto: str | None, now: float) -> None:
        """Nothing follows a move."""


NO_PEOPLE = NoPeople()
"""The hooks of every table without a room."""


@dataclass(slots=True)
class Timing:
    """One human move: when its message arrived and when every connected seat had its view."""

    table_id: str
    received: float
    broadcast: float


@dataclass(slots=True)
class TableOwner:
    """One table in memory (see the module docstring)."""

    table_id: str
    game: str
    engine: AnyEngine
    rules: Any
    seed: int
    seats: list[Seat]
    seated: dict[int, int]
    state: Any
    log: list[tuple[int, str]]
    store: LogStore
    bot_delay: Callable[[], float]
    creator: int = -1
    """The profile that created the table."""
    thinkers: Callable[[], Executor | None] = lambda: None
    """The worker processes for searching computer players (``None``: threads only)."""
    status: str = "playing"
    on_timing: Callable[[Timing], None] | None = None
    on_outcomes: Callable[[TableOwner, Any, tuple[Outcome, ...]], None] | None = None
    """Told of every finished deal, hand or game: the table, the state before the move that
    finished it, and what it finished (the analysis queues the hand)."""
    last_outcomes: tuple[int, tuple[Outcome, ...]] = (-1, ())
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: dict[int, list[Connection]] = field(default_factory=dict)
    last_active: float = field(default_factory=time.monotonic)
    """When the table last moved, was asked for, or lost a connection (``time.monotonic``)."""
    room: Room | None = None
    """A people's table's room (``None`` at a table against computer players)."""
    people: PeopleHooks = NO_PEOPLE
    """The people's-table part the owner calls (set with the room, :meth:`open_room`)."""
    presence: Presence = field(default_factory=Presence)
    clock: Callable[[], float] = time.monotonic
    """The clock of timers and grace periods (tests may pass another)."""
    time_scale: float = 1.0
    """Multiplies every timer and grace period (tests shorten them)."""
    last_auto: tuple[int, AutoReason] | None = None
    """``(version, why)`` when a computer player made the last move for a person."""
    profiles: dict[Connection, int] = field(default_factory=dict)
    """The profile behind each connection of a people's table."""
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    seed_source: Callable[[TableOwner, dict[int, str]], Awaitable[int]] | None = None
    """Draws a people's table's seed at the start, from the people's contributions."""
    rematch_maker: Callable[[TableOwner], Awaitable[str]] | None = None
    """Makes the rematch table of a finished people's table; its id."""
    retired: bool = False
    """Another process of a cluster serves the table now: this copy starts no timers."""
    stretch_floor: float = 0.0
    """Seconds a computer player waits at least when the move before was a computer's too
    (the others' turns after a person's, or a whole game after a person dropped out): a
    computer-only stretch never runs flat out, whatever the opponent speed (the settings'
    ``bot_stretch_floor_seconds``, scaled as every pause)."""
    max_moves: int = 5_000
    """Moves a table may have in all, whatever its rules allow: at this many the table is
    closed (its finished deals stay in the record), so no game outgrows what a replay or a
    reload can afford (the settings' ``max_table_moves``)."""
    frames: StateFrames = field(default_factory=StateFrames)
    """The last state each seat was broadcast, and which connections take patches."""
    _bots: dict[int, Any] = field(default_factory=dict)
    _bot_task: asyncio.Task[None] | None = None

    # --- what clients see ---------------------------------------------------------------------

    @property
    def version(self) -> int:
        """Moves applied so far: the number clients tag their actions with."""
        return len(self.log)

    def touch(self) -> None:
        """Note that the table is in use now (idle tables leave memory, see the lobby)."""
        self.last_active = time.monotonic()

    def idle(self) -> bool:
        """Nobody is connected, no computer player is thinking, no move is being made."""
        return (
            not any(self.connections.values())
            and (self._bot_task is None or self._bot_task.done())
            and not self.lock.locked()
        )

    @property
    def finished(self) -> bool:
        """The game is over, or the table was closed."""
        return self.status != "playing" or self.engine.current_player(self.state) == TERMINAL

    @property
    def waiting(self) -> bool:
        """A people's table whose host has not started the game yet."""
        return self.room is not None and self.room.phase == WAITING

    def names_for(self, viewer: int) -> list[str]:
        """Seat names as ``viewer`` sees them (its own seat is "You")."""
        return ["You" if seat == viewer else spec.name for seat, spec in enumerate(self.seats)]

    def state_for(self, seat: int, room: SharedRoomJson | None = None) -> StateMessage:
        """The protocol's state message for ``seat``, or for the spectators: the public view,
        no legal actions, and the announcements as an onlooker hears them. ``room``: a
        people's table's room as every member sees it, when the caller built it already
        (:func:`~cardtable.server.people.presence.shared_room_json`)."""
        engine, state = self.engine, self.state
        shown: int | None = seat
        own: OwnFactsJson = {}
        legal: list[str] = []
        moves: list[MoveJson] = []
        if seat == SPECTATORS:
            shown = None
            heard = engine.view(state, onlooker_seat(engine, state))
            view = spectator_view(engine, state, heard)
        else:
            heard = engine.view(state, seat)
            view = heard.to_json()
            own = own_facts(self.game, heard)
            if self.status == "playing":
                actions = engine.legal_actions(state, seat)
                legal = [str(action) for action in actions]
                moves = legal_moves(self.game, heard, actions)
        to_move = engine.current_player(state)
        result = engine.result(state)
        names = self.names_for(seat)
        last = self.log[-1] if self.log else None
        summary = None
        outcome_version, outcomes = self.last_outcomes
        if outcomes and outcome_version == self.version:
            summary = merge_summaries(outcomes, names)
        last_action: LastAction | None = None
        if last is not None:
            actor, notation = last
            last_action = last_move(
                self.game,
                engine,
                actor=actor,
                public=public_notation(self.game, notation, actor, seat),
                names=names,
                view=heard,
            )
            if self.room is not None:  # why a computer player made the move, if one did
                auto: AutoReason | None = None
                if self.last_auto is not None and self.last_auto[0] == self.version:
                    auto = self.last_auto[1]
                last_action["auto"] = auto
        return state_message(
            version=self.version,
            seat=shown,
            view=view,
            own=own,
            legal=legal,
            moves=moves,
            to_move=to_move,
            # ``said``: the result's sentence in this reader's words ("You win…").
            result=None if result is None else _result_json(result, names),
            last_action=last_action,
            summary=summary,
            announce=self._auto_sentence()
            + announcement(
                game=self.game,
                names=names,
                viewer=seat,
                last_action=last,
                view=heard,
                headline=None if summary is None else summary["headline"],
                to_move=to_move,
                finished=self.finished,
            ),
            room=self._room_part(seat, room),
        )

    def _auto_sentence(self) -> str:
        """Who the computer player just moved for, and why ("" after anybody's own move)."""
        if self.last_auto is None or self.last_auto[0] != self.version or not self.log:
            return ""
        seat = self.log[-1][0]
        return AUTO_SENTENCES[self.last_auto[1]].format(name=self.seats[seat].name) + " "

    def _room_part(self, seat: int, room: SharedRoomJson | None) -> RoomJson | None:
        """A people's table's room in a state message (``None`` at other tables)."""
        if self.room is None:
            return None
        return self.people.room_json(self, seat, room)

    def info(self, viewer_profile: int | None) -> dict[str, Any]:
        """The table as GET /api/tables/{id} describes it."""
        your_seat = next(
            (seat for seat, profile in self.seated.items() if profile == viewer_profile), None
        )
        return {
            "table_id": self.table_id,
            "game": self.game,
            "title": self.engine.title,
            **format_fields(self.game, self.rules, len(self.seats)),
            "rules": self.engine.rules_to_json(self.rules),
            "seats": public_seats(self.seats, self.seated),
            "version": self.version,
            "your_seat": your_seat,
            "finished": self.finished,
            "status": self.status,
        } | self._shared_info(viewer_profile)

    def _shared_info(self, viewer_profile: int | None) -> dict[str, Any]:
        """A people's table's room for a member (the host also gets the invite)."""
        if self.room is None or viewer_profile is None:
            return {}
        member = self.room.member(viewer_profile)
        if member is None:
            return {}
        seat = SPECTATORS if member.seat is None else member.seat
        shared = self.people.room_json(self, seat, None)
        if viewer_profile == self.room.host:
            shared["invite"] = self.people.host_invite(self)
        return {"shared": shared}

    # --- connections --------------------------------------------------------------------------

    def open_room(self, room: Room, people: PeopleHooks) -> None:
        """Make this a people's table: its room, and the part that follows the people in it."""
        self.room = room
        self.people = people

    def attach(self, seat: int, connection: Connection) -> None:
        """Send ``seat``'s updates to ``connection`` from now on (its next state is whole: it
        has not seen this seat's last one)."""
        self.connections.setdefault(seat, []).append(connection)
        self.frames.unsync(connection)

    def detach(self, seat: int, connection: Connection) -> None:
        """Stop sending to ``connection``."""
        listeners = self.connections.get(seat, [])
        if connection in listeners:
            listeners.remove(connection)
        self.frames.forget(connection)
        self.touch()
        if self.room is not None:
            self.people.connection_closed(self, seat, connection)

    def connected(self, seat: int) -> bool:
        """Whether ``seat`` has a connection open."""
        return bool(self.connections.get(seat))

    def message_for(
        self, seat: int, room: SharedRoomJson | None = None
    ) -> StateMessage | RoomUpdate:
        """What ``seat`` is sent after a change: its state, or the room while waiting
        (``room`` as for :meth:`state_for`)."""
        if self.waiting:
            return room_message(self.people.room_json(self, seat, room))
        return self.state_for(seat, room)

    def _shared_room(self) -> SharedRoomJson | None:
        """A people's table's room as every member sees it, built once for a broadcast."""
        if self.room is None:
            return None
        return self.people.shared_room(self)

    async def broadcast_room(self) -> None:
        """Send every connection the room alone (presence, seats, timers changed)."""
        if self.room is None:
            return
        shared = self._shared_room()

        def make(seat: int) -> RoomUpdate:
            message = room_message(self.people.room_json(self, seat, shared))
            self.frames.room_sent(seat, message["room"])
            return message

        await self._send_all(make)

    async def send_all(self, message: ServerMessage) -> None:
        """Send the same message to every connection (a quick message)."""
        await self._send_all(lambda _seat: message)

    async def _send_all(self, make: Callable[[int], ServerMessage]) -> None:
        for seat, listeners in list(self.connections.items()):
            if not listeners:
                continue
            message = Frame(make(seat))
            for connection in list(listeners):
                try:
                    await connection.send(message)
                except Exception:  # a dead connection must not stop the others' updates
                    logger.info("dropping a connection of table %s seat %d", self.table_id, seat)
                    self.detach(seat, connection)

    async def broadcast(self) -> None:
        """Send every connected seat its own state message: built once for the seat (once
        for all the spectators) and encoded once however many connections it has; a
        connection that takes patches and has the seat's last state is sent the patch from
        it instead, worked out and encoded once too
        (:mod:`~cardtable.server.protocol.state_frames`)."""
        shared = self._shared_room()
        frames = self.frames
        for seat, listeners in list(self.connections.items()):
            if not listeners:
                continue
            built = self.message_for(seat, shared)
            message = Frame(built)
            patch: Frame | None = None
            base: int | None = None
            version: int | None = None
            if built["type"] == "state":
                version = built["version"]
                previous = frames.state_sent(seat, built)
                if previous is not None and any(
                    frames.in_step(connection, previous["version"]) for connection in listeners
                ):
                    made = state_patch(previous, built)
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
                    logger.info("dropping a connection of table %s seat %d", self.table_id, seat)
                    self.detach(seat, connection)
                    continue
                if version is not None:
                    frames.sent(connection, version)

    # --- moves --------------------------------------------------------------------------------

    async def submit(self, seat: int, message: ActionMessage, received: float) -> Submitted:
        """Apply a human's action message and answer the version it led to (``duplicate``, not
        applied again, for a client id already applied), or raise :class:`ProtocolError`
        changing nothing."""
        async with self.lock:
            if self.waiting:
                raise ProtocolError("phase", "the game has not started yet: the host starts it")
            if (
                self.room is not None
                and message.client_id is not None
                and self.room.seen(seat, message.client_id)
            ):
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
                action = self.engine.parse_action(message.action)
            except (CardtableError, ValueError) as exc:
                raise ProtocolError("illegal", str(exc), rule="notation") from None
            to_move = self.engine.current_player(self.state)
            if to_move != seat and action not in self.engine.legal_actions(self.state, seat):
                mover = self.names_for(seat)[to_move] if to_move >= 0 else "nobody"
                raise ProtocolError(
                    "not-your-turn",
                    f"it is not your turn: {mover} is to play",
                    rule=RuleKey.NOT_YOUR_TURN,
                )
            try:
                after = self.engine.apply(self.state, action, seat)
            except IllegalActionError as exc:
                raise ProtocolError("illegal", str(exc), rule=exc.rule) from None
            except (CardtableError, ValueError) as exc:
                raise ProtocolError("illegal", str(exc), rule="illegal") from None
            await self._commit(seat, action, after, client_id=message.client_id)
            if self.room is not None and message.client_id is not None:
                # Only once stored (with the move): a move the database refused was not applied.
                self.room.remember(seat, message.client_id)
            applied = self.version
            if self.on_timing is not None:
                self.on_timing(Timing(self.table_id, received, time.perf_counter()))
        self.wake_bots()
        return Submitted(applied)

    async def _commit(
        self,
        seat: int,
        action: Any,
        after: Any,
        *,
        auto: AutoReason | None = None,
        client_id: str | None = None,
    ) -> None:
        """Store and publish a move already checked by the engine (the lock is held), with
        the client id it was sent with and, at a people's table, the room after it (turn timer,
        time banks) stored in the same write (whichever process loads the table next knows the
        move was applied and goes on with the clock that followed it).

        Once the move is stored it is the table's state, whatever happens next: a failure
        while describing or recording the finished deal is logged and the players still get
        their new state.
        """
        after, _steps = advance(self.engine, after)
        notation = str(action)
        try:
            summary = summarize(self.engine, after, self.version + 1)
        except Exception:  # a listing's detail must never cost a move: keep the last summary
            logger.exception("table %s: no summary after move %d", self.table_id, self.version)
            summary = None
        now = self.clock()
        room: tuple[str, dict[str, Any]] | None = None
        if self.room is not None:
            # The room (turn timer, banks) after the move is stored with the move itself, so
            # whoever loads the table next finds the clock that goes with the log.
            room = self.people.room_after_move(self, after, seat, auto, client_id, now)
        try:
            await self.store.append(
                self.table_id, self.version, seat, notation, summary, client_id=client_id, room=room
            )
        except StorageError as exc:
            raise ProtocolError("unavailable", str(exc)) from None
        self.touch()
        metrics.ACTIONS.labels("bot" if self.bot_seat(seat) else "person").inc()
        before = self.state
        self.state = after
        self.log.append((seat, notation))
        self.last_auto = None if auto is None else (self.version, auto)
        if self.room is not None:
            self.people.move_applied(self, seat, auto, now)
        try:
            outcomes = finished_between(self.game, self.engine, before, after)
            self.last_outcomes = (self.version, tuple(outcomes))
            if outcomes:
                await self._record(outcomes)
        except Exception:
            logger.exception("table %s: the end of a deal could not be recorded", self.table_id)
            self.last_outcomes = (self.version, ())
        if self.last_outcomes[1] and self.on_outcomes is not None:
            try:
                self.on_outcomes(self, before, self.last_outcomes[1])
            except Exception:  # the analysis is extra: it never costs the players their summary
                logger.exception("table %s: the finished deal's listeners failed", self.table_id)
        await self._finish_if_over()
        await self.broadcast()

    async def settle_after_load(self) -> None:
        """Finish what a process that stopped right after storing this table's last move
        (killed, or cut off from its database) may have left undone: the record of the deal
        or game that move ended (each event is stored at most once, so sending it again
        changes nothing if it was stored) and, when it ended the game, the finished status
        and result."""
        version, outcomes = self.last_outcomes
        if outcomes and version == self.version:
            try:
                await self._record(outcomes)
            except Exception:
                logger.exception("table %s: the end of a deal could not be recorded", self.table_id)
        await self._finish_if_over()

    async def _finish_if_over(self) -> None:
        """Once the game is over, mark the table finished and store that with the result (a
        failure to store it is logged: the players still see the end). A refusal because
        another process of a cluster owns the table now is expected there (the new owner
        stores the end when it loads the table): a warning, not an error."""
        result = self.engine.result(self.state)
        if self.status != PLAYING:
            return
        if result is None and self.engine.current_player(self.state) != TERMINAL:
            if self.version >= self.max_moves:
                await self._close_at_move_limit()
            return
        self.status = FINISHED
        try:
            await self.store.set_status(
                self.table_id, FINISHED, None if result is None else result.to_json()
            )
        except FencedOutError as exc:
            logger.warning(
                "table %s: the finished game was not stored here: %s", self.table_id, exc
            )
        except Exception:
            logger.exception("table %s: could not store the finished game", self.table_id)

    async def _close_at_move_limit(self) -> None:
        """Close a game that reached :attr:`max_moves` unfinished (the lock is held): stored
        as abandoned; the state sent next says it is closed, and the computer players and
        turn timers stop at their next look (they do nothing at a finished table)."""
        logger.info("table %s: closed at the limit of %d moves", self.table_id, self.max_moves)
        self.status = ABANDONED
        try:
            await self.store.set_status(self.table_id, ABANDONED, None)
        except FencedOutError as exc:
            logger.warning("table %s: the closing was not stored here: %s", self.table_id, exc)
        except Exception:
            logger.exception("table %s: could not store the closed table", self.table_id)

    async def _record(self, outcomes: Sequence[Outcome]) -> None:
        shown = table_format_of(self.game, self.rules)
        for seat, profile in self.seated.items():
            # Your Record keeps a game with formats by its format (a Pool 101 game as such).
            marks: dict[str, Any] = {} if shown is None else {"format": shown.key}
            if self.room is not None:
                # Shared-table results are counted apart; "assisted": a computer player
                # moved for this person during the game.
                marks |= {"shared": True, "assisted": seat in self.room.assisted}
            events = [
                RecordEvent(
                    key=f"{self.table_id}:{outcome.kind}:{outcome.number}",
                    game=self.game,
                    kind=outcome.kind,
                    won=outcome.seats[seat].won,
                    points=outcome.seats[seat].points,
                    details=dict(outcome.seats[seat].details) | marks,
                )
                for outcome in outcomes
            ]
            await self.store.record(profile, events)

    async def deal_seed(self, contributions: dict[int, str]) -> int:
        """The seed a people's table is dealt from when its host starts it."""
        assert self.seed_source is not None
        return await self.seed_source(self, contributions)

    async def make_rematch(self) -> str:
        """Make this finished people's table's rematch table; its id."""
        assert self.rematch_maker is not None
        return await self.rematch_maker(self)

    # --- hints and the coach ------------------------------------------------------------------

    async def hint(self, seat: int) -> tuple[str | None, str]:
        """A suggested action for ``seat`` now, and why (no action while another seat is to
        play: what a seat may do out of turn, such as a drop, is never the advice)."""
        state = self.state
        legal = [] if self.finished else self.engine.legal_actions(state, seat)
        to_move = self.engine.current_player(state)
        if legal and to_move != seat and to_move >= 0:
            return None, f"It is not your turn: {self.names_for(seat)[to_move]} is to play."
        view = self.engine.view(state, seat)
        action, reason = await asyncio.to_thread(advisors.hint, self.game, view, legal)
        return (None if action is None else str(action)), reason

    async def coach(self, seat: int) -> CoachAdvice:
        """The coach's report for ``seat`` now."""
        state = self.state
        legal = [] if self.finished else self.engine.legal_actions(state, seat)
        view = self.engine.view(state, seat)
        return await asyncio.to_thread(advisors.coach_report, self.game, view, legal)

    # --- computer players ---------------------------------------------------------------------

    def bot_seat(self, seat: int) -> bool:
        """Whether ``seat`` is played by the computer (at a people's table also for a person
        who stayed away past the grace period or left, while anybody is at the table)."""
        if not 0 <= seat < len(self.seats):
            return False
        if self.seats[seat].is_bot:
            return True
        if self.room is None or (seat not in self.room.away and seat not in self.room.left):
            return False
        # Nobody plays a whole game out for an empty room: the table waits for somebody.
        return any(self.connections.values())

    def takeover(self, seat: int) -> AutoReason | None:
        """Why a computer player moves for the person at ``seat`` (``None``: a bot's own seat)."""
        if self.room is None or self.seats[seat].is_bot:
            return None
        return "left" if seat in self.room.left else "away"

    def wake_bots(self) -> None:
        """Start the bot runner if a computer player is to move and none is running."""
        task = self._bot_task
        # A runner on an event loop that has stopped never finishes (the test client serves
        # each socket on a loop of its own, stopped when that socket closes): start anew.
        if task is not None and not task.done() and task.get_loop().is_running():
            return
        if self.waiting:
            return
        if self.finished or not self.bot_seat(self.engine.current_player(self.state)):
            return
        self._bot_task = asyncio.get_running_loop().create_task(self._run_bots())

    async def _run_bots(self) -> None:
        """Play the computer seats' moves, paced, until a human is to move or the game ends."""
        bind_table(self.table_id)
        failures = 0
        # Moves in a row by computer players since a person's (this runner starts after one).
        stretch = 0
        while not self.finished:
            seat = self.engine.current_player(self.state)
            if not self.bot_seat(seat):
                return
            delay = self.bot_delay()
            if self.last_outcomes[1] and self.last_outcomes[0] == self.version:
                delay *= PAUSE_AFTER_DEAL
            if stretch:  # the second computer move in a row, or later
                delay = max(delay, self.stretch_floor)
            if failures:  # the last move could not be stored: wait longer each time
                delay = max(delay, min(MAX_STORE_RETRY_SECONDS, 0.5 * 2**failures))
            await self._pause(delay)
            stretch += 1
            async with self.lock:
                if self.finished:
                    return
                seat = self.engine.current_player(self.state)
                if not self.bot_seat(seat):
                    continue
                try:
                    await self._bot_move(seat)
                    failures = 0
                except ProtocolError as exc:  # the move could not be stored: try again later
                    failures += 1
                    logger.warning("table %s: %s; trying again", self.table_id, exc)
                    continue
                except Exception:
                    logger.exception("the bot at table %s seat %d failed", self.table_id, seat)
                    return

    async def _pause(self, seconds: float) -> None:
        """A computer player's pause before its move."""
        await asyncio.sleep(seconds)

    async def _bot_move(self, seat: int, auto: AutoReason | None = None) -> None:
        """A computer player's move for ``seat``: its own, or one made for a person (``auto``
        says why: ``timeout``, ``away``, ``left``; by default as :meth:`takeover` says)."""
        state = self.state
        legal = self.engine.legal_actions(state, seat)
        if not legal:
            raise RuntimeError(f"seat {seat} is to move but has no legal action")
        if auto is None:
            auto = self.takeover(seat)
        level = TAKEOVER_LEVEL if auto is not None else self.seats[seat].level or "random"
        bot = self._bots.get(seat) if auto is None else None
        if bot is None:
            bot = advisors.seat_bot(self.game, level)
            if auto is None:
                self._bots[seat] = bot
        rng = random.Random(f"cardtable-bot:{self.seed}:{self.version}:{seat}")
        view = self.engine.view(state, seat)
        try:
            action = await self._think(bot, level, view, legal, rng)
            after = self.engine.apply(state, action, seat)
        except Exception:  # a faulty bot must not stall the table: play a random move instead
            logger.exception("bot %s at table %s failed; moving at random", bot, self.table_id)
            action = RandomBot().choose(view, legal, rng)
            after = self.engine.apply(state, action, seat)
        await self._commit(seat, action, after, auto=auto)

    async def _think(
        self, bot: Any, level: str, view: Any, legal: Sequence[Any], rng: random.Random
    ) -> Any:
        """The bot's choice, off the event loop: a searching level in a worker process when
        the lobby has them, anything else (or if the processes are gone) in a thread."""
        workers = self.thinkers() if level in advisors.SEARCH_LEVELS else None
        with metrics.BOT_THINKING.labels(level).time():
            if workers is not None:
                try:
                    return await asyncio.get_running_loop().run_in_executor(
                        workers, advisors.think, self.game, level, view, list(legal), rng
                    )
                except BrokenExecutor:
                    logger.warning("the worker processes are gone; thinking in a thread")
            return await asyncio.to_thread(bot.choose, view, legal, rng)

    # --- closing ------------------------------------------------------------------------------

    async def close(self, status: str = ABANDONED) -> None:
        """Abandon the table: no more moves; bots stop; clients get a last state."""
        async with self.lock:
            if self.status == "playing":
                await self.store.set_status(self.table_id, status, None)
                self.status = status
            await self.broadcast()
        self.stop_bots()

    def stop_bots(self) -> None:
        """Cancel the bot runner and the timers (at shutdown or when the table closes)."""
        if self._bot_task is not None and not self._bot_task.done():
            self._bot_task.cancel()
        self._bot_task = None
        for task in self.timers.values():
            task.cancel()
        self.timers.clear()


@dataclass(frozen=True, slots=True)
class Submitted:
    """What became of an action message: the table's version after it, and whether its client
    id had been applied already (a resent message: acknowledged again, not applied twice)."""

    version: int
    duplicate: bool = False


def _result_json(result: GameResult, names: list[str]) -> GameResultJson:
    """The game's result as a reader is sent it: ``said`` is its summary in the reader's
    words ("You win…")."""
    # The engine's own JSON, whatever fields its result has: the protocol declares the ones
    # every game's result has (the frame tests check them against the declaration).
    said = {"said": name_seats(result.summary, names)}
    return cast(GameResultJson, result.to_json() | said)


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
