"""The cluster through outages of its services, each a private one started by the test (so that
other users of the machine's shared PostgreSQL and Redis are not disturbed): Redis restarted
during play (losing everything it held), and PostgreSQL stopped for a few seconds during play.
The people's pages get errors meanwhile, nothing stored is lost, and play resumes by itself.

Every wait has a bound and each test a time limit; the services and servers are started by
fixtures whose finalizers stop them, in process groups of their own that the kernel kills if
the test process dies (see :func:`.clusterkit.spawn`), on ports outside the range the kernel
hands to client sockets (a service restarted on its port finds it free)."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path

import psycopg
import pytest
import redis

from cardtable import storage
from cardtable.registry import get_engine
from cardtable.server.table.owner import replay_log

from .clusterkit import (
    Launcher,
    Person,
    Server,
    hand_over,
    people_table,
    play_until,
    spawn,
    steady_port,
    stop_group,
)

START_SECONDS = 30.0
"""The longest a private service may take to accept connections."""
PLAY_SECONDS = 90.0
"""The longest a test may play towards a point of the hand."""
TEST_SECONDS = 240
"""The time limit of each test, services and servers started and stopped included."""


def wait_until(check: object, within: float, what: str) -> None:
    """Poll ``check()`` until it is true; fail naming ``what`` after ``within`` seconds."""
    assert callable(check)
    deadline = time.monotonic() + within
    while True:
        with suppress(Exception):
            if check():
                return
        assert time.monotonic() < deadline, f"{what} in {within:.0f} s"
        time.sleep(0.05)


class PrivateRedis:
    """A redis-server of the test's own, without persistence: a restart forgets everything."""

    def __init__(self, directory: Path) -> None:
        self.port = steady_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def _answers(self) -> bool:
        with redis.Redis(port=self.port, socket_timeout=1, socket_connect_timeout=1) as client:
            return bool(client.ping())

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        command += ["--save", "", "--appendonly", "no", "--dir", str(self.directory)]
        self.process = spawn(command, self.directory / "redis.log")
        wait_until(self._answers, START_SECONDS, f"the private Redis did not start on {self.port}")

    def stop(self) -> None:
        if self.process is not None:
            stop_group(self.process, signal.SIGKILL)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (make services needs it too)")
    server = PrivateRedis(tmp_path)
    try:
        server.start()
        yield server
    finally:
        server.stop()


Launch = Callable[[str, str, int], list[Server]]


@pytest.fixture
def launch(tmp_path: Path) -> Iterator[Launch]:
    """Start servers of a cluster on a database and a Redis URL; all stopped at the end."""
    launchers: list[Launcher] = []

    def start(database_url: str, redis_url: str, count: int) -> list[Server]:
        launcher = Launcher(database_url, redis_url, tmp_path)
        launchers.append(launcher)
        return launcher.start(count)

    try:
        yield start
    finally:
        for launcher in launchers:
            launcher.stop()


def stored_table(url: str, table_id: str) -> storage.StoredTable:
    db = storage.Database(url)
    try:
        stored = storage.load_table(db, table_id)
    finally:
        db.close()
    assert stored is not None
    return stored


def assert_replays_to_views(stored: storage.StoredTable, people: list[Person]) -> None:
    """The stored log replays to the state every person last saw."""
    engine = get_engine(stored.game)
    rules = engine.rules_from_json(stored.rules)
    state, _ = replay_log(engine, rules, stored.seed, stored.actions)
    for person in people:
        assert engine.view(state, person.seat).to_json() == person.state["view"]


@pytest.mark.timeout(TEST_SECONDS)
def test_redis_restarted_during_play_costs_nothing_stored_and_play_resumes(
    private_redis: PrivateRedis, postgres_url: str, launch: Launch
) -> None:
    servers = launch(postgres_url, private_redis.url, 2)
    table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 2)
    people[0].connect(servers[0], table_id)
    people[1].connect(servers[1], table_id)  # through the relay
    rng = random.Random(4)
    play_until(people, rng, lambda state: state["version"] >= 6, calm=True, within=PLAY_SECONDS)
    stored_before = stored_table(postgres_url, table_id)
    private_redis.stop()
    time.sleep(1.5)  # past the lease: every page is told to try again
    private_redis.start()
    for person in people:  # pages whose socket was closed connect again, with back-off
        reconnect(person, servers, table_id)
    play_until(people, rng, hand_over, within=PLAY_SECONDS)
    stored = stored_table(postgres_url, table_id)
    assert stored.actions[: len(stored_before.actions)] == stored_before.actions
    assert_replays_to_views(stored, people)


def reconnect(person: Person, servers: list[Server], table_id: str) -> None:
    """Keep the page's socket if it still works; otherwise connect again with back-off."""
    assert person.ws is not None
    with suppress(Exception):
        if person.ws.ping().wait(5):
            return
    with suppress(Exception):
        person.ws.close()
    delay = 0.25
    deadline = time.monotonic() + 60
    while True:
        try:
            person.connect(servers[0], table_id)
            return
        except Exception:
            assert time.monotonic() < deadline, "the page could not connect again in 60 s"
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


PRIVATE_POSTGRES_PREFIX = "cardtable-pg-"


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb in a temporary directory), its server
    run in the foreground as the ``postgres`` user on a steady port, to stop and start again."""

    def __init__(self) -> None:
        self.port = steady_port()
        self.directory = Path(tempfile.mkdtemp(prefix=PRIVATE_POSTGRES_PREFIX))
        (self.directory / "test-process").write_text(str(os.getpid()))
        self.data = self.directory / "data"
        self.process: subprocess.Popen[bytes] | None = None
        self.user = "postgres" if os.geteuid() == 0 else None  # it refuses to run as root

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres?connect_timeout=5"

    def create(self) -> None:
        if self.user is not None:
            os.chmod(self.directory, 0o755)
            shutil.chown(self.directory, self.user, self.user)
        subprocess.run(
            ["initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres"],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            user=self.user,
            group=self.user,
            timeout=120,
        )

    def _answers(self) -> bool:
        conninfo = f"host=127.0.0.1 port={self.port} user=postgres dbname=postgres"
        with psycopg.connect(conninfo, connect_timeout=2) as connection:
            return connection.execute("SELECT 1").fetchone() == (1,)

    def start(self) -> None:
        command = ["postgres", "-D", str(self.data), "-p", str(self.port)]
        command += ["-k", str(self.directory), "-c", "listen_addresses=127.0.0.1"]
        command += ["-c", "fsync=off"]
        # Killed with this process, the server shuts down at once (SIGQUIT), its backends too.
        self.process = spawn(
            command, self.directory / "log", user=self.user, death_signal=signal.SIGQUIT
        )
        wait_until(self._answers, START_SECONDS, "the private PostgreSQL did not start")

    def stop(self) -> None:
        """A fast shutdown (SIGINT: clients are disconnected, nothing stored is lost)."""
        if self.process is not None:
            stop_group(self.process, signal.SIGINT, grace=20.0)

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def remove_stale_private_postgres() -> None:
    """Remove the directories of private PostgreSQL servers whose test process is gone (a run
    killed outright cannot remove its own; its server died with it)."""
    for directory in Path(tempfile.gettempdir()).glob(f"{PRIVATE_POSTGRES_PREFIX}*"):
        with suppress(OSError, ValueError):
            pid = int((directory / "test-process").read_text())
            if not Path(f"/proc/{pid}").exists():
                shutil.rmtree(directory, ignore_errors=True)


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    if shutil.which("initdb") is None or shutil.which("postgres") is None:
        pytest.fail("initdb and postgres are needed to run a private PostgreSQL")
    remove_stale_private_postgres()
    server = PrivatePostgres()
    try:
        server.create()
        server.start()
        yield server
    finally:
        server.remove()


@pytest.mark.timeout(TEST_SECONDS)
def test_postgresql_stopped_during_play_refuses_moves_then_play_resumes(
    private_postgres: PrivatePostgres, redis_url: str, launch: Launch
) -> None:
    servers = launch(private_postgres.url, redis_url, 2)
    table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 2)
    people[0].connect(servers[0], table_id)
    people[1].connect(servers[1], table_id)  # through the relay
    rng = random.Random(6)
    play_until(people, rng, lambda state: state["version"] >= 6, calm=True, within=PLAY_SECONDS)
    deadline = time.monotonic() + 30
    while not any(person.to_move() for person in people):
        assert time.monotonic() < deadline, "nobody is to move"
        for person in people:
            person.drain()
    mover = next(person for person in people if person.to_move())
    version = mover.state["version"]
    private_postgres.stop()
    try:
        mover.act(rng, calm=True)
        error = mover.receive()
        assert error["type"] == "error" and error["code"] == "unavailable", error
        assert "database" in error["message"]
    finally:
        private_postgres.start()
    mover.act(rng, calm=True)  # the same move number again: stored now
    mover.state = mover.receive_state()
    assert mover.state["version"] == version + 1
    play_until(people, rng, hand_over, within=PLAY_SECONDS)
    stored = stored_table(private_postgres.url, table_id)
    assert len(stored.actions) == people[0].state["version"]
    assert_replays_to_views(stored, people)
