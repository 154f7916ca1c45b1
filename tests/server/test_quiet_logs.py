"""Expected events log no traceback: a websocket frame that is not valid UTF-8, a page closed
while it was being answered, a relayed frame while Redis is away, and connections told that
their table moved when they cannot be reached."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from redis.asyncio import Redis
from starlette.websockets import WebSocketDisconnect, WebSocketDisconnected
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from cardtable.server.app import create_app
from cardtable.server.cluster.lease import Leases
from cardtable.server.cluster.redis_bus import RedisBus
from cardtable.server.cluster.redis_leases import RedisLeaseTable
from cardtable.server.cluster.relay import Relay, RemoteConnection
from cardtable.server.context import context_of
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.protocol.messages import Outgoing
from cardtable.server.protocol.websocket import SocketConnection
from cardtable.server.settings import Settings

from .conftest import new_table, portal_of, run_async
from .live import free_port, serving

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def _tracebacks(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        f"{r.name}: {r.getMessage()}"
        for r in caplog.records
        if r.exc_info is not None or r.levelno >= logging.ERROR
    ]


def _live_table(base: str) -> tuple[str, dict[str, str]]:
    """A table of a new profile on the live server; its id and the socket's headers."""
    with httpx.Client(base_url=base, headers={"Origin": base}, timeout=10) as http:
        assert http.post("/api/profile").status_code == 201
        made = http.post("/api/tables", json={"game": "indian-rummy", "seats": SEATS})
        assert made.status_code == 201, made.text
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    return made.json()["table_id"], {"Cookie": cookie, "Origin": base}


def _wait_for(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "the condition did not hold in time"
        time.sleep(0.05)


def test_a_frame_that_is_not_utf8_is_one_line_without_a_traceback(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    app = create_app(f"sqlite:///{tmp_path / 'cards.sqlite3'}", settings=Settings(test_seed=7))
    with serving(app) as port:
        table_id, headers = _live_table(f"http://127.0.0.1:{port}")
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
        with connect(url, additional_headers=headers, open_timeout=10) as ws:
            ws.recv(timeout=10)
            ws.send(b'{"type": "ping", "x": "\xff\xfe"}', text=True)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
        _wait_for(lambda: any("Invalid UTF-8" in r.getMessage() for r in caplog.records))
    assert _tracebacks(caplog) == []


def test_a_page_closed_before_it_was_answered_is_no_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    caplog.set_level(logging.INFO)
    answered: list[str] = []
    original = Lobby.get

    async def slow_get(self: Lobby, table_id: str) -> Any:
        await asyncio.sleep(0.5)  # the page closes meanwhile
        try:
            return await original(self, "no-such-table")  # answered "no table"
        finally:
            answered.append(table_id)

    monkeypatch.setattr(Lobby, "get", slow_get)
    app = create_app(f"sqlite:///{tmp_path / 'cards.sqlite3'}", settings=Settings(test_seed=7))
    with serving(app) as port:
        table_id, headers = _live_table(f"http://127.0.0.1:{port}")
        url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
        for _ in range(3):
            with connect(url, additional_headers=headers, open_timeout=10):
                pass  # closed at once, before the server answers
        _wait_for(lambda: len(answered) == 3)
        time.sleep(0.3)  # the answers' writes fail after the lookups
    assert _tracebacks(caplog) == []


class _GoneSocket:
    """A websocket Starlette has closed on this side: every write raises."""

    async def send_text(self, _text: str) -> None:
        raise WebSocketDisconnected('Cannot call "send" once a close message has been sent.')


def test_writing_to_a_socket_closed_on_this_side_says_the_page_went_away() -> None:
    connection = SocketConnection(_GoneSocket())  # type: ignore[arg-type]
    with pytest.raises(WebSocketDisconnect):
        run_async(connection.send({"type": "pong"}))
    assert connection.closed
    run_async(connection.send({"type": "pong"}))  # closed: nothing more is written


def _relay_without_redis() -> tuple[Relay, Redis]:
    # Nothing listens on this loopback port: every publish fails at once.
    redis = Redis.from_url(f"redis://127.0.0.1:{free_port()}/0", socket_connect_timeout=0.5)
    return Relay(RedisBus(redis), Leases(RedisLeaseTable(redis), holder="here")), redis


def test_relayed_frames_while_redis_is_away_log_no_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)

    async def scenario() -> None:
        relay, redis = _relay_without_redis()
        remote = RemoteConnection(relay, "proxy", "c1", "t1")
        await remote.send({"type": "pong"})  # lost, not raised
        await remote.moved()
        # A frame for a table this process does not hold: the proxy is told it moved.
        relay.lobby = type("NoTables", (), {"tables": {}})()
        queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        worker = asyncio.create_task(relay._serve_inbox("t1", queue))
        queue.put_nowait({"op": "frame", "conn": "c1", "holder": "proxy", "raw": "{}"})
        queue.put_nowait({"op": "hello", "conn": "c2", "holder": "proxy", "profile": 1})
        for _ in range(100):
            if queue.empty():
                break
            await asyncio.sleep(0.05)
        await asyncio.sleep(0.3)
        worker.cancel()
        await redis.aclose()

    run_async(scenario())
    assert _tracebacks(caplog) == []


def test_connections_told_their_table_moved_fail_quietly(
    make_client: Callable[..., TestClient], caplog: pytest.LogCaptureFixture
) -> None:
    client = make_client(settings=Settings(test_seed=7, limit_messages="1000/second"))
    table_id = new_table(client, "indian-rummy", seats=SEATS)
    lobby = context_of(client.app).lobby

    class Unreachable:
        async def send(self, _message: Outgoing) -> None:
            return None

        async def moved(self) -> None:
            raise ConnectionError("Redis could not be reached")

    async def drop() -> list[BaseException | None]:
        owner = lobby.tables[table_id]
        owner.attach(0, Unreachable())
        lobby.drop(table_id)
        tasks = list(lobby._telling)
        await asyncio.wait(tasks, timeout=5)
        return [task.exception() for task in tasks]

    assert portal_of(client).call(drop) == [None]
    assert _tracebacks(caplog) == []
