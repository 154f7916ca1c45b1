"""Alembic's environment: migrations run on the connection the caller hands over in
``config.attributes["connection"]`` (see :mod:`cardtable.storage.migrate`); no ``alembic.ini``
and no logging set-up, so the app's own logging stays as it is."""

from __future__ import annotations

from alembic import context

from cardtable.storage.models import Base


def run() -> None:
    """Run the pending revisions in the caller's transaction."""
    connection = context.config.attributes["connection"]
    context.configure(
        connection=connection,
        target_metadata=Base.metadata,
        # SQLite alters a table by copying it; the batch mode does that for us.
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


run()
