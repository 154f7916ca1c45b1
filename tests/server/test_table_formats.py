"""A table's format wherever it is listed or an invite is shown (issue 24: "Pool 101 · 4
players" in the lobby, in the player's own tables and on the invite page), and Your Record
kept by format, on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from cardtable import storage
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.server.review.record import record_of

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


def _by_format_totals(db: storage.Database) -> list[dict[str, Any]]:
    """Store a Pool 101 game, a free-play deal, an old deal naming no format and an imported
    Pool 101 game for one profile; its record's formats."""
    profile, _ = storage.create_profile(db)
    pool = {"format": "pool-101"}
    events = [
        storage.RecordEvent(
            key="t1:deal:1",
            game="indian-rummy",
            kind="deal",
            won=False,
            points=40,
            details={**pool, "dropped": True},
        ),
        storage.RecordEvent(
            key="t1:deal:2", game="indian-rummy", kind="deal", won=True, points=0, details=pool
        ),
        storage.RecordEvent(
            key="t1:game:1", game="indian-rummy", kind="game", won=True, points=40, details=pool
        ),
        storage.RecordEvent(
            key="t2:deal:1",
            game="indian-rummy",
            kind="deal",
            won=False,
            points=12,
            details={"format": "free-play", "shared": True},
        ),
        storage.RecordEvent(key="t0:deal:1", game="indian-rummy", kind="deal", won=False, points=7),
        storage.RecordEvent(
            key="x:game:1", game="indian-rummy", kind="game", won=True, details=pool, imported=True
        ),
    ]
    assert storage.add_events(db, profile.id, events) == 6
    rows: list[dict[str, Any]] = record_of(storage.totals_of_profile(db, profile.id))[
        "indian-rummy"
    ]["formats"]
    return rows


def _check_by_format(rows: list[dict[str, Any]]) -> None:
    assert [(row["format"], row["title"]) for row in rows] == [
        ("pool-101", "Pool 101"),
        ("free-play", "Free play"),
    ]
    pool, free = rows
    assert (pool["games_played"], pool["games_won"], pool["deals_played"]) == (1, 1, 2)
    assert (pool["points_per_deal"], pool["worst"]) == (20.0, 40)
    assert {extra["key"]: extra["value"] for extra in pool["extras"]}["drops"] == 1
    # A shared table's deal counts in its format; the imported game and the deal stored
    # before formats were recorded do not.
    assert (free["games_played"], free["deals_played"], free["total_points"]) == (0, 1, 12)


def test_your_record_is_kept_by_format_on_sqlite() -> None:
    db = storage.Database("sqlite://")
    try:
        _check_by_format(_by_format_totals(db))
    finally:
        db.close()


def test_your_record_is_kept_by_format_on_postgresql(postgres_url: str) -> None:
    db = storage.Database(postgres_url)
    try:
        _check_by_format(_by_format_totals(db))
    finally:
        db.close()
