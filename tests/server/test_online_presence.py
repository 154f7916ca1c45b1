"""Presence at people's tables: a person who drops keeps the seat for the grace period, then a
Normal computer player moves for them until they come back and reclaim it (and are told how
many moves were made for them); a turn timer's time-out has the computer player move; the
rematch; and the record keeping shared-table games apart. Timers run on short settings
(``shared_time_scale``): nothing here waits for minutes, and nothing asserts a duration."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from cardtable.server.context import context_of
from cardtable.server.settings import Settings

from .conftest import owner_of, receive
from .online import friend, is_state, join, shared_table, until
from .test_online_tables import _play_until

SEATS = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "easy"}]


def _fast_client(make_client: Callable[..., TestClient]) -> TestClient:
    # A hundredth of every timer: a 10-second grace is a tenth of a second.
    settings = Settings(test_seed=7, limit_messages="1000/second", shared_time_scale=0.01)
    return make_client(settings=settings)


def _seated(client: TestClient, **shared: Any) -> tuple[str, TestClient]:
    """A people's table with Ann (the host) and Bob seated, not started yet."""
    table = shared_table(client, "indian-rummy", SEATS, rules={"deals": 1}, **shared)
    bob = friend(client, "Bob")
    join(bob, table["invite"]["token"], "Bob")
    return table["table_id"], bob


def _table(client: TestClient, **shared: Any) -> tuple[str, TestClient]:
    table_id, bob = _seated(client, **shared)
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        receive(host)
        host.send_json({"type": "start"})
        until(host, is_state)
    return table_id, bob


def test_a_person_back_within_the_grace_keeps_the_seat_and_nothing_is_played_for_them(
    client: TestClient,
) -> None:
    table_id, bob = _table(client, grace_seconds=600)
    owner = owner_of(client, table_id)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as host:
        start = until(host, is_state)
        with bob.websocket_connect(url) as first:
            receive(first)
        room = until(
            host,
            lambda m: m["type"] == "room" and m["room"]["seats"][1]["reconnecting_ms"] is not None,
        )["room"]
        assert room["seats"][1]["connected"] is False
        assert 0 < room["seats"][1]["reconnecting_ms"] <= 600_000
        assert room["seats"][1]["away"] is False
        # Ann plays her turn; Bob is to play now and comes back before the grace ends.
        _play_until(host, lambda m: m["type"] == "state" and m["to_move"] == 1, first=start)
        with bob.websocket_connect(url) as again:
            state = until(again, is_state)
            assert state["seat"] == 1 and state["to_move"] == 1 and state["legal"]
            assert state["room"]["seats"][1]["connected"] is True
            assert state["room"]["seats"][1]["reconnecting_ms"] is None
            version = state["version"]
            again.send_json({"type": "action", "version": version, "action": "draw stock"})
            after = until(again, lambda m: m["type"] == "state" and m["version"] == version + 1)
            assert after["last_action"] == {
                "seat": 1,
                "action": "draw stock",
                "kind": "draw stock",
                "said": "You drew from the stock.",
                "auto": None,
            }
    assert (
        owner.people.room is not None
        and not owner.people.room.assisted
        and not owner.people.room.away
    )


def test_after_the_grace_a_computer_player_moves_until_the_person_reclaims_the_seat(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fast_client(make_client)
    table_id, bob = _table(client, grace_seconds=10)
    owner = owner_of(client, table_id)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as host:
        start = until(host, is_state)
        with bob.websocket_connect(url) as first:
            receive(first)
        moved_for_bob = _play_until(
            host,
            lambda m: m["type"] == "state" and (m["last_action"] or {}).get("auto") == "away",
            first=start,
        )
        assert moved_for_bob["last_action"]["seat"] == 1
        assert moved_for_bob["announce"].startswith("Bob is away: the computer player moved")
        assert moved_for_bob["room"]["seats"][1]["away"] is True
        assert owner.people.room is not None
        with bob.websocket_connect(url) as back:
            state = receive(back)
            assert state["type"] == "state" and state["seat"] == 1
            away = until(back, lambda m: m["type"] == "away")
            # Bob never moved himself: every move of his seat was played for him.
            played = len([seat for seat, _ in owner.log if seat == 1])
            assert away["moves"] == played >= 1
            plural = "move was" if played == 1 else "moves were"
            assert away["message"] == f"You were away: {played} {plural} played for you."
            assert 1 not in owner.people.room.away and 1 in owner.people.room.assisted
            # From now on nothing more is played for Bob: it waits for him.
            turn = _play_until(host, lambda m: m["type"] == "state" and m["to_move"] == 1)
            assert owner.setup.engine.current_player(owner.state) == 1
            assert turn["room"]["seats"][1]["away"] is False
    moves_for_bob = [n for s, n in owner.log if s == 1]
    assert len(moves_for_bob) == played


def test_a_turn_that_times_out_is_played_by_the_computer_and_the_table_says_so(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fast_client(make_client)
    table_id, _bob = _seated(client, turn_seconds=10, bank_seconds=0)
    owner = owner_of(client, table_id)
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        # Started from the socket that watches: the deal's first state reaches it before
        # anything the turn's timer (a tenth of a second) does, however late the test reads.
        # (Connecting again after the start, a loaded machine let the timer play Ann's turn
        # first, or her grace end.)
        receive(host)
        host.send_json({"type": "start"})
        first = until(host, is_state)
        assert first["to_move"] == 0
        assert first["room"]["turn"]["seat"] == 0
        assert first["room"]["seats"][0]["bank_ms"] == 0
        timed_out = until(
            host,
            lambda m: m["type"] == "state" and (m["last_action"] or {}).get("auto") == "timeout",
        )
        assert timed_out["last_action"]["seat"] == 0
        assert timed_out["announce"].startswith("Time ran out for Player: the computer player")
        # The socket stays open until the turn is over (this test client stops the socket's
        # event loop when it closes, and the turn's moves run on it).
        until(host, lambda m: m["type"] == "state" and m["version"] >= 2)
    assert owner.people.room is not None and 0 in owner.people.room.assisted
    # The computer player finished Ann's turn: a draw and then a discard.
    assert [seat for seat, _ in owner.log[:2]] == [0, 0]


def _end_quickly(client: TestClient, bob: TestClient, table_id: str) -> None:
    """Both people drop at their first turn; the computer player wins the one deal."""
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as host, bob.websocket_connect(url) as guest:
        for ws, seat in ((host, 0), (guest, 1)):
            state = until(ws, lambda m, s=seat: m["type"] == "state" and m["to_move"] == s)  # type: ignore[misc]
            ws.send_json({"type": "action", "version": state["version"], "action": "drop"})
        until(host, lambda m: m["type"] == "state" and m["result"] is not None)


def test_a_rematch_everybody_accepts_starts_at_once_with_the_same_seats(
    client: TestClient,
) -> None:
    table_id, bob = _table(client)
    cy = friend(client)
    room = owner_of(client, table_id).people.room
    assert room is not None
    assert join(cy, room.invite, "Cy", watch=True)["role"] == "spectator"
    _end_quickly(client, bob, table_id)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url) as host,
        bob.websocket_connect(url) as guest,
        cy.websocket_connect(url) as watcher,
    ):
        until(host, is_state)
        until(guest, is_state)
        until(watcher, is_state)  # the watcher is in the audience before the rematch starts
        host.send_json({"type": "rematch", "accept": True})
        room = until(
            guest,
            lambda m: (
                m["type"] in ("room", "state")
                and (m["room"]["rematch"] or {}).get("accepted") == [0]
            ),
        )["room"]
        assert room["phase"] == "finished" and room["rematch"]["waiting"] == [1]
        guest.send_json({"type": "rematch", "accept": True})
        new_id = until(guest, lambda m: m["type"] == "rematch")["table_id"]
        assert until(host, lambda m: m["type"] == "rematch")["table_id"] == new_id
        assert until(watcher, lambda m: m["type"] == "rematch")["table_id"] == new_id
    assert new_id != table_id
    with bob.websocket_connect(f"/ws/tables/{new_id}") as guest:
        state = until(guest, is_state)
        assert state["seat"] == 1 and state["version"] == 0
        assert state["room"]["phase"] == "playing"
        assert [s["name"] for s in state["room"]["seats"]] == ["Player", "Bob", "Ruby"]
    # The spectator watches the rematch too.
    with cy.websocket_connect(f"/ws/tables/{new_id}") as watcher:
        state = until(watcher, is_state)
        assert state["seat"] is None and state["room"]["you"]["role"] == "spectator"
        assert state["room"]["spectators"] == 1


def test_a_declined_rematch_reopens_the_seat_in_a_waiting_room(client: TestClient) -> None:
    table_id, bob = _table(client)
    _end_quickly(client, bob, table_id)
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as host, bob.websocket_connect(url) as guest:
        until(host, is_state)
        guest.send_json({"type": "rematch", "accept": False})
        host.send_json({"type": "rematch", "accept": True})
        new_id = until(host, lambda m: m["type"] == "rematch")["table_id"]
    with client.websocket_connect(f"/ws/tables/{new_id}") as host:
        room = receive(host)
        assert room["type"] == "room" and room["room"]["phase"] == "waiting"
        assert room["room"]["seats"][1] == {"seat": 1, "kind": "open"}
        assert room["room"]["you"]["host"] is True
    refused = bob.get(f"/api/tables/{new_id}")
    assert refused.status_code == 403


def test_the_record_keeps_shared_games_apart_and_marks_assisted_ones(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fast_client(make_client)
    table_id, bob = _table(client, turn_seconds=10, bank_seconds=0)
    # Nobody plays: every turn of both people times out and the computer plays them all.
    with client.websocket_connect(f"/ws/tables/{table_id}") as host:
        until(host, lambda m: m["type"] == "state" and m["result"] is not None, limit=20000)
    for person in (client, bob):
        record = person.get("/api/record").json()["indian-rummy"]
        assert record["games_played"] == 0 and record["deals_played"] == 0
        shared = record["shared"]
        assert shared["games_played"] == 1 and shared["deals_played"] == 1
        assert shared["assisted_games"] == 1 and shared["assisted_deals"] == 1
    solo = client.post("/api/tables", json={"game": "indecision"}).json()["table_id"]
    assert client.get("/api/record").json()["indecision"]["shared"] is None
    assert solo


def test_a_rematch_that_starts_at_once_is_dealt_from_the_seated_peoples_contributions(
    client: TestClient,
) -> None:
    table_id, bob = _table(client)
    _end_quickly(client, bob, table_id)
    # From here no test seed: the rematch is a real fair deal, recorded with its contributions.
    lobby = context_of(client.app).lobby
    lobby.settings = lobby.settings.model_copy(update={"test_seed": None})
    url = f"/ws/tables/{table_id}"
    with client.websocket_connect(url) as host, bob.websocket_connect(url) as guest:
        until(host, is_state)
        until(guest, is_state)
        host.send_json({"type": "rematch", "accept": True, "contribution": "0a" * 8})
        until(guest, lambda m: m["type"] in ("room", "state") and m["room"]["rematch"])
        guest.send_json({"type": "rematch", "accept": True, "contribution": "b1" * 8})
        new_id = until(guest, lambda m: m["type"] == "rematch")["table_id"]
    with bob.websocket_connect(f"/ws/tables/{new_id}") as guest:
        assert until(guest, is_state)["room"]["phase"] == "playing"
    fairness = client.get(f"/api/tables/{new_id}/fairness").json()
    assert fairness["contributions"] == [
        {"seat": 0, "value": "0a" * 8},
        {"seat": 1, "value": "b1" * 8},
    ], fairness
