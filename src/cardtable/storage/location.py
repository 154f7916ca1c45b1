"""Where the database lives: the per-user data directory, or the URL the environment gives.

``CARDTABLE_DATABASE_URL`` names the whole database (for example a PostgreSQL URL);
otherwise the database is the SQLite file ``cardtable.sqlite3`` in ``CARDTABLE_DATA_DIR`` or,
when that is unset, in the platform's per-user data directory.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Final

import platformdirs

DATABASE_URL_VARIABLE: Final = "CARDTABLE_DATABASE_URL"
DATA_DIR_VARIABLE: Final = "CARDTABLE_DATA_DIR"
DATABASE_FILE_NAME: Final = "cardtable.sqlite3"


def data_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The directory that holds the SQLite database (not created here).

    >>> data_dir({"CARDTABLE_DATA_DIR": "/srv/cards"}).as_posix()
    '/srv/cards'
    """
    env = os.environ if environ is None else environ
    override = env.get(DATA_DIR_VARIABLE, "").strip()
    if override:
        return Path(override).expanduser()
    return Path(platformdirs.user_data_dir("cardtable", appauthor=False))


def sqlite_url(directory: str | Path) -> str:
    """The SQLite URL of the database file in ``directory``.

    >>> sqlite_url("/srv/cards")
    'sqlite:////srv/cards/cardtable.sqlite3'
    """
    return f"sqlite:///{Path(directory).expanduser() / DATABASE_FILE_NAME}"


def default_database_url(environ: Mapping[str, str] | None = None) -> str:
    """The database URL to use when none is given explicitly.

    >>> default_database_url({"CARDTABLE_DATABASE_URL": "postgresql://db/cards"})
    'postgresql://db/cards'
    >>> default_database_url({"CARDTABLE_DATA_DIR": "/srv/cards"})
    'sqlite:////srv/cards/cardtable.sqlite3'
    """
    env = os.environ if environ is None else environ
    url = env.get(DATABASE_URL_VARIABLE, "").strip()
    if url:
        return url
    return sqlite_url(data_dir(env))
