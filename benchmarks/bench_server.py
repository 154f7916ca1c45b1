"""Speed of the web server: move latency under load, page weight, time to a playable table.

Everything runs on the loopback interface. uvicorn serves the real app (SQLite file in a
temporary directory, every move stored as it is made) from a background thread of this process,
on a free port; the load's measuring clients (``httpx`` and ``websockets``) run in a second
process, as browsers would, so that they do not compete with the server for the interpreter.

1. **Move latency, 50 tables at once.** Each table seats one measuring client and computer
   players that move with no pause (``bot_delay_scale=0``), so all tables play flat out. The
   server time of a human move runs from the moment the table's websocket handler has the frame
   to the moment every connected seat has been sent its new view (the table owner reports both
   instants through the lobby's ``on_timing`` hook); the client's round trip (send the action,
   receive the new state) is shown beside it. A table whose game ends is replaced by a new one.
2. **Page weight.** Bytes of ``/`` plus every file under ``/static/``, as served, and the same
   gzip-compressed (what a compressing proxy would send).
3. **Time to a first playable table.** From a fresh visitor's ``GET /`` through the catalogue,
   ``POST /api/tables`` and the websocket's first state message, per game.
4. **Listing a profile's tables** (``--listing N``, 5,000 by default). One profile sits at N
   unfinished tables, stored straight into the database (each with a 30-move log of random
   play, the three games in turn); a freshly started app (as after a restart) then answers
   ``GET /api/tables`` several times. Timed: each answer, and the longest stall of the server's
   event loop meanwhile (a probe task on the loop sleeps 5 ms at a time and records how late it
   wakes). ``--legacy`` stores the tables without their summaries, as a database from before
   summaries were kept holds them: the server then replays each listed table once.
5. **Event-loop lag under play.** During the move-latency load the same probe records how late
   the server's loop wakes; every other request and socket waits that long. With
   ``--level hard`` the computer players think with the Hard search, in the server's worker
   processes (``--bot-processes 0``: in threads beside the loop).

The clients ask for patches (``?patches=1``) and merge them as the browser's page does
(``--whole-states``: they take whole states after every move). Figures are medians and 99th
percentiles; nothing fails on time. Reproduce::

    .venv/bin/python -m benchmarks.bench_server
    .venv/bin/python -m benchmarks.bench_server --tables 20 --moves 30 --level normal
    .venv/bin/python -m benchmarks.bench_server --only listing --listing 5000 [--legacy]
    .venv/bin/python -m benchmarks.bench_server --only load --tables 10 --moves 10 --level hard
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import multiprocessing
import queue
import random
import socket
import statistics
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import httpx
import uvicorn
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.pages import StateFollower, table_socket_path
from cardtable import storage
from cardtable.driver import advance
from cardtable.games.contract import TERMINAL
from cardtable.registry import get_engine
from cardtable.server.app import STATIC_DIR, create_app
from cardtable.server.context import context_of
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings
from cardtable.server.table.owner import replay_log
from cardtable.server.table.services import Timing
from cardtable.storage.models import ActionRow, TableRow, TableSeatRow

GAMES = ("indecision", "indian-rummy", "declaration-rummy")
SEATS = {"indecision": 2, "indian-rummy": 3, "declaration-rummy": 4}
RECEIVE_TIMEOUT = 60.0
MAX_GAMES_PER_TABLE = 100
LOAD_TIMEOUT = 600.0
BENCH_SEED = 2024


class LiveServer:
    """uvicorn serving an app from a background thread on a free loopback port."""

    def __init__(self, app: Any) -> None:
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.port: int = self.socket.getsockname()[1]
        config = uvicorn.Config(app, log_level="warning", ws_max_size=65536, lifespan="on")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *_exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.socket.close()

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"


def percentile(values: Sequence[float], fraction: float) -> float:
    """The value below which ``fraction`` of ``values`` lie (nearest rank)."""
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(fraction * len(ordered)) - 1))
    return ordered[index]


def describe(name: str, seconds: Sequence[float]) -> str:
    ms = [s * 1000 for s in seconds]
    return (
        f"  {name:<34} n={len(ms):5d}  median {statistics.median(ms):7.2f} ms"
        f"  p99 {percentile(ms, 0.99):7.2f} ms  max {max(ms):7.2f} ms"
    )


async def new_table(http: httpx.AsyncClient, game: str, level: str) -> str:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": level}] * (SEATS[game] - 1)
    response = await http.post("/api/tables", json={"game": game, "seats": seats})
    response.raise_for_status()
    table_id: str = response.json()["table_id"]
    return table_id


WHOLE_STATES = [False]
"""The clients ask for patches (``?patches=1``), as the browser's page does; ``--whole-states``:
they take whole states after every move."""


async def next_state(ws: ClientConnection, page: StateFollower) -> dict[str, Any]:
    """The next whole state the page holds (a state, or a patch merged into the last)."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), RECEIVE_TIMEOUT))
        if message["type"] == "error":
            raise RuntimeError(f"server refused a benchmark move: {message}")
        state = page.follow(message)
        if state is not None:
            return dict(state)


async def play_table(
    server: LiveServer,
    index: int,
    *,
    moves: int,
    level: str,
    round_trips: list[float],
    games_started: list[int],
) -> None:
    """One measuring client: play ``moves`` random legal moves, starting new games as needed
    (at most ``MAX_GAMES_PER_TABLE``: computer players can end a game before the client's turn)."""
    rng = random.Random(index)
    game = GAMES[index % len(GAMES)]
    async with httpx.AsyncClient(base_url=server.http) as http:
        (await http.post("/api/profile")).raise_for_status()
        cookie = f"{COOKIE_NAME}={http.cookies[COOKIE_NAME]}"
        played = 0
        for _ in range(MAX_GAMES_PER_TABLE):
            if played >= moves:
                break
            table_id = await new_table(http, game, level)
            games_started.append(1)
            url = server.ws + table_socket_path(table_id, whole_states=WHOLE_STATES[0])
            page = StateFollower()
            async with connect(url, additional_headers={"Cookie": cookie}) as ws:
                state = await next_state(ws, page)
                while played < moves and state["result"] is None:
                    if state["to_move"] != state["seat"] or not state["legal"]:
                        state = await next_state(ws, page)
                        continue
                    action = rng.choice(state["legal"])
                    sent = time.perf_counter()
                    await ws.send(
                        json.dumps(
                            {"type": "action", "version": state["version"], "action": action}
                        )
                    )
                    version = state["version"]
                    state = await next_state(ws, page)
                    while state["version"] <= version:
                        state = await next_state(ws, page)
                    round_trips.append(time.perf_counter() - sent)
                    played += 1
            await http.delete(f"/api/tables/{table_id}")


async def load_test(server: LiveServer, tables: int, moves: int, level: str) -> tuple[Any, ...]:
    round_trips: list[float] = []
    games_started: list[int] = []
    started = time.perf_counter()
    await asyncio.gather(
        *(
            play_table(
                server,
                index,
                moves=moves,
                level=level,
                round_trips=round_trips,
                games_started=games_started,
            )
            for index in range(tables)
        )
    )
    return round_trips, len(games_started), time.perf_counter() - started


def load_process(
    port: int, tables: int, moves: int, level: str, whole_states: bool, results: Any
) -> None:
    """The load's clients, in a process of their own: results go back through ``results``."""
    WHOLE_STATES[0] = whole_states
    target = LiveServer.__new__(LiveServer)
    target.port = port
    results.put(asyncio.run(load_test(target, tables, moves, level)))


def run_load(server: LiveServer, tables: int, moves: int, level: str) -> tuple[Any, ...]:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    process = context.Process(
        target=load_process,
        args=(server.port, tables, moves, level, WHOLE_STATES[0], results),
    )
    process.start()
    deadline = time.monotonic() + LOAD_TIMEOUT
    while True:
        try:
            outcome = results.get(timeout=1.0)
            break
        except queue.Empty:
            if not process.is_alive():
                raise RuntimeError(
                    f"the load process died (exit code {process.exitcode})"
                ) from None
            if time.monotonic() > deadline:
                process.terminate()
                raise RuntimeError(f"the load did not finish within {LOAD_TIMEOUT:.0f} s") from None
    process.join(timeout=30)
    return tuple(outcome)


def page_weight(server: LiveServer) -> tuple[int, int, int]:
    """(files, bytes, gzip bytes) of the index page and every static file, as served."""
    paths = ["/"] + [
        "/static/" + path.relative_to(STATIC_DIR).as_posix()
        for path in sorted(STATIC_DIR.rglob("*"))
        if path.is_file()
    ]
    total = compressed = 0
    with httpx.Client(base_url=server.http) as http:
        for path in paths:
            body = http.get(path).raise_for_status().content
            total += len(body)
            compressed += len(gzip.compress(body, 6))
    return len(paths), total, compressed


async def first_table(server: LiveServer, game: str) -> float:
    """Seconds from a new visitor's first request to its table's first state message."""
    started = time.perf_counter()
    async with httpx.AsyncClient(base_url=server.http) as http:
        (await http.get("/")).raise_for_status()
        (await http.get("/api/games")).raise_for_status()
        table_id = await new_table(http, game, "normal")
        cookie = f"{COOKIE_NAME}={http.cookies[COOKIE_NAME]}"
        url = server.ws + table_socket_path(table_id, whole_states=WHOLE_STATES[0])
        async with connect(url, additional_headers={"Cookie": cookie}) as ws:
            await next_state(ws, StateFollower())
            elapsed = time.perf_counter() - started
        await http.delete(f"/api/tables/{table_id}")
    return elapsed


class LoopProbe:
    """A task on the server's event loop that sleeps ``period`` at a time and records how late
    each wake-up is: the loop's lag, which every other request and socket also waits."""

    def __init__(self, server: LiveServer, period: float = 0.005) -> None:
        self.server = server
        self.period = period
        self.lags: list[float] = []
        self._running = False
        self._future: Any = None

    def __enter__(self) -> LoopProbe:
        loop = self.server.server.servers[0].get_loop()
        self._running = True
        self._future = asyncio.run_coroutine_threadsafe(self._run(), loop)
        return self

    def __exit__(self, *_exc: object) -> None:
        self._running = False
        self._future.result(timeout=30)

    async def _run(self) -> None:
        while self._running:
            started = time.perf_counter()
            await asyncio.sleep(self.period)
            self.lags.append(time.perf_counter() - started - self.period)

    def take(self) -> list[float]:
        """The lags recorded since the last call."""
        taken, self.lags = self.lags, []
        return taken


def unfinished_log(game: str, seed: int, moves: int) -> tuple[int, list[tuple[int, str]]]:
    """A seed (``seed`` or the next that works) and at least ``moves`` random legal moves of its
    game, stopping when seat 0 is to play (so that no computer player wakes up when the table
    is loaded); the game is not over."""
    engine = get_engine(game)
    rules = engine.rules_from_json({"players": SEATS[game]})
    rng = random.Random(seed)
    while True:
        state, _ = advance(engine, engine.new_game(rules, seed))
        log: list[tuple[int, str]] = []
        while engine.current_player(state) != TERMINAL:
            seat = engine.current_player(state)
            if len(log) >= moves and seat == 0:
                return seed, log
            legal = [
                a
                for a in engine.legal_actions(state, seat)
                if str(a) not in ("drop", "propose tie")
            ]
            action = rng.choice(legal or list(engine.legal_actions(state, seat)))
            state, _ = advance(engine, engine.apply(state, action, seat))
            log.append((seat, str(action)))
        seed += 1


def fill_tables(url: str, count: int, moves: int = 30, *, legacy: bool = False) -> str:
    """``count`` unfinished tables of one new profile, written straight into the database,
    with the summary the server writes with every move (unless ``legacy``, or on a checkout
    from before summaries were kept); the profile's cookie token."""
    summarize = None if legacy else _summarizer()
    db = storage.Database(url)
    profile, token = storage.create_profile(db, name="Lister")
    samples = {}
    summaries: dict[str, Any] = {}
    for game in GAMES:
        seed, log = unfinished_log(game, 11, moves)
        seats = [{"kind": "human", "name": "Lister"}] + [
            {"kind": "bot", "level": "normal", "name": name}
            for name in ("Ruby", "Max", "Ivy")[: SEATS[game] - 1]
        ]
        engine = get_engine(game)
        rules = engine.rules_to_json(engine.rules_from_json({"players": SEATS[game]}))
        samples[game] = (seed, rules, seats, log)
        if summarize is not None:
            state, _ = replay_log(engine, engine.rules_from_json(rules), seed, log)
            summaries[game] = summarize(engine, state, len(log))
    with db.session() as session:
        for index in range(count):
            game = GAMES[index % len(GAMES)]
            seed, rules, seats, log = samples[game]
            table_id = f"bench{index:06d}"
            row = TableRow(
                id=table_id,
                owner_id=profile.id,
                game=game,
                rules=rules,
                seed=seed,
                seats=seats,
                status=storage.PLAYING,
            )
            if game in summaries:
                summary = summaries[game]
                row.moves, row.deal = summary.moves, summary.deal
                row.scores, row.to_move = list(summary.scores), summary.to_move
            session.add(row)
        session.flush()
        session.execute(
            TableSeatRow.__table__.insert(),
            [
                {"table_id": f"bench{index:06d}", "seat": 0, "profile_id": profile.id}
                for index in range(count)
            ],
        )
        session.execute(
            ActionRow.__table__.insert(),
            [
                {"table_id": f"bench{index:06d}", "index": i, "seat": seat, "notation": notation}
                for index in range(count)
                for i, (seat, notation) in enumerate(samples[GAMES[index % len(GAMES)]][3])
            ],
        )
    db.close()
    return token


def _summarizer() -> Any:
    try:
        from cardtable.server.table.summary import summarize
    except ImportError:  # a checkout from before summaries were kept
        return None
    return summarize


def listing(directory: str, count: int, calls: int = 3, *, legacy: bool = False) -> None:
    """Time ``GET /api/tables`` for one profile at ``count`` tables (see the module docstring)."""
    url = f"sqlite:///{Path(directory) / 'listing.sqlite3'}"
    started = time.perf_counter()
    token = fill_tables(url, count, legacy=legacy)
    print(
        f"Listing: one profile at {count:,} unfinished tables"
        f"{' stored without summaries' if legacy else ''} "
        f"(stored in {time.perf_counter() - started:.1f} s), a freshly started app"
    )
    app = create_app(url, settings=Settings(rate_limits=False, bot_delay_scale=0.0))
    with (
        LiveServer(app) as server,
        LoopProbe(server) as probe,
        httpx.Client(base_url=server.http, cookies={COOKIE_NAME: token}, timeout=600) as http,
    ):
        for call in range(calls):
            probe.take()
            sent = time.perf_counter()
            response = http.get("/api/tables").raise_for_status()
            elapsed = time.perf_counter() - sent
            lag = max(probe.take(), default=0.0)
            print(
                f"  GET /api/tables #{call + 1}: {elapsed * 1000:9.1f} ms, "
                f"{len(response.json())} tables listed; "
                f"loop stalled at most {lag * 1000:.1f} ms"
            )
        pages, listed, sent = 0, 0, time.perf_counter()
        next_url: str | None = "/api/tables?limit=200"
        while next_url is not None:
            response = http.get(next_url).raise_for_status()
            pages += 1
            listed += len(response.json())
            link = response.links.get("next")
            next_url = None if link is None else link["url"]
        elapsed = time.perf_counter() - sent
        lag = max(probe.take(), default=0.0)
        print(
            f"  every page (limit=200): {pages} pages, {listed} tables in "
            f"{elapsed * 1000:.1f} ms; loop stalled at most {lag * 1000:.1f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--tables", type=int, default=50, help="concurrent tables (50)")
    parser.add_argument("--moves", type=int, default=40, help="human moves per table (40)")
    parser.add_argument("--level", default="random", help="computer players' level (random)")
    parser.add_argument("--first-table-runs", type=int, default=10, help="runs per game (10)")
    parser.add_argument(
        "--listing", type=int, default=5000, help="tables of one profile to list (5000; 0 skips)"
    )
    parser.add_argument(
        "--bot-processes",
        type=int,
        default=2,
        help="worker processes for Hard players (2; 0: they think in threads)",
    )
    parser.add_argument(
        "--legacy",
        action="store_true",
        help="store the listed tables without summaries, as before they were kept",
    )
    parser.add_argument(
        "--only",
        choices=("listing", "load"),
        help="run only the listing, or only the page, first-table and load measures",
    )
    parser.add_argument(
        "--whole-states",
        action="store_true",
        help="the clients take whole states after every move, not patches as the page does",
    )
    args = parser.parse_args()
    WHOLE_STATES[0] = args.whole_states

    with tempfile.TemporaryDirectory() as directory:
        if args.listing and args.only != "load":
            listing(directory, args.listing, legacy=args.legacy)
        if args.only == "listing":
            return
        # Every table is dealt from one fixed seed (the server's test setting; the API takes
        # none), and the rate limits are off: all the measuring clients share one address.
        settings = Settings(
            test_seed=BENCH_SEED,
            rate_limits=False,
            bot_delay_scale=0.0,
            bot_processes=args.bot_processes,
        )
        app = create_app(f"sqlite:///{Path(directory) / 'bench.sqlite3'}", settings=settings)
        timings: list[Timing] = []
        lobby = context_of(app).lobby
        lobby.on_timing = timings.append
        stored_moves = [0]
        store_move = lobby.store.append

        async def counted_store_move(*move: Any, **options: Any) -> None:
            stored_moves[0] += 1
            await store_move(*move, **options)

        lobby.store.append = counted_store_move  # type: ignore[method-assign]
        with LiveServer(app) as server:
            files, size, compressed = page_weight(server)
            print("Page weight (index + every static file)")
            print(f"  {files} files, {size:,} bytes ({compressed:,} bytes gzip-compressed)")

            print("Time to a first playable table (GET /, catalogue, create, first state)")
            for game in GAMES:
                runs = [
                    asyncio.run(first_table(server, game)) for _ in range(args.first_table_runs)
                ]
                print(describe(game, runs))

            print(
                f"Move latency: {args.tables} tables at once, {args.moves} human moves each, "
                f"bots at level {args.level!r} with no pause"
            )
            timings.clear()
            stored_moves[0] = 0
            with LoopProbe(server) as probe:
                round_trips, games, wall = run_load(server, args.tables, args.moves, args.level)
            server_side = [t.broadcast - t.received for t in timings]
            print(describe("server: frame in -> views sent", server_side))
            print(describe("client: action sent -> new state", round_trips))
            print(describe("event loop: lateness of a 5 ms sleep", probe.take()))
            print(
                f"  {games} games in {wall:.1f} s; {stored_moves[0]:,} moves of humans and bots "
                f"stored and sent ({stored_moves[0] / wall:,.0f} per second)"
            )


if __name__ == "__main__":
    main()
