"""Prometheus metrics of the server, served at ``/metrics`` in the text exposition format.

* ``cardtable_open_tables``: tables in memory; ``cardtable_connected_sockets``: open table
  websockets (both summed over the live worker processes);
* ``cardtable_actions_total``: moves stored, by ``kind`` (``person`` or ``bot``); its rate is
  the actions per second;
* ``cardtable_action_to_view_seconds``: from a person's action arriving to every connected seat
  having its new view;
* ``cardtable_lease_takeovers_total``: tables this process took over from a process that
  stopped without giving their lease back (cluster mode);
* ``cardtable_bot_thinking_seconds``: a computer player's time to choose a move, by ``level``;
  ``cardtable_bot_thinking_cpu_seconds_total``: the CPU time of the threads that chose them
  (the thinking done in threads of this process, so that a server's CPU per move can be told
  with and without it);
* ``cardtable_event_loop_lag_seconds``: how late the event loop wakes from a short sleep,
  sampled every second (high values mean something blocks the loop that serves sockets).

With several worker processes (``cardtable serve --workers N``) each keeps its figures in
``PROMETHEUS_MULTIPROC_DIR`` and any of them serves the sum (prometheus-client's multiprocess
mode); the gauges of a worker that died are dropped at the next scrape.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import time
from pathlib import Path
from typing import Final

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
    multiprocess,
)

MULTIPROCESS_VARIABLE: Final = "PROMETHEUS_MULTIPROC_DIR"
CONTENT_TYPE: Final = CONTENT_TYPE_LATEST

OPEN_TABLES = Gauge("cardtable_open_tables", "Tables in memory.", multiprocess_mode="livesum")
CONNECTED_SOCKETS = Gauge(
    "cardtable_connected_sockets", "Open table websockets.", multiprocess_mode="livesum"
)
ACTIONS = Counter("cardtable_actions", "Moves stored.", ["kind"])
ACTION_TO_VIEW = Histogram(
    "cardtable_action_to_view_seconds",
    "From a person's action arriving to every connected seat having its new view.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0),
)
LEASE_TAKEOVERS = Counter(
    "cardtable_lease_takeovers",
    "Tables taken over from a process that stopped without giving their lease back.",
)
BOT_THINKING = Histogram(
    "cardtable_bot_thinking_seconds",
    "A computer player's time to choose a move.",
    ["level"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0),
)
BOT_THINKING_CPU = Counter(
    "cardtable_bot_thinking_cpu_seconds",
    "CPU time of the threads in which computer players chose their moves.",
)
LOOP_LAG = Histogram(
    "cardtable_event_loop_lag_seconds",
    "How late the event loop wakes from a short sleep.",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0),
)

_LIVE_FILE = re.compile(r"^gauge_live\w*_(\d+)\.db$")


def exposition() -> bytes:
    """Every metric in the text format: this process's, or the sum over the live workers'."""
    directory = os.environ.get(MULTIPROCESS_VARIABLE)
    if not directory:
        return generate_latest(REGISTRY)
    forget_dead_workers(Path(directory))
    registry = CollectorRegistry()
    multiprocess.MultiProcessCollector(registry, path=directory)  # type: ignore[no-untyped-call]
    return generate_latest(registry)


def forget_dead_workers(directory: Path) -> list[int]:
    """Drop the live gauges of worker processes that are gone (killed workers never say so);
    their process ids."""
    dead: set[int] = set()
    for path in directory.glob("gauge_live*.db"):
        match = _LIVE_FILE.match(path.name)
        if match is None:
            continue
        pid = int(match.group(1))
        if pid != os.getpid() and not _alive(pid):
            dead.add(pid)
    for pid in dead:
        multiprocess.mark_process_dead(pid, str(directory))  # type: ignore[no-untyped-call]
    return sorted(dead)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def sample_loop_lag(interval: float = 1.0, probe: float = 0.01) -> None:
    """Forever: sleep ``probe`` seconds and record how much later than asked the loop woke."""
    while True:
        await asyncio.sleep(interval)
        started = time.perf_counter()
        await asyncio.sleep(probe)
        LOOP_LAG.observe(max(0.0, time.perf_counter() - started - probe))


async def track_open_tables(count: object, interval: float = 1.0) -> None:
    """Forever: set the open-tables gauge from ``count()`` every ``interval`` seconds."""
    assert callable(count)
    while True:
        with contextlib.suppress(Exception):
            OPEN_TABLES.set(count())
        await asyncio.sleep(interval)
