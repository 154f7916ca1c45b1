"""People's tables: invite links, the waiting room and its host controls, spectators, client
ids, races between seats, and who may act for which seat."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from cardtable.server.settings import Settings

from .conftest import owner_of, receive
from .online import friend, is_state, join, shared_table, until

IR_THREE = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]


def _two_people(
    host: TestClient, game: str = "indian-rummy", **shared: Any
) -> tuple[dict[str, Any], TestClient]:
    table = shared_table(host, game, IR_THREE, rules={"deals": 1}, **shared)
    bob = friend(host)
    assert join(bob, table["invite"]["token"], "Bob") == {
        "table_id": table["table_id"],
        "seat": 1,
        "role": "player",
    }
    return table, bob


# --- invites -----------------------------------------------------------------------------------


def test_the_invite_token_is_unguessable_and_lives_only_in_the_link_fragment(
    client: TestClient,
) -> None:
    tokens = set()
    for _ in range(5):
        table = shared_table(client, "indecision", [{"kind": "human"}, {"kind": "human"}])
        invite = table["invite"]
        assert invite["url"] == "/#/join/" + invite["token"]
        assert len(invite["token"]) >= 22  # 128 random bits, url-safe
        assert invite["token"] not in table["table_id"]
        tokens.add(invite["token"])
    assert len(tokens) == 5


def test_an_unknown_or_malformed_invite_token_is_refused_with_a_sentence(
    client: TestClient,
) -> None:
    table = shared_table(client, "indecision", [{"kind": "human"}, {"kind": "human"}])
    stranger = friend(client)
    token = table["invite"]["token"]
    wrong = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    for bad in (wrong, "short"):
        peeked = stranger.post("/api/invites/peek", json={"token": bad})
        joined = stranger.post("/api/invites/join", json={"token": bad, "name": "Eve"})
        for response in (peeked, joined):
            assert response.status_code == 404, response.text
            assert "invite link is not valid" in response.json()["detail"]
    room = owner_of(client, table["table_id"]).people.room
    assert room is not None and len(room.members) == 1


def test_peek_shows_the_waiting_room_before_joining(client: TestClient) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    table = shared_table(client, "indian-rummy", IR_THREE, spectators=False)
    bob = friend(client)
    seen = bob.post("/api/invites/peek", json={"token": table["invite"]["token"]}).json()
    assert seen["host"] == "Ann" and seen["phase"] == "waiting"
    assert seen["seats"] == [
        {"seat": 0, "kind": "person", "name": "Ann"},
        {"seat": 1, "kind": "open"},
        {"seat": 2, "kind": "bot", "name": "Ruby", "level": "random"},
    ]
    assert seen["settings"]["spectators"] is False
    assert seen["you"] == {"seat": None, "role": None}


def test_a_people_table_is_joined_only_through_its_invite(client: TestClient) -> None:
    table = shared_table(client, "indecision", [{"kind": "human"}, {"kind": "human"}])
    stranger = friend(client)
    response = stranger.post(f"/api/tables/{table['table_id']}/join")
    assert response.status_code == 403
    assert response.json()["detail"] == "this table is joined through its invite link"
    assert stranger.get(f"/api/tables/{table['table_id']}").status_code == 403
    with stranger.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        message = receive(ws)
        assert message["code"] == "not-member"
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
    assert closed.value.code == 4403


def test_joining_twice_from_another_device_gives_the_same_seat_back(client: TestClient) -> None:
    table, bob = _two_people(client)
    assert join(bob, table["invite"]["token"], "Bob")["seat"] == 1
    info = bob.get(f"/api/tables/{table['table_id']}").json()
    assert info["your_seat"] == 1 and info["shared"]["you"]["seat"] == 1
    assert "invite" not in info["shared"]
    assert "invite" in client.get(f"/api/tables/{table['table_id']}").json()["shared"]


def test_names_are_checked_and_unique_at_the_table(client: TestClient) -> None:
    table, _bob = _two_people(client)
    carol = friend(client)
    token = table["invite"]["token"]
    refused = carol.post("/api/invites/join", json={"token": token, "name": "bob", "watch": True})
    assert refused.status_code == 409
    assert refused.json()["detail"] == "somebody at this table is already called bob"
    long = carol.post("/api/invites/join", json={"token": token, "name": "x" * 41, "watch": True})
    assert long.status_code == 400 and "at most 40 characters" in long.json()["detail"]
    sneaky = carol.post(
        "/api/invites/join", json={"token": token, "name": "Eve\u202e", "watch": True}
    )
    assert sneaky.status_code == 400


def test_a_full_table_offers_watching(client: TestClient) -> None:
    table, _bob = _two_people(client)
    carol = friend(client)
    response = carol.post(
        "/api/invites/join", json={"token": table["invite"]["token"], "name": "Carol"}
    )
    assert response.status_code == 409
    assert response.json()["detail"] == "every seat is taken; you can watch"
    assert join(carol, table["invite"]["token"], "Carol", watch=True) == {
        "table_id": table["table_id"],
        "seat": None,
        "role": "spectator",
    }


# --- the waiting room --------------------------------------------------------------------------


def test_only_the_host_starts_and_only_when_no_seat_is_open(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    bob = friend(client)
    table_id = table["table_id"]
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        room = receive(host)
        assert room["type"] == "room" and room["room"]["can_start"] is False
        host.send_json({"type": "start"})
        refused = until(host, lambda m: m["type"] == "error")
        assert refused["code"] == "not-ready"
        assert refused["message"].startswith("seat 1 is still open")
        join(bob, table["invite"]["token"], "Bob")
        with bob.websocket_connect(f"/ws/tables/{table_id}") as guest:
            assert receive(guest)["room"]["you"] == {"seat": 1, "role": "player", "host": False}
            guest.send_json({"type": "start"})
            assert until(guest, lambda m: m["type"] == "error")["code"] == "not-host"
            assert owner_of(client, table_id).people.room.phase == "waiting"  # type: ignore[union-attr]
            host.send_json({"type": "start"})
            first = until(guest, is_state)
            assert first["seat"] == 1 and first["room"]["phase"] == "playing"
            assert len(first["view"]["hand"]) == 13


def test_the_host_seats_and_removes_computer_players_and_people(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", IR_THREE)
    table_id, token = table["table_id"], table["invite"]["token"]
    bob = friend(client)
    join(bob, token, "Bob")
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as host,
        bob.websocket_connect(f"/ws/tables/{table_id}") as guest,
    ):
        receive(host)
        receive(guest)
        host.send_json({"type": "set_seat", "seat": 1, "kind": "bot"})
        assert until(host, lambda m: m["type"] == "error")["code"] == "bad-seat"
        host.send_json({"type": "set_seat", "seat": 2, "kind": "open"})
        room = until(host, lambda m: m["type"] == "room")["room"]
        assert room["seats"][2] == {"seat": 2, "kind": "open"}
        host.send_json({"type": "remove", "seat": 1})
        removed = until(guest, lambda m: m["type"] == "removed")
        assert removed["message"] == "the host removed you from this table"
        with pytest.raises(WebSocketDisconnect) as closed:
            guest.receive_json()
        assert closed.value.code == 4403
        room = until(
            host, lambda m: m["type"] == "room" and m["room"]["seats"][1]["kind"] == "open"
        )
        host.send_json({"type": "set_seat", "seat": 1, "kind": "bot", "level": "easy"})
        host.send_json({"type": "set_seat", "seat": 2, "kind": "bot"})
        room = until(
            host, lambda m: m["type"] == "room" and m["room"]["seats"][2]["kind"] == "bot"
        )["room"]
        assert [s["kind"] for s in room["seats"]] == ["person", "bot", "bot"]
        assert room["seats"][1]["level"] == "easy" and room["seats"][2]["level"] == "normal"
        assert room["can_start"] is True
        new_token = room["invite"]["token"]
    again = bob.post("/api/invites/join", json={"token": new_token, "name": "Bob"})
    assert again.status_code == 403
    assert again.json()["detail"] == "the host removed you from this table"


def test_a_removed_persons_stale_socket_can_act_for_no_seat(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", IR_THREE)
    table_id = table["table_id"]
    bob = friend(client)
    join(bob, table["invite"]["token"], "Bob")
    owner = owner_of(client, table_id)
    with bob.websocket_connect(f"/ws/tables/{table_id}") as guest:
        receive(guest)
        # Removed by the host on another path while this socket stays open.
        room = owner.people.room
        assert room is not None
        del room.members[next(p for p, m in room.members.items() if m.seat == 1)]
        guest.send_json({"type": "sit", "seat": 1})
        refused = until(guest, lambda m: m["type"] == "error")
        assert refused["code"] == "not-member"
    assert owner.people.room is not None and owner.people.room.person_at(1) is None


def test_a_spectator_sits_in_a_free_seat_before_the_start(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", IR_THREE)
    table_id = table["table_id"]
    carol = friend(client)
    join(carol, table["invite"]["token"], "Carol", watch=True)
    with carol.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["room"]["you"]["role"] == "spectator"
        ws.send_json({"type": "sit", "seat": 1, "contribution": "00ff00ff"})
        room = until(ws, lambda m: m["type"] == "room" and m["room"]["you"]["seat"] == 1)
        assert room["room"]["seats"][1]["name"] == "Carol"
        ws.send_json({"type": "sit", "seat": 0})
        assert until(ws, lambda m: m["type"] == "error")["code"] == "seat-taken"


def _no_drop(legal: list[str], rng: random.Random) -> str:
    """A random legal move, but never dropping or declaring (the tests want the deal to go on)."""
    kept = [a for a in legal if a.split(" ")[0] not in ("drop", "declare")] or legal
    return rng.choice(kept)


def _play_until(
    ws: Any,
    match: Callable[[dict[str, Any]], bool],
    seed: int = 3,
    limit: int = 3000,
    first: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """Play this socket's seat (once per version, never dropping) until a message matches,
    starting with ``first`` if the caller already read it."""
    rng = random.Random(seed)
    acted = -1
    for _ in range(limit):
        message = first if first is not None else receive(ws)
        first = None
        if match(message):
            return message
        if (
            message["type"] == "state"
            and message["seat"] is not None
            and message["to_move"] == message["seat"]
            and message["legal"]
            and message["version"] > acted
        ):
            acted = message["version"]
            action = _no_drop(message["legal"], rng)
            ws.send_json({"type": "action", "version": message["version"], "action": action})
    raise AssertionError("no matching message")


# --- playing -----------------------------------------------------------------------------------


def _started(client: TestClient, game: str, seats: list[dict[str, Any]], **kw: Any) -> Any:
    rules = kw.pop("rules", {})
    table = shared_table(client, game, seats, rules=rules, **kw)
    others = []
    for index, spec in enumerate(seats[1:], start=1):
        if spec["kind"] == "human":
            person = friend(client)
            join(person, table["invite"]["token"], f"P{index}")
            others.append(person)
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as host:
        receive(host)
        host.send_json({"type": "start"})
        until(host, is_state)
    return table, others


def test_a_spectator_cannot_act_ask_or_chat(client: TestClient) -> None:
    table, _ = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    carol = friend(client)
    join(carol, table["invite"]["token"], "Carol", watch=True)
    with carol.websocket_connect(f"/ws/tables/{table['table_id']}") as ws:
        state = receive(ws)
        assert state["seat"] is None and state["legal"] == [] and state["view"]["hand"] == []
        for message in (
            {"type": "action", "version": state["version"], "action": "draw stock"},
            {"type": "hint"},
            {"type": "coach"},
            {"type": "quick", "phrase": "thanks"},
        ):
            ws.send_json(message)
            refused = until(ws, lambda m: m["type"] == "error")
            assert refused["code"] == "spectator", refused
    assert owner_of(client, table["table_id"]).version == state["version"]


def test_the_host_cannot_act_for_another_seat(client: TestClient) -> None:
    table, others = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    owner = owner_of(client, table["table_id"])
    with others[0].websocket_connect(f"/ws/tables/{table['table_id']}") as bob:
        state = receive(bob)
        assert state["to_move"] == 0
        bob.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        refused = until(bob, lambda m: m["type"] == "error")
        assert refused["code"] == "not-your-turn"
        fresh = receive(bob)  # the loser of the race gets the table as it is
        assert fresh["type"] == "state" and fresh["version"] == owner.version
    assert owner.version == 0


def test_a_resent_client_id_is_acknowledged_not_applied_twice(client: TestClient) -> None:
    table, others = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    owner = owner_of(client, table["table_id"])
    table_path = f"/ws/tables/{table['table_id']}"
    with (
        client.websocket_connect(table_path) as host,
        others[0].websocket_connect(table_path) as bob,
    ):
        state = receive(host)
        receive(bob)
        move = {"type": "action", "version": 0, "action": "draw stock", "client_id": "m-1"}
        host.send_json(move)
        # The move's own state acknowledges it: its client id, to the mover's seat only, and
        # no ack besides (the first ack is the answer to the resend below).
        seen: list[dict[str, Any]] = []
        applied = until(host, lambda m: m["type"] == "state" and m["version"] == 1, seen)
        assert applied["last_action"]["client_id"] == "m-1"
        assert not any(m["type"] == "ack" for m in seen)
        other = until(bob, lambda m: m["type"] == "state" and m["version"] == 1)
        assert other["last_action"]["seat"] == 0 and "client_id" not in other["last_action"]
        host.send_json(move)  # not sure it arrived: sent again
        again = until(host, lambda m: m["type"] == "ack")
        assert again == {"type": "ack", "client_id": "m-1", "version": 1, "duplicate": True}
        current = receive(host)
        assert current["type"] == "state" and current["version"] == owner.version
        assert [n for s, n in owner.log if s == 0] == ["draw stock"]
        host.send_json({**move, "client_id": "bad id!"})
        assert until(host, lambda m: m["type"] == "error")["code"] == "malformed"
        assert state["version"] == 0


def test_racing_drops_from_two_people_are_serialised(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(bot_delay_scale=1000.0)
    seats = [{"kind": "human"}] * 3 + [{"kind": "bot", "level": "random"}]
    table, others = _started(client, "declaration-rummy", seats)
    owner = owner_of(client, table["table_id"])
    url = f"/ws/tables/{table['table_id']}"
    with others[0].websocket_connect(url) as one, others[1].websocket_connect(url) as two:
        s1, s2 = receive(one), receive(two)
        assert "drop" in s1["legal"] and "drop" in s2["legal"]
        version = s1["version"]
        one.send_json({"type": "action", "version": version, "action": "drop"})
        two.send_json({"type": "action", "version": version, "action": "drop"})
        applied = until(one, lambda m: m["type"] == "state" and m["version"] == version + 1)
        assert applied["view"]["dropped"][1] is True
        lost = until(two, lambda m: m["type"] == "error")
        assert lost["code"] == "stale"
        fresh = until(two, is_state)
        assert fresh["version"] >= version + 1 and "drop" in fresh["legal"]
        two.send_json({"type": "action", "version": fresh["version"], "action": "drop"})
        done = until(two, lambda m: m["type"] == "state" and m["view"]["dropped"][2])
        assert done["version"] == fresh["version"] + 1
    assert [entry for entry in owner.log if entry[1] == "drop"] == [(1, "drop"), (2, "drop")]


def test_quick_messages_reach_every_member_and_unknown_phrases_are_refused(
    client: TestClient,
) -> None:
    table, others = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    url = f"/ws/tables/{table['table_id']}"
    with client.websocket_connect(url) as host, others[0].websocket_connect(url) as bob:
        receive(host)
        receive(bob)
        bob.send_json({"type": "quick", "phrase": "well-played"})
        heard = until(host, lambda m: m["type"] == "quick")
        assert heard == {
            "type": "quick",
            "seat": 1,
            "name": "P1",
            "phrase": "well-played",
            "text": "Well played",
        }
        bob.send_json({"type": "quick", "phrase": "<b>hi</b>"})
        assert until(bob, lambda m: m["type"] == "error")["code"] == "bad-phrase"


def test_quick_messages_are_rate_limited(make_client: Callable[..., TestClient]) -> None:
    client = make_client(
        settings=Settings(test_seed=7, limit_messages="1000/second", limit_quick="2/minute")
    )
    table, _ = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as host:
        receive(host)
        for _ in range(2):
            host.send_json({"type": "quick", "phrase": "thanks"})
            until(host, lambda m: m["type"] == "quick")
        host.send_json({"type": "quick", "phrase": "thanks"})
        refused = until(host, lambda m: m["type"] == "error")
        assert refused["code"] == "rate-limited" and "quick messages" in refused["message"]


def test_opening_invites_is_rate_limited(make_client: Callable[..., TestClient]) -> None:
    client = make_client(settings=Settings(test_seed=7, limit_joins="3/minute"))
    table = shared_table(client, "indecision", [{"kind": "human"}, {"kind": "human"}])
    guesser = friend(client)
    for _ in range(3):
        guesser.post("/api/invites/peek", json={"token": "x" * 22})
    response = guesser.post("/api/invites/peek", json={"token": table["invite"]["token"]})
    assert response.status_code == 429
    assert response.json()["detail"].startswith("too many invite links opened")
    assert "Retry-After" in response.headers


def test_leaving_hands_the_seat_to_a_computer_player(client: TestClient) -> None:
    table, others = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    owner = owner_of(client, table["table_id"])
    url = f"/ws/tables/{table['table_id']}"
    with client.websocket_connect(url) as host:
        state = receive(host)
        with others[0].websocket_connect(url) as bob:
            receive(bob)
            bob.send_json({"type": "leave"})
            assert until(bob, lambda m: m["type"] == "left") == {"type": "left"}
            with pytest.raises(WebSocketDisconnect) as closed:
                bob.receive_json()
            assert closed.value.code == 1000
        state = _play_until(
            host, lambda m: m["type"] == "state" and (m["last_action"] or {}).get("auto") == "left"
        )
        assert state["room"]["seats"][1]["left"] is True
        assert state["announce"].startswith("P1 left: the computer player moved for them.")
    assert others[0].post(
        "/api/invites/join", json={"token": table["invite"]["token"], "name": "P1"}
    ).status_code in (200, 409)
    assert owner.people.room is not None and 1 in owner.people.room.left


def test_listings_say_which_tables_are_shared_with_people(client: TestClient) -> None:
    table = shared_table(client, "indecision", [{"kind": "human"}, {"kind": "human"}])
    solo = client.post("/api/tables", json={"game": "indecision"}).json()["table_id"]
    rows = {row["table_id"]: row for row in client.get("/api/tables").json()}
    assert rows[table["table_id"]]["shared"] is True
    assert rows[solo]["shared"] is False


def test_the_lobby_lists_public_tables_with_free_seats_or_spectators(client: TestClient) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    public = shared_table(client, "indian-rummy", IR_THREE, rules={"deals": 1}, public=True)
    shared_table(client, "indian-rummy", IR_THREE, rules={"deals": 1})  # private: not listed
    listed = friend(client).get("/api/lobby")
    assert listed.status_code == 200, listed.text
    assert listed.json() == [
        {
            "table_id": public["table_id"],
            "game": "indian-rummy",
            "title": "Indian Rummy",
            "format": "Free play",
            "table_label": "Free play · 3 players",
            "phase": "waiting",
            "host": "Ann",
            "rules_summary": listed.json()[0]["rules_summary"],
            "seats": 3,
            "seats_free": 1,
            "spectators": True,
            "invite": public["invite"]["token"],
        }
    ]
    assert listed.json()[0]["rules_summary"].startswith("Free play · 3 players")


def test_quick_messages_include_a_greeting_wishes_and_emoji_reactions(
    client: TestClient,
) -> None:
    table, others = _started(client, "indian-rummy", IR_THREE, rules={"deals": 1})
    url = f"/ws/tables/{table['table_id']}"
    with client.websocket_connect(url) as host, others[0].websocket_connect(url) as bob:
        receive(host)
        receive(bob)
        for phrase, text in (
            ("hello", "Hello!"),
            ("good-luck", "Good luck"),
            ("wow", "\N{FACE WITH OPEN MOUTH}"),
        ):
            bob.send_json({"type": "quick", "phrase": phrase})
            heard = until(host, lambda m: m["type"] == "quick")
            assert (heard["phrase"], heard["text"]) == (phrase, text)
        # Still a fixed set: free text is refused.
        bob.send_json({"type": "quick", "phrase": "Hello, call me on 555"})
        assert until(bob, lambda m: m["type"] == "error")["code"] == "bad-phrase"


def test_a_person_the_host_removed_no_longer_sees_the_public_table(client: TestClient) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    table = shared_table(client, "indian-rummy", IR_THREE, public=True)
    bob, carol = friend(client), friend(client)
    join(bob, table["invite"]["token"], "Bob")
    # Every seat is taken, and the table is listed for watching.
    assert [t["table_id"] for t in bob.get("/api/lobby").json()] == [table["table_id"]]
    with client.websocket_connect(f"/ws/tables/{table['table_id']}") as host:
        receive(host)
        host.send_json({"type": "remove", "seat": 1})
        until(host, lambda m: m["type"] == "room" and m["room"]["seats"][1]["kind"] == "open")
    listed = carol.get("/api/lobby").json()
    assert [t["table_id"] for t in listed] == [table["table_id"]]
    assert bob.get("/api/lobby").json() == []
    # The removal replaced the invite: the old link opens nothing, the new one (public in the
    # lobby) refuses the removed person.
    stale = bob.post("/api/invites/join", json={"token": table["invite"]["token"], "name": "B"})
    assert stale.status_code == 404
    assert listed[0]["invite"] != table["invite"]["token"]
    refused = bob.post("/api/invites/join", json={"token": listed[0]["invite"], "name": "B"})
    assert refused.status_code == 403


def test_a_full_public_table_waiting_for_its_start_is_listed_for_watching_in_plain_words(
    client: TestClient,
) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    rules = {"manual_declaration": True, "target_score": 30}
    seats = [{"kind": "human"}, {"kind": "human"}]
    full = shared_table(client, "indecision", seats, rules=rules, public=True)
    join(friend(client), full["invite"]["token"], "Bob")
    closed = shared_table(client, "indecision", seats, public=True, spectators=False)
    join(friend(client), closed["invite"]["token"], "Cy")
    listed = friend(client).get("/api/lobby").json()
    assert [(t["table_id"], t["phase"], t["seats_free"]) for t in listed] == [
        (full["table_id"], "waiting", 0)
    ]
    assert listed[0]["rules_summary"] == (
        "2 players; Players announce their own scores, Points to win 30"
    )
