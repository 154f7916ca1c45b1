"""The move-by-move analysis of finished games, run off the event loop and stored once.

A request for a seat's analysis of a finished table starts a job (if none is stored or running)
in a worker process, hand by hand, so a progress indicator can say how many hands are done; the
hands' results are merged (the game's three costliest moves are among the hands' three
costliest) and stored with the table (:mod:`cardtable.storage.reviews`), so the analysis is
computed once. One worker process serves the whole server: analyses queue rather than compete
with play for the cores.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from cardtable.replay import GameRecord, replay_steps
from cardtable.review import lens_of, review_record
from cardtable.storage import Database, reviews

logger = logging.getLogger(__name__)


def hands_of(record: GameRecord) -> list[int]:
    """The hand (deal) numbers in which the record has moves, in order."""
    lens = lens_of(record.game)
    seen: dict[int, None] = {}
    for step in replay_steps(record):
        seen.setdefault(lens.hand_of(step.before), None)
    return list(seen)


def analyse_hand(record_json: dict[str, Any], seat: int, hand: int) -> dict[str, Any]:
    """One hand's analysis as JSON (runs in the worker process)."""
    record = GameRecord.from_json(record_json)
    return review_record(record, seat, hands=[hand]).to_json()


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """One game's analysis from its hands' analyses (JSON)."""
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


@dataclass
class Job:
    """A running analysis: hands done of the hands in all."""

    done: int = 0
    total: int = 0
    task: asyncio.Task[None] | None = None
    error: str | None = None


@dataclass
class Analyses:
    """The server's analysis jobs, by ``(table_id, seat)``."""

    db: Database
    executor: Executor | None = None
    jobs: dict[tuple[str, int], Job] = field(default_factory=dict)

    def _pool(self) -> Executor:
        if self.executor is None:
            # A fresh interpreter: forking a process that runs an event loop and threads is unsafe.
            context = multiprocessing.get_context("spawn")
            self.executor = ProcessPoolExecutor(max_workers=1, mp_context=context)
        return self.executor

    async def status(self, table_id: str, seat: int, record: GameRecord) -> dict[str, Any]:
        """The stored analysis, or the progress of the job computing it (started if needed)."""
        stored = await asyncio.to_thread(reviews.load_analysis, self.db, table_id, seat)
        if stored is not None:
            return {"status": "done", "analysis": stored}
        key = (table_id, seat)
        job = self.jobs.get(key)
        if job is None:
            job = Job()
            self.jobs[key] = job
            job.task = asyncio.create_task(self._run(key, job, record))
        if job.error is not None:
            # Reported, not retried: a record that fails once fails again the same way.
            return {"status": "failed", "detail": job.error}
        return {"status": "running", "done": job.done, "total": job.total}

    async def _run(self, key: tuple[str, int], job: Job, record: GameRecord) -> None:
        table_id, seat = key
        loop = asyncio.get_running_loop()
        try:
            hands = await asyncio.to_thread(hands_of, record)
            job.total = len(hands)
            parts = []
            for hand in hands:
                part = await loop.run_in_executor(
                    self._pool(), analyse_hand, record.to_json(), seat, hand
                )
                parts.append(part)
                job.done += 1
            merged = merge(parts) if parts else review_record(record, seat, hands=[]).to_json()
            await asyncio.to_thread(reviews.save_analysis, self.db, table_id, seat, merged)
            self.jobs.pop(key, None)
        except Exception as exc:
            logger.exception("analysis of table %s seat %s failed", table_id, seat)
            job.error = f"the analysis failed: {exc}"

    def close(self) -> None:
        """Stop the worker process."""
        for job in self.jobs.values():
            if job.task is not None:
                job.task.cancel()
        if self.executor is not None:
            self.executor.shutdown(wait=False, cancel_futures=True)
