"""What the cluster tests share: server processes of one cluster started on given PostgreSQL and
Redis URLs, and simulated people playing their seats through real websockets."""

from __future__ import annotations

import json
import os
import random
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from cardtable.server.identity import COOKIE_NAME

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


class Launcher:
    """Starts server processes sharing one database and one Redis; stops them all at the end."""

    def __init__(self, database_url: str, redis_url: str, logs: Path) -> None:
        self.database_url = database_url
        self.redis_url = redis_url
        self.logs = logs
        self.servers: list[Server] = []

    def start(self, count: int) -> list[Server]:
        """``count`` more servers, each ready (``/readyz``) when returned."""
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
        started = []
        for port in ports:
            log = self.logs / f"server-{port}.log"
            command = [str(Path(sys.executable).parent / "cardtable"), "serve"]
            command += ["--port", str(port), "--database-url", self.database_url]
            process = subprocess.Popen(
                [*command, "--redis-url", self.redis_url],
                env=environment,
                stdout=log.open("wb"),
                stderr=subprocess.STDOUT,
            )
            started.append(Server(port, process, log))
        self.servers += started
        for server in started:
            deadline = time.monotonic() + 90
            while True:
                assert server.process.poll() is None, server.log.read_text()
                with suppress(httpx.HTTPError):
                    if httpx.get(f"{server.url}/readyz", timeout=2).status_code == 200:
                        break
                assert time.monotonic() < deadline, server.log.read_text()
                time.sleep(0.2)
        return started

    def stop(self) -> None:
        """Stop every server started (terminate, then kill)."""
        for server in self.servers:
            if server.process.poll() is None:
                server.process.terminate()
        for server in self.servers:
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

    def act(self, rng: random.Random, *, calm: bool = False) -> None:
        """Send a random legal move; ``calm``: only drawing and discarding when possible (a
        drop or a show would end the hand at once)."""
        assert self.ws is not None
        legal = self.state["legal"]
        if calm:
            legal = [a for a in legal if a.split()[0] in ("draw", "discard")] or legal
        action = rng.choice(legal)
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
    people: list[Person],
    rng: random.Random,
    done: Callable[[dict[str, Any]], bool],
    *,
    calm: bool = False,
) -> None:
    """Everyone plays random legal moves in turn (``calm`` ones, see :meth:`Person.act`) until
    ``done`` holds for every person's view."""
    deadline = time.monotonic() + 240
    while not all(done(person.state) for person in people):
        assert time.monotonic() < deadline, [p.state.get("version") for p in people]
        acted = False
        for person in people:
            person.drain()
            if person.to_move() and not done(person.state):
                person.act(rng, calm=calm)
                person.state = person.receive_state()
                acted = True
        if not acted:
            time.sleep(0.02)


def hand_over(state: dict[str, Any]) -> bool:
    """A deal, hand or game has just ended (or the whole game)."""
    return state.get("summary") is not None or state.get("result") is not None
