"""What survives a restart of the server on the same database: the record, games in progress
(resumed lazily from their action logs, bots included), profiles and options; and the profile
export/import round trip."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient

from cardtable.server.context import context_of
from cardtable.server.identity import COOKIE_NAME

from .conftest import cookie_of, new_table, owner_of, play_to_end, receive, wait_for_turn


def _restart(make_client: Callable[..., TestClient], old: TestClient) -> TestClient:
    """A new app over the same database, with the old client's cookie."""
    token = cookie_of(old)
    old.__exit__(None, None, None)
    fresh = make_client()
    fresh.cookies.set(COOKIE_NAME, token)
    return fresh


def _play_short_indecision(client: TestClient, seed: int) -> dict[str, object]:
    table_id = new_table(client, "indecision", rules={"target_score": 25}, seed=seed)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        return play_to_end(ws, random.Random(seed))


def test_record_survives_a_restart(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    _play_short_indecision(client, 1)
    _play_short_indecision(client, 2)
    before = client.get("/api/record").json()
    assert before["indecision"]["games_played"] == 2
    restarted = _restart(make_client, client)
    assert restarted.get("/api/record").json() == before


def test_profile_and_options_survive_a_restart(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    client.put("/api/profile", json={"name": "Ruby", "options": {"four_colour": True}})
    restarted = _restart(make_client, client)
    profile = restarted.get("/api/profile").json()
    assert profile["name"] == "Ruby" and profile["options"]["four_colour"] is True


def test_game_in_progress_resumes_after_a_restart(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "level": "easy"}, {"kind": "bot"}]
    table_id = new_table(client, "indian-rummy", seats=seats, seed=21)
    rng = random.Random(4)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        for _ in range(6):
            action = rng.choice(
                [a for a in state["legal"] if not a.startswith(("declare", "drop"))]
            )
            ws.send_json({"type": "action", "version": state["version"], "action": action})
            state = wait_for_turn(ws)
    log_before = list(owner_of(client, table_id).log)
    assert len(log_before) == state["version"] >= 6
    restarted = _restart(make_client, client)
    listed = restarted.get("/api/tables").json()
    assert [(table["table_id"], table["version"]) for table in listed] == [
        (table_id, state["version"])
    ]
    with restarted.websocket_connect(f"/ws/tables/{table_id}") as ws:
        resumed = receive(ws)
        assert resumed["version"] == state["version"]
        assert resumed["view"] == state["view"]
        assert resumed["legal"] == state["legal"]
        assert owner_of(restarted, table_id).log == log_before
        action = next(a for a in resumed["legal"] if a == "draw stock")
        ws.send_json({"type": "action", "version": resumed["version"], "action": action})
        assert receive(ws)["version"] == resumed["version"] + 1


def test_bots_resume_their_turns_after_a_restart(
    make_client: Callable[..., TestClient],
) -> None:
    slow = make_client(bot_delay_scale=1000.0)
    slow.get("/api/profile")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
    table_id = new_table(slow, "indecision", seats=seats, seed=8)
    with slow.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        if state["to_move"] == 0:
            ws.send_json(
                {"type": "action", "version": state["version"], "action": state["legal"][0]}
            )
            state = receive(ws)
    assert state["to_move"] == 1, "the slow bot has not moved yet"
    restarted = _restart(make_client, slow)
    with restarted.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert wait_for_turn(ws)["version"] > state["version"]


def test_a_finished_game_stays_finished_after_a_restart(
    client: TestClient, make_client: Callable[..., TestClient]
) -> None:
    final = _play_short_indecision(client, 3)
    tables = client.get("/api/record").json()
    restarted = _restart(make_client, client)
    assert restarted.get("/api/tables").json() == []
    assert restarted.get("/api/record").json() == tables
    assert final["result"] is not None


def test_export_import_round_trip_copies_name_options_and_record(
    client: TestClient,
) -> None:
    client.put("/api/profile", json={"name": "Max", "options": {"large_cards": True}})
    _play_short_indecision(client, 5)
    document = client.get("/api/profile/export").json()
    assert document["format"] == "cardtable-profile" and document["version"] == 1
    assert document["record"]
    other = TestClient(client.app)
    other.get("/api/profile")
    imported = other.post("/api/profile/import", json=document).json()
    assert imported["name"] == "Max" and imported["options"]["large_cards"] is True
    assert imported["record_events_added"] == len(document["record"])
    assert other.get("/api/record").json() == client.get("/api/record").json()
    again = other.post("/api/profile/import", json=document).json()
    assert again["record_events_added"] == 0
    assert other.get("/api/record").json() == client.get("/api/record").json()
    exported_again = other.get("/api/profile/export").json()
    assert exported_again["record"] == document["record"]


def test_import_merges_a_record_into_an_existing_one(client: TestClient) -> None:
    _play_short_indecision(client, 6)
    document = client.get("/api/profile/export").json()
    other = TestClient(client.app)
    other.get("/api/profile")
    _play_short_indecision(other, 7)
    other.post("/api/profile/import", json=document)
    assert other.get("/api/record").json()["indecision"]["games_played"] == 2


def test_bad_import_documents_are_refused_and_change_nothing(client: TestClient) -> None:
    client.put("/api/profile", json={"name": "Ivy"})
    good = client.get("/api/profile/export").json()
    for document, words in [
        ([], "not a cardtable profile"),
        ({"format": "something-else"}, "not a cardtable profile"),
        ({**good, "version": 9}, "version 9 is not supported"),
        ({**good, "name": ""}, "profile name must be text"),
        ({**good, "options": {"coach": "loud"}}, "coach must be true or false"),
        ({**good, "options": {"volume": 3}}, "unknown option(s) volume"),
        ({**good, "record": {}}, "record must be a list"),
        ({**good, "record": [{"key": "k", "game": "indecision", "kind": "round"}]}, "kind"),
        ({**good, "record": [{"game": "indecision", "kind": "game"}]}, "needs a text 'key'"),
        (
            {**good, "record": [{"key": "k", "game": "x", "kind": "game", "points": "9"}]},
            "'points' must be a whole number",
        ),
    ]:
        response = client.post("/api/profile/import", json=document)
        assert response.status_code == 400, document
        assert words in response.json()["detail"]
    assert client.get("/api/profile").json()["name"] == "Ivy"
    assert client.get("/api/profile/export").json()["record"] == []


def test_finished_tables_leave_memory_and_load_again_from_the_database(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.server import lobby

    monkeypatch.setattr(lobby, "KEEP_FINISHED", 0)
    table_id = new_table(client, "indecision", rules={"target_score": 25}, seed=4)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(4))
    log = list(owner_of(client, table_id).log)
    other = new_table(client, "indecision")
    client.get(f"/api/tables/{other}")
    tables = context_of(client.app).lobby.tables
    assert table_id not in tables and other in tables
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["finished"] is True and info["version"] == final["version"]
    assert owner_of(client, table_id).log == log
