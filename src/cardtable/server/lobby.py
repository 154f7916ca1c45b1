"""The tables of one server process: creating them, loading stored ones on first use, listing
and closing them, and the database-backed :class:`~cardtable.server.table.TableStore`.

A table that is not in memory (after a restart) is loaded lazily: its log is replayed through
the engine's checked apply, and its computer players pick up where they stopped.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from cardtable import storage
from cardtable.errors import CardtableError, RulesError
from cardtable.fairness import derive_seed
from cardtable.games.contract import AnyEngine
from cardtable.registry import canonical_name, get_engine
from cardtable.server.fair_deals import Commitments
from cardtable.server.narration import finished_between
from cardtable.server.options import DEFAULT_OPTIONS, bot_move_seconds
from cardtable.server.seating import check_seats, first_human_seat
from cardtable.server.settings import Settings
from cardtable.server.table import TableOwner, Timing, replay_log
from cardtable.storage import Database, RecordEvent, reviews

logger = logging.getLogger(__name__)

MAX_SEED = 2**62
KEEP_FINISHED = 100
"""Finished tables kept in memory (the oldest without connections are let go beyond this; they
are loaded again from the database if asked for)."""


class DatabaseStore:
    """A :class:`~cardtable.server.table.TableStore` over the database.

    SQLite writes run on the event loop itself: one is a fraction of a millisecond, while
    handing it to a worker thread costs far more once the loop is busy (the thread waits for
    the interpreter lock at every step). Other databases, across a network, are written from
    one worker thread, in the order the writes are made.
    """

    def __init__(self, db: Database) -> None:
        self.db = db
        self._inline = db.engine.dialect.name == "sqlite"
        self._writer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="cardtable-db")

    async def _write(self, function: Callable[..., Any], *arguments: Any) -> None:
        if self._inline:
            function(*arguments)
            return
        await asyncio.get_running_loop().run_in_executor(self._writer, function, *arguments)

    async def append(self, table_id: str, index: int, seat: int, notation: str) -> None:
        """Store one move."""
        await self._write(storage.append_action, self.db, table_id, index, seat, notation)

    async def set_status(self, table_id: str, status: str, result: dict[str, Any] | None) -> None:
        """Store a finished or abandoned table."""
        await self._write(storage.set_status, self.db, table_id, status, result)

    async def record(self, profile_id: int, events: list[RecordEvent]) -> None:
        """Store record events."""
        await self._write(storage.add_events, self.db, profile_id, events)

    def close(self) -> None:
        """Finish the queued writes and stop the writer thread."""
        self._writer.shutdown(wait=True)


class Lobby:
    """Every table of the process, by id."""

    def __init__(self, db: Database, *, settings: Settings | None = None) -> None:
        self.db = db
        self.settings = settings if settings is not None else Settings()
        self.store = DatabaseStore(db)
        self.bot_delay_scale = self.settings.bot_delay_scale
        self.tables: dict[str, TableOwner] = {}
        self.options: dict[int, dict[str, Any]] = {}
        self.on_timing: Callable[[Timing], None] | None = None
        self._loading = asyncio.Lock()
        self.commitments = Commitments()

    def remember_options(self, profile_id: int, options: dict[str, Any]) -> None:
        """Keep a profile's options at hand for pacing its tables' computer players."""
        self.options[profile_id] = options

    def deal_seed(self) -> int:
        """The seed of a new table: from the operating system's secure random source, so
        nobody (the table's creator included) can know the cards in advance; the settings'
        ``test_seed`` instead, in tests and benchmarks."""
        if self.settings.test_seed is not None:
            return self.settings.test_seed
        return secrets.randbelow(MAX_SEED)

    def _delay_for(self, profile_id: int) -> Callable[[], float]:
        def delay() -> float:
            options = self.options.get(profile_id, DEFAULT_OPTIONS)
            return bot_move_seconds(options, self.bot_delay_scale)

        return delay

    async def create(
        self,
        profile: storage.Profile,
        *,
        game: Any,
        rules: Any,
        seats: Any,
        commitment: Any = None,
        contribution: Any = None,
    ) -> tuple[str, int]:
        """A new table for ``profile``; ``RulesError`` naming any bad field. The deal is fair
        (:mod:`cardtable.server.fair_deals`): from the server seed behind ``commitment`` and the
        person's ``contribution``, unless the settings fix a test seed."""
        if not isinstance(game, str):
            raise RulesError("game must be the name of a game")
        name = canonical_name(game)
        engine = get_engine(name)
        if rules is None:
            rules = {}
        if not isinstance(rules, dict):
            raise RulesError("rules must be an object of rule options")
        if isinstance(seats, list) and "players" not in rules:
            rules = {**rules, "players": len(seats)}
        # Every table made here has its creator's seat: caps then never wipe earned points.
        built = engine.with_people_seated(engine.rules_from_json(rules))
        options = {**DEFAULT_OPTIONS, **profile.options}
        default_level = str(options.get("difficulty", "normal"))
        checked_seats = check_seats(seats, built.players, default_level)
        seat = first_human_seat(checked_seats)
        fair = None
        if self.settings.test_seed is None:
            fair = self.commitments.deal_for_seat(profile.id, commitment, contribution, seat=seat)
            seed = derive_seed(fair.server_seed or "", fair.contributions)
        else:
            seed = self.deal_seed()
        checked_seats[seat]["name"] = profile.name
        table_id = secrets.token_urlsafe(9)
        state, _ = replay_log(engine, built, seed, [])
        await asyncio.to_thread(
            storage.create_table,
            self.db,
            table_id=table_id,
            owner_id=profile.id,
            game=name,
            rules=engine.rules_to_json(built),
            seed=seed,
            seats=checked_seats,
            owner_seat=seat,
        )
        if fair is not None:
            await asyncio.to_thread(reviews.save_fairness, self.db, table_id, fair)
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
            pacing_profile=profile.id,
        )
        self.tables[table_id] = owner
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
        seats: list[dict[str, Any]],
        seated: dict[int, int],
        state: Any,
        log: list[tuple[int, str]],
        status: str,
        pacing_profile: int,
    ) -> TableOwner:
        return TableOwner(
            table_id=table_id,
            game=game,
            engine=engine,
            rules=rules,
            seed=seed,
            seats=seats,
            seated=seated,
            state=state,
            log=log,
            store=self.store,
            bot_delay=self._delay_for(pacing_profile),
            status=status,
            on_timing=self._timing,
        )

    def _timing(self, timing: Timing) -> None:
        if self.on_timing is not None:
            self.on_timing(timing)

    async def get(self, table_id: str) -> TableOwner | None:
        """The table with this id, loading it from the database if needed."""
        self._let_go_of_finished(keep=table_id)
        owner = self.tables.get(table_id)
        if owner is not None:
            return owner
        async with self._loading:
            owner = self.tables.get(table_id)
            if owner is None:
                owner = await self._load(table_id)
                if owner is not None:
                    self.tables[table_id] = owner
        if owner is not None:
            owner.wake_bots()
        return owner

    def _let_go_of_finished(self, keep: str) -> None:
        idle = [
            table_id
            for table_id, owner in self.tables.items()
            if table_id != keep and owner.finished and not any(owner.connections.values())
        ]
        for table_id in idle[: max(0, len(idle) - KEEP_FINISHED)]:
            del self.tables[table_id]

    async def _load(self, table_id: str) -> TableOwner | None:
        stored = await asyncio.to_thread(storage.load_table, self.db, table_id)
        if stored is None:
            return None
        try:
            engine = get_engine(stored.game)
            rules = engine.rules_from_json(stored.rules)
            state, before = replay_log(engine, rules, stored.seed, stored.actions)
        except (CardtableError, ValueError, ImportError) as exc:
            logger.error("table %s does not replay: %s", table_id, exc)
            return None
        owner = self._owner(
            table_id=stored.id,
            game=stored.game,
            engine=engine,
            rules=rules,
            seed=stored.seed,
            seats=[dict(seat) for seat in stored.seats],
            seated=dict(stored.seated),
            state=state,
            log=list(stored.actions),
            status=stored.status,
            pacing_profile=stored.owner_id,
        )
        if stored.actions:
            outcomes = finished_between(stored.game, engine, before, state)
            owner.last_outcomes = (owner.version, tuple(outcomes))
        if stored.owner_id not in self.options:
            profile = await asyncio.to_thread(storage.get_profile, self.db, stored.owner_id)
            if profile is not None:
                self.remember_options(profile.id, {**DEFAULT_OPTIONS, **profile.options})
        return owner

    async def join(self, table_id: str, profile: storage.Profile) -> int | None:
        """Seat ``profile`` at the table's first free human seat (or its own seat)."""
        owner = await self.get(table_id)
        if owner is None:
            return None
        async with owner.lock:
            for seat, seated in owner.seated.items():
                if seated == profile.id:
                    return seat
            free = [
                seat
                for seat, spec in enumerate(owner.seats)
                if spec["kind"] == "human" and seat not in owner.seated
            ]
            if not free:
                raise RulesError("every human seat at this table is taken")
            seat = free[0]
            await asyncio.to_thread(storage.sit, self.db, table_id, seat, profile.id)
            owner.seated[seat] = profile.id
            owner.seats[seat]["name"] = profile.name
        return seat

    async def abandon(self, table_id: str) -> None:
        """Close a table for good."""
        owner = await self.get(table_id)
        if owner is not None:
            await owner.close()
            self.tables.pop(table_id, None)

    async def tables_of(self, profile_id: int) -> list[dict[str, Any]]:
        """The unfinished tables where ``profile_id`` sits, most recent first."""
        ids = await asyncio.to_thread(storage.tables_of, self.db, profile_id)
        listed = []
        for table_id in ids:
            owner = await self.get(table_id)
            if owner is not None and not owner.finished:
                listed.append(owner.info(profile_id))
        return listed

    async def shutdown(self) -> None:
        """Stop every bot runner and finish the queued writes (the tables stay stored)."""
        for owner in self.tables.values():
            owner.stop_bots()
        await asyncio.to_thread(self.store.close)
