"""Helpers of the people's-table tests: friends on the same app (sharing its event loop),
a shared table made and joined through its invite, and reading a socket until a message
matches."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from .conftest import receive


def friend(client: TestClient, name: str | None = None) -> TestClient:
    """Another browser on the same app, with its own profile, on the app's event loop (the
    table's locks and timers live there)."""
    other = TestClient(client.app)
    other.portal = client.portal
    assert other.post("/api/profile").status_code == 201
    if name is not None:
        assert other.put("/api/profile", json={"name": name}).status_code == 200
    return other


def shared_table(
    client: TestClient,
    game: str,
    seats: list[dict[str, Any]],
    *,
    rules: dict[str, Any] | None = None,
    **shared: Any,
) -> dict[str, Any]:
    """A people's table made by ``client``: the answer (table id, seat, invite)."""
    response = client.post(
        "/api/tables",
        json={"game": game, "rules": rules or {}, "seats": seats, "shared": shared},
    )
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def join(client: TestClient, token: str, name: str, **extra: Any) -> dict[str, Any]:
    """Join with the invite token; the answer."""
    response = client.post("/api/invites/join", json={"token": token, "name": name, **extra})
    assert response.status_code == 200, response.text
    answer: dict[str, Any] = response.json()
    return answer


def until(
    ws: WebSocketTestSession,
    match: Callable[[dict[str, Any]], bool],
    seen: list[dict[str, Any]] | None = None,
    limit: int = 2000,
) -> dict[str, Any]:
    """Read messages until one matches; every message read goes to ``seen``."""
    for _ in range(limit):
        message = receive(ws)
        if seen is not None:
            seen.append(message)
        if match(message):
            return message
    raise AssertionError("no matching message")


def is_state(message: dict[str, Any]) -> bool:
    """A state message."""
    return bool(message["type"] == "state")
