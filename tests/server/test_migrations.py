"""The schema's Alembic revisions: a database made by the first release's schema, with games
and records in it, is upgraded at start-up with nothing lost; the revisions build exactly the
schema the models describe; and the storage layer works the same on PostgreSQL (these tests
skip only when PostgreSQL is unreachable and ``CI`` is not set)."""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import create_engine, text
from sqlalchemy.exc import OperationalError

from cardtable import storage
from cardtable.driver import advance
from cardtable.registry import get_engine
from cardtable.storage import Database, RecordEvent, TableSummary
from cardtable.storage.migrate import alembic_config, current_revision, head_revision
from cardtable.storage.models import Base

POSTGRES_URL = os.environ.get(
    "CARDTABLE_TEST_POSTGRES_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/test"
)

FIRST_SCHEMA = [
    """CREATE TABLE profiles (
        id INTEGER NOT NULL, token_hash VARCHAR(64) NOT NULL, name VARCHAR(80) NOT NULL,
        options JSON NOT NULL, created_at DATETIME NOT NULL, PRIMARY KEY (id))""",
    "CREATE UNIQUE INDEX ix_profiles_token_hash ON profiles (token_hash)",
    """CREATE TABLE game_tables (
        id VARCHAR(32) NOT NULL, owner_id INTEGER NOT NULL, game VARCHAR(40) NOT NULL,
        rules JSON NOT NULL, seed BIGINT NOT NULL, seats JSON NOT NULL,
        status VARCHAR(16) NOT NULL, result JSON, created_at DATETIME NOT NULL,
        updated_at DATETIME NOT NULL, PRIMARY KEY (id),
        FOREIGN KEY(owner_id) REFERENCES profiles (id))""",
    "CREATE INDEX ix_game_tables_owner_id ON game_tables (owner_id)",
    "CREATE INDEX ix_game_tables_status ON game_tables (status)",
    """CREATE TABLE record_events (
        id INTEGER NOT NULL, profile_id INTEGER NOT NULL, "key" VARCHAR(120) NOT NULL,
        game VARCHAR(40) NOT NULL, kind VARCHAR(16) NOT NULL, won BOOLEAN NOT NULL,
        points INTEGER, details JSON NOT NULL, created_at DATETIME NOT NULL, PRIMARY KEY (id),
        CONSTRAINT uq_record_event_key UNIQUE (profile_id, "key"),
        FOREIGN KEY(profile_id) REFERENCES profiles (id))""",
    "CREATE INDEX ix_record_events_profile_id ON record_events (profile_id)",
    """CREATE TABLE table_actions (
        table_id VARCHAR(32) NOT NULL, "index" INTEGER NOT NULL, seat INTEGER NOT NULL,
        notation VARCHAR(200) NOT NULL, PRIMARY KEY (table_id, "index"),
        FOREIGN KEY(table_id) REFERENCES game_tables (id))""",
    """CREATE TABLE table_seats (
        table_id VARCHAR(32) NOT NULL, seat INTEGER NOT NULL, profile_id INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat), FOREIGN KEY(table_id) REFERENCES game_tables (id),
        FOREIGN KEY(profile_id) REFERENCES profiles (id))""",
    "CREATE INDEX ix_table_seats_profile_id ON table_seats (profile_id)",
]


def a_few_moves(game: str, seed: int, count: int) -> list[tuple[int, str]]:
    engine = get_engine(game)
    state, _ = advance(engine, engine.new_game(engine.rules_from_json({}), seed))
    log = []
    for _ in range(count):
        seat = engine.current_player(state)
        action = engine.legal_actions(state, seat)[0]
        state, _ = advance(engine, engine.apply(state, action, seat))
        log.append((seat, str(action)))
    return log


def fill_first_schema(url: str) -> list[tuple[int, str]]:
    """The first release's five tables with a profile, a game of 6 moves and two record
    events, written with plain SQL as that release wrote them; the game's log."""
    log = a_few_moves("indecision", 3, 6)
    engine = create_engine(url)
    now = "2025-01-02 03:04:05"
    with engine.begin() as connection:
        for statement in FIRST_SCHEMA:
            connection.execute(text(statement))
        connection.execute(
            text("INSERT INTO profiles VALUES (1, :hash, 'Ruby', '{\"coach\": true}', :now)"),
            {"hash": "a" * 64, "now": now},
        )
        connection.execute(
            text(
                "INSERT INTO game_tables VALUES ('t1', 1, 'indecision', '{\"players\": 2}', 3,"
                " :seats, 'playing', NULL, :now, :now)"
            ),
            {
                "seats": '[{"kind": "human", "name": "Ruby"}, '
                '{"kind": "bot", "level": "easy", "name": "Max"}]',
                "now": now,
            },
        )
        connection.execute(text("INSERT INTO table_seats VALUES ('t1', 0, 1)"))
        for index, (seat, notation) in enumerate(log):
            connection.execute(
                text("INSERT INTO table_actions VALUES ('t1', :i, :seat, :notation)"),
                {"i": index, "seat": seat, "notation": notation},
            )
        for number, won in ((1, True), (2, False)):
            connection.execute(
                text(
                    "INSERT INTO record_events VALUES (:id, 1, :key, 'indecision', 'deal', :won,"
                    " 7, '{}', :now)"
                ),
                {"id": number, "key": f"old:deal:{number}", "won": won, "now": now},
            )
    engine.dispose()
    return log


def test_a_database_of_the_first_schema_is_upgraded_at_start_up_with_nothing_lost(
    tmp_path: Path,
) -> None:
    url = storage.sqlite_url(tmp_path)
    log = fill_first_schema(url)
    db = Database(url)
    assert current_revision(db.engine) == head_revision()
    profile = storage.get_profile(db, 1)
    assert profile is not None and (profile.name, profile.options) == ("Ruby", {"coach": True})
    table = storage.load_table(db, "t1")
    assert table is not None and table.actions == tuple(log) and table.seated == {0: 1}
    assert table.seats[1]["name"] == "Max" and table.seed == 3
    events = storage.events_of(db, 1)
    assert [(e.key, e.won, e.points) for e in events] == [
        ("old:deal:1", True, 7),
        ("old:deal:2", False, 7),
    ]
    (listed,), total = storage.list_tables(db, 1)
    assert total == 1 and listed.moves == len(log) and listed.summary is None
    storage.append_action(db, "t1", len(log), 0, "x", TableSummary(len(log) + 1, 1, (0, 0), 1))
    (listed,), _ = storage.list_tables(db, 1)
    assert listed.summary == TableSummary(len(log) + 1, 1, (0, 0), 1)
    db.close()
    again = Database(url)  # a second start changes nothing
    assert current_revision(again.engine) == head_revision()
    assert storage.load_table(again, "t1") is not None
    again.close()


def schema_differences(url: str) -> list[Any]:
    engine = create_engine(url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "head")
        differences = compare_metadata(MigrationContext.configure(connection), Base.metadata)
    engine.dispose()
    return list(differences)


def test_the_revisions_build_exactly_the_schema_the_models_describe(tmp_path: Path) -> None:
    assert schema_differences(storage.sqlite_url(tmp_path)) == []


def test_a_new_database_is_created_at_the_newest_revision(tmp_path: Path) -> None:
    db = Database(storage.sqlite_url(tmp_path))
    assert current_revision(db.engine) == head_revision()
    db.close()


# --- PostgreSQL -------------------------------------------------------------------------------


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, dropped afterwards."""
    engine = create_engine(POSTGRES_URL)
    try:
        connection = engine.connect()
    except OperationalError:
        engine.dispose()
        if os.environ.get("CI"):
            raise
        pytest.skip(f"PostgreSQL is not reachable at {POSTGRES_URL}")
    schema = f"cardtable_test_{secrets.token_hex(6)}"
    with connection:
        connection.execute(text(f"CREATE SCHEMA {schema}"))
        connection.commit()
    try:
        yield f"{POSTGRES_URL}?options=-csearch_path%3D{schema}"
    finally:
        with engine.connect() as connection:
            connection.execute(text(f"DROP SCHEMA {schema} CASCADE"))
            connection.commit()
        engine.dispose()


def test_postgresql_revisions_build_exactly_the_schema_the_models_describe(
    postgres_url: str,
) -> None:
    assert schema_differences(postgres_url) == []


def test_postgresql_stores_profiles_tables_summaries_and_records(postgres_url: str) -> None:
    db = Database(postgres_url)
    assert current_revision(db.engine) == head_revision()
    profile, token = storage.create_profile(db, name="Ruby", options={"coach": True})
    assert storage.profile_by_token(db, token) == profile
    for number in range(3):
        storage.create_table(
            db,
            table_id=f"t{number}",
            owner_id=profile.id,
            game="indecision",
            rules={"players": 2},
            seed=2**40 + number,
            seats=[{"kind": "human", "name": "Ruby"}, {"kind": "bot", "level": "easy"}],
            owner_seat=0,
        )
    log = a_few_moves("indecision", 2**40 + 1, 4)
    for index, (seat, notation) in enumerate(log):
        summary = TableSummary(index + 1, 1, (0, 0), 1 - seat)
        storage.append_action(db, "t1", index, seat, notation, summary)
    stored = storage.load_table(db, "t1")
    assert stored is not None and stored.actions == tuple(log) and stored.seed == 2**40 + 1
    page, total = storage.list_tables(db, profile.id, limit=2)
    assert total == 3 and page[0].id == "t1" and page[0].summary is not None
    assert page[0].summary.moves == len(log) and len(page) == 2
    assert storage.count_created(db, profile.id) == 3
    storage.set_status(db, "t0", storage.ABANDONED)
    assert storage.count_created(db, profile.id) == 2
    event = RecordEvent(key="t1:game", game="indecision", kind="game", won=True, points=121)
    assert storage.add_events(db, profile.id, [event, event]) == 1
    assert [e.points for e in storage.events_of(db, profile.id)] == [121]
    db.close()


def test_postgresql_database_of_the_first_schema_is_upgraded_with_nothing_lost(
    postgres_url: str,
) -> None:
    engine = create_engine(postgres_url)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), "0001")
        connection.execute(text("DROP TABLE alembic_version"))  # as the first release left it
        connection.execute(
            text("INSERT INTO profiles VALUES (1, :hash, 'Ruby', '{}', now())"), {"hash": "b" * 64}
        )
        connection.execute(
            text(
                "INSERT INTO game_tables VALUES ('t1', 1, 'indecision', '{}', 5, '[]',"
                " 'playing', NULL, now(), now())"
            )
        )
        connection.execute(text("INSERT INTO table_seats VALUES ('t1', 0, 1)"))
        connection.execute(text("INSERT INTO table_actions VALUES ('t1', 0, 0, 'a')"))
        connection.execute(text("INSERT INTO table_actions VALUES ('t1', 1, 1, 'b')"))
    engine.dispose()
    db = Database(postgres_url)
    assert current_revision(db.engine) == head_revision()
    (listed,), total = storage.list_tables(db, 1)
    assert total == 1 and listed.moves == 2
    stored = storage.load_table(db, "t1")
    assert stored is not None and stored.actions == ((0, "a"), (1, "b"))
    db.close()
