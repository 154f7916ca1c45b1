"""What the cluster tests share: server processes of one cluster started on given PostgreSQL and
Redis URLs, and simulated people playing their seats through real websockets.

Every process a test starts (servers, private Redis or PostgreSQL) runs in a process group of
its own and is killed by the kernel if the test process dies (``PR_SET_PDEATHSIG``), so that an
interrupted run leaves nothing behind holding ports, data directories or the machine's cores."""

from __future__ import annotations

import ctypes
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.sync.client import ClientConnection, connect

from cardtable.server.routes.identity import COOKIE_NAME

LEASE_SECONDS = 1.0
MESSAGE_SECONDS = 15.0


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def steady_port() -> int:
    """A free port below the kernel's range for outgoing connections: a service restarted on
    it finds it free again (an ephemeral port may meanwhile be taken by any client socket)."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(max(1024, low - 12000), low)
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port below the ephemeral range")


PR_SET_PDEATHSIG = 1


def _dies_with_parent(sig: int) -> Callable[[], None]:
    parent = os.getpid()

    def arrange() -> None:  # in the child, after any change of user (which would clear it)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(sig))
        if os.getppid() != parent:  # the parent died before the signal was arranged
            os._exit(1)

    return arrange


def spawn(
    command: Sequence[str],
    log: Path,
    *,
    env: Mapping[str, str] | None = None,
    user: str | None = None,
    death_signal: int = signal.SIGKILL,
) -> subprocess.Popen[bytes]:
    """Start ``command`` in a process group of its own, output to ``log``; the kernel sends it
    ``death_signal`` if this process dies first."""
    with log.open("ab") as out:
        return subprocess.Popen(
            list(command),
            env=dict(env) if env is not None else None,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            user=user,
            group=user,
            start_new_session=True,
            preexec_fn=_dies_with_parent(death_signal),
        )


def stop_group(
    process: subprocess.Popen[bytes], first: int = signal.SIGTERM, grace: float = 10.0
) -> None:
    """Stop a process started by :func:`spawn` and everything in its group: ``first``, then
    SIGKILL after ``grace`` seconds."""
    for sig, wait in ((first, grace), (signal.SIGKILL, 10.0)):
        if process.poll() is not None:
            break
        with suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        with suppress(subprocess.TimeoutExpired):
            process.wait(wait)
    with suppress(ProcessLookupError):  # children left in the group once the leader is gone
        os.killpg(process.pid, signal.SIGKILL)


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

    def start(self, count: int, env: Mapping[str, str | None] | None = None) -> list[Server]:
        """``count`` more servers, each ready (``/readyz``) when returned (``env``: more
        ``CARDTABLE_*`` variables, or other values for this module's; ``None`` unsets one)."""
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
        for name, value in (env or {}).items():
            if value is None:
                environment.pop(name, None)
            else:
                environment[name] = value
        started = []
        for port in ports:
            log = self.logs / f"server-{port}.log"
            command = [str(Path(sys.executable).parent / "cardtable"), "serve"]
            command += ["--port", str(port), "--database-url", self.database_url]
            process = spawn([*command, "--redis-url", self.redis_url], log, env=environment)
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
                with suppress(ProcessLookupError):
                    os.killpg(server.process.pid, signal.SIGTERM)
        for server in self.servers:
            stop_group(server.process, grace=10.0)


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

    def receive_state(self, within: float = 2 * MESSAGE_SECONDS) -> dict[str, Any]:
        """The next state, skipping the errors a page may get meanwhile, within ``within``
        seconds."""
        deadline = time.monotonic() + within
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"no state in {within:.0f} s")
            message = self.receive(timeout=min(MESSAGE_SECONDS, left))
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
    within: float = 240.0,
) -> None:
    """Everyone plays random legal moves in turn (``calm`` ones, see :meth:`Person.act`) until
    ``done`` holds for every person's view, within ``within`` seconds."""
    deadline = time.monotonic() + within
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
