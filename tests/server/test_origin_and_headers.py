"""Who may talk to the app: pages of other origins can neither play, read a hand nor change a
profile; state-changing requests are JSON only; every answer forbids framing and carries a
Content-Security-Policy; the profile cookie's lifetime and Secure flag follow the settings;
and a profile is created only by the page load or an explicit request."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings

from .conftest import new_table, receive

OTHER_PORT = "http://testserver:8001"


def test_a_page_of_another_origin_cannot_change_the_profile(client: TestClient) -> None:
    response = client.put("/api/profile", json={"name": "Hacked"}, headers={"origin": OTHER_PORT})
    assert response.status_code == 403
    assert "not allowed" in response.json()["detail"]
    assert client.get("/api/profile").json()["name"] == "Player"


@pytest.mark.parametrize("origin", [OTHER_PORT, "http://evil.example", "null"])
def test_state_changing_requests_from_other_origins_are_refused(
    client: TestClient, origin: str
) -> None:
    table_id = new_table(client, "indecision")
    headers = {"origin": origin}
    assert (
        client.post("/api/tables", json={"game": "indecision"}, headers=headers).status_code == 403
    )
    assert client.post(f"/api/tables/{table_id}/join", headers=headers).status_code == 403
    assert client.delete(f"/api/tables/{table_id}", headers=headers).status_code == 403
    assert client.post("/api/profile/import", json={}, headers=headers).status_code == 403
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_the_servers_own_origin_is_accepted(client: TestClient) -> None:
    for origin in ("http://testserver", "http://TESTSERVER:80"):
        response = client.put("/api/profile", json={"name": "Ann"}, headers={"origin": origin})
        assert response.status_code == 200, origin


def test_a_text_plain_form_cannot_change_the_profile(client: TestClient) -> None:
    response = client.put(
        "/api/profile", content=b'{"name": "Hacked"}', headers={"content-type": "text/plain"}
    )
    assert response.status_code == 415
    assert "application/json" in response.json()["detail"]
    form = client.post(
        "/api/tables/x/join",
        content=b"a=b",
        headers={"content-type": "application/x-www-form-urlencoded"},
    )
    assert form.status_code == 415
    assert client.get("/api/profile").json()["name"] == "Player"


def test_configured_origins_are_allowed(make_client: Callable[..., TestClient]) -> None:
    client = make_client(settings=Settings(allowed_origins=("https://cards.example.org",)))
    allowed = client.put(
        "/api/profile", json={"name": "Ann"}, headers={"origin": "https://cards.example.org"}
    )
    assert allowed.status_code == 200
    refused = client.put(
        "/api/profile", json={"name": "Bo"}, headers={"origin": "https://other.example.org"}
    )
    assert refused.status_code == 403


def test_allowed_origins_are_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CARDTABLE_ALLOWED_ORIGINS", "https://a.example, http://b.example:8080/")
    assert Settings().allowed_origins == ("https://a.example", "http://b.example:8080")
    monkeypatch.setenv("CARDTABLE_ALLOWED_ORIGINS", "a.example")
    with pytest.raises(ValueError, match="is not an origin"):
        Settings()


def test_a_websocket_from_another_origin_is_closed_before_any_state(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    with client.websocket_connect(f"/ws/tables/{table_id}", headers={"origin": OTHER_PORT}) as ws:
        message = receive(ws)
        assert message["type"] == "error" and message["code"] == "forbidden-origin"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1008
    with client.websocket_connect(
        f"/ws/tables/{table_id}", headers={"origin": "http://testserver"}
    ) as ws:
        assert receive(ws)["type"] == "state"


def test_a_frame_over_the_cap_closes_the_connection(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["type"] == "state"
        ws.send_text("x" * (64 * 1024 + 1))
        assert receive(ws)["code"] == "too-large"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 1009


def test_every_answer_forbids_framing_and_carries_a_content_security_policy(
    client: TestClient,
) -> None:
    for path in ("/", "/api/games", "/static/js/api.js", "/api/nothing"):
        headers = client.get(path).headers
        policy = headers["content-security-policy"]
        assert "frame-ancestors 'none'" in policy and "script-src 'self'" in policy
        assert "default-src 'self'" in policy and "object-src 'none'" in policy
        assert headers["x-frame-options"] == "DENY"
        assert headers["x-content-type-options"] == "nosniff"


def test_the_cookie_lasts_half_a_year_by_default_not_ten_years(client: TestClient) -> None:
    fresh = TestClient(client.app)
    cookie = fresh.get("/").headers["set-cookie"]
    assert f"Max-Age={180 * 24 * 3600}" in cookie
    assert "Secure" not in cookie and "HttpOnly" in cookie


def test_cookie_lifetime_and_secure_flag_follow_the_settings(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=Settings(cookie_max_age=3600, cookie_secure=True), profile=False)
    cookie = client.post("/api/profile").headers["set-cookie"]
    assert "Max-Age=3600" in cookie and "Secure" in cookie


def test_the_cookie_is_secure_when_the_page_is_served_over_https(client: TestClient) -> None:
    fresh = TestClient(client.app, base_url="https://testserver")
    assert "Secure" in fresh.get("/").headers["set-cookie"]


def test_requests_without_a_profile_do_not_create_one(client: TestClient) -> None:
    fresh = TestClient(client.app)
    for response in (
        fresh.get("/api/profile"),
        fresh.get("/api/tables"),
        fresh.get("/api/tables/nope"),
        fresh.get("/api/record"),
        fresh.post("/api/tables", json={"game": "indecision"}),
    ):
        assert response.status_code in (401, 404), response.text
        assert "set-cookie" not in response.headers
    assert fresh.get("/api/profile").json()["detail"].startswith("no profile: load the page")
    assert fresh.get("/api/games").status_code == 200  # the catalogue needs no profile


def test_an_unknown_cookie_gets_401_not_a_new_profile(client: TestClient) -> None:
    fresh = TestClient(client.app, cookies={COOKIE_NAME: "forged-token"})
    response = fresh.get("/api/profile")
    assert response.status_code == 401 and "set-cookie" not in response.headers


def test_no_page_of_the_app_loads_scripts_from_elsewhere(client: TestClient) -> None:
    assert client.get("/api/docs").status_code == 404
    assert client.get("/api/openapi.json").status_code == 200
    page = client.get("/").text
    assert "http://" not in page and "https://" not in page
