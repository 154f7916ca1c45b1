"""The tables of one server process: creating them, loading stored ones on demand, listing a
profile's tables from their stored summaries, closing them, and letting idle ones go.

Memory holds only the tables in use. A table that nobody is connected to and that has not moved
for a while (``idle_seconds``; finished tables sooner) leaves memory; asked for again, it is
loaded from the log store: its log is replayed through the engine's checked apply in a worker
thread, and its computer players pick up where they stopped. Listings never load a table: they
read one page of stored summaries (only a table stored before summaries were kept is replayed,
once, off the event loop, and its summary stored).

A profile may have at most ``max_unfinished`` unfinished tables of its own making at a time.
Both limits come from the app's :class:`~cardtable.server.settings.Settings`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

from pydantic import JsonValue

from cardtable import storage
from cardtable.errors import CardtableError, RulesError
from cardtable.fairness import derive_seed
from cardtable.games.contract import TERMINAL, AnyEngine
from cardtable.registry import canonical_name, format_fields, get_engine
from cardtable.server import metrics
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.hosting.worker_processes import spawn_pool
from cardtable.server.narration import Outcome, finished_between
from cardtable.server.people import tables as people_tables
from cardtable.server.people.player_options import DEFAULT_OPTIONS, bot_move_seconds
from cardtable.server.people.presence import PeoplesTable
from cardtable.server.people.room import Room, RoomSettings
from cardtable.server.settings import Settings
from cardtable.server.table.computer_players import ComputerPlayers
from cardtable.server.table.fair_deals import Commitments
from cardtable.server.table.owner import TableOwner, replay_log
from cardtable.server.table.seating import (
    Seat,
    SeatRequest,
    check_seats,
    first_human_seat,
    public_seats,
    seats_from_json,
)
from cardtable.server.table.services import TableServices, Timing
from cardtable.server.table.setup import TableSetup
from cardtable.server.table.summary import summarize
from cardtable.storage import (
    Database,
    DatabaseLogStore,
    ListedTable,
    LogStore,
    TableSummary,
    reviews,
)

logger = logging.getLogger(__name__)

MAX_SEED = 2**62
KEEP_FINISHED = 100
"""Finished tables kept in memory (the oldest without connections are let go beyond this; they
are loaded again from the database if asked for)."""
SWEEP_SECONDS: Final = 30.0
"""How often the lobby looks for idle tables."""
MAX_PAGE: Final = 200
"""The most tables one listing page holds."""


class TooManyTablesError(CardtableError):
    """A profile already has as many unfinished tables as it may."""


class NotAllowedError(CardtableError):
    """The profile may not do this at this table (it did not create it, say)."""


class TableInUseError(CardtableError):
    """The table cannot be closed while other people sit at it."""


class Lobby:
    """Every table of the process in use, by id (see the module docstring)."""

    def __init__(
        self, db: Database, *, settings: Settings | None = None, store: LogStore | None = None
    ) -> None:
        self.db = db
        self.settings = settings if settings is not None else Settings()
        self.store: LogStore = (
            store
            if store is not None
            else DatabaseLogStore(db, write_seconds=self.settings.store_seconds)
        )
        self.bot_delay_scale = self.settings.bot_delay_scale
        self.idle_seconds = self.settings.table_idle_seconds
        self.max_unfinished = self.settings.max_unfinished_tables
        self.tables: dict[str, TableOwner] = {}
        self.options: dict[int, dict[str, Any]] = {}
        self.on_timing: Callable[[Timing], None] | None = None
        self.on_outcomes: Callable[[TableOwner, Any, tuple[Outcome, ...]], None] | None = None
        """Told of every deal, hand or game a move finishes at any table."""
        self.on_let_go: Callable[[str], None] | None = None
        """Called with the id of every table that leaves memory (its lease is given
        back: :mod:`cardtable.server.cluster.wiring`)."""
        self.on_loaded: Callable[[str], None] | None = None
        """Called with the id of every table loaded from the log store into memory (the tables taken
        over are announced)."""
        self._loading: dict[str, asyncio.Future[TableOwner | None]] = {}
        self._creating = asyncio.Lock()
        self._sweeper: asyncio.Task[None] | None = None
        self._telling: set[asyncio.Task[None]] = set()
        self.commitments = Commitments()
        self._thinkers: ProcessPoolExecutor | None = None

    def remember_options(self, profile_id: int, options: dict[str, Any]) -> None:
        """Keep a profile's options at hand for pacing its tables' computer players."""
        self.options[profile_id] = options

    def _delay_for(self, profile_id: int) -> Callable[[], float]:
        def delay() -> float:
            options = self.options.get(profile_id, DEFAULT_OPTIONS)
            return bot_move_seconds(options, self.bot_delay_scale)

        return delay

    def deal_seed(self) -> int:
        """The seed of a new table: from the operating system's secure random source, so
        nobody (the table's creator included) can know the cards in advance; the settings'
        ``test_seed`` instead, in tests and benchmarks."""
        if self.settings.test_seed is not None:
            return self.settings.test_seed
        return secrets.randbelow(MAX_SEED)

    # --- creating and loading -----------------------------------------------------------------

    async def create(
        self,
        profile: storage.Profile,
        *,
        game: str,
        rules: Mapping[str, JsonValue] | None = None,
        seats: Sequence[SeatRequest] | None = None,
        commitment: str | None = None,
        contribution: str | None = None,
        shared: RoomSettings | None = None,
    ) -> tuple[str, int]:
        """A new table of ``game`` for ``profile``: the request's fields, each read and
        bounded once by its model (the seats' kinds and levels, the room's settings); what is
        checked here is what needs the game (its rules, as many seats as players).
        ``RulesError`` naming a rule or seat the game refuses, ``TooManyTablesError`` when
        the profile has too many unfinished tables. The deal is fair
        (:mod:`cardtable.server.table.fair_deals`): from the server seed behind ``commitment``
        and the person's ``contribution``, unless the settings fix a test seed.

        With ``shared`` (the room settings) it is a people's table: every human seat but the
        creator's is open for a person, and nothing is dealt until the host starts the game
        (the seed is drawn then, from every seated person's contribution)."""
        name = canonical_name(game)
        engine = get_engine(name)
        options_asked = dict(rules or {})
        if seats is not None and "players" not in options_asked:
            options_asked["players"] = len(seats)
        # Every table made here has its creator's seat: caps then never wipe earned points.
        built = engine.with_people_seated(engine.rules_from_json(options_asked))
        options = {**DEFAULT_OPTIONS, **profile.options}
        default_level = str(options.get("difficulty", "normal"))
        checked_seats = check_seats(seats, built.players, default_level)
        seat = first_human_seat(checked_seats)
        checked_seats[seat] = checked_seats[seat].named(profile.name)
        table_id = secrets.token_urlsafe(9)
        async with self._creating:
            # Counted before the deal is drawn, so a refused table costs no commitment.
            unfinished = await self.store.count_created(profile.id, status=storage.PLAYING)
            if unfinished >= self.max_unfinished:
                raise TooManyTablesError(
                    f"you already have {unfinished} unfinished tables, the most one player may "
                    "have: finish or leave one of them before starting another"
                )
            fair = None
            if self.settings.test_seed is None:
                fair = await self.commitments.deal_for_seat(
                    profile.id, commitment, contribution, seat=seat
                )
                seed = derive_seed(fair.server_seed or "", fair.contributions)
            else:
                seed = self.deal_seed()
            if shared is not None:
                # Nothing is dealt before the start: the stored seed is a placeholder and the
                # state below is never shown (the waiting room sends the room only).
                seed = 0
            state, _ = await asyncio.to_thread(replay_log, engine, built, seed, [])
            await self.store.create(
                table_id=table_id,
                owner_id=profile.id,
                game=name,
                rules=engine.rules_to_json(built),
                seed=seed,
                seats=[spec.to_json() for spec in checked_seats],
                owner_seat=seat,
            )
        if fair is not None:
            await asyncio.to_thread(reviews.save_fairness, self.db, table_id, fair)
        room = None
        if shared is not None:
            room = await people_tables.open_room(self.store, table_id, profile, seat, shared, fair)
        self.remember_options(profile.id, options)
        owner = self._owner(
            table_id=table_id,
            game=name,
            engine=engine,
            rules=built,
            seed=seed,
            seats=checked_seats,
            seated={seat: profile.id},
            state=state,
            log=[],
            status=storage.PLAYING,
            creator=profile.id,
        )
        if room is not None:
            owner.open_room(self._people(room))
        self.tables[table_id] = owner
        self._start_sweeper()
        owner.wake_bots()
        return table_id, seat

    def _owner(
        self,
        *,
        table_id: str,
        game: str,
        engine: AnyEngine,
        rules: Any,
        seed: int,
        seats: list[Seat],
        seated: dict[int, int],
        state: Any,
        log: list[tuple[int, str]],
        status: str,
        creator: int,
    ) -> TableOwner:
        setup = TableSetup(
            table_id, game, engine, rules, seed, creator, self.settings.max_table_moves
        )
        services: TableServices[TableOwner] = TableServices(
            store=self.store,
            thinkers=self.thinkers,
            seed_source=self._people_seed,
            rematch_maker=self._rematch,
            on_timing=self._timing,
            on_outcomes=self._outcomes,
        )
        floor = self.settings.bot_stretch_floor_seconds * self.bot_delay_scale
        return TableOwner(
            setup=setup,
            seats=seats,
            seated=seated,
            state=state,
            log=log,
            services=services,
            bots=ComputerPlayers(self._delay_for(creator), stretch_floor=floor),
            status=status,
        )

    def _people(self, room: Room) -> PeoplesTable:
        """The people's part of a people's table with ``room``."""
        return PeoplesTable(room, time_scale=self.settings.shared_time_scale)

    async def add_rematch_owner(
        self, old: TableOwner, table_id: str, seats: list[Seat], room: Room
    ) -> TableOwner:
        """The rematch table of ``old`` in memory (its waiting room; nothing dealt yet)."""
        state, _ = await asyncio.to_thread(replay_log, old.setup.engine, old.setup.rules, 0, [])
        owner = self._owner(
            table_id=table_id,
            game=old.setup.game,
            engine=old.setup.engine,
            rules=old.setup.rules,
            seed=0,
            seats=seats,
            seated=room.seated(),
            state=state,
            log=[],
            status=storage.PLAYING,
            creator=room.host,
        )
        owner.open_room(self._people(room))
        if room.host not in self.options and old.setup.creator in self.options:
            self.options[room.host] = self.options[old.setup.creator]
        self.tables[table_id] = owner
        return owner

    async def _people_seed(self, owner: TableOwner, contributions: dict[int, str]) -> int:
        return await people_tables.start_seed(self, owner, contributions)

    async def _rematch(self, owner: TableOwner) -> str:
        return await people_tables.rematch(self, owner)

    def _timing(self, timing: Timing) -> None:
        metrics.ACTION_TO_VIEW.observe(max(0.0, timing.broadcast - timing.received))
        if self.on_timing is not None:
            self.on_timing(timing)

    def _outcomes(self, owner: TableOwner, before: Any, outcomes: tuple[Outcome, ...]) -> None:
        if self.on_outcomes is not None:
            self.on_outcomes(owner, before, outcomes)

    async def get(self, table_id: str) -> TableOwner | None:
        """The table with this id, loading it from the log store if needed."""
        self._let_go_of_finished(keep=table_id)
        owner = self.tables.get(table_id)
        if owner is None:
            loading = self._loading.get(table_id)
            if loading is None:
                loading = asyncio.get_running_loop().create_future()
                self._loading[table_id] = loading
                try:
                    owner = await self._load(table_id)
                    if owner is not None:
                        self.tables[table_id] = owner
                        if self.on_loaded is not None:
                            self.on_loaded(table_id)
                    loading.set_result(owner)
                except BaseException as exc:
                    loading.set_exception(exc)
                    loading.exception()  # retrieved: whoever waits on it gets it raised
                    raise
                finally:
                    del self._loading[table_id]
                self._start_sweeper()
            else:
                owner = await asyncio.shield(loading)
        if owner is not None:
            owner.touch()
            owner.wake_bots()
        return owner

    def _let_go_of_finished(self, keep: str) -> None:
        idle = [
            table_id
            for table_id, owner in self.tables.items()
            if table_id != keep and owner.finished and owner.idle()
        ]
        for table_id in idle[: max(0, len(idle) - KEEP_FINISHED)]:
            del self.tables[table_id]
            self._let_go(table_id)

    def _let_go(self, table_id: str) -> None:
        if self.on_let_go is not None:
            self.on_let_go(table_id)

    def drop(self, table_id: str) -> TableOwner | None:
        """Let go of a table that another process now owns (its lease passed on): its bots
        stop and its connections are told to connect again, which reaches the new owner."""
        owner = self.tables.pop(table_id, None)
        if owner is None:
            return None
        owner.retire()
        loop = asyncio.get_running_loop()
        for listeners in owner.audience.connections.values():
            for connection in list(listeners):
                moved = getattr(connection, "moved", None)
                if moved is not None:
                    task = loop.create_task(_tell_moved(table_id, moved))
                    self._telling.add(task)
                    task.add_done_callback(self._telling.discard)
        return owner

    async def _load(self, table_id: str) -> TableOwner | None:
        stored = await self.store.load(table_id)
        if stored is None:
            return None
        try:
            # With its room before settling: the record's marks.
            owner = await self._from_log(stored, resume=True)
        except storage.StorageError:
            raise  # the database failed: the table may well replay
        except (CardtableError, ValueError, ImportError) as exc:
            logger.error("table %s does not replay: %s", table_id, exc)
            return None
        if stored.actions:
            await owner.settle_after_load()
        if stored.owner_id not in self.options:
            profile = await asyncio.to_thread(storage.get_profile, self.db, stored.owner_id)
            if profile is not None:
                self.remember_options(profile.id, {**DEFAULT_OPTIONS, **profile.options})
        return owner

    async def read(self, table_id: str) -> TableOwner | None:
        """The table to read from: its owner (loaded if need be), or a snapshot when another
        process of a cluster owns it."""
        try:
            return await self.get(table_id)
        except TableElsewhereError:
            return await self.snapshot(table_id)

    async def snapshot(self, table_id: str) -> TableOwner | None:
        """The table for reading only: the one in memory, or else (when another process of a
        cluster owns it) a copy replayed from the stored log, with its stored room, which is
        never kept, never moves its computer players, runs no timers and can store nothing."""
        owner = self.tables.get(table_id)
        if owner is not None:
            return owner
        stored = await asyncio.to_thread(storage.load_table, self.db, table_id)
        if stored is None:
            return None
        return await self._from_log(stored, resume=False)

    async def _from_log(self, stored: storage.StoredTable, *, resume: bool) -> TableOwner:
        """A stored table replayed from its log (off the event loop), with its room if it is a
        people's table; ``resume``: its timers go on (the table is this process's now)."""
        engine, rules, state, outcomes = await asyncio.to_thread(_replay, stored)
        owner = self._owner(
            table_id=stored.id,
            game=stored.game,
            engine=engine,
            rules=rules,
            seed=stored.seed,
            seats=seats_from_json(stored.seats),
            seated=dict(stored.seated),
            state=state,
            log=list(stored.actions),
            status=stored.status,
            creator=stored.owner_id,
        )
        if stored.actions:
            owner.last_outcomes = (owner.version, outcomes)
        await people_tables.load_room(
            self.store,
            owner,
            resume=resume,
            client_ids=stored.client_ids,
            time_scale=self.settings.shared_time_scale,
        )
        return owner

    def thinkers(self) -> ProcessPoolExecutor | None:
        """The worker processes of the searching computer players, started on first use
        (``None`` when the settings ask for none)."""
        if self._thinkers is None and self.settings.bot_processes > 0:
            self._thinkers = spawn_pool(self.settings.bot_processes)
        return self._thinkers

    # --- letting idle tables go ---------------------------------------------------------------

    def sweep(self, now: float | None = None) -> list[str]:
        """Let go of every table idle for ``idle_seconds`` (finished ones: a tenth of that);
        the ids let go. They stay stored and load again when asked for (with their creator's
        options, read again then)."""
        now = time.monotonic() if now is None else now
        gone = []
        for table_id, owner in list(self.tables.items()):
            limit = self.idle_seconds / 10 if owner.finished else self.idle_seconds
            if owner.idle() and now - owner.audience.last_active >= limit:
                owner.stop_bots()
                del self.tables[table_id]
                self._let_go(table_id)
                gone.append(table_id)
        if gone:  # the pacing options of profiles with no table left in memory go too
            creators = {owner.setup.creator for owner in self.tables.values()}
            for profile_id in [p for p in self.options if p not in creators]:
                del self.options[profile_id]
        return gone

    def _start_sweeper(self) -> None:
        if self._sweeper is None or self._sweeper.done():
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(SWEEP_SECONDS, max(self.idle_seconds / 10, 0.01)))
            gone = self.sweep()
            if gone:
                logger.debug("%d idle tables left memory", len(gone))

    # --- seats and closing --------------------------------------------------------------------

    async def join(self, table_id: str, profile: storage.Profile) -> int | None:
        """Seat ``profile`` at the table's first free human seat (or its own seat)."""
        owner = await self.get(table_id)
        if owner is None:
            return None
        if owner.people.room is not None:
            if profile.id in owner.seated.values():
                return next(s for s, p in owner.seated.items() if p == profile.id)
            raise NotAllowedError("this table is joined through its invite link")
        async with owner.lock:
            for seat, seated in owner.seated.items():
                if seated == profile.id:
                    return seat
            free = [
                seat
                for seat, spec in enumerate(owner.seats)
                if not spec.is_bot and seat not in owner.seated
            ]
            if not free:
                raise RulesError("every human seat at this table is taken")
            seat = free[0]
            await self.store.sit(table_id, seat, profile.id, profile.name)
            owner.seated[seat] = profile.id
            owner.seats[seat] = owner.seats[seat].named(profile.name)
        return seat

    async def close(self, table_id: str, profile_id: int) -> TableOwner | None:
        """Close a table for good at its creator's request; ``None`` if there is no such table.

        ``NotAllowedError`` if ``profile_id`` did not create it, ``TableInUseError`` while
        anybody else sits at it.
        """
        owner = await self.get(table_id)
        if owner is None:
            return None
        if owner.setup.creator != profile_id:
            if profile_id in owner.seated.values():
                raise NotAllowedError("only the player who started this table can close it")
            raise NotAllowedError("you do not sit at this table")
        others = [seat for seat, profile in owner.seated.items() if profile != profile_id]
        if others and not owner.finished:
            names = ", ".join(owner.seats[seat].name for seat in sorted(others))
            raise TableInUseError(
                f"other people sit at this table ({names}): it cannot be closed while they do"
            )
        await owner.close()
        if self.tables.pop(table_id, None) is not None:
            self._let_go(table_id)
        return owner

    async def abandon(self, table_id: str) -> None:
        """Close a table for good, whoever sits there (for the server itself, not for clients)."""
        owner = await self.get(table_id)
        if owner is not None:
            await owner.close()
            if self.tables.pop(table_id, None) is not None:
                self._let_go(table_id)

    # --- listings -----------------------------------------------------------------------------

    async def list_tables(
        self,
        profile_id: int,
        *,
        status: str = storage.PLAYING,
        limit: int = 50,
        offset: int = 0,
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of the tables where ``profile_id`` sits with ``status``, most recently
        played first, as :meth:`TableOwner.info` describes them (without the rules, which
        ``GET /api/tables/{id}`` gives) plus their summary; and how many there are in all."""
        rows, total = await self.store.list(profile_id, status=status, limit=limit, offset=offset)
        missing = [row for row in rows if row.summary is None]
        if missing:
            summaries = await asyncio.to_thread(_summaries_by_replay, missing, self.db)
            for table_id, summary in summaries.items():
                with contextlib.suppress(storage.StorageError):
                    await self.store.set_summary(table_id, summary)
            rows = [
                row
                if row.summary is not None or row.id not in summaries
                else _with_summary(row, summaries[row.id])
                for row in rows
            ]
        return [_listed(row, profile_id) for row in rows], total

    async def tables_of(self, profile_id: int) -> list[dict[str, Any]]:
        """The first page of unfinished tables where ``profile_id`` sits, most recent first."""
        listed, _total = await self.list_tables(profile_id)
        return listed

    async def shutdown(self) -> None:
        """Stop every bot runner and finish the queued writes (the tables stay stored)."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        for owner in self.tables.values():
            owner.stop_bots()
        if self._telling:  # connections being told their table moved: a moment to finish
            _done, late = await asyncio.wait(set(self._telling), timeout=2.0)
            for task in late:
                task.cancel()
        if self._thinkers is not None:  # waits for a search under way (a second at most)
            await asyncio.to_thread(self._thinkers.shutdown, wait=True, cancel_futures=True)
        await asyncio.to_thread(self.store.close)


async def _tell_moved(table_id: str, moved: Callable[[], Awaitable[None]]) -> None:
    """Tell one connection that its table moved; a connection that cannot be told (its page
    or its relay is gone) finds out by itself, so that is no error."""
    try:
        await moved()
    except Exception as exc:
        logger.info("table %s: a connection could not be told the table moved: %r", table_id, exc)


def _replay(stored: storage.StoredTable) -> tuple[AnyEngine, Any, Any, tuple[Any, ...]]:
    """A stored table's engine, rules, state and the outcomes its last move finished
    (in a worker thread: a long log takes a while)."""
    engine = get_engine(stored.game)
    rules = engine.rules_from_json(stored.rules)
    state, before = replay_log(engine, rules, stored.seed, stored.actions)
    outcomes = tuple(finished_between(stored.game, engine, before, state)) if stored.actions else ()
    return engine, rules, state, outcomes


def _summaries_by_replay(rows: list[ListedTable], db: Database) -> dict[str, TableSummary]:
    """Summaries of tables stored before summaries were kept, by replaying their logs."""
    summaries = {}
    for row in rows:
        stored = storage.load_table(db, row.id)
        if stored is None:
            continue
        try:
            engine, _rules, state, _ = _replay(stored)
        except (CardtableError, ValueError, ImportError) as exc:
            logger.error("table %s does not replay: %s", row.id, exc)
            continue
        summaries[row.id] = summarize(engine, state, len(stored.actions))
    return summaries


def _with_summary(row: ListedTable, summary: TableSummary) -> ListedTable:
    return ListedTable(
        id=row.id,
        owner_id=row.owner_id,
        game=row.game,
        rules=row.rules,
        seats=row.seats,
        seated=row.seated,
        status=row.status,
        result=row.result,
        moves=summary.moves,
        summary=summary,
        updated_at=row.updated_at,
        shared=row.shared,
    )


def _listed(row: ListedTable, viewer: int) -> dict[str, Any]:
    summary = row.summary
    your_seat = next((seat for seat, profile in row.seated.items() if profile == viewer), None)
    try:
        engine = get_engine(row.game)
        title = engine.title
        shown = format_fields(row.game, engine.rules_from_json(row.rules), len(row.seats))
    except (CardtableError, ImportError, ValueError):
        title = row.game
        shown = {"format": None, "table_label": f"{len(row.seats)} players"}
    return {
        "table_id": row.id,
        "game": row.game,
        "title": title,
        **shown,
        "seats": public_seats(row.seats, row.seated),
        "version": row.moves,
        "your_seat": your_seat,
        "yours": row.owner_id == viewer,
        "finished": row.status != storage.PLAYING
        or (summary is not None and summary.to_move == TERMINAL),
        "status": row.status,
        "deal": None if summary is None else summary.deal,
        "scores": None if summary is None else list(summary.scores),
        "to_move": None if summary is None or summary.to_move < 0 else summary.to_move,
        "updated_at": row.updated_at.isoformat(),
        "shared": row.shared,
    }
