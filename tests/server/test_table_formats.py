"""A table's format wherever it is listed or an invite is shown (issue 24: "Pool 101 · 4
players" in the lobby, in the player's own tables and on the invite page)."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS

from .online import friend, shared_table

FOUR_PEOPLE = [{"kind": "human"}] * 4


def _preset(name: str, players: int) -> dict[str, Any]:
    rules: dict[str, Any] = ENGINE.rules_to_json(PRESETS[name])
    return {**rules, "players": players}


def test_the_lobby_lists_a_pool_table_by_its_format_and_players(client: TestClient) -> None:
    assert client.put("/api/profile", json={"name": "Ann"}).status_code == 200
    shared_table(client, "indian-rummy", FOUR_PEOPLE, rules=_preset("pool-101", 4), public=True)
    listed = friend(client).get("/api/lobby").json()
    assert [(row["format"], row["table_label"]) for row in listed] == [
        ("Pool 101", "Pool 101 · 4 players")
    ]
    summary = listed[0]["rules_summary"]
    assert summary.startswith("Pool 101 · 4 players; ")
    # The format's name is said once, by the label, not again as a changed option.
    assert "Format" not in summary


def test_an_invite_and_the_waiting_room_name_the_deals_format(client: TestClient) -> None:
    table = shared_table(client, "indian-rummy", FOUR_PEOPLE[:3], rules=_preset("deals-3", 3))
    seen = friend(client).post("/api/invites/peek", json={"token": table["invite"]["token"]})
    assert seen.status_code == 200, seen.text
    assert seen.json()["format"] == "Deals (best of 3)"
    assert seen.json()["table_label"] == "Deals (best of 3) · 3 players"


def test_the_players_own_tables_name_their_format(client: TestClient) -> None:
    pool = client.post(
        "/api/tables",
        json={"game": "indian-rummy", "rules": _preset("pool-201", 4)},
    )
    assert pool.status_code == 201, pool.text
    plain = client.post("/api/tables", json={"game": "indian-rummy"}).json()["table_id"]
    other = client.post("/api/tables", json={"game": "indecision"}).json()["table_id"]
    rows = {row["table_id"]: row for row in client.get("/api/tables").json()}
    pool_row = rows[pool.json()["table_id"]]
    assert (pool_row["format"], pool_row["table_label"]) == ("Pool 201", "Pool 201 · 4 players")
    assert rows[plain]["format"] == "Free play"
    # A game played in one format names only its players.
    assert (rows[other]["format"], rows[other]["table_label"]) == (None, "2 players")
    info = client.get(f"/api/tables/{pool.json()['table_id']}").json()
    assert info["table_label"] == "Pool 201 · 4 players"
