"""Fixtures for the web app's tests: an app over a temporary SQLite file, clients with their own
profile cookies, and helpers that read websocket messages with a time limit and play moves; and
the shared PostgreSQL and Redis of the database and cluster tests (a fresh schema, a Redis URL),
which skip only when the service is unreachable and ``CI`` is not set (in CI they fail)."""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
from collections.abc import Callable, Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import anyio
import pytest
import redis
from anyio.from_thread import BlockingPortal
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError
from starlette.testclient import WebSocketTestSession

from cardtable.server.app import create_app
from cardtable.server.cluster.wiring import Cluster
from cardtable.server.context import context_of
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings
from cardtable.server.table.owner import TableOwner

POSTGRES_URL = os.environ.get(
    "CARDTABLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)
REDIS_URL = os.environ.get("CARDTABLE_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
T = TypeVar("T")
RECEIVE_TIMEOUT = 20.0
CARD_LABEL = re.compile(r"\b(?:10|[2-9AJQK])[SHDC]\b")


SERVICE_FIXTURES = frozenset({"postgres_url", "redis_url"})


def pytest_itemcollected(item: pytest.Item) -> None:
    """Mark the tests that use the shared PostgreSQL or Redis (directly or through another
    fixture) ``services``, so that ``-m "not services"`` runs without them."""
    if SERVICE_FIXTURES & set(getattr(item, "fixturenames", ())):
        item.add_marker(pytest.mark.services)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, dropped afterwards."""
    engine = create_engine(POSTGRES_URL)
    try:
        connection = engine.connect()
    except OperationalError:
        engine.dispose()
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_URL}")
    schema = f"cardtable_test_{secrets.token_hex(6)}"
    with connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
        connection.commit()
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            connection.commit()
        engine.dispose()


@pytest.fixture
def redis_url() -> str:
    """The test Redis (tests use fresh table ids, so they never meet each other's keys)."""
    try:
        with redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3) as client:
            client.ping()
    except redis.RedisError:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"Redis is not reachable at {REDIS_URL}")
    return REDIS_URL


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    """A fresh SQLite database file."""
    return f"sqlite:///{tmp_path / 'cardtable.sqlite3'}"


@pytest.fixture
def make_client(db_url: str) -> Iterator[Callable[..., TestClient]]:
    """Start apps over the test database: computer players without pauses, deals from the
    test seed 7 and messages at any pace unless ``bot_delay_scale`` or ``settings`` say
    otherwise; each app's client holds a new profile unless ``profile`` is false. All are
    closed at the end of the test."""
    stack: list[TestClient] = []

    def start(
        *,
        url: str | None = None,
        bot_delay_scale: float = 0.0,
        settings: Settings | None = None,
        profile: bool = True,
    ) -> TestClient:
        if settings is None:
            # Test clients play as fast as the computer players: far past a person's pace.
            settings = Settings(test_seed=7, limit_messages="1000/second")
        app = create_app(url or db_url, settings=settings, bot_delay_scale=bot_delay_scale)
        client = TestClient(app)
        client.__enter__()
        stack.append(client)
        if profile:
            assert client.post("/api/profile").status_code == 201
        return client

    yield start
    for client in reversed(stack):
        client.__exit__(None, None, None)


@pytest.fixture
def client(make_client: Callable[..., TestClient]) -> TestClient:
    """A client of an app whose computer players move at once; it has a profile cookie."""
    return make_client()


def run_async(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end on a fresh event loop in a thread of its own (the test's
    thread may already run one: Playwright's, in the browser tests of the same worker)."""
    with ThreadPoolExecutor(max_workers=1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def visitor(client: TestClient) -> TestClient:
    """Another browser on the same app, with a profile of its own."""
    other = TestClient(client.app)
    assert other.post("/api/profile").status_code == 201
    return other


def portal_of(client: TestClient) -> BlockingPortal:
    """The open test client's portal, which runs coroutines on the app's own loop."""
    assert client.portal is not None, "the test client is not open"
    return client.portal


def cluster_of(client: TestClient) -> Cluster:
    """The cluster wiring of an app made with a Redis URL."""
    cluster = client.app.state.cluster  # type: ignore[attr-defined]
    assert isinstance(cluster, Cluster)
    return cluster


def cookie_of(client: TestClient) -> str:
    """The client's profile token."""
    token: str | None = client.cookies.get(COOKIE_NAME)
    assert token
    return token


def owner_of(client: TestClient, table_id: str) -> TableOwner:
    """The table owner in the app's memory."""
    return context_of(client.app).lobby.tables[table_id]


def new_table(
    client: TestClient,
    game: str,
    *,
    rules: dict[str, Any] | None = None,
    seats: list[dict[str, Any]] | None = None,
    seed: int = 7,
) -> str:
    """Create a table dealt from ``seed`` (bots at level random unless the seats say
    otherwise); its id. The seed is the server's test setting: the API takes none."""
    if seats is None:
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    deal_from(client, seed)
    response = client.post("/api/tables", json={"game": game, "rules": rules or {}, "seats": seats})
    assert response.status_code == 201, response.text
    table_id: str = response.json()["table_id"]
    return table_id


def deal_from(client: TestClient, seed: int) -> None:
    """Make the app deal its next tables from ``seed`` (its server-side test setting)."""
    lobby = context_of(client.app).lobby
    lobby.settings = lobby.settings.model_copy(update={"test_seed": seed})


def receive(ws: WebSocketTestSession, timeout: float = RECEIVE_TIMEOUT) -> dict[str, Any]:
    """The next server message, failing the test instead of hanging if none comes."""

    async def next_message() -> Any:
        with anyio.fail_after(timeout):
            return await ws._send_rx.receive()

    message = ws.portal.call(next_message)
    ws._raise_on_close(message)
    data: dict[str, Any] = json.loads(message["text"])
    return data


def receive_type(ws: WebSocketTestSession, kind: str) -> dict[str, Any]:
    """The next message of type ``kind``, skipping state updates."""
    while True:
        message = receive(ws)
        if message["type"] == kind:
            return message
        assert message["type"] == "state", message


def wait_for_turn(ws: WebSocketTestSession, first: dict[str, Any] | None = None) -> dict[str, Any]:
    """Read states until the seat may act or the game is over; that state."""
    state = first if first is not None else receive(ws)
    while True:
        assert state["type"] == "state", state
        if state["result"] is not None or (state["to_move"] == state["seat"] and state["legal"]):
            return state
        state = receive(ws)


def play_to_end(
    ws: WebSocketTestSession,
    rng: random.Random,
    *,
    choose: Callable[[dict[str, Any], random.Random], str] | None = None,
    on_state: Callable[[dict[str, Any]], None] | None = None,
    max_moves: int = 5000,
    first: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play the seat's moves (random legal ones unless ``choose`` says) until the game ends;
    every state message goes to ``on_state``; ``first`` is a state already received. The
    final state."""
    state = receive(ws) if first is None else first
    for _ in range(max_moves):
        assert state["type"] == "state", state
        if on_state is not None:
            on_state(state)
        if state["result"] is not None:
            return state
        if state["to_move"] == state["seat"] and state["legal"]:
            action = choose(state, rng) if choose else rng.choice(state["legal"])
            ws.send_json({"type": "action", "version": state["version"], "action": action})
        state = receive(ws)
    raise AssertionError(f"the game did not end within {max_moves} moves")


def card_labels(data: Any) -> set[str]:
    """Every regular card label mentioned anywhere in JSON data."""
    return set(CARD_LABEL.findall(json.dumps(data)))
