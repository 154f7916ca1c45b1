"""Rate limits: per client address and per profile on new profiles, new tables and imports;
per connection on websocket messages; on the websockets one profile holds open. Each refusal
is a 429 (or a websocket error and close code 4429) with a sentence, and nothing is changed."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.rate_limits import CLOSE_RATE_LIMITED
from cardtable.server.settings import Settings

from .conftest import new_table, receive, visitor

IMPORT = {"format": "cardtable-profile", "version": 1, "record": []}


def _limited(make_client: Callable[..., TestClient], **limits: object) -> TestClient:
    return make_client(settings=Settings(test_seed=7, **limits))  # type: ignore[arg-type]


def test_new_tables_per_profile_are_limited(make_client: Callable[..., TestClient]) -> None:
    client = _limited(make_client, limit_tables="3/minute")
    for _ in range(3):
        assert client.post("/api/tables", json={"game": "indecision"}).status_code == 201
    response = client.post("/api/tables", json={"game": "indecision"})
    assert response.status_code == 429
    assert response.json()["detail"].startswith("too many new tables: at most 3 per minute")
    assert int(response.headers["retry-after"]) >= 1
    assert len(client.get("/api/tables").json()) == 3


def test_new_tables_per_address_are_limited_across_profiles(
    make_client: Callable[..., TestClient],
) -> None:
    client = _limited(make_client, limit_tables="2/minute")
    other = visitor(client)
    assert client.post("/api/tables", json={"game": "indecision"}).status_code == 201
    assert other.post("/api/tables", json={"game": "indecision"}).status_code == 201
    assert other.post("/api/tables", json={"game": "indecision"}).status_code == 429


def test_a_refused_table_request_does_not_use_up_the_limit(
    make_client: Callable[..., TestClient],
) -> None:
    client = _limited(make_client, limit_tables="1/minute")
    assert client.post("/api/tables", json={"game": "chess"}).status_code == 400
    assert client.post("/api/tables", json={"game": "indecision"}).status_code == 201


def test_new_profiles_per_address_are_limited(make_client: Callable[..., TestClient]) -> None:
    client = _limited(make_client, limit_profiles="3/minute")  # its own profile is the first
    assert TestClient(client.app).post("/api/profile").status_code == 201
    assert TestClient(client.app).get("/").status_code == 200
    fresh = TestClient(client.app)
    response = fresh.post("/api/profile")
    assert response.status_code == 429 and "too many new profiles" in response.json()["detail"]
    page = fresh.get("/")
    assert page.status_code == 200 and "set-cookie" not in page.headers


def test_imports_are_limited(make_client: Callable[..., TestClient]) -> None:
    client = _limited(make_client, limit_imports="2/minute")
    for _ in range(2):
        assert client.post("/api/profile/import", json=IMPORT).status_code == 200
    response = client.post("/api/profile/import", json={**IMPORT, "name": "Changed"})
    assert response.status_code == 429 and "too many record imports" in response.json()["detail"]
    assert client.get("/api/profile").json()["name"] == "Player"


def test_websocket_messages_per_connection_are_limited(
    make_client: Callable[..., TestClient],
) -> None:
    client = _limited(make_client, limit_messages="3/minute")
    table_id = new_table(client, "indecision")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["type"] == "state"
        for _ in range(3):
            ws.send_json({"type": "ping"})
            assert receive(ws)["type"] == "pong"
        ws.send_json({"type": "ping"})
        refused = receive(ws)
        assert refused["code"] == "rate-limited"
        assert refused["message"].startswith("too many messages: at most 3 per minute")


def test_websockets_one_profile_holds_open_are_limited(
    make_client: Callable[..., TestClient],
) -> None:
    client = _limited(make_client, max_sockets_per_profile=2)
    table_id = new_table(client, "indecision")
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as first, client.websocket_connect(url) as second:
        assert receive(first)["type"] == "state" and receive(second)["type"] == "state"
        with client.websocket_connect(url) as third:
            assert receive(third)["code"] == "rate-limited"
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(third)
            assert closed.value.code == CLOSE_RATE_LIMITED
    with client.websocket_connect(url) as again:  # the first two closed: room again
        assert receive(again)["type"] == "state"


def test_websockets_opened_per_address_are_limited(
    make_client: Callable[..., TestClient],
) -> None:
    client = _limited(make_client, limit_sockets="2/minute")
    table_id = new_table(client, "indecision")
    for _ in range(2):
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            assert receive(ws)["type"] == "state"
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert "too many new connections" in receive(ws)["message"]


def test_limits_are_checked_when_the_settings_are_read() -> None:
    with pytest.raises(ValueError, match="is not a rate limit"):
        Settings(limit_tables="lots")
