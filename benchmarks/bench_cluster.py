"""The cluster under load and under failure: ``cardtable serve --workers N`` on PostgreSQL and
Redis, many tables played at once over many websockets.

Each table seats one simulated person and one or two computer players (level easy, no pauses:
the tables play flat out), the three games in turn; the person's page holds ``--sockets``
websockets to the table (as several tabs and devices would), one of which plays. Connections
go through the one port, so the kernel spreads them over the workers: most tables have pages on
a worker that does not own them, and those views travel through the relay.

1. **Load** at 1 and 2 workers: actions per second (every stored move, people's and computer
   players', from the server's ``/metrics``) and the person's action-to-view latency: from
   sending an action to the moment every one of the table's sockets has the new view (median,
   99th percentile).
2. **Chaos** (``--only chaos``): 2 workers under the same load, a random worker killed
   (SIGKILL) every ``--kill-every`` seconds for ``--chaos-seconds``; uvicorn starts it again.
   Pages whose socket died connect again with back-off, as the browser page does. Reported:
   actions the person saw acknowledged (a state whose last move is theirs) but missing from the
   stored log; stored moves of the person that the person never sent for that move number
   (applied twice or made up); tables that made no progress in the 30 s after the last kill;
   and the longest time any table's pages waited for a view while the table was someone's to
   move (the time without an owner, at most).

Every process runs on this machine: the clients share its two cores with the server, so the
figures are a floor. Reproduce (PostgreSQL and Redis up, as ``make services`` leaves them)::

    .venv/bin/python -m benchmarks.bench_cluster --tables 200 --sockets 5 --seconds 40
    .venv/bin/python -m benchmarks.bench_cluster --only chaos --tables 200 --sockets 5
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
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from sqlalchemy import create_engine, text
from websockets.asyncio.client import ClientConnection, connect

from cardtable import storage
from cardtable.registry import get_engine

POSTGRES_URL = os.environ.get(
    "CARDTABLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
COOKIE = "cardtable_profile"
GAMES = [("indian-rummy", 2), ("indecision", 2), ("declaration-rummy", 3)]
RETRY_DELAYS = [0.25, 0.5, 1.0, 2.0]


def percentile(values: Sequence[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))]


# --- the server -----------------------------------------------------------------------------


@dataclass
class Cluster:
    port: int
    process: subprocess.Popen[bytes]

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
                if parent == self.process.pid and b"resource_tracker" not in command:
                    found.append(int(entry.name))
        return found

    def actions(self) -> float:
        body = httpx.get(f"{self.url}/metrics", timeout=10).text
        return sum(
            float(value)
            for value in re.findall(r"^cardtable_actions_total\{[^}]*\} (\S+)$", body, re.M)
        )


def start_cluster(workers: int, database_url: str, log: Path) -> Cluster:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    environment = {
        **os.environ,
        "CARDTABLE_BOT_DELAY_SCALE": "0",
        "CARDTABLE_RATE_LIMITS": "false",
        "CARDTABLE_BOT_PROCESSES": "0",
        "CARDTABLE_MAX_SOCKETS_PER_PROFILE": "50",
        "CARDTABLE_MAX_UNFINISHED_TABLES": "1000",
    }
    command = [str(Path(sys.executable).parent / "cardtable"), "serve", "--port", str(port)]
    command += ["--workers", str(workers), "--database-url", database_url, "--redis-url", REDIS_URL]
    process = subprocess.Popen(
        command, env=environment, stdout=log.open("wb"), stderr=subprocess.STDOUT
    )
    cluster = Cluster(port, process)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with suppress(httpx.HTTPError):
            ready = httpx.get(f"{cluster.url}/readyz", timeout=2).status_code == 200
            started = log.read_text().count("Application startup complete")
            if ready and started >= workers:
                return cluster
        time.sleep(0.3)
    raise RuntimeError(f"the cluster did not start:\n{log.read_text()}")


def stop_cluster(cluster: Cluster) -> None:
    cluster.process.send_signal(signal.SIGINT)
    try:
        cluster.process.wait(30)
    except subprocess.TimeoutExpired:
        cluster.process.kill()
        cluster.process.wait(10)


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
    last_new: float = field(default_factory=time.perf_counter)

    async def run(self, clock: dict[str, float], seat: list[int]) -> None:
        attempt = 0
        while time.perf_counter() < clock["stop"]:
            try:
                async with connect(
                    self.url, additional_headers=self.headers, open_timeout=10
                ) as ws:
                    self.ws = ws
                    attempt = 0
                    while time.perf_counter() < clock["stop"]:
                        try:
                            left = clock["stop"] - time.perf_counter()
                            raw = await asyncio.wait_for(ws.recv(), min(5.0, max(0.1, left)))
                        except TimeoutError:
                            continue
                        message = json.loads(raw)
                        if message["type"] != "state":
                            continue
                        version = message["version"]
                        now = time.perf_counter()
                        if version not in self.seen_at:
                            self.seen_at[version] = now
                        last = message.get("last_action")
                        if last is not None and seat and last["seat"] == seat[0]:
                            self.acks[version - 1] = last["action"]
                        if self.state is None or version >= self.state["version"]:
                            if self.state is None or version > self.state["version"]:
                                self.last_new = now
                            self.state = message
                        self.changed.set()
            except Exception:
                pass
            self.ws = None
            await asyncio.sleep(RETRY_DELAYS[min(attempt, len(RETRY_DELAYS) - 1)])
            attempt += 1


@dataclass
class TableRun:
    table_id: str
    seat: int
    sent: dict[int, str] = field(default_factory=dict)
    acked: dict[int, str] = field(default_factory=dict)


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


async def person(
    base: str, index: int, sockets: int, clock: dict[str, float], out: dict[str, Any]
) -> None:
    rng = random.Random(index)
    game, players = GAMES[index % len(GAMES)]
    async with httpx.AsyncClient(base_url=base, headers={"Origin": base}, timeout=30) as http:
        await retrying(lambda: http.post("/api/profile"), clock)
        headers = {"Cookie": f"{COOKIE}={http.cookies[COOKIE]}", "Origin": base}
        counted = False
        while time.perf_counter() < clock["stop"]:
            spec = {
                "game": game,
                "seats": [{"kind": "human"}] + [{"kind": "bot", "level": "easy"}] * (players - 1),
            }
            created = await retrying(functools.partial(http.post, "/api/tables", json=spec), clock)
            table = TableRun(created.json()["table_id"], created.json()["seat"])
            out["tables"].append(table)
            url = base.replace("http", "ws") + f"/ws/tables/{table.table_id}"
            pages = [Page(url, headers) for _ in range(sockets)]
            seat = [table.seat]
            readers = [asyncio.create_task(page.run(clock, seat)) for page in pages]
            player = pages[0]
            try:
                while not counted and not all(page.state is not None for page in pages):
                    await asyncio.sleep(0.05)
                if not counted:
                    counted = True
                    out["ready"] += 1
                    while clock["start"] == float("inf"):  # everyone starts playing together
                        await asyncio.sleep(0.1)
                while time.perf_counter() < clock["stop"]:
                    state = player.state
                    if state is not None and state["result"] is not None:
                        break
                    if (
                        state is None
                        or state["to_move"] != table.seat
                        or not state["legal"]
                        or player.ws is None
                    ):
                        player.changed.clear()
                        with suppress(TimeoutError):
                            await asyncio.wait_for(player.changed.wait(), 1.0)
                        continue
                    version = state["version"]
                    action = rng.choice(state["legal"])
                    sent = time.perf_counter()
                    try:
                        await player.ws.send(
                            json.dumps({"type": "action", "version": version, "action": action})
                        )
                    except Exception:
                        continue
                    table.sent[version] = action
                    while time.perf_counter() < clock["stop"]:
                        if all(max(page.seen_at, default=-1) > version for page in pages):
                            break
                        player.changed.clear()
                        with suppress(TimeoutError):
                            await asyncio.wait_for(player.changed.wait(), 0.05)
                        # Refused, or lost with its process: give up on it after a while.
                        if time.perf_counter() - sent > 15:
                            break
                    else:
                        break
                    arrivals = [page.seen_at.get(version + 1) for page in pages]
                    if all(arrivals) and clock["start"] <= sent <= clock["stop"]:
                        out["latency"].append(max(a for a in arrivals if a) - sent)
                    wait = (
                        max(
                            page.seen_at.get(version + 1, time.perf_counter()) for page in pages[:1]
                        )
                        - sent
                    )
                    out["waits"].append((sent, wait))
            finally:
                for page in pages:
                    for version, notation in page.acks.items():
                        table.acked[version] = notation
                    out["progress"].setdefault(table.table_id, page.last_new)
                    out["progress"][table.table_id] = max(
                        out["progress"][table.table_id], page.last_new
                    )
                for reader in readers:
                    reader.cancel()
                await asyncio.gather(*readers, return_exceptions=True)


def client_process(
    base: str, tables: int, sockets: int, seconds: float, ready: Any, queue: Any
) -> None:
    """The simulated people: every table set up and playing, then ``ready`` is set and the
    measured ``seconds`` begin."""

    async def main() -> dict[str, Any]:
        out: dict[str, Any] = {
            "tables": [],
            "latency": [],
            "waits": [],
            "progress": {},
            "ready": 0,
        }
        clock = {"start": float("inf"), "stop": float("inf")}

        async def start_when_ready() -> None:
            deadline = time.perf_counter() + 300  # a table that cannot be set up is left out
            while out["ready"] < tables and time.perf_counter() < deadline:
                await asyncio.sleep(0.1)
            clock["start"] = time.perf_counter()
            clock["stop"] = clock["start"] + seconds
            ready.set()

        await asyncio.gather(
            start_when_ready(),
            *(person(base, index, sockets, clock, out) for index in range(tables)),
            return_exceptions=True,
        )
        return {
            "latency": out["latency"],
            "tables": [(t.table_id, t.seat, t.sent, t.acked) for t in out["tables"]],
            "progress": {k: v - clock["stop"] for k, v in out["progress"].items()},
            "waits": [(s - clock["start"], w) for s, w in out["waits"]],
        }

    queue.put(asyncio.run(main()))


def run_clients(
    base: str, tables: int, sockets: int, seconds: float
) -> tuple[multiprocessing.Process, Any, Any]:
    """Start the people's process; it, the event set when the measured time begins, and the
    queue of its results."""
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    ready = context.Event()
    process = context.Process(
        target=client_process, args=(base, tables, sockets, seconds, ready, results), daemon=True
    )
    process.start()
    return process, ready, results


# --- the runs ---------------------------------------------------------------------------------


def fresh_database() -> tuple[str, str]:
    schema = f"cardtable_bench_{secrets.token_hex(5)}"
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
    engine.dispose()
    return f"{POSTGRES_URL}?options=-csearch_path%3D{schema}", schema


def drop_database(schema: str) -> None:
    engine = create_engine(POSTGRES_URL)
    with engine.begin() as connection:
        connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
    engine.dispose()


def load(workers: int, tables: int, sockets: int, seconds: float, log: Path) -> dict[str, Any]:
    url, schema = fresh_database()
    cluster = start_cluster(workers, url, log)
    try:
        process, ready, results = run_clients(cluster.url, tables, sockets, seconds)
        if not ready.wait(600):
            raise RuntimeError("the tables were not all set up in 10 minutes")
        before = cluster.actions()
        time.sleep(seconds)
        after = cluster.actions()
        result = results.get(timeout=300)
        process.join(60)
    finally:
        stop_cluster(cluster)
        drop_database(schema)
    latency = result["latency"]
    return {
        "workers": workers,
        "actions_per_second": (after - before) / seconds,
        "median_ms": statistics.median(latency) * 1000,
        "p99_ms": percentile(latency, 0.99) * 1000,
        "measured": len(latency),
    }


def chaos(
    tables: int, sockets: int, seconds: float, kill_every: float, log: Path
) -> dict[str, Any]:
    url, schema = fresh_database()
    cluster = start_cluster(2, url, log)
    tail = 30.0
    rng = random.Random(14)
    kills: list[float] = []
    try:
        process, ready, results = run_clients(cluster.url, tables, sockets, seconds + tail)
        if not ready.wait(600):
            raise RuntimeError("the tables were not all set up in 10 minutes")
        began = time.monotonic()
        while time.monotonic() - began + kill_every <= seconds:
            time.sleep(kill_every)
            workers = cluster.workers()
            if workers:
                victim = rng.choice(workers)
                os.kill(victim, signal.SIGKILL)
                kills.append(time.monotonic() - began)
        time.sleep(max(0.0, seconds - (time.monotonic() - began)))
        result = results.get(timeout=600)
        process.join(60)
        db = storage.Database(url)
        lost = twice = 0
        for table_id, seat, sent, acked in result["tables"]:
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
                mine = sent.get(index)
                if mine is None or engine.parse_action(mine) != engine.parse_action(notation):
                    twice += 1
        db.close()
    finally:
        stop_cluster(cluster)
        drop_database(schema)
    stalled = [table for table, last in result["progress"].items() if last < -tail]
    waits = [wait for at, wait in result["waits"] if 0 <= at <= seconds + tail]
    return {
        "kills": len(kills),
        "acknowledged_lost": lost,
        "applied_twice": twice,
        "not_recovered": len(stalled),
        "longest_wait_s": max(waits) if waits else 0.0,
        "tables": len(result["tables"]),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", choices=("load", "chaos"))
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--sockets", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=40.0)
    parser.add_argument("--chaos-seconds", type=float, default=120.0)
    parser.add_argument("--kill-every", type=float, default=15.0)
    parser.add_argument("--log", type=Path, default=Path("bench_cluster.log"))
    args = parser.parse_args()
    sockets = args.tables * args.sockets
    print(f"{args.tables} tables, {sockets} websockets; load {os.getloadavg()[0]:.2f}")
    if args.only in (None, "load"):
        rows = [
            load(int(w), args.tables, args.sockets, args.seconds, args.log)
            for w in args.workers.split(",")
        ]
        for row in rows:
            print(
                f"  {row['workers']} worker(s): {row['actions_per_second']:7.1f} actions/s, "
                f"action to every socket's view median {row['median_ms']:6.1f} ms, "
                f"p99 {row['p99_ms']:7.1f} ms ({row['measured']} actions)"
            )
        if len(rows) == 2:
            ratio = rows[1]["actions_per_second"] / rows[0]["actions_per_second"]
            print(f"  ratio 2 workers / 1 worker: {ratio:.2f}")
    if args.only in (None, "chaos"):
        result = chaos(args.tables, args.sockets, args.chaos_seconds, args.kill_every, args.log)
        print(
            f"  chaos: {result['kills']} workers killed over {args.chaos_seconds:.0f} s, "
            f"{result['tables']} tables: acknowledged and lost {result['acknowledged_lost']}, "
            f"applied twice {result['applied_twice']}, not recovered {result['not_recovered']}, "
            f"longest wait for a view {result['longest_wait_s']:.1f} s"
        )


if __name__ == "__main__":
    main()
