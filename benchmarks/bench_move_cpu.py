"""CPU per move: our server beside the floor of its own stack, side by side in one run.

Each contender is a server process of its own (uvicorn on a loopback port, SQLite file in a
temporary directory); the simulated people and spectators run in this process (asyncio,
``websockets``). The figure is the server process's CPU time (its CPU clock, read by a thread
of its own, and its main thread's) over the measured window divided by the moves applied in it:
setting the tables up is not counted. The floor plays as many moves as ours did in the pass
before it (a ten-person Declaration Rummy game ends by itself when its stock runs out).

* **ours**: the real app (``create_app``, rate limits off, no computer players), people's
  tables made through ``POST /api/tables`` with ``shared``, joined through the invite, started
  by the host. Every person acts on each state that says it is their turn, at once, with a
  random legal move (never one that ends the deal or game: Indian Rummy's ``drop`` and
  ``declare``, Declaration Rummy's ``drop``, ``declare``, ``go out``, ``four sevens`` and tie
  proposals, unless nothing else is legal), with a client id as the page sends it.
* **floor**: a bare FastAPI + uvicorn app that does the least a table server must: for each
  move frame it checks the version, appends the move to SQLite in a writer thread with one
  commit, and sends each of the table's sockets a JSON state frame (``json.dumps``) padded to
  the mean state frame size ours sent in the same pass.

``--floor-frames ours``: the floor's frames carry, instead of ``x`` padding, the bytes of the
frames ours sent each socket in the pass before (the floor's own fields first, the rest of our
frame encoded once when the floor starts), so that permessage-deflate compresses the same text
for both: a check that the padding does not make the floor's compression cheaper than ours.

``--plain-frames``: a third contender, our server with each seat's message after a move
replaced by a frame of the floor's kind (version, seat to move, legal notations, padded to our
mean size), sent whole: everything else is ours (the frame read and parsed, the move checked,
applied and stored, the room, the sends). Its CPU beside ours is what building, patching and
encoding the seats' messages costs; beside the floor's, what the rest of our server costs.

``--floor-store postgres``: the floor of a cluster's worker instead, storing each move in
PostgreSQL (``psycopg``, in its writer thread) and publishing each move's frame on Redis
(``redis.asyncio``), as a worker does for the processes relaying its pages (PostgreSQL and
Redis up); the floor's moves per second of its CPU is printed (``1000 / ms``).

Scenarios: ``1x2`` one table of two people and a spectator, ``10x2`` ten such tables at once
(Indian Rummy, two players), ``1x10`` one Declaration Rummy table of ten people and a spectator.
Passes alternate ours, floor, ours, floor... so that the machine's load falls on both alike;
the figures are the medians over the passes, and the ratio is ours / floor. Also printed: our
mean state frame in bytes and the state bytes per move per socket (what one socket receives
per move on average, all frames of type ``state`` and ``patch``), and the CPU per move split by
thread: the event loop's (the main thread) and the others' (the database writer's). Our pages
ask for patches (``?patches=1``, as the browser's page does) unless ``--whole-states``.

Reproduce::

    .venv/bin/python -m benchmarks.bench_move_cpu
    .venv/bin/python -m benchmarks.bench_move_cpu --scenarios 1x2,10x2 --passes 3 --moves 400
    .venv/bin/python -m benchmarks.bench_move_cpu --passes 5 --moves 400 --plain-frames
    .venv/bin/python -m benchmarks.bench_move_cpu --passes 3 --moves 400 --floor-frames ours
    .venv/bin/python -m benchmarks.bench_move_cpu --passes 3 --moves 400 --time-broadcast

``--time-broadcast`` times our server's broadcasts after moves by part (the whole, the seats'
messages built, their patches, the sends), on the event loop thread's CPU clock, and prints the
microseconds of each per broadcast; the timing wrappers add a little to our CPU figures.

A pass ends early when the game does (a result, or the table closed at its move limit); a
pass in which no state reaches a socket for a minute fails instead of waiting for ever.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import sqlite3
import statistics
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from fastapi import FastAPI, WebSocket, WebSocketDisconnect
from websockets.asyncio.client import ClientConnection, connect

RECEIVE_TIMEOUT = 60.0
BENCH_SEED = 2024
POSTGRES_URL = os.environ.get(
    "CARDTABLE_TEST_POSTGRES_URL", "postgresql://postgres@127.0.0.1:5432/test"
).replace("postgresql+psycopg://", "postgresql://")
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
FLOOR_TABLE = os.environ.setdefault("BENCH_FLOOR_TABLE", f"bench_floor_moves_{os.getpid()}")
"""The PostgreSQL floor's table (``--floor-store postgres``; the server processes inherit the
name), emptied by each floor server and dropped after the run."""
PATCHES = [True]
"""Our pages ask for patches, as the browser's page does (``--whole-states``: they do not)."""
# Moves that end a deal or a game: the simulated people never make them, so games last.
ENDING = ("drop", "declare", "go", "four", "propose", "accept", "reject")


@dataclass(frozen=True)
class Scenario:
    name: str
    tables: int
    people: int
    game: str
    rules: dict[str, Any]


SCENARIOS = {
    "1x2": Scenario("1 table, 2 people + spectator", 1, 2, "indian-rummy", {"players": 2}),
    "10x2": Scenario("10 tables, 2 people + spectator", 10, 2, "indian-rummy", {"players": 2}),
    "1x10": Scenario(
        "1 Declaration Rummy table, 10 people + spectator",
        1,
        10,
        "declaration-rummy",
        {"players": 10},
    ),
}


# --- the servers -------------------------------------------------------------------------------


def floor_app(db_path: str, store: str = "sqlite", recorded_path: str | None = None) -> Any:
    """The floor: version check, one SQLite insert and commit in a writer thread, one JSON
    frame of a given size to each socket of the table: with ``recorded_path`` (a JSON file of
    the frames each socket of each of our tables was sent, in order), each frame is the one
    our server sent that socket at that point of play with the floor's own fields set (the
    same bytes for permessage-deflate to compress), else padded with ``x``. With
    ``store="postgres"``, the floor of a cluster's worker instead: the insert and commit go to
    PostgreSQL (``psycopg``, in the writer thread) and each move's frame is also published on
    Redis, as a worker publishes a table's update to the processes relaying its pages."""
    app = FastAPI()
    writer = ThreadPoolExecutor(max_workers=1)
    holder: dict[str, Any] = {}

    def connect_sqlite() -> Any:
        conn = sqlite3.connect(db_path, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute(
            "CREATE TABLE IF NOT EXISTS moves (tbl TEXT, idx INTEGER, seat INTEGER, "
            "action TEXT, PRIMARY KEY (tbl, idx))"
        )
        conn.commit()
        return conn

    def connect_postgres() -> Any:
        import psycopg

        conn = psycopg.connect(POSTGRES_URL)
        conn.execute(
            f"CREATE TABLE IF NOT EXISTS {FLOOR_TABLE} (tbl TEXT, idx INTEGER, seat INTEGER, "
            "action TEXT, PRIMARY KEY (tbl, idx))"
        )
        conn.execute(f"TRUNCATE {FLOOR_TABLE}")  # the pass before stored the same moves
        conn.commit()
        return conn

    insert = (
        "INSERT INTO moves VALUES (?, ?, ?, ?)"
        if store == "sqlite"
        else f"INSERT INTO {FLOOR_TABLE} VALUES (%s, %s, %s, %s)"
    )

    def append(table: str, index: int, seat: int, action: str) -> None:
        conn = holder.get("conn")
        if conn is None:
            conn = holder["conn"] = (connect_sqlite if store == "sqlite" else connect_postgres)()
        conn.execute(insert, (table, index, seat, action))
        conn.commit()

    async def publish(table: str, frame: str) -> None:
        if store == "sqlite":
            return
        bus = holder.get("bus")
        if bus is None:
            import redis.asyncio

            bus = holder["bus"] = redis.asyncio.Redis.from_url(REDIS_URL)
        await bus.publish(f"bench-floor:{table}", frame)

    @dataclass
    class Table:
        people: int
        size: int
        samples: list[list[str]]
        """Per socket (the seats in order, then the spectator) the frames ours sent it, as
        :func:`floor_body` made them."""
        version: int = 0
        sockets: list[tuple[int, WebSocket]] = field(default_factory=list)

        def frame(self, seat: int) -> str:
            to_move = self.version % self.people
            fields = {
                "type": "state",
                "version": self.version,
                "seat": seat,
                "to_move": to_move,
                "legal": ["move"] if seat == to_move else [],
                "result": None,
            }
            if self.samples:
                # The floor's fields, then the rest of our frame for this socket at this move
                # (encoded once, when the floor started: the floor encodes only its own part).
                sent = self.samples[seat if seat >= 0 else self.people]
                head = json.dumps(fields, separators=(",", ":"))
                return f"{head[:-1]},{sent[(self.version - 1) % len(sent)]}"
            text = json.dumps(fields | {"pad": ""}, separators=(",", ":"))
            pad = "x" * max(0, self.size - len(text))
            return json.dumps(fields | {"pad": pad}, separators=(",", ":"))

    tables: dict[str, Table] = {}
    recorded: list[list[list[str]]] = []
    if recorded_path is not None:
        texts = json.loads(Path(recorded_path).read_text(encoding="utf-8"))
        recorded = [[[floor_body(text) for text in sock] for sock in table] for table in texts]

    @app.websocket("/ws/{table_id}")
    async def play(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        seat = int(websocket.query_params["seat"])
        index = int(table_id.removeprefix("t"))
        table = tables.setdefault(
            table_id,
            Table(
                int(websocket.query_params["people"]),
                int(websocket.query_params["size"]),
                recorded[index] if recorded else [],
            ),
        )
        table.sockets.append((seat, websocket))
        await websocket.send_text(table.frame(seat))
        loop = asyncio.get_running_loop()
        try:
            while True:
                message = json.loads(await websocket.receive_text())
                if message.get("version") != table.version:
                    await websocket.send_text('{"type":"error","code":"stale"}')
                    continue
                await loop.run_in_executor(
                    writer, append, table_id, table.version, seat, message["action"]
                )
                table.version += 1
                await publish(table_id, table.frame(-1))
                for other_seat, other in list(table.sockets):
                    await other.send_text(table.frame(other_seat))
        except WebSocketDisconnect:
            table.sockets.remove((seat, websocket))

    return app


def send_plain_frames(size: int) -> None:
    """``--plain-frames``: our server with each seat's message after a move replaced by a
    frame of the floor's kind (version, seat to move, the seat's legal notations, result,
    padded to ``size`` bytes), sent whole to every connection: everything else (the frame
    read and parsed, the move checked and applied, the write, the room, the sends) is ours.
    What it costs beside ``ours`` is what building, patching and encoding the seats' messages
    costs. Only the benchmark's server process is patched."""
    from cardtable.server.protocol.messages import Frame
    from cardtable.server.table.owner import TableOwner

    whole = TableOwner.broadcast

    async def plain(owner: TableOwner) -> None:
        if owner.waiting or owner.version == 0:  # the room and the first deal as they are
            await whole(owner)
            return
        engine, state = owner.setup.engine, owner.state
        to_move = engine.current_player(state)
        result = engine.result(state)
        for seat, listeners in list(owner.audience.connections.items()):
            legal = [str(a) for a in engine.legal_actions(state, seat)] if seat == to_move else []
            message = {
                "type": "state",
                "version": owner.version,
                "seat": seat,
                "to_move": to_move,
                "legal": legal,
                "result": None if result is None else result.to_json(),
                "pad": "",
            }
            message["pad"] = "x" * max(0, size - len(json.dumps(message, separators=(",", ":"))))
            frame = Frame(message)  # type: ignore[arg-type]  # the floor's shape, not ours
            for connection in list(listeners):
                try:
                    await connection.send(frame)
                except Exception:  # a page gone: as our broadcast does
                    owner.detach(seat, connection)

    TableOwner.broadcast = plain  # type: ignore[method-assign, assignment]


FLOOR_FIELDS_BYTES = 84
"""About what the floor's own fields take in a frame (``{"type":"state","version":123,...``)."""


def floor_body(text: str) -> str:
    """One of our frames as the floor sends it after its own fields: the frame's JSON without
    its ``type``, ``base`` and ``version`` (the floor's own fields say what the page needs),
    its announcement shortened by what the floor's fields add, so that the floor's frame is as
    long as ours was; the object's closing brace ends it."""
    body = {k: v for k, v in json.loads(text).items() if k not in ("type", "base", "version")}
    encoded = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    over = FLOOR_FIELDS_BYTES + len(encoded) - len(text)
    said = body.get("set", {}).get("announce")
    if over > 0 and isinstance(said, str):
        body["set"] = {**body["set"], "announce": said[: max(0, len(said) - over)]}
        encoded = json.dumps(body, separators=(",", ":"), ensure_ascii=False)
    return encoded[1:]


BROADCAST_PARTS: dict[str, int] = {}
"""``--time-broadcast``, in our server's process: the event loop's CPU nanoseconds so far in
each part of the broadcasts after moves, and ``count``, the broadcasts."""


def time_broadcasts() -> None:
    """``--time-broadcast``: our server's broadcasts timed by part (the loop thread's CPU
    clock), read with the CPU clocks: ``whole`` (``TableOwner.broadcast``), ``messages``
    (each seat's message built), ``patches`` (worked out) and ``sends`` (encoding and
    sending, to the socket). The wrappers cost a little CPU of their own."""
    from cardtable.server.protocol.websocket import SocketConnection
    from cardtable.server.table import audience
    from cardtable.server.table.owner import TableOwner

    clock = time.thread_time_ns

    def count(part: str, started: int) -> None:
        BROADCAST_PARTS[part] = BROADCAST_PARTS.get(part, 0) + clock() - started

    whole, message_for, patch, send = (
        TableOwner.broadcast,
        TableOwner.message_for,
        audience.state_patch,  # type: ignore[attr-defined]  # the name the broadcast calls
        SocketConnection.send,
    )

    async def timed_whole(self: TableOwner) -> None:
        started = clock()
        await whole(self)
        count("whole", started)
        BROADCAST_PARTS["count"] = BROADCAST_PARTS.get("count", 0) + 1

    def timed_message(self: TableOwner, *args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return message_for(self, *args, **kwargs)
        finally:
            count("messages", started)

    def timed_patch(*args: Any, **kwargs: Any) -> Any:
        started = clock()
        try:
            return patch(*args, **kwargs)
        finally:
            count("patches", started)

    async def timed_send(self: SocketConnection, message: Any) -> None:
        started = clock()
        try:
            await send(self, message)
        finally:
            count("sends", started)

    TableOwner.broadcast = timed_whole  # type: ignore[method-assign]
    TableOwner.message_for = timed_message  # type: ignore[method-assign]
    audience.state_patch = timed_patch  # type: ignore[attr-defined]
    SocketConnection.send = timed_send  # type: ignore[method-assign]


def answer_clocks(asked: Any) -> None:
    """Answer each request on ``asked`` with this process's CPU time and its main thread's
    (``clock_gettime``'s CPU clocks: to the nanosecond, where ``/proc``'s are in ticks of 10 ms,
    too coarse for the floor's short passes), and the broadcasts' parts so far
    (:data:`BROADCAST_PARTS`)."""
    main = time.pthread_getcpuclockid(threading.main_thread().ident or 0)
    while True:
        try:
            asked.recv()
        except EOFError:
            return
        process, loop = time.clock_gettime(time.CLOCK_PROCESS_CPUTIME_ID), time.clock_gettime(main)
        asked.send((process, loop, dict(BROADCAST_PARTS)))


def serve(
    kind: str,
    db_path: str,
    port_out: Any,
    store: str = "sqlite",
    clocks: Any = None,
    size: int = 0,
    recorded_path: str | None = None,
) -> None:
    """A contender's server process: uvicorn on a free loopback port until terminated;
    ``clocks``: a pipe whose requests for the CPU clocks a thread answers."""
    import uvicorn

    if clocks is not None:
        threading.Thread(target=answer_clocks, args=(clocks,), daemon=True).start()

    if kind in ("ours", "plain"):
        from cardtable.server.app import create_app
        from cardtable.server.settings import Settings

        settings = Settings(
            test_seed=BENCH_SEED,
            rate_limits=False,
            bot_processes=0,
            # The analysis of finished deals runs in a worker process of its own, at the
            # lowest priority: not the per-move cost this measures.
            analyse_finished_hands=False,
        )
        app = create_app(f"sqlite:///{db_path}", settings=settings, bot_delay_scale=0.0)
        if kind == "plain":
            send_plain_frames(size)
        if kind == "ours" and os.environ.get("BENCH_TIME_BROADCAST") == "1":
            time_broadcasts()
    else:
        app = floor_app(db_path, store, recorded_path)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port_out.put(sock.getsockname()[1])
    config = uvicorn.Config(
        app,
        log_level="warning",
        ws_max_size=65536,
        lifespan="on",
        # --no-deflate: both contenders' frames sent uncompressed.
        ws_per_message_deflate=os.environ.get("BENCH_NO_DEFLATE") != "1",
    )
    profile_to = os.environ.get("BENCH_PROFILE") if kind == "ours" else None
    if profile_to is None:
        uvicorn.Server(config).run(sockets=[sock])
        return
    import cProfile  # --profile: the event loop's thread, written out at the end
    import signal

    def stop(*_args: object) -> None:
        raise SystemExit(0)

    # uvicorn raises the signal again once it has shut down: end through Python, not at once.
    signal.signal(signal.SIGTERM, stop)
    profiler = cProfile.Profile(time.thread_time)  # CPU time of the loop's thread
    profiler.enable()
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        profiler.disable()
        profiler.dump_stats(profile_to)


def cpu_seconds(clocks: Any) -> tuple[float, dict[str, float], dict[str, int]]:
    """The server process's CPU time so far, and split by thread: ``loop``, the main thread
    (where uvicorn's event loop runs), and ``threads``, all the others (for both contenders
    that is essentially the database writer thread; the reads' worker threads idle during
    play); and the broadcasts' parts so far (``--time-broadcast``)."""
    clocks.send(None)
    process, main, parts = clocks.recv()
    return process, {"loop": main, "threads": process - main}, parts


# --- the simulated people ----------------------------------------------------------------------


class Socket:
    """One websocket: its reader notes the state frames (and their bytes) as they arrive."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.state_bytes = 0
        self.state_frames = 0
        self.texts: list[str] = []
        """The state and patch frames received while counting, as sent."""
        self.counting = False
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        from cardtable.server.protocol.state_frames import apply_patch

        last: dict[str, Any] | None = None
        async for raw in self.ws:
            message = json.loads(raw)
            if message["type"] == "patch":
                assert last is not None, "a patch before any whole state"
                message = apply_patch(last, message)  # what the page does
            elif message["type"] == "room" and last is not None:
                last = {**last, "room": message["room"]}
            if message["type"] == "state":
                last = message
                if self.counting:
                    text = raw if isinstance(raw, str) else raw.decode()
                    self.state_bytes += len(text.encode())
                    self.state_frames += 1
                    self.texts.append(text)
                await self.states.put(message)

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()


async def person(
    sock: Socket, seat: int, rng: random.Random, budget: list[int], last: list[int]
) -> None:
    """Play ``seat`` as fast as its states arrive while the table's budget lasts."""
    acted = -1
    counter = 0
    heard = time.monotonic()
    while budget[0] > 0:
        try:
            state = await asyncio.wait_for(sock.states.get(), 0.2)
        except TimeoutError:
            if time.monotonic() - heard > RECEIVE_TIMEOUT:  # every seat hears every move
                stalled = f"seat {seat} was sent no state for {RECEIVE_TIMEOUT:.0f} s"
                raise RuntimeError(stalled) from None
            continue
        heard = time.monotonic()
        last[0] = max(last[0], state["version"])
        # The game is over: a result, or (a table closed at its move limit) nothing left to
        # play for the seat whose turn it is.
        if state.get("result") is not None or (state["to_move"] == seat and not state["legal"]):
            budget[0] = 0
            return
        if state["to_move"] != seat or not state["legal"] or state["version"] <= acted:
            continue
        if sock.states.qsize():  # a newer state is already here: act on that one
            continue
        acted = state["version"]
        # Only moves that end the deal (a Declaration Rummy hand with nothing else left to
        # do): make one, and play on in the next deal while the game goes on.
        kept = [a for a in state["legal"] if a.split(" ")[0] not in ENDING] or state["legal"]
        budget[0] -= 1
        counter += 1
        await sock.ws.send(
            json.dumps(
                {
                    "type": "action",
                    "version": state["version"],
                    "action": rng.choice(kept),
                    "client_id": f"s{seat}-{counter}",
                }
            )
        )


async def spectate(budget: list[int]) -> None:
    while budget[0] > 0:
        await asyncio.sleep(0.05)


@dataclass
class Ready:
    """A table set up and waiting for the start signal."""

    sockets: list[Socket]
    people: int
    start: Any  # an async callable starting play
    first_version: list[int]


async def our_table(base: str, index: int, scenario: Scenario) -> Ready:
    from cardtable.server.routes.identity import COOKIE_NAME

    clients = []
    for _ in range(scenario.people + 1):
        http = httpx.AsyncClient(base_url=f"http://{base}", timeout=RECEIVE_TIMEOUT)
        (await http.post("/api/profile")).raise_for_status()
        clients.append((http, f"{COOKIE_NAME}={http.cookies[COOKIE_NAME]}"))
    seats = [{"kind": "human"}] * scenario.people
    body = {"game": scenario.game, "rules": scenario.rules, "seats": seats, "shared": {}}
    made = await clients[0][0].post("/api/tables", json=body)
    made.raise_for_status()
    table_id, token = made.json()["table_id"], made.json()["invite"]["token"]
    for number, (http, _) in enumerate(clients[1:], start=1):
        join = {
            "token": token,
            "name": f"P{index}-{number}",
            "watch": number == scenario.people,
        }
        (await http.post("/api/invites/join", json=join)).raise_for_status()
    sockets = [
        Socket(
            await connect(
                f"ws://{base}/ws/tables/{table_id}{'?patches=1' if PATCHES[0] else ''}",
                additional_headers={"Cookie": cookie},
                open_timeout=RECEIVE_TIMEOUT,
            )
        )
        for _, cookie in clients
    ]
    for http, _ in clients:
        await http.aclose()

    async def start() -> None:
        await sockets[0].ws.send(json.dumps({"type": "start"}))

    return Ready(sockets, scenario.people, start, [0])


async def floor_table(base: str, index: int, scenario: Scenario, size: int) -> Ready:
    query = f"people={scenario.people}&size={size}"
    sockets = [
        Socket(await connect(f"ws://{base}/ws/t{index}?seat={seat}&{query}"))
        for seat in range(scenario.people)
    ]
    sockets.append(Socket(await connect(f"ws://{base}/ws/t{index}?seat=-1&{query}")))
    for sock in sockets:  # the greeting states, before play starts
        await asyncio.wait_for(sock.states.get(), RECEIVE_TIMEOUT)

    async def start() -> None:
        for sock in sockets:  # give each its greeting again: seat 0 moves first
            await sock.states.put(
                {"type": "state", "version": 0, "to_move": 0, "legal": ["move"], "result": None}
            )

    return Ready(sockets, scenario.people, start, [0])


async def play(ready: Ready, moves: int, index: int) -> int:
    budget = [moves]
    last = [0]
    for sock in ready.sockets:
        sock.counting = True
    await ready.start()
    rng = random.Random(index)
    await asyncio.gather(
        *(person(ready.sockets[s], s, rng, budget, last) for s in range(ready.people)),
        spectate(budget),
    )
    await asyncio.sleep(0.3)  # the last views reach every socket
    for sock in ready.sockets:
        sock.counting = False
    return last[0]


@dataclass
class PassResult:
    cpu_ms_per_move: float
    moves: int
    mean_frame: float
    bytes_per_move_socket: float
    threads_ms_per_move: dict[str, float]
    """The CPU per move split by thread (:func:`thread_seconds`)."""
    texts: list[list[list[str]]]
    """Per table, per socket, the state and patch frames it was sent while counting."""
    broadcast_us: dict[str, float]
    """``--time-broadcast``: CPU microseconds per broadcast in each part (ours only)."""


async def run_pass(
    kind: str,
    scenario: Scenario,
    moves: int,
    size: int,
    store: str = "sqlite",
    recorded: list[list[list[str]]] | None = None,
) -> PassResult:
    spawn = multiprocessing.get_context("spawn")
    with tempfile.TemporaryDirectory() as tmp:
        recorded_path = None
        if recorded is not None:
            recorded_path = str(Path(tmp) / "recorded.json")
            Path(recorded_path).write_text(json.dumps(recorded), encoding="utf-8")
        port_out = spawn.Queue()
        clocks, asked = spawn.Pipe()
        process = spawn.Process(
            target=serve,
            args=(
                kind,
                str(Path(tmp) / "bench.sqlite3"),
                port_out,
                store,
                asked,
                size,
                recorded_path,
            ),
        )
        process.start()
        try:
            port = port_out.get(timeout=60)
            base = f"127.0.0.1:{port}"
            await wait_until_up(base)
            if kind in ("ours", "plain"):
                tables = [await our_table(base, i, scenario) for i in range(scenario.tables)]
            else:
                tables = [
                    await floor_table(base, i, scenario, size) for i in range(scenario.tables)
                ]
            await asyncio.sleep(0.5)  # greetings and room updates settle
            for ready in tables:
                for sock in ready.sockets:
                    while not sock.states.empty():
                        sock.states.get_nowait()
            cpu_before, threads_before, parts_before = cpu_seconds(clocks)
            versions = await asyncio.gather(
                *(play(ready, moves, i) for i, ready in enumerate(tables))
            )
            cpu_after, threads_after, parts_after = cpu_seconds(clocks)
            frames = sum(s.state_frames for ready in tables for s in ready.sockets)
            state_bytes = sum(s.state_bytes for ready in tables for s in ready.sockets)
            texts = [[s.texts for s in ready.sockets] for ready in tables]
            sockets = sum(len(ready.sockets) for ready in tables)
            for ready in tables:
                for sock in ready.sockets:
                    await sock.close()
        finally:
            process.terminate()
            process.join(timeout=30)
    applied = sum(versions)
    return PassResult(
        cpu_ms_per_move=(cpu_after - cpu_before) * 1000 / max(1, applied),
        moves=applied,
        mean_frame=state_bytes / max(1, frames),
        bytes_per_move_socket=state_bytes / max(1, applied * sockets / len(tables)),
        threads_ms_per_move={
            part: (threads_after[part] - threads_before[part]) * 1000 / max(1, applied)
            for part in threads_after
        },
        texts=texts,
        broadcast_us={
            part: (parts_after[part] - parts_before.get(part, 0))
            / 1000
            / max(1, parts_after["count"] - parts_before.get("count", 0))
            for part in parts_after
            if part != "count"
        },
    )


async def wait_until_up(base: str) -> None:
    deadline = time.monotonic() + 60
    while True:
        try:
            async with httpx.AsyncClient() as http:
                await http.get(f"http://{base}/")
            return
        except httpx.HTTPError:
            if time.monotonic() > deadline:
                raise
            await asyncio.sleep(0.1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--scenarios", default="1x2,10x2,1x10")
    parser.add_argument("--passes", type=int, default=3, help="passes of each contender")
    parser.add_argument("--moves", type=int, default=300, help="moves per table and pass")
    parser.add_argument("--profile", help="write our server's cProfile statistics here")
    parser.add_argument(
        "--floor-frames",
        choices=("padded", "ours"),
        default="padded",
        help="the floor's frames padded with 'x' to our mean size, or carrying the bytes of the"
        " frames ours sent each socket (for permessage-deflate to compress the same text)",
    )
    parser.add_argument(
        "--time-broadcast",
        action="store_true",
        help="time our server's broadcasts by part (their wrappers add a little CPU to ours)",
    )
    parser.add_argument(
        "--plain-frames",
        action="store_true",
        help="also run our server with the seats' messages replaced by the floor's frames",
    )
    parser.add_argument(
        "--whole-states",
        action="store_true",
        help="our pages take whole states after every move, not patches (the earlier protocol)",
    )
    parser.add_argument(
        "--floor-store",
        choices=("sqlite", "postgres"),
        default="sqlite",
        help="the floor's store: SQLite (beside our server on SQLite), or PostgreSQL with a "
        "Redis publish per move (the floor of a cluster's worker; PostgreSQL and Redis up)",
    )
    parser.add_argument(
        "--no-deflate",
        action="store_true",
        help="both servers turn permessage-deflate off (uvicorn's ws_per_message_deflate)",
    )
    args = parser.parse_args(argv)
    PATCHES[0] = not args.whole_states
    if args.no_deflate:
        os.environ["BENCH_NO_DEFLATE"] = "1"
    if args.time_broadcast:
        os.environ["BENCH_TIME_BROADCAST"] = "1"
    if args.profile:
        os.environ["BENCH_PROFILE"] = str(Path(args.profile).resolve())
    print(f"load average at start: {os.getloadavg()[0]:.2f}")
    for key in args.scenarios.split(","):
        scenario = SCENARIOS[key]
        moves = args.moves if scenario.tables == 1 else max(30, args.moves // 3)
        ours: list[PassResult] = []
        plain: list[PassResult] = []
        floor: list[PassResult] = []
        for _ in range(args.passes):
            ours.append(asyncio.run(run_pass("ours", scenario, moves, 0)))
            size = round(ours[-1].mean_frame)  # the floor's frames as big as ours were
            # The floor plays as many moves as ours did (a ten-person game ends by itself).
            played = max(1, round(ours[-1].moves / scenario.tables))
            if args.plain_frames:
                plain.append(asyncio.run(run_pass("plain", scenario, played, size)))
            # --floor-frames ours: the floor sends the bytes ours sent (the same compression).
            recorded = ours[-1].texts if args.floor_frames == "ours" else None
            floor.append(
                asyncio.run(run_pass("floor", scenario, played, size, args.floor_store, recorded))
            )
        ours_ms = statistics.median(r.cpu_ms_per_move for r in ours)
        floor_ms = statistics.median(r.cpu_ms_per_move for r in floor)
        print(f"{scenario.name} ({scenario.game}), {args.passes} passes of each:")
        contenders = [("ours", ours), ("plain", plain), ("floor", floor)]
        for name, results in (contender for contender in contenders if contender[1]):
            each = ", ".join(f"{r.cpu_ms_per_move:.2f}" for r in results)
            median = statistics.median(r.cpu_ms_per_move for r in results)
            print(
                f"  {name:<5} CPU ms/move median {median:6.2f}"
                f" ({each}); moves {sum(r.moves for r in results)};"
                f" mean state frame {statistics.median(r.mean_frame for r in results):7.0f} B;"
                f" state bytes per move per socket"
                f" {statistics.median(r.bytes_per_move_socket for r in results):7.0f}"
            )
            split = ", ".join(
                f"{part} {statistics.median(r.threads_ms_per_move[part] for r in results):.2f}"
                for part in ("loop", "threads")
            )
            print(f"        by thread, CPU ms/move median: {split}")
        print(f"  ratio ours / floor: {ours_ms / floor_ms:.2f}x")
        if args.time_broadcast:
            timed = ", ".join(
                f"{part} {statistics.median(r.broadcast_us.get(part, 0.0) for r in ours):.0f}"
                for part in ("whole", "messages", "patches", "sends")
            )
            print(f"  our broadcasts, CPU µs each (median of passes): {timed}")
        if plain:
            plain_ms = statistics.median(r.cpu_ms_per_move for r in plain)
            print(
                f"  plain frames / floor: {plain_ms / floor_ms:.2f}x; the seats' messages"
                f" (ours - plain): {ours_ms - plain_ms:.2f} ms a move"
            )
        print(f"  the floor's moves per second of its CPU: {1000 / floor_ms:.0f}")
    if args.floor_store == "postgres":
        drop_floor_table()
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


def drop_floor_table() -> None:
    import psycopg

    with psycopg.connect(POSTGRES_URL) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {FLOOR_TABLE}")


if __name__ == "__main__":
    main()
