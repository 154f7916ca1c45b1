"""Alembic migrations of the cardtable database, shipped in the package and run at start-up
(:func:`cardtable.storage.migrate.upgrade`); ``versions/`` holds one module per revision."""
