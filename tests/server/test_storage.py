"""The storage layer on its own: where the database lives, profiles by token, tables as
append-only action logs, and record events counted once."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import event
from sqlalchemy.exc import IntegrityError

from cardtable import storage
from cardtable.storage import Database, DatabaseLogStore, FencedOutError, RecordEvent
from cardtable.storage.models import TableRow, utc_now
from cardtable.storage.shared import StoredRoom, create_room, load_room

from .conftest import run_async


@pytest.fixture
def db(tmp_path: Path) -> Database:
    return Database(storage.sqlite_url(tmp_path))


def test_database_url_prefers_the_explicit_url_then_the_data_dir() -> None:
    assert storage.default_database_url({"CARDTABLE_DATABASE_URL": " postgresql://h/db "}) == (
        "postgresql://h/db"
    )
    assert storage.default_database_url({"CARDTABLE_DATA_DIR": "/srv/x"}) == (
        "sqlite:////srv/x/cardtable.sqlite3"
    )
    default = storage.default_database_url({})
    assert default.startswith("sqlite:///") and default.endswith("cardtable/cardtable.sqlite3")


def test_sqlite_file_and_its_directory_are_created(tmp_path: Path) -> None:
    directory = tmp_path / "deep" / "data"
    Database(storage.sqlite_url(directory)).close()
    assert (directory / "cardtable.sqlite3").is_file()


def test_profile_is_found_by_its_token_and_the_token_is_not_stored(db: Database) -> None:
    profile, token = storage.create_profile(db, name="Ruby", options={"coach": True})
    assert storage.profile_by_token(db, token) == profile
    assert storage.profile_by_token(db, token + "x") is None
    with db.session() as session:
        stored = session.connection().exec_driver_sql("select token_hash from profiles").scalar()
    assert stored != token and stored == storage.profiles.hash_token(token)


def test_update_profile_changes_only_what_is_given(db: Database) -> None:
    profile, _ = storage.create_profile(db, name="Ruby", options={"coach": True})
    storage.update_profile(db, profile.id, name="Max")
    updated = storage.get_profile(db, profile.id)
    assert updated is not None and updated.name == "Max" and updated.options == {"coach": True}
    with pytest.raises(LookupError):
        storage.update_profile(db, 999, name="Nobody")


def _table(db: Database, table_id: str = "t1") -> storage.Profile:
    profile, _ = storage.create_profile(db)
    storage.create_table(
        db,
        table_id=table_id,
        owner_id=profile.id,
        game="indecision",
        rules={"players": 2},
        seed=42,
        seats=[{"kind": "human", "name": "Ruby"}, {"kind": "bot", "level": "easy"}],
        owner_seat=0,
    )
    return profile


def test_table_log_is_stored_in_order_and_replayable_as_stored(db: Database) -> None:
    profile = _table(db)
    for index, (seat, notation) in enumerate([(0, "discard 7H"), (1, "draw deck")]):
        storage.append_action(db, "t1", index, seat, notation)
    table = storage.load_table(db, "t1")
    assert table is not None
    assert table.actions == ((0, "discard 7H"), (1, "draw deck"))
    assert table.seated == {0: profile.id} and table.status == storage.PLAYING
    assert (table.game, table.seed, table.rules) == ("indecision", 42, {"players": 2})


def test_a_move_is_stored_as_the_columns_read_it_back(db: Database) -> None:
    """The move's write runs its statements as driver SQL: the summary's scores and the room
    as JSON, the time as the column's own type, the client id beside the move."""
    _table(db)
    room = {"members": [{"profile": 1, "name": "Zoë"}], "seen": {"0": ["c-1"]}}
    create_room(db, StoredRoom("t1", "token", False, "waiting", {}))
    before = utc_now()
    summary = storage.TableSummary(moves=1, deal=2, scores=(5, None), to_move=1)
    storage.append_action(
        db, "t1", 0, 0, "discard 7H", summary, client_id="c-1", room=("playing", room)
    )
    with db.session() as session:
        row = session.get(TableRow, "t1")
        assert row is not None
        assert (row.moves, row.deal, row.scores, row.to_move) == (1, 2, [5, None], 1)
        assert row.updated_at.replace(tzinfo=None) >= before.replace(tzinfo=None)
    table = storage.load_table(db, "t1")
    assert table is not None and table.client_ids == ((0, "c-1"),)
    stored = load_room(db, "t1")
    assert stored is not None and (stored.phase, stored.room) == ("playing", room)


def test_a_move_index_cannot_be_stored_twice(db: Database) -> None:
    _table(db)
    storage.append_action(db, "t1", 0, 0, "discard 7H")
    with pytest.raises(IntegrityError):
        storage.append_action(db, "t1", 0, 1, "draw deck")
    table = storage.load_table(db, "t1")
    assert table is not None and table.actions == ((0, "discard 7H"),)


def test_the_move_ending_a_game_stores_the_status_and_result_with_it(db: Database) -> None:
    _table(db)
    result = {"winners": [0], "scores": [31, 12]}
    storage.append_action(db, "t1", 0, 0, "knock", ending=(storage.FINISHED, result))
    table = storage.load_table(db, "t1")
    assert table is not None and (table.status, table.result) == (storage.FINISHED, result)
    assert table.actions == ((0, "knock"),)


def test_the_moves_queued_together_are_stored_in_one_commit_each_with_its_own_outcome(
    tmp_path: Path,
) -> None:
    """While the writer waits (another process holds the write lock), the moves of several
    tables queue up and are stored in one commit; a move refused (fenced out) refuses only
    itself, and the others are stored."""
    db = Database(storage.sqlite_url(tmp_path))
    db.engine.dispose()  # every connection from now on is opened with the trace below
    statements: list[str] = []

    def traced(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.set_trace_callback(statements.append)

    event.listen(db.engine, "connect", traced)
    for table_id in ("a", "b", "c", "d"):
        _table(db, table_id)
        storage.claim_table(db, table_id, 3)
    statements.clear()
    store = DatabaseLogStore(db)
    holder = sqlite3.connect(
        tmp_path / "cardtable.sqlite3", isolation_level=None, check_same_thread=False
    )

    async def scenario(index: int, fences: dict[str, int]) -> list[BaseException | None]:
        holder.execute("BEGIN IMMEDIATE")  # the writer's first move waits for the lock
        first = asyncio.ensure_future(store.append("a", index, 0, "first", None, fence=3))
        await asyncio.sleep(0.3)
        queued = [
            asyncio.ensure_future(store.append(table_id, index, 1, "queued", None, fence=fence))
            for table_id, fence in fences.items()
        ]
        await asyncio.sleep(0.3)
        holder.execute("COMMIT")
        await first
        return list(await asyncio.gather(*queued, return_exceptions=True))

    try:
        assert run_async(scenario(0, {"b": 3, "c": 3})) == [None, None]
        commits = [s for s in statements if s.strip().upper() == "COMMIT"]
        assert len(commits) == 2, "the two queued moves were stored in one commit"
        storage.claim_table(db, "d", 4)  # another process owns d now
        outcomes = run_async(scenario(1, {"b": 3, "d": 3, "c": 3}))
    finally:
        store.close()
        holder.close()
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], FencedOutError)
    for table_id, log in {
        "a": ((0, "first"), (0, "first")),
        "b": ((1, "queued"), (1, "queued")),
        "c": ((1, "queued"), (1, "queued")),
        "d": (),
    }.items():
        stored = storage.load_table(db, table_id)
        assert stored is not None and stored.actions == log, table_id
    db.close()


def test_closing_the_store_right_behind_queued_moves_stores_them_and_stops_the_writer(
    tmp_path: Path,
) -> None:
    """A store closed while moves wait in the writer's queue (a server stopping as a computer
    player moves) makes those moves and then stops: the stop, queued right behind them, is
    not taken for one of the moves (it was, and closing waited for ever)."""
    db = Database(storage.sqlite_url(tmp_path))
    for table_id in ("a", "b"):
        _table(db, table_id)
    store = DatabaseLogStore(db)
    holder = sqlite3.connect(
        tmp_path / "cardtable.sqlite3", isolation_level=None, check_same_thread=False
    )

    async def scenario() -> tuple[bool, list[BaseException | None]]:
        holder.execute("BEGIN IMMEDIATE")  # the writer's first move waits for the lock
        first = asyncio.ensure_future(store.append("a", 0, 0, "first", None))
        await asyncio.sleep(0.3)
        queued = asyncio.ensure_future(store.append("b", 0, 1, "queued", None))
        await asyncio.sleep(0.1)
        # The stop, queued last; a thread of its own, so that a close that never ends fails
        # the test instead of holding it.
        closing = threading.Thread(target=store.close, daemon=True)
        closing.start()
        await asyncio.sleep(0.3)
        holder.execute("COMMIT")
        outcomes = await asyncio.gather(first, queued, return_exceptions=True)
        deadline = time.monotonic() + 10
        while closing.is_alive() and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        return not closing.is_alive(), list(outcomes)

    try:
        closed, outcomes = run_async(scenario())
    finally:
        holder.close()
    assert closed, "closing the store waited for ever behind the queued moves"
    assert outcomes == [None, None]
    for table_id, log in {"a": ((0, "first"),), "b": ((1, "queued"),)}.items():
        stored = storage.load_table(db, table_id)
        assert stored is not None and stored.actions == log, table_id
    db.close()


def test_only_unfinished_tables_of_the_profile_are_listed(db: Database) -> None:
    profile = _table(db, "a")
    storage.create_table(
        db,
        table_id="b",
        owner_id=profile.id,
        game="indecision",
        rules={},
        seed=1,
        seats=[{"kind": "human"}],
        owner_seat=0,
    )
    storage.set_status(db, "a", storage.FINISHED, {"winners": [0]})
    assert storage.tables_of(db, profile.id) == ["b"]
    assert storage.tables_of(db, profile.id, status=storage.FINISHED) == ["a"]
    finished = storage.load_table(db, "a")
    assert finished is not None and finished.result == {"winners": [0]}
    stranger, _ = storage.create_profile(db)
    assert storage.tables_of(db, stranger.id) == []
    storage.sit(db, "b", 1, stranger.id)
    assert storage.tables_of(db, stranger.id) == ["b"]


def test_record_events_are_kept_once_per_key_and_per_profile(db: Database) -> None:
    first, _ = storage.create_profile(db)
    second, _ = storage.create_profile(db)
    event = RecordEvent(key="t:deal:1", game="indian-rummy", kind="deal", won=False, points=20)
    assert storage.add_events(db, first.id, [event]) == 1
    assert storage.add_events(db, first.id, [event]) == 0
    assert storage.add_events(db, second.id, [event]) == 1
    (stored,) = storage.events_of(db, first.id)
    assert (stored.key, stored.points, stored.won) == ("t:deal:1", 20, False)
    assert stored.at is not None


def test_export_document_round_trips_through_parse(db: Database) -> None:
    profile, _ = storage.create_profile(db, name="Ruby", options={"coach": True})
    storage.add_events(
        db,
        profile.id,
        [RecordEvent(key="k", game="indecision", kind="game", won=True, details={"x": 1})],
    )
    document = storage.export_profile(db, profile.id)
    name, options, events = storage.parse_document(document)
    assert (name, options) == ("Ruby", {"coach": True})
    assert all(event.imported for event in events)
    assert [{**event.to_json(), "imported": False} for event in events] == document["record"]
