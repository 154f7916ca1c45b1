"""Bringing a database's schema up to date with the Alembic revisions shipped in
:mod:`cardtable.storage.migrations`, at every start-up, for SQLite and PostgreSQL alike.

* An empty database gets the current schema in one step and is stamped with the newest
  revision (what Alembic recommends for new databases: the revisions need not be replayed).
* A database made by the first release (the five tables, no ``alembic_version``) is stamped
  with the baseline and then upgraded.
* Any other database is upgraded from the revision it records.

On PostgreSQL the whole step holds an advisory lock, so that servers starting together migrate
one after the other.
"""

from __future__ import annotations

from typing import Final

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, Engine, inspect, text

from cardtable.storage.models import Base

BASELINE: Final = "0001"
SCRIPT_LOCATION: Final = "cardtable.storage:migrations"
MIGRATION_LOCK: Final = 0x63617264  # "card": the PostgreSQL advisory lock held while migrating


def alembic_config(connection: Connection | None = None) -> Config:
    """An Alembic configuration over the shipped revisions (and ``connection``, if given)."""
    config = Config()
    config.set_main_option("script_location", SCRIPT_LOCATION)
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def head_revision() -> str:
    """The newest shipped revision."""
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def current_revision(engine: Engine) -> str | None:
    """The revision a database records (``None`` if it records none)."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def upgrade(engine: Engine) -> None:
    """Bring the database's schema to the newest revision (see the module docstring)."""
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            # Several servers of a cluster may start at once on a new database: one at a time
            # migrates (the lock lasts until this transaction ends), the others then find the
            # schema up to date.
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        tables = set(inspect(connection).get_table_names())
        config = alembic_config(connection)
        if "alembic_version" not in tables:
            if "game_tables" not in tables:
                Base.metadata.create_all(connection)
                command.stamp(config, "head")
                return
            command.stamp(config, BASELINE)
        if MigrationContext.configure(connection).get_current_revision() != head_revision():
            command.upgrade(config, "head")
