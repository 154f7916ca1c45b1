"""What ``cardtable serve`` does with the connections themselves, checked on a real server
process on loopback: proxy headers are believed only from the proxies the settings name (so a
local client neither picks its own address for the rate limits nor makes its cookie
``Secure``); a connection that sends nothing, or trickles its request head, is closed after
the head deadline, and so is a websocket that stops answering pings; the number of
connections served at once is bounded; a request naming a host that is not allowed is
refused; ``/metrics`` needs the operator's token."""

from __future__ import annotations

import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import suppress
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest

from .clusterkit import free_port, spawn, stop_group


@dataclass
class Running:
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    """Start ``cardtable serve`` on SQLite with extra ``CARDTABLE_*`` variables and options;
    stopped at the end."""
    started = []

    def start(env: dict[str, str], *options: str) -> Running:
        port = free_port()
        log = tmp_path / f"serve-{port}.log"
        data = tmp_path / f"data-{port}"
        command = [str(Path(sys.executable).parent / "cardtable"), "serve", "--port", str(port)]
        environment = {
            **os.environ,
            "CARDTABLE_BOT_PROCESSES": "0",
            "CARDTABLE_ANALYSE_FINISHED_HANDS": "false",
            **env,
        }
        process = spawn([*command, "--data-dir", str(data), *options], log, env=environment)
        started.append(process)
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            with suppress(httpx.HTTPError):
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                    return Running(port, log)
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)

    yield start
    for process in started:
        stop_group(process, grace=5.0)


def open_connections(port: int, count: int) -> list[socket.socket]:
    connections = []
    for _ in range(count):
        connection = socket.create_connection(("127.0.0.1", port), timeout=5)
        connection.setblocking(False)
        connections.append(connection)
    return connections


def closed_by_server(connection: socket.socket) -> bool:
    """Whether the server has closed ``connection`` (end of stream or a reset)."""
    try:
        data = connection.recv(4096)
    except BlockingIOError:
        return False
    except OSError:
        return True
    return data == b""


def test_forwarded_headers_from_a_local_client_are_ignored_by_default(serve: Any) -> None:
    server = serve({"CARDTABLE_LIMIT_PROFILES": "3/minute"})
    answers = []
    for n in range(5):
        # Each request claims another client address and HTTPS, as a proxy would say.
        headers = {"X-Forwarded-For": f"203.0.113.{n + 1}", "X-Forwarded-Proto": "https"}
        answers.append(httpx.post(f"{server.url}/api/profile", headers=headers, timeout=10))
    assert [answer.status_code for answer in answers] == [201, 201, 201, 429, 429]
    assert "secure" not in answers[0].headers["set-cookie"].lower()


def test_forwarded_headers_from_a_named_proxy_are_believed(serve: Any) -> None:
    server = serve({"CARDTABLE_LIMIT_PROFILES": "1/minute"}, "--forwarded-allow-ips", "127.0.0.1")
    answers = []
    for n in range(3):
        headers = {"X-Forwarded-For": f"203.0.113.{n + 1}", "X-Forwarded-Proto": "https"}
        answers.append(httpx.post(f"{server.url}/api/profile", headers=headers, timeout=10))
    # Three visitors behind the proxy: each has a budget of their own.
    assert [answer.status_code for answer in answers] == [201, 201, 201]
    assert "secure" in answers[0].headers["set-cookie"].lower()
    again = httpx.post(
        f"{server.url}/api/profile", headers={"X-Forwarded-For": "203.0.113.1"}, timeout=10
    )
    assert again.status_code == 429


def test_silent_and_trickling_connections_are_closed_after_the_head_deadline(
    serve: Any,
) -> None:
    server = serve({"CARDTABLE_HEADER_TIMEOUT_SECONDS": "1"})
    silent = open_connections(server.port, 150)
    trickling = open_connections(server.port, 150)
    started = time.monotonic()
    head = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 200
    step = 0
    open_ones = silent + trickling
    deadline = started + 20
    while open_ones and time.monotonic() < deadline:
        for connection in trickling:
            with suppress(OSError):  # closed by the server meanwhile
                connection.send(head[step % len(head) : step % len(head) + 1])
        step += 1
        time.sleep(0.1)
        open_ones = [c for c in open_ones if not closed_by_server(c)]
    try:
        assert not open_ones, f"{len(open_ones)} of 300 connections still open after 20 s"
        # The server still answers others, and a keep-alive connection that answered once
        # gets the same deadline for its next request's head.
        with httpx.Client(base_url=server.url, timeout=10) as client:
            assert client.get("/healthz").status_code == 200
    finally:
        for connection in silent + trickling:
            connection.close()


def test_a_websocket_that_stops_answering_pings_is_closed(serve: Any) -> None:
    server = serve({"CARDTABLE_WS_PING_SECONDS": "0.5", "CARDTABLE_BOT_DELAY_SCALE": "0"})
    with httpx.Client(base_url=server.url, headers={"Origin": server.url}, timeout=10) as http:
        assert http.post("/api/profile").status_code == 201
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        created = http.post("/api/tables", json={"game": "indecision", "seats": seats})
        assert created.status_code == 201, created.text
        table_id = created.json()["table_id"]
        cookie = "; ".join(f"{name}={value}" for name, value in http.cookies.items())
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=10)
    try:
        connection.sendall(
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
            f"Origin: {server.url}\r\nCookie: {cookie}\r\n\r\n".encode()
        )
        # The seat's socket stays open while pings are answered: read the server's frames,
        # never answering a ping, until it closes the socket.
        connection.settimeout(1)
        received = b""
        opcodes: list[int] = []
        deadline = time.monotonic() + 15
        while 0x8 not in opcodes and time.monotonic() < deadline:
            with suppress(TimeoutError):
                chunk = connection.recv(65536)
                if not chunk:
                    break
                received += chunk
            head, _, frames = received.partition(b"\r\n\r\n")
            opcodes = [opcode for opcode, _ in server_frames(frames)]
        assert head.startswith(b"HTTP/1.1 101"), head
        payloads = [payload for opcode, payload in server_frames(frames) if opcode == 0x1]
        assert any(b'"type":"state"' in payload for payload in payloads), payloads[:1]
        assert 0x9 in opcodes and 0x8 in opcodes, opcodes  # pinged, then closed
    finally:
        connection.close()


def server_frames(data: bytes) -> list[tuple[int, bytes]]:
    """The complete websocket frames at the start of ``data`` (the server's are unmasked)."""
    frames = []
    at = 0
    while at + 2 <= len(data):
        opcode, length = data[at] & 0x0F, data[at + 1] & 0x7F
        at += 2
        if length == 126:
            length, at = int.from_bytes(data[at : at + 2]), at + 2
        elif length == 127:
            length, at = int.from_bytes(data[at : at + 8]), at + 8
        if at + length > len(data):
            break
        frames.append((opcode, data[at : at + length]))
        at += length
    return frames


def test_connections_served_at_once_are_bounded(serve: Any) -> None:
    server = serve({"CARDTABLE_MAX_CONNECTIONS": "5", "CARDTABLE_HEADER_TIMEOUT_SECONDS": "60"})
    held = open_connections(server.port, 5)
    try:
        time.sleep(0.3)  # let the server accept them all
        answer = httpx.get(f"{server.url}/healthz", timeout=10)
        assert answer.status_code == 503
    finally:
        for connection in held:
            connection.close()
    deadline = time.monotonic() + 10
    while httpx.get(f"{server.url}/healthz", timeout=10).status_code != 200:
        assert time.monotonic() < deadline
        time.sleep(0.2)


def test_a_request_for_another_host_is_refused(serve: Any) -> None:
    server = serve({"CARDTABLE_ALLOWED_HOSTS": "cards.example.org,127.0.0.1"})
    evil = httpx.get(f"{server.url}/healthz", headers={"Host": "evil.example"}, timeout=10)
    assert evil.status_code == 400
    good = httpx.get(f"{server.url}/healthz", headers={"Host": "cards.example.org"}, timeout=10)
    assert good.status_code == 200
    assert httpx.get(f"{server.url}/healthz", timeout=10).status_code == 200
