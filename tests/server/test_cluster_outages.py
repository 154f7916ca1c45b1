"""The cluster through outages of its services, each a private one started by the test (so that
other users of the machine's shared PostgreSQL and Redis are not disturbed): Redis restarted
during play (losing everything it held), and PostgreSQL stopped for a few seconds during play.
The people's pages get errors meanwhile, nothing stored is lost, and play resumes by itself."""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest
import redis

from cardtable import storage
from cardtable.registry import get_engine
from cardtable.server.table import replay_log

from .clusterkit import Launcher, Person, Server, free_port, hand_over, people_table, play_until


class PrivateRedis:
    """A redis-server of the test's own, without persistence: a restart forgets everything."""

    def __init__(self, directory: Path) -> None:
        self.port = free_port()
        self.directory = directory
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        command = ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
        self.process = subprocess.Popen(
            [*command, "--save", "", "--appendonly", "no", "--dir", str(self.directory)],
            stdout=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            with suppress(redis.RedisError), redis.Redis(port=self.port) as client:
                if client.ping():
                    return
            assert time.monotonic() < deadline, "the private Redis did not start"
            time.sleep(0.05)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(10)


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None:
        pytest.fail("redis-server is not installed (make services needs it too)")
    server = PrivateRedis(tmp_path)
    server.start()
    yield server
    server.stop()


def test_redis_restarted_during_play_costs_nothing_stored_and_play_resumes(
    private_redis: PrivateRedis, postgres_url: str, tmp_path: Path
) -> None:
    launcher = Launcher(postgres_url, private_redis.url, tmp_path)
    try:
        servers = launcher.start(2)
        table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 2)
        people[0].connect(servers[0], table_id)
        people[1].connect(servers[1], table_id)  # through the relay
        rng = random.Random(4)
        play_until(people, rng, lambda state: state["version"] >= 6, calm=True)
        stored_before = storage.load_table(storage.Database(postgres_url), table_id)
        assert stored_before is not None
        private_redis.stop()
        time.sleep(1.5)  # past the lease: every page is told to try again
        private_redis.start()
        for person in people:  # pages whose socket was closed connect again, with back-off
            reconnect(person, servers, table_id)
        play_until(people, rng, hand_over)
        stored = storage.load_table(storage.Database(postgres_url), table_id)
        assert stored is not None
        assert stored.actions[: len(stored_before.actions)] == stored_before.actions
        engine = get_engine(stored.game)
        rules = engine.rules_from_json(stored.rules)
        state, _ = replay_log(engine, rules, stored.seed, stored.actions)
        for person in people:
            assert engine.view(state, person.seat).to_json() == person.state["view"]
    finally:
        launcher.stop()


def reconnect(person: Person, servers: list[Server], table_id: str) -> None:
    """Keep the page's socket if it still works; otherwise connect again with back-off."""
    assert person.ws is not None
    with suppress(Exception):
        if person.ws.ping().wait(5):
            return
    delay = 0.25
    deadline = time.monotonic() + 60
    while True:
        try:
            person.connect(servers[0], table_id)
            return
        except Exception:
            assert time.monotonic() < deadline, "the page could not connect again"
            time.sleep(delay)
            delay = min(delay * 2, 2.0)


class PrivatePostgres:
    """A PostgreSQL cluster of the test's own (initdb in a temporary directory, run as the
    ``postgres`` user on a free port), to stop and start again."""

    def __init__(self) -> None:
        self.port = free_port()
        self.directory = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.data = self.directory / "data"

    @property
    def url(self) -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"

    def _as_postgres(self, *command: str) -> None:
        subprocess.run(
            ["runuser", "-u", "postgres", "--", *command],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )

    def create(self) -> None:
        os.chmod(self.directory, 0o755)
        shutil.chown(self.directory, "postgres", "postgres")
        self._as_postgres("initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.directory} -c listen_addresses=127.0.0.1 -c fsync=off"
        log = str(self.directory / "log")
        self._as_postgres("pg_ctl", "-D", str(self.data), "-o", options, "-l", log, "-w", "start")

    def stop(self) -> None:
        self._as_postgres("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")

    def remove(self) -> None:
        with suppress(subprocess.CalledProcessError):
            self.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


@pytest.fixture
def private_postgres() -> Iterator[PrivatePostgres]:
    if shutil.which("initdb") is None or shutil.which("runuser") is None:
        pytest.fail("initdb and runuser are needed to run a private PostgreSQL")
    server = PrivatePostgres()
    server.create()
    server.start()
    yield server
    server.remove()


def test_postgresql_stopped_during_play_refuses_moves_then_play_resumes(
    private_postgres: PrivatePostgres, redis_url: str, tmp_path: Path
) -> None:
    launcher = Launcher(private_postgres.url, redis_url, tmp_path)
    try:
        servers = launcher.start(2)
        table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 2)
        people[0].connect(servers[0], table_id)
        people[1].connect(servers[1], table_id)  # through the relay
        rng = random.Random(6)
        play_until(people, rng, lambda state: state["version"] >= 6, calm=True)
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
        play_until(people, rng, hand_over)
        db = storage.Database(private_postgres.url)
        stored = storage.load_table(db, table_id)
        assert stored is not None and len(stored.actions) == people[0].state["version"]
        engine = get_engine(stored.game)
        rules = engine.rules_from_json(stored.rules)
        state, _ = replay_log(engine, rules, stored.seed, stored.actions)
        for person in people:
            assert engine.view(state, person.seat).to_json() == person.state["view"]
        db.close()
    finally:
        launcher.stop()
