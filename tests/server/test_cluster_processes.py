"""Server processes of one cluster, started by the test on PostgreSQL and Redis: two people at
one table, connected to different processes, finish a hand of each game (the second person's
moves and views travel through the relay); and when the process that owns a table is killed
outright mid-hand, another takes the table over, the people's pages carry on (the one whose
socket died connects again), the hand finishes, and the stored log replays to the state the
people saw."""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardtable import storage
from cardtable.registry import get_engine
from cardtable.server.identity import COOKIE_NAME
from cardtable.server.table import replay_log

LEASE_SECONDS = 1.0
MESSAGE_SECONDS = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass
class Server:
    """One ``cardtable serve`` process of the cluster."""

    port: int
    process: subprocess.Popen[bytes]
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def start_cluster(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Callable[[int], list[Server]]]:
    """Start N server processes sharing the test database and Redis; killed at the end."""
    servers: list[Server] = []

    def start(count: int) -> list[Server]:
        ports = [free_port() for _ in range(count)]
        origins = ",".join(f"http://127.0.0.1:{port}" for port in ports)
        environment = {
            **os.environ,
            "CARDTABLE_ALLOWED_ORIGINS": origins,
            "CARDTABLE_BOT_DELAY_SCALE": "0",
            "CARDTABLE_RATE_LIMITS": "false",
            "CARDTABLE_LEASE_SECONDS": str(LEASE_SECONDS),
            "CARDTABLE_BOT_PROCESSES": "0",
            "CARDTABLE_TEST_SEED": "11",
        }
        for port in ports:
            log = tmp_path / f"server-{port}.log"
            command = [str(Path(sys.executable).parent / "cardtable"), "serve"]
            command += ["--port", str(port), "--database-url", postgres_url]
            process = subprocess.Popen(
                [*command, "--redis-url", redis_url],
                env=environment,
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
            servers.append(Server(port, process, log))
        for server in servers[-count:]:
            deadline = time.monotonic() + 60
            while True:
                assert server.process.poll() is None, server.log.read_text()
                with suppress(httpx.HTTPError):
                    if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                        break
                assert time.monotonic() < deadline, server.log.read_text()
                time.sleep(0.2)
        return servers[-count:]

    yield start
    for server in servers:
        if server.process.poll() is None:
            server.process.terminate()
    for server in servers:
        with suppress(subprocess.TimeoutExpired):
            server.process.wait(10)
        if server.process.poll() is None:
            server.process.kill()
            server.process.wait(5)


@dataclass
class Person:
    """A person with a profile, playing one seat through a websocket."""

    http: httpx.Client
    seat: int = -1
    ws: ClientConnection | None = None
    state: dict[str, Any] = field(default_factory=dict)
    seen: list[dict[str, Any]] = field(default_factory=list)

    @classmethod
    def at(cls, server: Server) -> Person:
        http = httpx.Client(base_url=server.url, headers={"Origin": server.url})
        assert http.post("/api/profile").status_code == 201
        return cls(http)

    def connect(self, server: Server, table_id: str) -> None:
        cookie = self.http.cookies.get(COOKIE_NAME)
        self.ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
            additional_headers={"Cookie": f"{COOKIE_NAME}={cookie}", "Origin": server.url},
            open_timeout=10,
        )
        self.state = self.receive_state()

    def receive(self, timeout: float = MESSAGE_SECONDS) -> dict[str, Any]:
        assert self.ws is not None
        message: dict[str, Any] = json.loads(self.ws.recv(timeout=timeout))
        return message

    def receive_state(self) -> dict[str, Any]:
        while True:
            message = self.receive()
            if message["type"] == "state":
                self.seen.append(message)
                return message
            assert message["type"] == "error" and message["code"] in ("stale", "unavailable"), (
                message
            )

    def drain(self) -> None:
        """Read every message already waiting; keep the newest state."""
        assert self.ws is not None
        while True:
            try:
                message = self.receive(timeout=0.05)
            except TimeoutError:
                return
            if message["type"] == "state" and message["version"] >= self.state["version"]:
                self.state = message
                self.seen.append(message)

    def to_move(self) -> bool:
        return self.state["to_move"] == self.seat and bool(self.state["legal"])

    def act(self, rng: random.Random) -> None:
        assert self.ws is not None
        action = rng.choice(self.state["legal"])
        self.ws.send(
            json.dumps({"type": "action", "version": self.state["version"], "action": action})
        )


def people_table(
    servers: list[Server], game: str, rules: dict[str, Any], seats: int
) -> tuple[str, list[Person]]:
    """A table of ``seats`` people created on the first server, each joined there."""
    host = Person.at(servers[0])
    response = host.http.post(
        "/api/tables",
        json={"game": game, "rules": rules, "seats": [{"kind": "human"}] * seats},
    )
    assert response.status_code == 201, response.text
    table_id = response.json()["table_id"]
    host.seat = response.json()["seat"]
    people = [host]
    for _ in range(seats - 1):
        guest = Person.at(servers[0])
        joined = guest.http.post(f"/api/tables/{table_id}/join")
        assert joined.status_code == 200, joined.text
        guest.seat = joined.json()["seat"]
        people.append(guest)
    return table_id, people


def play_until(
    people: list[Person], rng: random.Random, done: Callable[[dict[str, Any]], bool]
) -> None:
    """Everyone plays random legal moves in turn until ``done`` holds for every person's view."""
    deadline = time.monotonic() + 240
    while not all(done(person.state) for person in people):
        assert time.monotonic() < deadline, [p.state.get("version") for p in people]
        acted = False
        for person in people:
            person.drain()
            if person.to_move() and not done(person.state):
                person.act(rng)
                person.state = person.receive_state()
                acted = True
        if not acted:
            time.sleep(0.02)


def hand_over(state: dict[str, Any]) -> bool:
    return state.get("summary") is not None or state.get("result") is not None


GAMES = [
    ("indecision", {"target_score": 31}, 2),
    ("indian-rummy", {"deals": 1}, 2),
    ("declaration-rummy", {}, 3),
]


@pytest.mark.parametrize(("game", "rules", "seats"), GAMES, ids=[g for g, _r, _s in GAMES])
def test_people_connected_to_different_processes_finish_a_hand(
    start_cluster: Callable[[int], list[Server]], game: str, rules: dict[str, Any], seats: int
) -> None:
    servers = start_cluster(2)
    table_id, people = people_table(servers, game, rules, seats)
    for number, person in enumerate(people):
        person.connect(servers[number % 2], table_id)  # the others through the relay
    assert len({p.state["version"] for p in people}) == 1
    play_until(people, random.Random(5), hand_over)
    versions = {person.state["version"] for person in people}
    assert len(versions) == 1, "every seat saw the same last move"
    # The process that does not own the table describes it from the stored log.
    cookies = {COOKIE_NAME: people[1].http.cookies[COOKIE_NAME]}
    info = httpx.get(f"{servers[1].url}/api/tables/{table_id}", cookies=cookies, timeout=10)
    assert info.status_code == 200, info.text
    assert info.json()["version"] == versions.pop() and info.json()["your_seat"] == people[1].seat
    for person in people:
        assert person.ws is not None
        person.ws.close()


def test_killing_the_owner_mid_hand_hands_the_table_over_and_loses_nothing(
    start_cluster: Callable[[int], list[Server]], postgres_url: str
) -> None:
    servers = start_cluster(3)
    owner_server = servers[0]
    table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 3)
    people[0].connect(servers[0], table_id)  # on the owner: this socket will die
    people[1].connect(servers[1], table_id)
    people[2].connect(servers[2], table_id)
    rng = random.Random(8)
    play_until(people, rng, lambda state: state["version"] >= 6 or hand_over(state))
    before = people[1].state["version"]
    owner_server.process.send_signal(signal.SIGKILL)
    owner_server.process.wait(10)
    killed = time.monotonic()
    # The person on the dead process connects again, to another one.
    with suppress(ConnectionClosed, TimeoutError):
        while True:
            people[0].receive(timeout=5)
    people[0].connect(servers[1], table_id)
    assert people[0].state["version"] >= before
    play_until(people, rng, hand_over)
    assert time.monotonic() - killed < 120
    logs = [server.log.read_text() for server in servers[1:]]
    assert sum(f"took table {table_id} over" in log for log in logs) == 1, logs
    final = people[1].state
    assert {p.state["version"] for p in people} == {final["version"]}
    stored = storage.load_table(storage.Database(postgres_url), table_id)
    assert stored is not None and len(stored.actions) == final["version"]
    engine = get_engine(stored.game)
    state, _ = replay_log(engine, engine.rules_from_json(stored.rules), stored.seed, stored.actions)
    for person in people:
        assert engine.view(state, person.seat).to_json() == person.state["view"]
    # Every version each person saw is a prefix of the stored log: nothing applied twice.
    for person in people:
        versions = [message["version"] for message in person.seen]
        assert versions == sorted(versions)
    for person in people:
        assert person.ws is not None
        person.ws.close()
