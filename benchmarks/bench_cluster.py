"""The cluster under load and under failure: ``cardtable serve --workers N`` on PostgreSQL and
Redis, many tables played at once over many websockets.

Each table seats one simulated person and one or two computer players (level easy, no pauses:
the tables play flat out), the three games in turn; the person's page holds ``--sockets``
websockets to the table (as several tabs and devices would), one of which plays. Connections
go through the one port, so the kernel spreads them over the workers: most tables have pages on
a worker that does not own them, and those views travel through the relay. The simulated people
run in ``--client-processes`` processes of their own (asyncio, one event loop each), apart from
the server; every figure comes with the CPU the clients, the server's workers and the whole
machine used meanwhile, and the load average.

1. **Load** at 1 and 2 workers: actions per second (every stored move, people's and computer
   players', from the server's ``/metrics``) and the person's action-to-view latency: from
   sending an action to the moment every one of the table's sockets has the new view (median,
   99th percentile); the event loop's lag in the workers (``cardtable_event_loop_lag_seconds``,
   sampled by each worker every second) and the computer players' thinking time meanwhile;
   **moves per second of worker CPU**: every stored move over the CPU the workers used less
   what the computer players' choices took (``cardtable_bot_thinking_cpu_seconds_total``, the
   CPU time of the threads that chose), the thinking stated apart.
2. **Chaos** (``--only chaos``): 2 workers under the same load, a random worker killed
   (SIGKILL) every ``--kill-every`` seconds for ``--chaos-seconds``; uvicorn starts it again.
   Pages whose socket died connect again with back-off, as the browser page does, and send
   their move again if the table still waits for it. The figures come from the server's side:
   just before each kill the benchmark reads which tables the victim holds the Redis lease of;
   from the kill on it watches those leases (every 50 ms) and the tables' stored move counts
   (every 200 ms). Reported: actions the person saw acknowledged (a state whose last move is
   theirs) but missing from the stored log; stored moves of the person that the person never
   sent for that move number (applied twice or made up); tables that did not recover (still
   unfinished at the end and without a stored move since the kill); the time from the kill to
   the table's lease being taken by another process (its time without an owner) and to the
   first move stored by the new owner, as distributions over every table of every kill;
   and, from the pages' side (their clock is the same monotonic clock), how long after the new
   lease the playing page had the table again, and how long the move then took to be stored.

3. **Takeover** (``--only takeover``): three single-process servers, ``--tables`` quiet tables
   owned by the first, each with a page on each of the two others (both relayed). The owner is
   killed; one of the others takes each table over. Reported: how much later the page on the
   third process has the table again than the page on the new owner (the time its process
   takes to learn of the new owner), per table.

Every process runs on this machine: the clients share its two cores with the server, so the
figures are a floor. Reproduce (PostgreSQL and Redis up, as ``make services`` leaves them)::

    .venv/bin/python -m benchmarks.bench_cluster --only load --tables 200 --sockets 5
    .venv/bin/python -m benchmarks.bench_cluster --only chaos --tables 200 --sockets 5
    .venv/bin/python -m benchmarks.bench_cluster --only takeover --tables 40
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import multiprocessing
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import redis
from prometheus_client.multiprocess import MultiProcessCollector
from sqlalchemy import bindparam, create_engine, text
from websockets.asyncio.client import ClientConnection, connect

from cardtable import storage
from cardtable.games.contract import TERMINAL
from cardtable.registry import get_engine
from cardtable.server.protocol.state_frames import apply_patch

POSTGRES_URL = os.environ.get(
    "CARDTABLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
METRICS_TOKEN = "bench-metrics-token-0123"
COOKIE = "cardtable_profile"
GAMES = [("indian-rummy", 2), ("indecision", 2), ("declaration-rummy", 3)]
RETRY_DELAYS = [0.25, 0.5, 1.0, 2.0]
SETUPS_AT_ONCE = 20
"""Tables one client process sets up at a time (all at once, the first requests time out on a
busy machine and the setup takes longer)."""
TICKS = os.sysconf("SC_CLK_TCK")
KEEP_SCHEMA = False
"""Leave each run's PostgreSQL schema in place, to look into its tables afterwards."""


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


def load_average() -> float:
    return os.getloadavg()[0]


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) a process has used, 0 if it is gone."""
    with suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    return 0.0


def machine_cpu() -> tuple[float, float]:
    """Busy and total CPU seconds of the whole machine (all cores) since boot."""
    numbers = [int(n) for n in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = numbers[3] + numbers[4]  # idle, iowait
    return (sum(numbers[:8]) - idle) / TICKS, sum(numbers[:8]) / TICKS


# --- the server -----------------------------------------------------------------------------


@dataclass
class Cluster:
    port: int
    process: subprocess.Popen[bytes]
    worker_count: int = 1
    metrics_dir: Path | None = None
    """The workers' prometheus files (``PROMETHEUS_MULTIPROC_DIR``), the benchmark's own."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def workers(self) -> list[int]:
        """Process ids of the uvicorn workers (children running the app)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            with suppress(OSError):
                stat = (entry / "stat").read_text()
                parent = int(stat.rsplit(")", 1)[1].split()[1])
                command = (entry / "cmdline").read_bytes()
                # A killed worker stays a zombie until uvicorn reaps it: not a worker.
                state = stat.rsplit(")", 1)[1].split()[0]
                if (
                    parent == self.process.pid
                    and state != "Z"
                    and b"resource_tracker" not in command
                ):
                    found.append(int(entry.name))
        return found

    def cpu(self) -> float:
        """CPU seconds of the supervisor and its live workers."""
        return process_cpu(self.process.pid) + self.worker_cpu()

    def worker_cpu(self) -> float:
        """CPU seconds of the processes serving the app: the live workers, or with one worker
        the server's own process (uvicorn runs a single worker in place); not their worker
        processes (the analysis of finished hands runs in one of its own)."""
        if self.worker_count == 1:
            return process_cpu(self.process.pid)
        return sum(process_cpu(pid) for pid in self.workers())

    def metrics(self) -> dict[str, float]:
        """Every sample of ``/metrics``, by name with its labels."""
        body = httpx.get(
            f"{self.url}/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"}, timeout=30
        ).text
        samples = {}
        for line in body.splitlines():
            if line and not line.startswith("#"):
                name, value = line.rsplit(" ", 1)
                samples[name] = float(value)
        return samples

    def worker_files(self) -> dict[str, dict[str, float]]:
        """Every counter and histogram sample of each worker's own file, read from the disk (a
        killed worker's too: its writes went to a shared memory map, which outlives it), by
        file and then by name with its labels as ``/metrics`` writes them. A file that cannot
        be read just now (a worker starting writes its first page) is left out of this read."""
        assert self.metrics_dir is not None
        files: dict[str, dict[str, float]] = {}
        for path in sorted(self.metrics_dir.glob("*.db")):
            if not path.name.startswith(("counter_", "histogram_")):
                continue  # the gauges go up and down; /metrics sums the live ones
            try:
                metrics = MultiProcessCollector.merge([str(path)], accumulate=True)  # type: ignore[no-untyped-call]
            except Exception:  # half written (a worker starting): read again next time
                continue
            samples: dict[str, float] = {}
            for metric in metrics:
                for sample in metric.samples:
                    labels = ",".join(f'{k}="{v}"' for k, v in sample.labels.items())
                    samples[f"{sample.name}{{{labels}}}" if labels else sample.name] = sample.value
            files[path.name] = samples
        return files

    def counters(self) -> dict[str, float]:
        """The counters and histograms summed over every worker that ever ran, read from their
        files (:meth:`worker_files`), whichever worker would have answered ``/metrics``."""
        summed: dict[str, float] = {}
        for samples in self.worker_files().values():
            for key, value in samples.items():
                summed[key] = summed.get(key, 0.0) + value
        return summed


def total(samples: dict[str, float], name: str) -> float:
    """The sum of a metric over its labels."""
    return sum(v for k, v in samples.items() if k == name or k.startswith(name + "{"))


def histogram(before: dict[str, float], after: dict[str, float], name: str) -> dict[str, Any]:
    """What a histogram recorded between two scrapes (summed over its other labels): the
    number of samples, their mean, and the cumulative count at each bucket bound."""
    buckets: dict[float, float] = {}
    for key, value in after.items():
        match = re.match(rf'^{name}_bucket\{{(?:.*,)?le="([^"]+)"', key)
        if match:
            bound = float(match.group(1))
            buckets[bound] = buckets.get(bound, 0.0) + value - before.get(key, 0.0)
    count = total(after, f"{name}_count") - total(before, f"{name}_count")
    summed = total(after, f"{name}_sum") - total(before, f"{name}_sum")
    return {
        "count": count,
        "mean": summed / count if count else 0.0,
        "buckets": sorted(buckets.items()),
    }


def bucket_quantile(recorded: dict[str, Any], fraction: float) -> float:
    """The upper bound of the bucket holding the ``fraction`` quantile."""
    for bound, cumulative in recorded["buckets"]:
        if recorded["count"] and cumulative >= fraction * recorded["count"]:
            return float(bound)
    return float("inf")


def share_above(recorded: dict[str, Any], bound: float) -> float:
    """The share of samples above a bucket bound."""
    below = dict(recorded["buckets"]).get(bound, 0.0)
    return 1 - below / recorded["count"] if recorded["count"] else 0.0


def start_cluster(workers: int, database_url: str, log: Path) -> Cluster:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # The workers' metrics files in a directory of the benchmark's own, which it reads itself
    # (``cardtable serve`` makes one only when none is given).
    metrics_dir = Path(tempfile.mkdtemp(prefix="bench-cluster-metrics-"))
    # Limits raised for the benchmark only: its people play flat out, each with one profile
    # holding several sockets and starting table after table.
    environment = {
        **os.environ,
        "CARDTABLE_BOT_DELAY_SCALE": "0",
        "CARDTABLE_RATE_LIMITS": "false",
        "CARDTABLE_BOT_PROCESSES": "0",
        "CARDTABLE_MAX_SOCKETS_PER_PROFILE": "50",
        "CARDTABLE_MAX_UNFINISHED_TABLES": "1000",
        "CARDTABLE_METRICS_TOKEN": METRICS_TOKEN,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    command = [str(Path(sys.executable).parent / "cardtable"), "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--database-url", database_url, "--redis-url", REDIS_URL]
    # A process group of its own: stopping it stops the workers and their children too (a
    # killed worker's children outlive it otherwise).
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, env=environment, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    cluster = Cluster(port, process, workers, metrics_dir)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with suppress(httpx.HTTPError):
            ready = httpx.get(f"{cluster.url}/readyz", timeout=2).status_code == 200
            started = log.read_text().count("Application startup complete")
            if ready and started >= workers:
                return cluster
        time.sleep(0.3)
    stop_cluster(cluster)
    raise RuntimeError(f"the cluster did not start:\n{log.read_text()}")


def stop_cluster(cluster: Cluster) -> None:
    cluster.process.send_signal(signal.SIGINT)
    try:
        cluster.process.wait(30)
    except subprocess.TimeoutExpired:
        cluster.process.kill()
        cluster.process.wait(10)
    with suppress(ProcessLookupError):  # whatever is left in its group
        os.killpg(cluster.process.pid, signal.SIGKILL)
    if cluster.metrics_dir is not None:
        shutil.rmtree(cluster.metrics_dir, ignore_errors=True)


# --- the simulated people -------------------------------------------------------------------


@dataclass
class Page:
    """One websocket of a person's page, connecting again after a drop."""

    url: str
    headers: dict[str, str]
    state: dict[str, Any] | None = None
    seen_at: dict[int, float] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    ws: ClientConnection | None = None
    acks: dict[int, str] = field(default_factory=dict)
    connects: int = 0
    states: int = 0
    """State messages received (the server sends the table again after a reconnection or a
    takeover)."""
    errors: int = 0
    """Error messages received (a move refused: stale, or the table's owner unreachable)."""
    states_at: list[tuple[float, int, int]] = field(default_factory=list)
    """Every state received: when (``perf_counter``, the system's monotonic clock, which the
    chaos run's ``monotonic`` readings share), its version, and who was to move."""

    async def run(self, clock: dict[str, float], seat: list[int]) -> None:
        attempt = 0
        while time.perf_counter() < clock["stop"]:
            try:
                async with connect(
                    self.url, additional_headers=self.headers, open_timeout=30
                ) as ws:
                    self.ws = ws
                    self.connects += 1
                    attempt = 0
                    held: dict[str, Any] | None = None  # the whole state patches apply to
                    while time.perf_counter() < clock["stop"]:
                        try:
                            left = clock["stop"] - time.perf_counter()
                            raw = await asyncio.wait_for(ws.recv(), min(5.0, max(0.1, left)))
                        except TimeoutError:
                            continue
                        message = json.loads(raw)
                        now = time.perf_counter()
                        if message["type"] == "patch":  # as the page: merged, or reconnect
                            if held is None or held["version"] != message["base"]:
                                raise ConnectionError("a patch out of step")
                            message = apply_patch(held, message)
                        elif message["type"] == "room" and held is not None:
                            held = {**held, "room": message["room"]}
                        if message["type"] == "state":
                            held = message
                        if message["type"] == "error":
                            self.errors += 1
                            self.changed.set()
                        if message["type"] != "state":
                            continue
                        self.states += 1
                        version = message["version"]
                        self.states_at.append((now, version, message["to_move"]))
                        if version not in self.seen_at:
                            self.seen_at[version] = now
                        last = message.get("last_action")
                        if last is not None and seat and last["seat"] == seat[0]:
                            self.acks[version - 1] = last["action"]
                        if self.state is None or version >= self.state["version"]:
                            self.state = message
                        self.changed.set()
            except Exception:
                pass
            self.ws = None
            self.changed.set()
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1


@dataclass
class TableRun:
    table_id: str
    seat: int
    sent: dict[int, list[str]] = field(default_factory=dict)
    """The moves sent for each move number (a move sent again after a reconnection counts
    once per sending)."""
    acked: dict[int, str] = field(default_factory=dict)
    ended: str = ""
    sent_at: list[tuple[float, int]] = field(default_factory=list)
    """When each move was sent (``perf_counter``), and its move number."""
    states_at: list[tuple[float, int, int]] = field(default_factory=list)
    """The playing page's states (see :attr:`Page.states_at`)."""
    """Why the person stopped playing: the game's result, the time, or an error."""


async def retrying(call: Any, clock: dict[str, float]) -> Any:
    attempt = 0
    while True:
        try:
            response = await call()
            if response.status_code < 500:
                response.raise_for_status()
                return response
        except httpx.HTTPError:
            if time.perf_counter() > clock["stop"]:
                raise
        await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
        attempt += 1


async def play(
    table: TableRun,
    pages: list[Page],
    rng: random.Random,
    clock: dict[str, float],
    out: dict[str, Any],
) -> None:
    """The person plays the table until it ends or the time is up."""
    player = pages[0]
    while time.perf_counter() < clock["stop"]:
        state = player.state
        if state is not None and state["result"] is not None:
            return
        if state is None or state["to_move"] != table.seat or not state["legal"] or not player.ws:
            player.changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(player.changed.wait(), 1.0)
            continue
        version = state["version"]
        earlier = table.sent.get(version, [])
        action = earlier[-1] if earlier and earlier[-1] in state["legal"] else None
        action = action if action is not None else rng.choice(state["legal"])
        states, errors = player.states, player.errors
        sent = time.perf_counter()
        try:
            await player.ws.send(
                json.dumps({"type": "action", "version": version, "action": action})
            )
        except Exception:  # the socket is closing: wait for the page to connect again
            player.changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(player.changed.wait(), 0.25)
            continue
        table.sent.setdefault(version, []).append(action)
        table.sent_at.append((sent, version))
        answered = False
        while time.perf_counter() < clock["stop"]:
            if all(max(page.seen_at, default=-1) > version for page in pages):
                answered = True
                break
            player.changed.clear()
            with suppress(TimeoutError):
                await asyncio.wait_for(player.changed.wait(), 0.05)
            again = (player.states, player.errors) != (states, errors)
            if again and player.state is not None and player.state["version"] == version:
                # The move was refused (the page shows why), or the table was sent again
                # unchanged (the socket came back, or another process took the table over):
                # the person, still to move, moves again (refused as stale if the first one
                # was applied after all).
                if player.errors != errors:
                    await asyncio.sleep(0.25)  # reading the message
                break
            if time.perf_counter() - sent > 15:  # refused: look at the table again
                break
        if answered and clock["start"] <= sent <= clock["stop"]:
            arrivals = [page.seen_at[version + 1] for page in pages if version + 1 in page.seen_at]
            if len(arrivals) == len(pages):
                out["latency"].append(max(arrivals) - sent)


async def person(
    base: str,
    index: int,
    sockets: int,
    clock: dict[str, float],
    setups: asyncio.Semaphore,
    out: dict[str, Any],
) -> None:
    rng = random.Random(index)
    game, players = GAMES[index % len(GAMES)]
    async with httpx.AsyncClient(base_url=base, headers={"Origin": base}, timeout=60) as http:
        counted = False
        async with setups:
            await retrying(lambda: http.post("/api/profile"), clock)
        headers = {"Cookie": f"{COOKIE}={http.cookies[COOKIE]}", "Origin": base}
        while time.perf_counter() < clock["stop"]:
            spec = {
                "game": game,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1),
            }
            async with setups if not counted else _nothing():
                created = await retrying(
                    functools.partial(http.post, "/api/tables", json=spec), clock
                )
                table = TableRun(created.json()["table_id"], created.json()["seat"])
                out["tables"].append(table)
                # The pages ask for patches, as the browser's page does.
                url = base.replace("http", "ws") + f"/ws/tables/{table.table_id}?patches=1"
                pages = [Page(url, headers) for _ in range(sockets)]
                readers = [asyncio.create_task(page.run(clock, [table.seat])) for page in pages]
                while not counted and not all(page.state is not None for page in pages):
                    await asyncio.sleep(0.05)
            try:
                if not counted:
                    counted = True
                    out["ready"] += 1
                    while clock["start"] == float("inf"):  # everyone starts playing together
                        await asyncio.sleep(0.05)
                await play(table, pages, rng, clock, out)
                state = pages[0].state
                table.ended = (
                    "time" if state is None or state["result"] is None else "result"
                ) + f" at version {None if state is None else state['version']}"
            except Exception as exc:
                table.ended = f"error: {exc!r}"
                raise
            finally:
                table.states_at = pages[0].states_at
                for page in pages:
                    table.acked.update(page.acks)
                    out["reconnects"] += max(0, page.connects - 1)
                for reader in readers:
                    reader.cancel()
                await asyncio.gather(*readers, return_exceptions=True)


class _nothing:
    async def __aenter__(self) -> None:
        return None

    async def __aexit__(self, *_: object) -> None:
        return None


def client_process(
    base: str, indices: list[int], sockets: int, seconds: float, ready: Any, go: Any, queue: Any
) -> None:
    """Some of the simulated people: every table set up and playing, then ``ready`` is set;
    the measured ``seconds`` begin when ``go`` is."""

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {"tables": [], "latency": [], "ready": 0, "reconnects": 0}
        clock = {"start": float("inf"), "stop": float("inf")}
        cpu = {"start": 0.0, "stop": 0.0}
        setups = asyncio.Semaphore(SETUPS_AT_ONCE)

        async def start_together() -> None:
            deadline = time.perf_counter() + 600  # a table that cannot be set up is left out
            while out["ready"] < len(indices) and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            ready.set()
            while not go.is_set():
                await asyncio.sleep(0.02)
            cpu["start"] = time.process_time()
            clock["start"] = time.perf_counter()
            clock["stop"] = clock["start"] + seconds
            await asyncio.sleep(seconds)
            cpu["stop"] = time.process_time()

        await asyncio.gather(
            start_together(),
            *(person(base, index, sockets, clock, setups, out) for index in indices),
            return_exceptions=True,
        )
        return {
            "latency": out["latency"],
            "tables": [(t.table_id, t.seat, t.sent, t.acked) for t in out["tables"]],
            "ended": {t.table_id: t.ended for t in out["tables"]},
            "timeline": {t.table_id: (t.seat, t.states_at, t.sent_at) for t in out["tables"]},
            "ready": out["ready"],
            "reconnects": out["reconnects"],
            "cpu": cpu["stop"] - cpu["start"],
        }

    queue.put(asyncio.run(main()))


@dataclass
class Clients:
    processes: list[Any]
    ready: list[Any]
    go: Any
    results: Any

    def wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        for event in self.ready:
            if not event.wait(max(0.0, deadline - time.monotonic())):
                raise RuntimeError(f"the tables were not all set up in {timeout:.0f} s")

    def collect(self, timeout: float) -> dict[str, Any]:
        parts = [self.results.get(timeout=timeout) for _ in self.processes]
        for process in self.processes:
            process.join(60)
        return {
            "latency": [x for part in parts for x in part["latency"]],
            "tables": [x for part in parts for x in part["tables"]],
            "ended": {k: v for part in parts for k, v in part["ended"].items()},
            "timeline": {k: v for part in parts for k, v in part["timeline"].items()},
            "ready": sum(part["ready"] for part in parts),
            "reconnects": sum(part["reconnects"] for part in parts),
            "cpu": sum(part["cpu"] for part in parts),
        }

    def stop(self) -> None:
        for process in self.processes:
            if process.is_alive():
                process.kill()


def run_clients(base: str, tables: int, sockets: int, seconds: float, processes: int) -> Clients:
    """Start the people's processes, each with its share of the tables."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    go = context.Event()
    started = []
    ready = []
    for part in range(processes):
        event = context.Event()
        indices = list(range(part, tables, processes))
        process = context.Process(
            target=client_process,
            args=(base, indices, sockets, seconds, event, go, results),
            daemon=True,
        )
        process.start()
        started.append(process)
        ready.append(event)
    return Clients(started, ready, go, results)


# --- the runs ---------------------------------------------------------------------------------


def fresh_database() -> tuple[str, str]:
    schema = f"cardtable_bench_{secrets.token_hex(5)}"
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return f"{POSTGRES_URL}?options=-csearch_path%3D{schema}", schema


def drop_database(schema: str) -> None:
    if KEEP_SCHEMA:
        print(f"  the run's tables are kept in the schema {schema}", flush=True)
        return
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


@dataclass
class Window:
    """CPU and load over a measured window."""

    seconds: float
    server: float
    machine: float
    load_start: float
    load_end: float = 0.0
    workers: float = 0.0
    """CPU of the workers alone, in cores (:attr:`server` adds the supervisor's)."""
    _started: float = 0.0
    _server: float = 0.0
    _machine: float = 0.0
    _workers: float = 0.0

    @classmethod
    def begin(cls, cluster: Cluster) -> Window:
        busy, _ = machine_cpu()
        window = cls(0.0, 0.0, 0.0, load_average())
        window._started, window._server, window._machine = time.monotonic(), cluster.cpu(), busy
        window._workers = cluster.worker_cpu()
        return window

    def end(self, cluster: Cluster) -> None:
        self.seconds = time.monotonic() - self._started
        self.server = (cluster.cpu() - self._server) / self.seconds
        self.workers = (cluster.worker_cpu() - self._workers) / self.seconds
        self.machine = (machine_cpu()[0] - self._machine) / self.seconds
        self.load_end = load_average()


def load(
    workers: int, tables: int, sockets: int, seconds: float, processes: int, log: Path
) -> dict[str, Any]:
    url, schema = fresh_database()
    cluster = start_cluster(workers, url, log)
    clients = None
    try:
        began = time.monotonic()
        clients = run_clients(cluster.url, tables, sockets, seconds, processes)
        clients.wait_ready(900)
        setup = time.monotonic() - began
        sockets_open = total(cluster.metrics(), "cardtable_connected_sockets")
        before = cluster.counters()
        window = Window.begin(cluster)
        clients.go.set()
        time.sleep(seconds)
        window.end(cluster)
        after = cluster.counters()
        result = clients.collect(300)
    finally:
        if clients is not None:
            clients.stop()
        stop_cluster(cluster)
        drop_database(schema)
    latency = result["latency"]
    return {
        "workers": workers,
        "setup_s": setup,
        "ready": result["ready"],
        "sockets_open": sockets_open,
        "actions_per_second": (
            total(after, "cardtable_actions_total") - total(before, "cardtable_actions_total")
        )
        / seconds,
        "person_actions_per_second": (
            after.get('cardtable_actions_total{kind="person"}', 0.0)
            - before.get('cardtable_actions_total{kind="person"}', 0.0)
        )
        / seconds,
        "median_ms": statistics.median(latency) * 1000,
        "p99_ms": percentile(latency, 0.99) * 1000,
        "measured": len(latency),
        "loop_lag": histogram(before, after, "cardtable_event_loop_lag_seconds"),
        # Cores the computer players' choices took in the workers' threads.
        "thinking_cores": (
            total(after, "cardtable_bot_thinking_cpu_seconds_total")
            - total(before, "cardtable_bot_thinking_cpu_seconds_total")
        )
        / seconds,
        "bot_thinking": histogram(before, after, "cardtable_bot_thinking_seconds"),
        "clients_cpu": result["cpu"] / seconds,
        "window": window,
    }


@dataclass
class Watch:
    """One table the killed worker held, watched from the kill on."""

    table_id: str
    holder: str
    killed_at: float
    moves: int
    owned_at: float | None = None
    moved_at: float | None = None


class Watcher:
    """Which tables each killed worker held, and when each got an owner and a move again."""

    def __init__(self, database_url: str) -> None:
        self.redis = redis.Redis.from_url(REDIS_URL, decode_responses=True)
        self.engine = create_engine(database_url)
        self.watches: list[Watch] = []
        self.finished_at_kill = 0
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def leases_of(self, pid: int) -> dict[str, str]:
        """The tables whose lease the worker ``pid`` holds, with its holder name."""
        keys = list(self.redis.scan_iter("cardtable:lease:*", count=1000))
        values = self.redis.mget(keys) if keys else []
        held = {}
        for key, value in zip(keys, values, strict=True):
            if value is not None and value.startswith(f"{pid}-"):
                held[key.rsplit(":", 1)[1]] = value.rsplit(":", 1)[0]
        return held

    def stored(self, table_ids: Sequence[str]) -> dict[str, tuple[int, str]]:
        """Each table's stored move count and status; "over" for a game whose stored log has
        ended (nobody is to move) while its status still says "playing" (the process that made
        the last move stopped before it stored the end)."""
        query = text(
            "SELECT id, moves, status, to_move FROM game_tables WHERE id IN :ids"
        ).bindparams(bindparam("ids", expanding=True))
        with self.engine.connect() as connection:
            rows = connection.execute(query, {"ids": list(table_ids)}).all()
        return {
            row[0]: (row[1], "over" if row[2] == "playing" and row[3] == TERMINAL else row[2])
            for row in rows
        }

    def kill(self, pid: int) -> None:
        """Kill a worker and watch the tables it held."""
        held = self.leases_of(pid)
        os.kill(pid, signal.SIGKILL)
        killed_at = time.monotonic()
        stored = self.stored(list(held)) if held else {}
        with self._lock:
            for table_id, holder in held.items():
                moves, status = stored.get(table_id, (0, "missing"))
                if status != "playing":
                    self.finished_at_kill += 1
                    continue
                self.watches.append(Watch(table_id, holder, killed_at, moves))

    def _run(self) -> None:
        polls = 0
        while not self._stop.wait(0.05):
            polls += 1
            with self._lock:
                unowned = [w for w in self.watches if w.owned_at is None]
                unmoved = [w for w in self.watches if w.moved_at is None]
            with suppress(redis.RedisError):
                if unowned:
                    values = self.redis.mget([f"cardtable:lease:{w.table_id}" for w in unowned])
                    now = time.monotonic()
                    for watch, value in zip(unowned, values, strict=True):
                        if value is not None and not value.startswith(watch.holder + ":"):
                            watch.owned_at = now
            if unmoved and polls % 4 == 0:
                with suppress(Exception):
                    stored = self.stored(sorted({w.table_id for w in unmoved}))
                    now = time.monotonic()
                    for watch in unmoved:
                        moves, status = stored[watch.table_id]
                        if moves > watch.moves or status != "playing":
                            watch.moved_at = now

    def close(self) -> dict[str, tuple[int, str]]:
        """Stop watching; every watched table's stored move count and status at the end."""
        self._stop.set()
        self._thread.join(10)
        final = self.stored(sorted({w.table_id for w in self.watches})) if self.watches else {}
        self.engine.dispose()
        self.redis.close()
        return final


def check_log(url: str, tables: list[Any]) -> tuple[int, int]:
    """Actions acknowledged and lost; moves of the person applied twice or never sent."""
    db = storage.Database(url)
    lost = twice = 0
    try:
        for table_id, seat, sent, acked in tables:
            stored = storage.load_table(db, table_id)
            log_moves = dict(enumerate(stored.actions)) if stored else {}
            for version in acked:
                move = log_moves.get(int(version))
                if move is None or move[0] != seat:
                    lost += 1
            engine = get_engine(stored.game) if stored else None
            for index, (mover, notation) in log_moves.items():
                if mover != seat or engine is None:
                    continue
                mine = [engine.parse_action(action) for action in sent.get(index, [])]
                if engine.parse_action(notation) not in mine:
                    twice += 1
    finally:
        db.close()
    return lost, twice


class MetricsSampler:
    """The workers' counters and histograms through a run in which workers are killed, read
    from each worker's own file every ``every`` seconds (:meth:`Cluster.worker_files`), not
    from ``/metrics``: the growth of each sample is added up file by file, from its value at
    the start (nothing, for a worker started since) to the largest value read.

    Summing file by file keeps a killed worker's counts (its file stays), does not depend on
    which worker answers ``/metrics`` or whether one answers at all (under the chaos run's load
    a read waited out its 30 s more than once), and never subtracts the gauges'
    legitimate falls (``/metrics`` drops a dead worker's sockets and tables). A counter in one
    file only grows; :attr:`falls` counts the reads in which one was lower than before
    (expected 0), and :attr:`vanished` the files that were read once and then gone (expected
    0: nothing deletes a counter file)."""

    def __init__(self, cluster: Cluster, every: float = 2.0) -> None:
        self.cluster = cluster
        self.falls = 0
        self.vanished = 0
        self._start = cluster.worker_files()
        self._high = {name: dict(samples) for name, samples in self._start.items()}
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._every = every
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        files = self.cluster.worker_files()
        with self._lock:
            self.vanished = len(set(self._high) - set(files))
            for name, samples in files.items():
                high = self._high.setdefault(name, {})
                for key, value in samples.items():
                    if value < high.get(key, 0.0):
                        self.falls += 1
                    else:
                        high[key] = value

    def _run(self) -> None:
        while not self._stop.wait(self._every):
            self._read()

    def close(self) -> dict[str, float]:
        """Stop reading (after one last read); the growth of every sample since the start,
        summed over the workers."""
        self._stop.set()
        self._thread.join(30)
        self._read()
        grown: dict[str, float] = {}
        with self._lock:
            for name, high in self._high.items():
                start = self._start.get(name, {})
                for key, value in high.items():
                    grown[key] = grown.get(key, 0.0) + value - start.get(key, 0.0)
        return grown


def stored_moves(database_url: str) -> int:
    """Every move stored in the run's schema (its tables are this run's alone)."""
    engine = create_engine(database_url)
    try:
        with engine.connect() as connection:
            return int(
                connection.execute(
                    text("SELECT COALESCE(SUM(moves), 0) FROM game_tables")
                ).scalar_one()
            )
    finally:
        engine.dispose()


def chaos(
    tables: int,
    sockets: int,
    seconds: float,
    kill_every: float,
    processes: int,
    log: Path,
) -> dict[str, Any]:
    url, schema = fresh_database()
    cluster = start_cluster(2, url, log)
    tail = 30.0
    rng = random.Random(14)
    kills = 0
    clients = None
    watcher = None
    sampler = None
    try:
        clients = run_clients(cluster.url, tables, sockets, seconds + tail, processes)
        clients.wait_ready(900)
        sampler = MetricsSampler(cluster)
        moves_before = stored_moves(url)
        load_start = load_average()
        clients.go.set()
        watcher = Watcher(url)
        began = time.monotonic()
        while time.monotonic() - began + kill_every <= seconds:
            time.sleep(max(0.0, began + (kills + 1) * kill_every - time.monotonic()))
            workers = cluster.workers()
            if workers:
                watcher.kill(rng.choice(workers))
                kills += 1
        time.sleep(max(0.0, seconds + tail - (time.monotonic() - began)))
        load_end = load_average()
        final = watcher.close()
        grown = sampler.close()
        moves_after = stored_moves(url)
        result = clients.collect(600)
        lost, twice = check_log(url, result["tables"])
    finally:
        if clients is not None:
            clients.stop()
        stop_cluster(cluster)
        drop_database(schema)
    watches = watcher.watches if watcher is not None else []
    after = after_takeover(watches, result["timeline"])
    unfinished = [w for w in watches if final.get(w.table_id, (0, "playing"))[1] == "playing"]
    not_recovered = sorted({w.table_id for w in unfinished if w.moved_at is None})
    owned = [w.owned_at - w.killed_at for w in watches if w.owned_at is not None]
    moved = [w.moved_at - w.killed_at for w in watches if w.moved_at is not None]
    settled = [
        w.moved_at - w.owned_at
        for w in watches
        if w.moved_at is not None and w.owned_at is not None and w.moved_at >= w.owned_at
    ]
    return {
        "kills": kills,
        "tables": len(result["tables"]),
        "watched": len(watches),
        "watched_tables": len({w.table_id for w in watches}),
        "finished_at_kill": watcher.finished_at_kill if watcher is not None else 0,
        "acknowledged_lost": lost,
        "applied_twice": twice,
        "not_recovered": [f"{t} ({result['ended'].get(t, '?')})" for t in not_recovered],
        "never_owned": len({w.table_id for w in unfinished if w.owned_at is None}),
        "over_unmarked": sum(1 for _moves, status in final.values() if status == "over"),
        "owned": owned,
        "moved": moved,
        "settled": settled,
        **after,
        "reconnects": result["reconnects"],
        # Moves from the stored log; the counters' too, as a check (a move stored twice, or a
        # counter missed, would show as a difference).
        "actions_per_second": (moves_after - moves_before) / (seconds + tail),
        "counted_actions_per_second": total(grown, "cardtable_actions_total") / (seconds + tail),
        "takeovers": total(grown, "cardtable_lease_takeovers_total"),
        "metrics_falls": sampler.falls if sampler is not None else 0,
        "metrics_vanished": sampler.vanished if sampler is not None else 0,
        "loop_lag": histogram({}, grown, "cardtable_event_loop_lag_seconds"),
        "clients_cpu": result["cpu"] / (seconds + tail),
        "load": (load_start, load_end),
    }


def takeover(tables: int, lease_seconds: float, log: Path) -> dict[str, Any]:
    """Three single-process servers; ``tables`` quiet tables (the person to move) owned by the
    first, each with one page on each of the two others (both relayed). The owner is killed;
    one of the others takes each table over, and the figure is how much later the page on the
    third process (relaying to the new owner) has the table again than the page on the new
    owner: that page waits for its process to learn of the new owner."""
    database_url, schema = fresh_database()
    ports = []
    for _ in range(3):
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            ports.append(probe.getsockname()[1])
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    environment = {
        **os.environ,
        "CARDTABLE_BOT_DELAY_SCALE": "0",
        "CARDTABLE_RATE_LIMITS": "false",
        "CARDTABLE_BOT_PROCESSES": "0",
        "CARDTABLE_LEASE_SECONDS": str(lease_seconds),
        "CARDTABLE_METRICS_TOKEN": METRICS_TOKEN,
        "CARDTABLE_ALLOWED_ORIGINS": ",".join(bases),
        "CARDTABLE_MAX_UNFINISHED_TABLES": "1000",
    }
    servers: list[subprocess.Popen[bytes]] = []
    try:
        with log.open("wb") as out:
            for port in ports:
                command = [str(Path(sys.executable).parent / "cardtable"), "serve"]
                command += ["--port", str(port), "--database-url", database_url]
                command += ["--redis-url", REDIS_URL]
                servers.append(
                    subprocess.Popen(
                        command,
                        env=environment,
                        stdout=out,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                    )
                )
        for base in bases:
            deadline = time.monotonic() + 120
            while True:
                with suppress(httpx.HTTPError):
                    if httpx.get(f"{base}/readyz", timeout=2).status_code == 200:
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{base} did not start:\n{log.read_text()}")
                time.sleep(0.3)
        lags = asyncio.run(_takeover_pages(bases, tables, servers[0]))
    finally:
        for server in servers:
            with suppress(ProcessLookupError):
                os.killpg(server.pid, signal.SIGKILL)
            server.wait(10)
        drop_database(schema)
    return {"lags": lags, "load": load_average()}


async def _takeover_pages(
    bases: list[str], tables: int, owner: subprocess.Popen[bytes]
) -> list[float]:
    async with httpx.AsyncClient(
        base_url=bases[0], headers={"Origin": bases[0]}, timeout=60
    ) as http:
        assert (await http.post("/api/profile")).status_code == 201
        spec = {
            "game": "indian-rummy",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        }
        table_ids = []
        for _ in range(tables):
            created = await http.post("/api/tables", json=spec)
            assert created.status_code == 201, created.text
            table_ids.append(created.json()["table_id"])
        cookie = f"{COOKIE}={http.cookies[COOKIE]}"
    pages: list[tuple[ClientConnection, ClientConnection]] = []
    for table_id in table_ids:
        pair = []
        for base in bases[1:]:
            url = base.replace("http", "ws") + f"/ws/tables/{table_id}"
            page = await connect(url, additional_headers={"Cookie": cookie, "Origin": base})
            while json.loads(await page.recv())["type"] != "state":
                pass
            pair.append(page)
        pages.append((pair[0], pair[1]))
    await asyncio.sleep(1.0)  # the proxies' views are all in

    async def back(page: ClientConnection) -> float:
        while True:
            if json.loads(await asyncio.wait_for(page.recv(), 60))["type"] == "state":
                return time.monotonic()

    os.killpg(owner.pid, signal.SIGKILL)
    times = await asyncio.gather(*(asyncio.gather(back(a), back(b)) for a, b in pages))
    for pair in pages:
        for page in pair:
            await page.close()
    return [abs(first - second) for first, second in times]


def after_takeover(watches: Sequence[Watch], timeline: dict[str, Any]) -> dict[str, list[float]]:
    """Where the time goes between a table's new lease and its first stored move: until the
    playing page has the table again (a state after the lease), then, when the person is to
    move, from their move sent to it stored, and when a computer player is, from that state
    to its move stored."""
    page: list[float] = []
    person: list[float] = []
    bot: list[float] = []
    for watch in watches:
        if watch.owned_at is None or watch.moved_at is None or watch.table_id not in timeline:
            continue
        seat, states_at, sent_at = timeline[watch.table_id]
        state = next((s for s in states_at if s[0] >= watch.owned_at), None)
        if state is None or state[0] > watch.moved_at:
            continue
        page.append(state[0] - watch.owned_at)
        if state[2] == seat:
            sent = next((t for t, _version in sent_at if t >= state[0]), None)
            if sent is not None and sent <= watch.moved_at:
                person.append(watch.moved_at - sent)
        else:
            bot.append(watch.moved_at - state[0])
    return {"page_back": page, "person_stored": person, "bot_stored": bot}


def spread(values: Sequence[float]) -> str:
    if not values:
        return "none"
    return (
        f"median {statistics.median(values):.2f} s, p90 {percentile(values, 0.9):.2f} s, "
        f"p99 {percentile(values, 0.99):.2f} s, max {max(values):.2f} s ({len(values)})"
    )


def lag_line(recorded: dict[str, Any]) -> str:
    return (
        f"event loop lag: {recorded['count']:.0f} samples, mean "
        f"{recorded['mean'] * 1000:.1f} ms, median <= "
        f"{bucket_quantile(recorded, 0.5) * 1000:.0f} ms, p99 <= "
        f"{bucket_quantile(recorded, 0.99) * 1000:.0f} ms, over 50 ms "
        f"{share_above(recorded, 0.05):.1%}, over 100 ms {share_above(recorded, 0.1):.1%}"
    )


def worker_line(row: dict[str, Any]) -> str:
    """Moves per second of worker CPU: every stored move over the workers' CPU less the
    computer players' thinking (its CPU time, counted in the threads that chose), and the
    thinking stated apart."""
    window = row["window"]
    serving = max(window.workers - row["thinking_cores"], 1e-9)
    return (
        f"moves per second of worker CPU, the computer players' thinking left out: "
        f"{row['actions_per_second'] / serving:.0f} (workers {window.workers:.2f} cores, "
        f"of which thinking {row['thinking_cores']:.2f}; with it "
        f"{row['actions_per_second'] / max(window.workers, 1e-9):.0f})"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("load", "chaos", "takeover"))
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--sockets", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--chaos-seconds", type=float, default=120.0)
    parser.add_argument("--kill-every", type=float, default=15.0)
    parser.add_argument("--client-processes", type=int, default=2)
    parser.add_argument("--log", type=Path, default=Path("bench_cluster.log"))
    parser.add_argument("--lease-seconds", type=float, default=5.0)
    parser.add_argument("--keep-schema", action="store_true")
    args = parser.parse_args()
    global KEEP_SCHEMA
    KEEP_SCHEMA = args.keep_schema
    sockets = args.tables * args.sockets
    print(
        f"{args.tables} tables, {sockets} websockets, clients in {args.client_processes} "
        f"process(es); load {load_average():.2f}",
        flush=True,
    )
    if args.only == "takeover":
        found = takeover(args.tables, args.lease_seconds, args.log)
        print(
            f"  takeover, lease {args.lease_seconds:g} s: the page relayed to the new owner "
            f"has the table again after the page on it by {spread(found['lags'])}; "
            f"load {found['load']:.2f}",
            flush=True,
        )
        return
    if args.only in (None, "load"):
        rows = []
        for workers in args.workers.split(","):
            row = load(
                int(workers),
                args.tables,
                args.sockets,
                args.seconds,
                args.client_processes,
                args.log,
            )
            rows.append(row)
            window = row["window"]
            thinking = row["bot_thinking"]
            print(
                f"  {row['workers']} worker(s): {row['actions_per_second']:7.1f} actions/s, "
                f"action to every socket's view median {row['median_ms']:6.1f} ms, "
                f"p99 {row['p99_ms']:7.1f} ms ({row['measured']} actions); "
                f"load {window.load_start:.2f} -> {window.load_end:.2f}\n"
                f"    {row['ready']} tables set up in {row['setup_s']:.0f} s, "
                f"{row['sockets_open']:.0f} sockets open at the start; CPU in cores: "
                f"server {window.server:.2f}, clients {row['clients_cpu']:.2f}, "
                f"whole machine {window.machine:.2f} of 2 "
                f"({row['actions_per_second'] / max(window.server, 1e-9):.0f} actions per "
                "second of server CPU)\n"
                f"    people's moves {row['person_actions_per_second']:.1f}/s, computer "
                f"players' {row['actions_per_second'] - row['person_actions_per_second']:.1f}/s\n"
                f"    {worker_line(row)}\n"
                f"    {lag_line(row['loop_lag'])}\n"
                f"    computer players: {thinking['count']:.0f} moves, mean thinking "
                f"{thinking['mean'] * 1000:.2f} ms, p99 <= "
                f"{bucket_quantile(thinking, 0.99) * 1000:.0f} ms",
                flush=True,
            )
        if len(rows) == 2:
            ratio = rows[1]["actions_per_second"] / rows[0]["actions_per_second"]
            print(f"  ratio 2 workers / 1 worker: {ratio:.2f}")
    if args.only in (None, "chaos"):
        result = chaos(
            args.tables,
            args.sockets,
            args.chaos_seconds,
            args.kill_every,
            args.client_processes,
            args.log,
        )
        print(
            f"  chaos: {result['kills']} workers killed over {args.chaos_seconds:.0f} s "
            f"(load {result['load'][0]:.2f} -> {result['load'][1]:.2f}), {result['tables']} "
            f"tables, {result['actions_per_second']:.1f} actions/s (the workers' counters: "
            f"{result['counted_actions_per_second']:.1f}), clients "
            f"{result['clients_cpu']:.2f} cores, {result['reconnects']} reconnections\n"
            f"    acknowledged and lost {result['acknowledged_lost']}, "
            f"applied twice {result['applied_twice']}, "
            f"not recovered {len(result['not_recovered'])} (never owned again "
            f"{result['never_owned']}) of {result['watched_tables']} tables unfinished at "
            f"their owner's death ({result['watched']} deaths of an owner; "
            f"{result['finished_at_kill']} finished ones left aside); "
            f"{result['takeovers']:.0f} lease takeovers counted by the server (a worker's "
            f"counter read lower than before {result['metrics_falls']} times, its file gone "
            f"{result['metrics_vanished']} times); "
            f"{result['over_unmarked']} games over in the stored log without their finished "
            "status stored\n"
            f"    kill to lease taken by another worker: {spread(result['owned'])}\n"
            f"    kill to the first move stored by the new owner: {spread(result['moved'])}\n"
            f"    lease taken to that first move: {spread(result['settled'])}\n"
            f"      of which, lease to the playing page's table again: "
            f"{spread(result['page_back'])}\n"
            f"      then the person's move, sent to stored: {spread(result['person_stored'])}\n"
            f"      or a computer player's, page's table to stored: "
            f"{spread(result['bot_stored'])}\n"
            f"    {lag_line(result['loop_lag'])}",
            flush=True,
        )
        if result["not_recovered"]:
            print(f"    not recovered: {', '.join(result['not_recovered'])}")


if __name__ == "__main__":
    main()
