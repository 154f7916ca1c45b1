"""What survives a restart of the server on the same database: the record, games in progress
(resumed lazily from their action logs, bots included), profiles and options; and the profile
export/import round trip."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import bindparam, create_engine, text

from cardtable.server.context import context_of
from cardtable.server.people.player_options import DEFAULT_OPTIONS
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.storage import Database, RecordEvent, load_table

from .conftest import cookie_of, new_table, owner_of, play_to_end, receive, visitor, wait_for_turn


def _restart(make_client: Callable[..., TestClient], old: TestClient) -> TestClient:
    """A new app over the same database, with the old client's cookie."""
    token = cookie_of(old)
    old.__exit__(None, None, None)
    fresh = make_client(profile=False)
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
    client.put("/api/profile", json={"name": "Rowena", "options": {"four_colour": True}})
    restarted = _restart(make_client, client)
    profile = restarted.get("/api/profile").json()
    assert profile["name"] == "Rowena" and profile["options"]["four_colour"] is True


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
    slow.post("/api/profile")
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


def test_a_game_whose_last_move_was_stored_but_not_its_end_is_finished_when_loaded(
    client: TestClient, make_client: Callable[..., TestClient], db_url: str
) -> None:
    # The process that made the last move stopped right after storing it: neither the
    # finished status nor the game's record were stored.
    table_id = new_table(client, "indecision", rules={"target_score": 25}, seed=5)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(5))
    assert final["result"] is not None
    record = client.get("/api/record").json()
    assert record["indecision"]["games_played"] == 1
    engine = create_engine(db_url)
    with engine.begin() as connection:
        connection.execute(
            text("UPDATE game_tables SET status = 'playing', result = NULL WHERE id = :id"),
            {"id": table_id},
        )
        keys = connection.execute(
            text("SELECT key FROM record_events WHERE key LIKE :prefix"),
            {"prefix": f"{table_id}:%"},
        ).scalars()
        parts = [key.split(":") for key in keys]
        last_deal = max(int(number) for _, kind, number in parts if kind == "deal")
        ended = [":".join(p) for p in parts if p[1] == "game" or p[1:] == ["deal", str(last_deal)]]
        assert len(ended) == 2  # the last move ended the last deal and the game
        connection.execute(
            text("DELETE FROM record_events WHERE key IN :keys").bindparams(
                bindparam("keys", expanding=True)
            ),
            {"keys": ended},
        )
        # The running totals are stored with the events: a crash before them leaves neither
        # (without a totals row, they are built again from the events that are there).
        connection.execute(text("DELETE FROM record_totals"))
    engine.dispose()
    restarted = _restart(make_client, client)
    assert restarted.get("/api/record").json()["indecision"]["games_played"] == 0
    with restarted.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["result"] == final["result"]
    assert restarted.get("/api/record").json() == record
    again = _restart(make_client, restarted)
    assert again.get("/api/tables").json() == []
    assert again.get("/api/record").json() == record
    stored = load_table(Database(db_url), table_id)
    assert stored is not None and stored.status == "finished"


def _played(record: dict[str, Any]) -> dict[str, Any]:
    """The statistics of one game's record, without its names and its imported, shared-table
    and by-format parts (imported games are not kept by format)."""
    names = (
        "game",
        "title",
        "deal_word",
        "points_word",
        "points_are",
        "imported",
        "shared",
        "formats",
    )
    return {key: value for key, value in record.items() if key not in names}


def test_export_import_round_trip_copies_name_options_and_record_as_imported(
    client: TestClient,
) -> None:
    client.put("/api/profile", json={"name": "Maxine", "options": {"large_cards": True}})
    _play_short_indecision(client, 5)
    document = client.get("/api/profile/export").json()
    assert document["format"] == "cardtable-profile" and document["version"] == 1
    assert document["record"] and not any(event["imported"] for event in document["record"])
    other = visitor(client)
    imported = other.post("/api/profile/import", json=document).json()
    assert imported["name"] == "Maxine" and imported["options"]["large_cards"] is True
    assert imported["record_events_added"] == len(document["record"])
    mine = client.get("/api/record").json()["indecision"]
    theirs = other.get("/api/record").json()["indecision"]
    assert mine["imported"] is None and mine["games_played"] == 1
    assert theirs["games_played"] == 0 and theirs["deals_played"] == 0
    assert theirs["imported"] == _played(mine)
    again = other.post("/api/profile/import", json=document).json()
    assert again["record_events_added"] == 0
    assert other.get("/api/record").json()["indecision"]["imported"] == _played(mine)
    exported_again = other.get("/api/profile/export").json()
    assert exported_again["record"] == [{**event, "imported": True} for event in document["record"]]


def test_import_keeps_imported_results_apart_from_results_played_here(
    client: TestClient,
) -> None:
    _play_short_indecision(client, 6)
    document = client.get("/api/profile/export").json()
    other = visitor(client)
    _play_short_indecision(other, 7)
    other.post("/api/profile/import", json=document)
    record = other.get("/api/record").json()["indecision"]
    assert record["games_played"] == 1 and record["imported"]["games_played"] == 1


def test_an_import_cannot_add_wins_to_the_record_of_play_here(client: TestClient) -> None:
    forged = [
        {"key": f"forged:{n}", "game": "indian-rummy", "kind": "deal", "won": True, "points": 0}
        for n in range(2000)
    ]
    document = {"format": "cardtable-profile", "version": 1, "record": forged}
    response = client.post("/api/profile/import", json=document)
    assert response.status_code == 200 and response.json()["record_events_added"] == 2000
    record = client.get("/api/record").json()["indian-rummy"]
    assert record["deals_won"] == 0 and record["deals_played"] == 0
    assert record["imported"]["deals_won"] == 2000


def test_bad_import_documents_are_refused_and_change_nothing(client: TestClient) -> None:
    client.put("/api/profile", json={"name": "Ivo"})
    good = client.get("/api/profile/export").json()
    event = {"key": "k", "game": "indecision", "kind": "game"}
    for document, words in [
        ([], "the request body must be a JSON object"),
        ({"format": "something-else"}, "format must be 'cardtable-profile'"),
        ({**good, "version": 9}, "version must be 1"),
        ({**good, "name": ""}, "name must be non-empty text"),
        ({**good, "name": "Otto"}, "is used by the table itself"),
        ({**good, "options": {"coach": "loud"}}, "options.coach must be true or false"),
        ({**good, "options": {"volume": 3}}, "unknown field options.volume"),
        ({**good, "record": {}}, "record must be a list"),
        ({**good, "record": [{**event, "kind": "round"}]}, "record[0].kind must be"),
        ({**good, "record": [{"game": "indecision", "kind": "game"}]}, "record[0].key is missing"),
        ({**good, "record": [{**event, "points": "9"}]}, "record[0].points must be a whole number"),
        ({**good, "record": [{**event, "points": 10**7}]}, "record[0].points must be at most"),
        ({**good, "record": [{**event, "points": 1.5}]}, "record[0].points must be a whole number"),
        ({**good, "record": [{**event, "game": "chess"}]}, "unknown game 'chess'"),
        ({**good, "record": [{**event, "missing_optional": 1.5}]}, "unknown field record[0]"),
        ({**good, "record": [{**event, "details": {"a": {"b": [1]}}}]}, "record[0].details:"),
        ({**good, "record": [{**event, "at": "yesterday"}]}, "record[0].at:"),
        ({**good, "record": [event] * 10_001}, "record must have at most 10000 items"),
    ]:
        response = client.post("/api/profile/import", json=document)
        assert response.status_code == 400, document
        assert words in response.json()["detail"], (words, response.json())
    assert client.get("/api/profile").json()["name"] == "Ivo"
    assert client.get("/api/profile/export").json()["record"] == []


def test_a_refused_import_changes_neither_name_nor_options_nor_record(client: TestClient) -> None:
    client.put("/api/profile", json={"name": "Ivo"})
    good = {"key": "k1", "game": "indecision", "kind": "game", "won": True}
    document = {
        "format": "cardtable-profile",
        "version": 1,
        "name": "Changed",
        "options": {"coach": True},
        "record": [good, {**good, "key": "k2", "game": "chess"}],
    }
    assert client.post("/api/profile/import", json=document).status_code == 400
    assert client.get("/api/profile").json() == {"name": "Ivo", "options": DEFAULT_OPTIONS}
    assert client.get("/api/profile/export").json()["record"] == []


def test_export_answers_even_when_stored_details_are_deeply_nested(client: TestClient) -> None:
    from cardtable import storage

    context = context_of(client.app)
    profile_id = storage.profile_by_token(context.db, cookie_of(client)).id  # type: ignore[union-attr]
    nested: dict[str, Any] = {}
    for _ in range(200):
        nested = {"n": nested}
    event = RecordEvent(key="old", game="indecision", kind="game", won=True, details={"x": nested})
    storage.add_events(context.db, profile_id, [event])
    response = client.get("/api/profile/export")
    assert response.status_code == 200
    (exported,) = response.json()["record"]
    assert exported["details"] == {}


def test_finished_tables_leave_memory_and_load_again_from_the_database(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    from cardtable.server.hosting import lobby

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
