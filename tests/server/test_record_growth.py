"""A profile's record at any size: the events a profile keeps are capped (imported ones apart),
the record is read from running totals (no event is read), the export of a long-time player is
one importable document, and record reads are rate-limited."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import event

from cardtable import storage
from cardtable.server.context import context_of
from cardtable.server.settings import Settings
from cardtable.storage.records import KEPT_IMPORTED_EVENTS, KEPT_PLAYED_EVENTS, PRUNE_SLACK

from .conftest import cookie_of, visitor


def _profile_id(client: TestClient) -> int:
    profile = storage.profile_by_token(context_of(client.app).db, cookie_of(client))
    assert profile is not None
    return profile.id


def _play(client: TestClient, deals: int, *, first: int = 0) -> None:
    """Store ``deals`` finished Indian Rummy deals of the client's profile, as tables do."""
    db = context_of(client.app).db
    events = [
        storage.RecordEvent(
            key=f"t{n // 50}:deal:{n % 50}",
            game="indian-rummy",
            kind="deal",
            won=n % 4 == 0,
            points=0 if n % 4 == 0 else n % 80,
            details={"dropped": n % 10 == 0},
        )
        for n in range(first, first + deals)
    ]
    for start in range(0, len(events), 2_000):
        storage.add_events(db, _profile_id(client), events[start : start + 2_000])


def _document(count: int, *, prefix: str = "old") -> dict[str, Any]:
    return {
        "format": "cardtable-profile",
        "version": 1,
        "record": [
            {
                "key": f"{prefix}:{n}",
                "game": "indecision",
                "kind": "deal",
                "won": n % 2 == 0,
                "points": n % 30,
                "at": f"2025-01-01T00:{n // 600 % 60:02d}:{n // 10 % 60:02d}+00:00",
            }
            for n in range(count)
        ],
    }


def test_export_of_a_player_past_ten_thousand_deals_is_one_importable_document(
    client: TestClient,
) -> None:
    _play(client, 10_001)
    exported = client.get("/api/profile/export")
    assert exported.status_code == 200, exported.text[:300]
    document = exported.json()
    assert len(document["record"]) == KEPT_PLAYED_EVENTS
    # The newest deals are the ones kept.
    assert document["record"][-1]["key"] == "t200:deal:0"
    elsewhere = visitor(client)
    imported = elsewhere.post("/api/profile/import", json=document)
    assert imported.status_code == 200, imported.text[:300]
    assert imported.json()["record_events_added"] == KEPT_PLAYED_EVENTS


def test_record_counts_every_deal_after_the_oldest_events_are_deleted(client: TestClient) -> None:
    _play(client, KEPT_PLAYED_EVENTS + PRUNE_SLACK + 400)
    kept = storage.events_of(context_of(client.app).db, _profile_id(client))
    assert len(kept) <= KEPT_PLAYED_EVENTS + PRUNE_SLACK
    played = KEPT_PLAYED_EVENTS + PRUNE_SLACK + 400
    record = client.get("/api/record").json()["indian-rummy"]
    assert record["deals_played"] == played
    assert record["deals_won"] == len(range(0, played, 4))
    drops = {extra["key"]: extra["value"] for extra in record["extras"]}["drops"]
    assert drops == len(range(0, played, 10))
    assert (record["best"], record["worst"]) == (0, 79)
    # A deal stored again (a table reloaded after a crash) is still counted once.
    _play(client, 1, first=played - 1)
    assert client.get("/api/record").json()["indian-rummy"]["deals_played"] == played


def test_a_record_read_reads_no_event(client: TestClient) -> None:
    _play(client, 300)
    statements: list[str] = []

    def seen(_conn: Any, _cursor: Any, statement: str, *_args: Any) -> None:
        statements.append(statement)

    engine = context_of(client.app).db.engine
    client.get("/api/record")  # the first read may build the totals of older events
    event.listen(engine, "before_cursor_execute", seen)
    try:
        answer = client.get("/api/record")
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    assert answer.status_code == 200
    assert answer.json()["indian-rummy"]["deals_played"] == 300
    assert statements, "the read was expected to ask the database for the totals"
    assert not [s for s in statements if "record_events" in s], statements


def test_imported_events_are_capped_apart_and_importing_twice_counts_once(
    client: TestClient,
) -> None:
    _play(client, 20)
    document = _document(KEPT_IMPORTED_EVENTS + 700)
    assert client.post("/api/profile/import", json=document).status_code == 200
    record = client.get("/api/record").json()["indecision"]
    assert record["imported"]["deals_played"] == KEPT_IMPORTED_EVENTS
    assert client.post("/api/profile/import", json=document).status_code == 200
    again = client.get("/api/record").json()
    assert again["indecision"]["imported"]["deals_played"] == KEPT_IMPORTED_EVENTS
    # Play here is kept and counted apart from the imported cap.
    assert again["indian-rummy"]["deals_played"] == 20
    kept = storage.events_of(context_of(client.app).db, _profile_id(client))
    assert sum(1 for e in kept if e.imported) == KEPT_IMPORTED_EVENTS
    assert sum(1 for e in kept if not e.imported) == 20


def test_record_built_from_events_stored_before_totals_were_kept(client: TestClient) -> None:
    _play(client, 40)
    with context_of(client.app).db.engine.begin() as connection:
        connection.exec_driver_sql("DELETE FROM record_totals")
    assert client.get("/api/record").json()["indian-rummy"]["deals_played"] == 40
    _play(client, 5, first=40)
    assert client.get("/api/record").json()["indian-rummy"]["deals_played"] == 45


def test_record_reads_and_exports_are_rate_limited(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=Settings(test_seed=7, limit_records="3/minute"))
    for _ in range(2):
        assert client.get("/api/record").status_code == 200
    assert client.get("/api/profile/export").status_code == 200
    refused = client.get("/api/record")
    assert refused.status_code == 429
    assert "too many record reads: at most 3 per minute" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    assert client.get("/api/profile/export").status_code == 429


def test_running_totals_on_postgresql(postgres_url: str) -> None:
    db = storage.Database(postgres_url)
    try:
        profile, _ = storage.create_profile(db)
        events = [
            storage.RecordEvent(
                key=f"t:deal:{n}", game="indecision", kind="deal", won=n == 1, points=n
            )
            for n in range(3)
        ]
        assert storage.add_events(db, profile.id, events) == 3
        assert storage.add_events(db, profile.id, events[1:]) == 0
        deals = storage.totals_of_profile(db, profile.id)["indecision"]["here"]["deal"]
        assert (deals["n"], deals["won"], deals["sum"], deals["max"]) == (3, 1, 3, 2)
    finally:
        db.close()
