"""Speed of people's tables: many tables of several people at once on one server process.

uvicorn serves the real app (SQLite file in a temporary directory, every move stored as it is
made) from a background thread of this process; the simulated people run in a second process
(``httpx`` and ``websockets``), as browsers would. Each table is an Indian Rummy table for five:
four people (four websocket clients, each with its own profile, joined through the table's
invite) and a computer player (level ``easy``, no pause), plus one spectator's websocket.

1. **Action to every view.** A person sends an action; the time until every one of the
   table's five sockets (the four people and the spectator) has received the state of the new
   version, on the clients' clock (all sockets live in one process). The server's own part is
   shown beside it: from the frame's arrival at the table's websocket handler to every
   connected socket having been sent its view (the lobby's ``on_timing`` hook).
2. **Reconnect.** At the end of a table's run one person closes their socket and opens a new
   one: from starting the connection to having the full state (view, room, presence).

People play random legal moves but never drop or declare (so deals last), one action per
version they see it is their turn. Rate limits are off (every client shares one address).
The clients ask for patches (``?patches=1``) and merge them as the browser's page does
(``--whole-states``: they take whole states after every move). Figures are medians and 99th
percentiles; nothing fails on time. Reproduce::

    .venv/bin/python -m benchmarks.bench_online
    .venv/bin/python -m benchmarks.bench_online --tables 20 --moves 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import queue
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from benchmarks.bench_server import LiveServer, describe, percentile
from benchmarks.pages import StateFollower, table_socket_path
from cardtable.server.app import create_app
from cardtable.server.context import context_of
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings
from cardtable.server.table.services import Timing

PEOPLE = 4
SEATS = [{"kind": "human"}] * PEOPLE + [{"kind": "bot", "level": "easy"}]
RULES = {"players": 5, "allow_six_players": True, "deals": 1}
RECEIVE_TIMEOUT = 120.0
LOAD_TIMEOUT = 1800.0
BENCH_SEED = 2024
SETUP_AT_ONCE = 10


class Socket:
    """One websocket of a table: a reader task notes when each state version arrived."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.arrived: dict[int, float] = {}
        self.states: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.page = StateFollower()
        self.task = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        async for raw in self.ws:
            state = self.page.follow(json.loads(raw))  # a state, or a patch merged
            if state is not None:
                self.arrived.setdefault(state["version"], time.perf_counter())
                await self.states.put(state)

    async def close(self) -> None:
        await self.ws.close()
        self.task.cancel()


async def profile(server_http: str) -> tuple[httpx.AsyncClient, str]:
    http = httpx.AsyncClient(base_url=server_http, timeout=RECEIVE_TIMEOUT)
    (await http.post("/api/profile")).raise_for_status()
    return http, f"{COOKIE_NAME}={http.cookies[COOKIE_NAME]}"


async def person(
    sock: Socket, seat: int, rng: random.Random, budget: list[int], sent: dict[int, float]
) -> None:
    """Play ``seat`` while the table's action budget lasts and the game is on."""
    acted = -1
    quiet_since = time.perf_counter()
    while budget[0] > 0:
        try:
            state = await asyncio.wait_for(sock.states.get(), 0.5)
        except TimeoutError:
            # Another seat is to play (or the table's budget ran out meanwhile).
            if time.perf_counter() - quiet_since > RECEIVE_TIMEOUT:
                raise RuntimeError("a table stopped sending states") from None
            continue
        quiet_since = time.perf_counter()
        if state["result"] is not None:
            budget[0] = 0
            return
        if state["to_move"] != seat or not state["legal"] or state["version"] <= acted:
            continue
        if sock.states.qsize():  # a newer state is already here: act on that one
            continue
        acted = state["version"]
        kept = [a for a in state["legal"] if a.split(" ")[0] not in ("drop", "declare")]
        action = rng.choice(kept or state["legal"])
        sent[state["version"] + 1] = time.perf_counter()
        budget[0] -= 1
        await sock.ws.send(
            json.dumps({"type": "action", "version": state["version"], "action": action})
        )


async def watch(budget: list[int]) -> None:
    """The spectator only reads (its reader task notes the arrivals) until the run ends."""
    while budget[0] > 0:
        await asyncio.sleep(0.05)


async def run_table(
    http_base: str,
    ws_base: str,
    index: int,
    moves: int,
    results: dict[str, list[float]],
    setting_up: asyncio.Semaphore,
    whole_states: bool,
) -> None:
    await setting_up.acquire()  # ten tables are set up at a time (the first play meanwhile)
    clients = [await profile(http_base) for _ in range(PEOPLE + 1)]
    try:
        host_http, _ = clients[0]
        body = {"game": "indian-rummy", "rules": RULES, "seats": SEATS, "shared": {}}
        made = await host_http.post("/api/tables", json=body)
        made.raise_for_status()
        table_id, token = made.json()["table_id"], made.json()["invite"]["token"]
        for number, (http, _) in enumerate(clients[1:], start=1):
            body = {"token": token, "name": f"Person {index}-{number}", "watch": number == PEOPLE}
            (await http.post("/api/invites/join", json=body)).raise_for_status()
        url = ws_base + table_socket_path(table_id, whole_states=whole_states)
        sockets = [
            Socket(
                await connect(
                    url, additional_headers={"Cookie": cookie}, open_timeout=RECEIVE_TIMEOUT
                )
            )
            for _, cookie in clients
        ]
        setting_up.release()
        await sockets[0].ws.send(json.dumps({"type": "start"}))
        budget = [moves]
        sent: dict[int, float] = {}
        rng = random.Random(index)
        await asyncio.gather(
            *(person(sockets[seat], seat, rng, budget, sent) for seat in range(PEOPLE)),
            watch(budget),
        )
        await asyncio.sleep(0.5)  # the last views reach every socket
        for version, started in sent.items():
            arrivals = [sock.arrived.get(version) for sock in sockets]
            if all(arrival is not None for arrival in arrivals):
                results["all_views"].append(max(arrivals) - started)  # type: ignore[type-var]
        # One person reconnects: a new socket, up to its full state.
        await sockets[1].close()
        cookie = clients[1][1]
        started = time.perf_counter()
        async with connect(
            url, additional_headers={"Cookie": cookie}, open_timeout=RECEIVE_TIMEOUT
        ) as again:
            page = StateFollower()
            while True:
                message = json.loads(await asyncio.wait_for(again.recv(), RECEIVE_TIMEOUT))
                if page.follow(message) is not None:
                    results["reconnect"].append(time.perf_counter() - started)
                    break
        for sock in sockets:
            await sock.close()
    finally:
        for http, _ in clients:
            await http.aclose()


async def load(port: int, tables: int, moves: int, whole_states: bool) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {"all_views": [], "reconnect": []}
    base = f"127.0.0.1:{port}"
    setting_up = asyncio.Semaphore(SETUP_AT_ONCE)
    await asyncio.gather(
        *(
            run_table(f"http://{base}", f"ws://{base}", i, moves, results, setting_up, whole_states)
            for i in range(tables)
        )
    )
    return results


def load_process(port: int, tables: int, moves: int, whole_states: bool, out: Any) -> None:
    out.put(asyncio.run(load(port, tables, moves, whole_states)))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--moves", type=int, default=20, help="people's actions per table")
    parser.add_argument(
        "--whole-states",
        action="store_true",
        help="the clients take whole states after every move, not patches as the page does",
    )
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(test_seed=BENCH_SEED, rate_limits=False, bot_processes=0)
        app = create_app(
            f"sqlite:///{Path(tmp) / 'bench.sqlite3'}", settings=settings, bot_delay_scale=0.0
        )
        server_times: list[float] = []

        def note(timing: Timing) -> None:
            server_times.append(timing.broadcast - timing.received)

        with LiveServer(app) as server:
            context_of(app).lobby.on_timing = note
            spawn = multiprocessing.get_context("spawn")
            out = spawn.Queue()
            process = spawn.Process(
                target=load_process,
                args=(server.port, args.tables, args.moves, args.whole_states, out),
            )
            began = time.perf_counter()
            process.start()
            try:
                results = out.get(timeout=LOAD_TIMEOUT)
            except queue.Empty:
                process.terminate()
                raise RuntimeError("the load did not finish") from None
            process.join(timeout=30)
            elapsed = time.perf_counter() - began
    print(
        f"{args.tables} tables of {PEOPLE} people, a computer player and a spectator; "
        f"{len(results['all_views'])} actions measured in {elapsed:.1f} s"
    )
    print(describe("action -> every seat's and spectator's view", results["all_views"]))
    print(describe("server: frame in -> every view sent", server_times))
    print(describe("reconnect: socket open -> full view", results["reconnect"]))
    views = results["all_views"]
    if views:
        print(
            f"  ratio p99/median (all views): "
            f"{percentile(views, 0.99) / statistics.median(views):.1f}"
        )


if __name__ == "__main__":
    main()
