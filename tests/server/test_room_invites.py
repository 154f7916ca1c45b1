"""A people's table's invite after the host removes somebody, and the host's lock: the removed
person's link opens nothing (a fresh cookie brings them back no more), the host is sent the
new link, and a locked room lets nobody new in, nor lists itself in the lobby."""

from __future__ import annotations

from fastapi.testclient import TestClient

from .conftest import receive
from .online import friend, join, shared_table, until

THREE = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]


def test_a_removed_person_cannot_rejoin_with_a_fresh_cookie_and_the_old_link(
    client: TestClient,
) -> None:
    table = shared_table(client, "indian-rummy", THREE)
    table_id, token = table["table_id"], table["invite"]["token"]
    bob = friend(client)
    join(bob, token, "Bob")
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        receive(host)
        host.send_json({"type": "remove", "seat": 1})
        room = until(
            host, lambda m: m["type"] == "room" and m["room"]["seats"][1]["kind"] == "open"
        )["room"]
    new_token = room["invite"]["token"]
    assert new_token != token
    # Bob again, as a new visitor: the old link is dead, and says so.
    fresh = friend(client)
    for path, body in (
        ("/api/invites/peek", {"token": token}),
        ("/api/invites/join", {"token": token, "name": "Bob"}),
    ):
        answer = fresh.post(path, json=body)
        assert answer.status_code == 404, answer.text
        assert "invite link is not valid" in answer.json()["detail"]
    # The host's new link works for someone else, and the table's page shows it to the host.
    carol = friend(client)
    assert join(carol, new_token, "Carol")["seat"] == 1
    assert client.get(f"/api/tables/{table_id}").json()["shared"]["invite"]["token"] == new_token


def test_a_locked_room_lets_nobody_new_join_nor_shows_in_the_lobby(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", THREE, public=True)
    table_id, token = table["table_id"], table["invite"]["token"]
    bob = friend(client)
    join(bob, token, "Bob")
    listed = {entry["table_id"] for entry in client.get("/api/lobby").json()}
    assert table_id in listed
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        receive(host)
        host.send_json({"type": "lock", "locked": "yes"})
        assert until(host, lambda m: m["type"] == "error")["code"] == "malformed"
        host.send_json({"type": "lock", "locked": True})
        assert until(host, lambda m: m["type"] == "room")["room"]["locked"] is True
        with bob.websocket_connect(f"/ws/tables/{table_id}") as guest:
            receive(guest)
            guest.send_json({"type": "lock", "locked": False})
            assert until(guest, lambda m: m["type"] == "error")["code"] == "not-host"
    stranger = friend(client)
    refused = stranger.post("/api/invites/join", json={"token": token, "name": "Eve"})
    assert refused.status_code == 403
    assert refused.json()["detail"] == "the host has locked this table: nobody new may join it"
    watching = stranger.post(
        "/api/invites/join", json={"token": token, "name": "Eve", "watch": True}
    )
    assert watching.status_code == 403
    assert table_id not in {entry["table_id"] for entry in client.get("/api/lobby").json()}
    # Members keep their places: Bob on another device is seated where he was.
    assert bob.post("/api/invites/join", json={"token": token, "name": "Bob"}).json()["seat"] == 1
