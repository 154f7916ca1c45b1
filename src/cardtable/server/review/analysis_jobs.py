"""The move-by-move analysis at the server: every finished hand analysed in the background as
it ends, a whole game's merged from its hands', one worker process at the lowest priority, and
every result stored with the table so that it is computed once.

When a deal/hand ends at a table the table tells :meth:`Analyses.deal_finished`, which queues
the analysis of that hand for each person seated (when the game ends, of every hand of theirs
not analysed yet), if the settings ask for it (``analyse_finished_hands``). Indian Rummy's free
play never ends a game: this is how its deals get analysed. A page asking for an analysis that
is neither stored nor queued queues it ahead of the background work.

One worker process takes the queue one hand at a time, at the operating system's lowest
priority, so the analysis only uses the cycles play leaves idle; beyond :data:`MAX_QUEUED`
waiting hands, background work is skipped (a page that asks for it later queues it again).
Analyses asked for by pages are bounded: at most :data:`MAX_ASKED_PER_TABLE` of one table's
and :data:`MAX_ASKED_PER_ASKER` of one asker's (an address, a profile, a share link) wait at
once, and each request that queues something counts once against the ``analysis`` rate limit
(polling where an analysis stands counts nothing); past a bound the request is refused with
:class:`AnalysisRefused` (a game's many hands are queued as far as the bounds allow, the rest
when the page asks again).

The worker reports its progress (decisions analysed of the hand's) through a queue read
whenever a page asks. A game's analysis is merged from its hands' (its three costliest moves
are among the hands' three costliest) and stored too (:mod:`cardtable.storage.reviews`).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import queue
from collections.abc import Iterable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass, field
from typing import Any, Final

from cardtable.replay import GameRecord, replay_steps
from cardtable.review import lens_of, review_record
from cardtable.server.hosting.worker_processes import spawn_pool
from cardtable.server.rate_limits import RateLimits
from cardtable.server.table.owner import TableOwner
from cardtable.storage import Database, reviews

logger = logging.getLogger(__name__)

ON_REQUEST: Final = 0
"""Priority of an analysis a page asked for (someone is waiting)."""
BACKGROUND: Final = 1
"""Priority of a finished hand's analysis queued as it ended."""
MAX_QUEUED: Final = 500
"""Background analyses waiting beyond this many are skipped rather than queued."""
MAX_ASKED_PER_TABLE: Final = 40
"""Analyses asked for by pages that may wait at once for one table."""
MAX_ASKED_PER_ASKER: Final = 40
"""Analyses asked for that may wait at once for one address, profile or share link."""


class AnalysisRefused(Exception):
    """Too many analyses asked for: the sentence, and the seconds to wait."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


@dataclass
class Asker:
    """Who asks for an analysis: rate-limit keys (``address:…``, ``profile:…``,
    ``share:…``), and the limits that count one ``analysis`` per request that queues one."""

    keys: tuple[str, ...] = ()
    limits: RateLimits | None = None
    counted: bool = False

    def admit(self) -> None:
        """Count this request against the ``analysis`` limit (once), or refuse it."""
        if self.counted or self.limits is None:
            return
        refusal = self.limits.hit("analysis", *self.keys)
        if refusal is not None:
            raise AnalysisRefused(refusal.message, refusal.retry_after)
        self.counted = True


HandKey = tuple[str, int, int]
"""``(table id, seat, hand number)``."""


def hands_of(record: GameRecord) -> list[int]:
    """The hand (deal) numbers in which the record has moves, in order."""
    lens = lens_of(record.game)
    seen: dict[int, None] = {}
    for step in replay_steps(record):
        seen.setdefault(lens.hand_of(step.before), None)
    return list(seen)


# --- the worker process -------------------------------------------------------------------------

_progress: Any = None
"""The worker process's end of the progress queue (set when the process starts)."""


def start_worker(progress: Any) -> None:
    """Initialise the worker process: keep the progress queue and yield the cores to play."""
    global _progress
    _progress = progress
    with contextlib.suppress(OSError, AttributeError):  # not on every system
        os.nice(19)


def analyse_hand(record_json: dict[str, Any], seat: int, hand: int, key: HandKey) -> dict[str, Any]:
    """One hand's analysis as JSON (runs in the worker process), reporting its progress."""
    record = GameRecord.from_json(record_json)

    def report(done: int, total: int) -> None:
        if _progress is not None:
            _progress.put((key, done, total))

    return review_record(record, seat, hands=[hand], progress=report).to_json()


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's analysis from its hands' analyses (JSON), in hand order."""
    first = parts[0]
    hands = [hand for part in parts for hand in part["hands"]]
    decisions = [d for hand in hands for d in hand["decisions"]]
    top = sorted((d for part in parts for d in part["top"]), key=lambda d: -d["cost"])[:3]
    counts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    for decision in decisions:
        if decision["label"]:
            counts[decision["label"]] += 1
    accuracy = (
        round(sum(d["accuracy"] for d in decisions) / len(decisions), 1) if decisions else None
    )
    return {**first, "hands": hands, "top": top, "counts": counts, "accuracy": accuracy}


# --- the queue at the server --------------------------------------------------------------------


@dataclass
class Pending:
    """A hand's analysis queued or under way: its record, priority, place in the queue
    (``order``), state (``queued``, ``running`` or ``failed``) and progress in decisions."""

    record: GameRecord
    priority: int
    order: int
    state: str = "queued"
    done: int = 0
    total: int = 0
    error: str | None = None
    askers: set[str] = field(default_factory=set)
    """The keys of those who asked for it (none for background work)."""


@dataclass
class Analyses:
    """The server's analyses: the queue, the worker and the stored results (see the module
    docstring). ``background`` queues every finished hand as it ends."""

    db: Database
    background: bool = True
    executor: Executor | None = None
    pending: dict[HandKey, Pending] = field(default_factory=dict)
    _queue: asyncio.PriorityQueue[tuple[int, int, HandKey]] | None = None
    _worker: asyncio.Task[None] | None = None
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)
    _progress: Any = None
    _counter: itertools.count[int] = field(default_factory=itertools.count)
    _writing: asyncio.Lock = field(default_factory=asyncio.Lock)
    _hands: dict[str, tuple[int, list[int]]] = field(default_factory=dict)

    # --- told by the tables -------------------------------------------------------------------

    def deal_finished(self, owner: TableOwner, before: Any, outcomes: tuple[Any, ...]) -> None:
        """A move at ``owner`` (made from the state ``before``) finished a deal, hand or game:
        queue the analysis of that hand for each person seated (at the game's end, of all
        their hands not analysed yet). Called on the event loop; returns at once."""
        if not self.background or not owner.seated or not outcomes:
            return
        record = GameRecord(
            game=owner.setup.game,
            rules=owner.setup.engine.rules_to_json(owner.setup.rules),
            seed=owner.setup.seed,
            actions=tuple(owner.log),
        )
        hand = lens_of(owner.setup.game).hand_of(before)
        task = asyncio.get_running_loop().create_task(
            self._queue_finished(
                owner.setup.table_id, sorted(owner.seated), record, hand, owner.finished
            )
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _queue_finished(
        self, table_id: str, seats: Iterable[int], record: GameRecord, hand: int, over: bool
    ) -> None:
        try:
            hands = await self.hands(table_id, record) if over else [hand]
            for seat in seats:
                stored = await asyncio.to_thread(
                    reviews.load_hand_analyses, self.db, table_id, seat
                )
                for number in hands:
                    if number not in stored:
                        self._enqueue((table_id, seat, number), record, BACKGROUND)
        except Exception:
            logger.exception("table %s: the finished hands could not be queued", table_id)

    # --- asked by the pages -------------------------------------------------------------------

    async def hands(self, table_id: str, record: GameRecord) -> list[int]:
        """The hand numbers with moves in ``record`` (kept for the record's length)."""
        known = self._hands.get(table_id)
        if known is not None and known[0] == len(record.actions):
            return known[1]
        found = await asyncio.to_thread(hands_of, record)
        self._hands[table_id] = (len(record.actions), found)
        if len(self._hands) > 256:  # only recent tables are asked about again and again
            del self._hands[next(iter(self._hands))]
        return found

    async def known_status(self, table_id: str, seat: int, hand: int) -> dict[str, Any] | None:
        """A hand's stored analysis, or where its job stands if it is queued: ``{status: done,
        hand, analysis}``, ``{status: queued, hand, ahead}``, ``{status: running, hand, done,
        total}`` or ``{status: failed, hand, detail}``; ``None`` if it is neither."""
        stored = await asyncio.to_thread(reviews.load_hand_analyses, self.db, table_id, seat)
        if hand in stored:
            return {"status": "done", "hand": hand, "analysis": stored[hand]}
        if (table_id, seat, hand) in self.pending:
            return self._describe((table_id, seat, hand))
        return None

    def request(
        self, table_id: str, seat: int, hand: int, record: GameRecord, asker: Asker | None = None
    ) -> dict[str, Any]:
        """Queue a finished hand's analysis ahead of the background work (or move it ahead if
        it is queued already); where it stands. :class:`AnalysisRefused` past the bounds."""
        key = (table_id, seat, hand)
        self._ask(key, record, asker or Asker())
        return self._describe(key)

    async def hands_status(
        self, table_id: str, seat: int, record: GameRecord, finished: list[int]
    ) -> list[dict[str, Any]]:
        """Where the analysis of each of the ``finished`` hands stands, without queuing any:
        done (with its accuracy and marks), queued, running, failed, or ``none``."""
        stored = await asyncio.to_thread(reviews.load_hand_analyses, self.db, table_id, seat)
        listed = []
        for hand in finished:
            if hand in stored:
                part = stored[hand]
                listed.append(
                    {
                        "hand": hand,
                        "status": "done",
                        "accuracy": part["accuracy"],
                        "counts": part["counts"],
                    }
                )
            elif (table_id, seat, hand) in self.pending:
                listed.append(self._describe((table_id, seat, hand)))
            else:
                listed.append({"hand": hand, "status": "none"})
        return listed

    async def status(
        self, table_id: str, seat: int, record: GameRecord, asker: Asker | None = None
    ) -> dict[str, Any]:
        """A finished game's stored analysis for ``seat``, or how far its hands are (the
        missing ones queued ahead of the background work): ``{status: done, analysis}``,
        ``{status: running, done, total}`` in hands, or ``{status: failed, detail}``."""
        stored = await asyncio.to_thread(reviews.load_analysis, self.db, table_id, seat)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        hands = await self.hands(table_id, record)
        parts = await asyncio.to_thread(reviews.load_hand_analyses, self.db, table_id, seat)
        missing = [hand for hand in hands if hand not in parts]
        if not missing:
            if hands:
                merged = merge([parts[hand] for hand in hands])
            else:  # no move of anyone's: an empty analysis, with the game's thresholds
                merged = await asyncio.to_thread(_empty, record, seat)
            async with self._writing:
                await asyncio.to_thread(reviews.save_analysis, self.db, table_id, seat, merged)
            return {"status": "done", "analysis": merged}
        asker = asker or Asker()
        for number, hand in enumerate(missing):
            try:
                self._ask((table_id, seat, hand), record, asker)
            except AnalysisRefused:
                if number == 0 and not any((table_id, seat, h) in self.pending for h in missing):
                    raise
                break  # the rest are queued when the page asks again
        for hand in missing:
            job = self.pending.get((table_id, seat, hand))
            if job is None:
                continue
            if job.error is not None:
                # Reported, not retried: a record that fails once fails again the same way.
                return {"status": "failed", "detail": job.error}
        return {"status": "running", "done": len(hands) - len(missing), "total": len(hands)}

    # --- the queue ----------------------------------------------------------------------------

    def _ask(self, key: HandKey, record: GameRecord, asker: Asker) -> None:
        """Queue ``key`` ahead of the background work for ``asker``, within the bounds."""
        job = self.pending.get(key)
        if job is not None and (job.state != "queued" or job.priority == ON_REQUEST):
            job.askers.update(asker.keys)  # already ahead (or done with): nothing new
            return
        table_id = key[0]
        asked = [j_key for j_key, j in self.pending.items() if j.askers and j.state != "failed"]
        if sum(1 for j_key in asked if j_key[0] == table_id) >= MAX_ASKED_PER_TABLE:
            raise AnalysisRefused(
                f"too many analyses of this table are waiting: at most {MAX_ASKED_PER_TABLE}; "
                "try again when some are done",
                30,
            )
        for who in asker.keys:
            if sum(1 for j_key in asked if who in self.pending[j_key].askers) >= (
                MAX_ASKED_PER_ASKER
            ):
                raise AnalysisRefused(
                    f"too many of your analyses are waiting: at most {MAX_ASKED_PER_ASKER}; "
                    "try again when some are done",
                    30,
                )
        asker.admit()
        self._enqueue(key, record, ON_REQUEST)
        self.pending[key].askers.update(asker.keys or ("anyone",))

    def _enqueue(self, key: HandKey, record: GameRecord, priority: int) -> None:
        job = self.pending.get(key)
        if job is not None:
            if job.state == "queued" and priority < job.priority:
                job.priority, job.order = priority, next(self._counter)
                self._jobs().put_nowait((priority, job.order, key))
            return
        waiting = sum(1 for j in self.pending.values() if j.state == "queued")
        if priority == BACKGROUND and waiting >= MAX_QUEUED:
            logger.warning("analysis queue full: hand %s of table %s not queued", key[2], key[0])
            return
        job = Pending(record=record, priority=priority, order=next(self._counter))
        self.pending[key] = job
        self._jobs().put_nowait((priority, job.order, key))
        if self._worker is None or self._worker.done():
            self._worker = asyncio.get_running_loop().create_task(self._serve())

    def _jobs(self) -> asyncio.PriorityQueue[tuple[int, int, HandKey]]:
        if self._queue is None:
            self._queue = asyncio.PriorityQueue()
        return self._queue

    def _describe(self, key: HandKey) -> dict[str, Any]:
        self._drain()
        job = self.pending[key]
        hand = key[2]
        if job.state == "failed":
            return {"hand": hand, "status": "failed", "detail": job.error}
        if job.state == "running":
            return {"hand": hand, "status": "running", "done": job.done, "total": job.total}
        mine = (job.priority, job.order)
        ahead = sum(
            1
            for other in self.pending.values()
            if other.state == "running"
            or (other.state == "queued" and (other.priority, other.order) < mine)
        )
        return {"hand": hand, "status": "queued", "ahead": ahead}

    def _drain(self) -> None:
        """Read the worker's progress reports so far."""
        if self._progress is None:
            return
        while True:
            try:
                key, done, total = self._progress.get_nowait()
            except queue.Empty:
                return
            job = self.pending.get(key)
            if job is not None and job.state == "running":
                job.done, job.total = done, total

    def _pool(self) -> Executor:
        if self.executor is None:
            # A fresh interpreter: forking a process that runs an event loop and threads is unsafe.
            self._progress = multiprocessing.get_context("spawn").Queue()
            self.executor = spawn_pool(1, start_worker, (self._progress,))
        return self.executor

    async def _serve(self) -> None:
        """Take the queue one hand at a time, most urgent first, until it is empty."""
        jobs = self._jobs()
        loop = asyncio.get_running_loop()
        while not jobs.empty():
            _priority, _order, key = jobs.get_nowait()
            job = self.pending.get(key)
            if job is None or job.state != "queued":
                continue  # a duplicate left by a raised priority
            table_id, seat, hand = key
            job.state = "running"
            try:
                part = await loop.run_in_executor(
                    self._pool(), analyse_hand, job.record.to_json(), seat, hand, key
                )
                async with self._writing:
                    await asyncio.to_thread(
                        reviews.save_hand_analysis, self.db, table_id, seat, hand, part
                    )
                del self.pending[key]
            except Exception as exc:
                logger.exception("analysis of table %s seat %s hand %s failed", *key)
                job.state, job.error = "failed", f"the analysis failed: {exc}"
                if isinstance(exc, BrokenExecutor):
                    self.executor = None  # a new worker for the next hand

    def close(self) -> None:
        """Stop the queue and the worker process."""
        for task in [*self._tasks, self._worker]:
            if task is not None:
                task.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
        if self._progress is not None:
            self._progress.close()


def _empty(record: GameRecord, seat: int) -> dict[str, Any]:
    return review_record(record, seat, hands=[]).to_json()
