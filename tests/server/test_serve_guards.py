"""What keeps a server sound around its database: a second server on the same SQLite database
refuses to start, a data directory that cannot be written ends ``cardtable serve`` with one
line, and a database that refuses writes (read-only here, as a full disk refuses them) gives
clear errors (JSON over HTTP, an ``unavailable`` error over the websocket) while the tables stay
as they were and the server keeps serving."""

from __future__ import annotations

import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient
from sqlalchemy import event
from sqlalchemy.pool import Pool
from typer.testing import CliRunner

from cardtable import storage
from cardtable.cli.serve import register
from cardtable.server.context import context_of
from cardtable.storage.lock import exclusive_database

from .conftest import new_table, owner_of, receive, wait_for_turn


def serve_app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:  # a second command makes Typer keep the subcommand name
        """Nothing."""

    return app


@pytest.fixture
def uvicorn_runs(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """uvicorn.run replaced by a recorder: the command returns as soon as it would serve."""
    calls: list[Any] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **options: calls.append(app))
    return calls


def test_a_second_server_on_the_same_sqlite_database_refuses_to_start_in_one_line(
    tmp_path: Path, uvicorn_runs: list[Any]
) -> None:
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time\n"
            "from cardtable.storage.lock import exclusive_database\n"
            "with exclusive_database(sys.argv[1]):\n"
            "    print('held', flush=True)\n"
            "    time.sleep(60)\n",
            storage.sqlite_url(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        result = CliRunner().invoke(serve_app(), ["serve", "--data-dir", str(tmp_path)])
        assert result.exit_code == 1
        assert result.output.splitlines() == [
            f"cardtable: another cardtable server (process {holder.pid}) is already using the "
            f"database {tmp_path / 'cardtable.sqlite3'}; stop it first, or give this one "
            "another --data-dir"
        ]
        assert uvicorn_runs == []
    finally:
        holder.kill()
        holder.wait()
    result = CliRunner().invoke(serve_app(), ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert len(uvicorn_runs) == 1


def test_the_lock_is_held_while_serving_and_released_afterwards(tmp_path: Path) -> None:
    url = storage.sqlite_url(tmp_path)
    held = exclusive_database(url)
    held.__enter__()
    with pytest.raises(storage.StorageError, match="already using the database"):
        exclusive_database(url).__enter__()
    held.__exit__(None, None, None)
    with exclusive_database(url):
        pass


@pytest.fixture
def read_only_dir(tmp_path: Path) -> Iterator[Path]:
    """A directory nobody can write to (as root: the immutable attribute)."""
    directory = tmp_path / "read-only"
    directory.mkdir()
    directory.chmod(0o555)
    immutable = False
    if os.access(directory, os.W_OK) and shutil.which("chattr"):
        immutable = subprocess.run(["chattr", "+i", str(directory)], check=False).returncode == 0
    try:
        probe = directory / "probe"
        try:
            probe.touch()
        except OSError:
            yield directory
        else:
            probe.unlink()
            pytest.skip("no way to make a directory read-only here")
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(directory)], check=True)
        directory.chmod(0o755)


def test_a_read_only_data_directory_ends_serve_with_one_line(
    read_only_dir: Path, uvicorn_runs: list[Any]
) -> None:
    result = CliRunner().invoke(serve_app(), ["serve", "--data-dir", str(read_only_dir)])
    assert result.exit_code == 1
    (line,) = result.output.splitlines()
    assert line.startswith(f"cardtable: cannot write to {read_only_dir}")
    assert line.endswith("give a writable --data-dir or CARDTABLE_DATA_DIR")
    assert "Traceback" not in result.output and uvicorn_runs == []


@pytest.fixture(autouse=True)
def opened() -> Iterator[list[sqlite3.Connection]]:
    """Every SQLite connection the test's databases open (listening from before the app
    exists), so that :func:`refuse_writes` can reach the log store's writer's too."""
    connections: list[sqlite3.Connection] = []

    def connected(dbapi_connection: Any, _record: Any) -> None:
        if isinstance(dbapi_connection, sqlite3.Connection):
            connections.append(dbapi_connection)

    event.listen(Pool, "connect", connected)
    yield connections
    event.remove(Pool, "connect", connected)


def refuse_writes(client: TestClient, opened: list[sqlite3.Connection]) -> Callable[[], None]:
    """From now on the database refuses every write for real, as SQLite does a read-only
    database (``PRAGMA query_only`` on each of its connections, those opened later too),
    whichever way the server writes; reads still work. Returns how to end it."""
    engine = context_of(client.app).db.engine

    def set_on(connection: sqlite3.Connection, on: bool) -> None:
        with contextlib.suppress(sqlite3.ProgrammingError):  # closed since
            connection.execute(f"PRAGMA query_only = {'ON' if on else 'OFF'}")

    def connected(dbapi_connection: Any, _record: Any) -> None:
        set_on(dbapi_connection, True)

    event.listen(engine, "connect", connected)
    for connection in opened:
        set_on(connection, True)

    def end() -> None:
        event.remove(engine, "connect", connected)
        for connection in opened:
            set_on(connection, False)

    return end


READ_ONLY = "the server's database is read-only, so nothing could be stored; try again later"


def test_a_database_refusing_writes_gives_json_errors_and_the_server_keeps_serving(
    client: TestClient, opened: list[sqlite3.Connection]
) -> None:
    table_id = new_table(client, "indecision")
    refuse_writes(client, opened)
    for _ in range(3):
        answer = client.post("/api/tables", json={"game": "indecision"})
        assert answer.status_code == 503
        assert answer.headers["content-type"] == "application/json"
        assert answer.json() == {"detail": READ_ONLY}
    assert client.get(f"/api/tables/{table_id}").status_code == 200
    assert [t["table_id"] for t in client.get("/api/tables").json()] == [table_id]


def test_a_move_the_database_refuses_to_store_is_refused_and_the_table_is_unchanged(
    client: TestClient, opened: list[sqlite3.Connection]
) -> None:
    table_id = new_table(client, "indian-rummy")
    owner = owner_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        # One move stored first: the log store's writer has its connection open.
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        drawn = receive(ws)
        assert drawn["version"] == state["version"] + 1
        refuse_writes(client, opened)
        before = (owner.version, owner.state, list(owner.log))
        discard = next(a for a in drawn["legal"] if a.startswith("discard"))
        ws.send_json({"type": "action", "version": drawn["version"], "action": discard})
        assert receive(ws) == {"type": "error", "code": "unavailable", "message": READ_ONLY}
        assert (owner.version, owner.state, owner.log) == before
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}
    stored = storage.load_table(context_of(client.app).db, table_id)
    assert stored is not None and len(stored.actions) == before[0]


def test_a_computer_players_move_the_database_cannot_store_is_tried_again_later(
    make_client: Callable[..., TestClient], opened: list[sqlite3.Connection]
) -> None:
    client = make_client(bot_delay_scale=0.5)
    table_id = new_table(client, "indian-rummy")
    owner = owner_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        drawn = receive(ws)
        discard = next(a for a in drawn["legal"] if a.startswith("discard"))
        ws.send_json({"type": "action", "version": drawn["version"], "action": discard})
        ours = receive(ws)
        assert ours["to_move"] == 1 and owner.bot_seat(1)
        # The computer player's move comes while the database refuses writes: not stored.
        end = refuse_writes(client, opened)
        time.sleep(1.5)  # past the computer player's pause (0.4 s): it has tried and failed
        assert owner.version == ours["version"]
        end()
        moved = receive(ws)  # once the database takes writes again, it tries again and moves
        assert moved["version"] == ours["version"] + 1
        assert moved["last_action"]["seat"] == 1
