"""The schema's Alembic revisions: a database made by the first release's schema, with games
and records in it, is upgraded at start-up with nothing lost; the revisions build exactly the
schema the models describe; and the storage layer works the same on PostgreSQL (these tests
skip only when PostgreSQL is unreachable and ``CI`` is not set). A database of the previous
revision, full of games and records, keeps every row through the upgrade."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import MetaData, create_engine, text

from cardtable import storage
from cardtable.driver import advance
from cardtable.registry import get_engine
from cardtable.storage import Database, RecordEvent, TableSummary
from cardtable.storage.migrate import alembic_config, current_revision, head_revision
from cardtable.storage.models import Base

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


# --- the previous schema, full of games and records, upgraded to the newest -------------------


def previous_revision() -> str:
    """The revision before the newest: the schema the last release created."""
    script = ScriptDirectory.from_config(alembic_config())
    down = script.get_revision(head_revision()).down_revision
    assert isinstance(down, str)
    return down


def fill_previous_schema(url: str) -> dict[str, list[dict[str, Any]]]:
    """A database at the previous revision with two profiles, a game in progress with its
    moves, a finished game with its result, seats, record events and a table review, written
    through that revision's own tables; every row of every table, by table."""
    log = a_few_moves("indian-rummy", 11, 9)
    engine = create_engine(url)
    when = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    with engine.begin() as connection:
        command.upgrade(alembic_config(connection), previous_revision())
        old = MetaData()
        old.reflect(connection)
        rows: dict[str, list[dict[str, Any]]] = {
            "profiles": [
                {"id": 1, "token_hash": "c" * 64, "name": "Ruby", "options": {"coach": True}},
                {"id": 2, "token_hash": "d" * 64, "name": "Max", "options": {}},
            ],
            "game_tables": [
                {
                    "id": "playing1",
                    "owner_id": 1,
                    "game": "indian-rummy",
                    "rules": {"players": 2},
                    "seed": 11,
                    "status": "playing",
                    "result": None,
                    "seats": [{"kind": "human", "name": "Ruby"}, {"kind": "human", "name": "Max"}],
                    "moves": len(log),
                    "deal": 1,
                    "scores": [0, 0],
                    "to_move": 1,
                },
                {
                    "id": "done1",
                    "owner_id": 2,
                    "game": "indecision",
                    "rules": {},
                    "seed": 2**40,
                    "status": "finished",
                    "result": {"winners": [0]},
                    "seats": [{"kind": "human", "name": "Max"}, {"kind": "bot", "level": "hard"}],
                    "moves": 0,
                    "deal": 3,
                    "scores": [121, 97],
                    "to_move": -2,
                },
            ],
            "table_actions": [
                {"table_id": "playing1", "index": i, "seat": seat, "notation": notation}
                for i, (seat, notation) in enumerate(log)
            ],
            "table_seats": [
                {"table_id": "playing1", "seat": 0, "profile_id": 1},
                {"table_id": "playing1", "seat": 1, "profile_id": 2},
                {"table_id": "done1", "seat": 0, "profile_id": 2},
            ],
            "record_events": [
                {
                    "id": n,
                    "profile_id": 2,
                    "key": f"done1:game:{n}",
                    "game": "indecision",
                    "kind": "game",
                    "won": n == 1,
                    "points": 100 + n,
                    "details": {"n": n},
                }
                for n in (1, 2)
            ],
            "table_reviews": [
                {
                    "table_id": "done1",
                    "commitment": "e" * 64,
                    "contributions": ["ab"],
                    "server_seed": "f" * 64,
                    "share_token": "share1",
                    "analyses": {"0": []},
                },
            ],
        }
        for name in (
            "profiles",
            "game_tables",
            "table_actions",
            "table_seats",
            "record_events",
            "table_reviews",
        ):
            table = old.tables[name]
            for row in rows[name]:
                values = {**row}
                for stamp in ("created_at", "updated_at"):
                    if stamp in table.columns:
                        values[stamp] = when
                connection.execute(table.insert().values(**values))
        snapshot = {name: every_row(connection, old.tables[name]) for name in old.tables}
    engine.dispose()
    return snapshot


def every_row(connection: Any, table: Any) -> list[dict[str, Any]]:
    """A table's rows as dicts, in the order of its primary key (or of every column)."""
    order = list(table.primary_key.columns) or list(table.columns)
    return [dict(row._mapping) for row in connection.execute(table.select().order_by(*order))]


def upgraded_keeps_everything(url: str) -> None:
    before = fill_previous_schema(url)
    db = Database(url)  # the server's start-up upgrades the schema
    assert current_revision(db.engine) == head_revision()
    with db.engine.connect() as connection:
        new = MetaData()
        new.reflect(connection)
        for name, rows in before.items():
            if name == "alembic_version":
                continue
            old_columns = list(rows[0]) if rows else []
            after = [
                {column: row[column] for column in old_columns}
                for row in every_row(connection, new.tables[name])
            ]
            assert after == rows, name
    stored = storage.load_table(db, "playing1")
    assert stored is not None and stored.seated == {0: 1, 1: 2}
    assert stored.actions == tuple(a_few_moves("indian-rummy", 11, 9))
    assert [event.points for event in storage.events_of(db, 2)] == [101, 102]
    (listed,), total = storage.list_tables(db, 1)
    assert total == 1 and listed.summary == TableSummary(9, 1, (0, 0), 1)
    db.close()


def test_a_database_of_the_previous_schema_is_upgraded_with_nothing_lost(tmp_path: Path) -> None:
    upgraded_keeps_everything(storage.sqlite_url(tmp_path))


def test_postgresql_database_of_the_previous_schema_is_upgraded_with_nothing_lost(
    postgres_url: str,
) -> None:
    upgraded_keeps_everything(postgres_url)


def test_servers_starting_together_on_a_new_postgresql_database_migrate_one_at_a_time(
    postgres_url: str,
) -> None:
    def start() -> str | None:
        db = Database(postgres_url)
        revision = current_revision(db.engine)
        db.close()
        return revision

    with ThreadPoolExecutor(max_workers=4) as pool:
        revisions = list(pool.map(lambda _: start(), range(4)))
    assert revisions == [head_revision()] * 4
