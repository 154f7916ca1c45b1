"""One server per SQLite database: a lock file beside the database, held while the server runs.

Two servers on one SQLite file would each keep their own tables in memory and overwrite each
other's moves, so the second one refuses to start. The lock is the operating system's advisory
file lock (``flock``; ``msvcrt.locking`` on Windows) on ``<database>.lock``: it goes away with
the process that holds it, even after a crash, so a stale lock file never blocks a restart.
The file holds the holder's process id, for the refusal's message. Other databases (such as
PostgreSQL, which a cluster of servers shares on purpose) take no lock here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url

from cardtable.storage.database import StorageError


class DatabaseInUseError(StorageError):
    """Another process holds the database's lock."""


def lock_path(url: str) -> Path | None:
    """The lock file of a SQLite database file (``None`` for other or in-memory databases).

    >>> lock_path("sqlite:////srv/cards/cardtable.sqlite3").as_posix()
    '/srv/cards/cardtable.sqlite3.lock'
    >>> lock_path("sqlite://") is None, lock_path("postgresql://db/cards") is None
    (True, True)
    """
    parsed = make_url(url)
    database = parsed.database or ""
    if parsed.get_backend_name() != "sqlite" or database in ("", ":memory:"):
        return None
    path = Path(database).expanduser()
    return path.with_name(path.name + ".lock")


@contextmanager
def exclusive_database(url: str) -> Iterator[None]:
    """Hold the database's lock for the duration of the block, or raise
    :class:`DatabaseInUseError` naming the process that holds it. ``OSError`` if the lock file
    cannot be written (a read-only data directory)."""
    path = lock_path(url)
    if path is None:
        yield
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a+", encoding="ascii")
    try:
        if not _try_lock(handle):
            handle.seek(0)
            holder = handle.read().strip()
            who = f"process {holder}" if holder.isdigit() else "another process"
            raise DatabaseInUseError(
                f"another cardtable server ({who}) is already using the database "
                f"{path.with_suffix('')}; stop it first, or give this one another --data-dir"
            )
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
        yield
    finally:
        handle.close()  # closing the file releases the lock


def _try_lock(handle: IO[str]) -> bool:
    if sys.platform == "win32":
        # Each platform's own module, which exists only there.
        import msvcrt

        try:
            msvcrt.locking(handle.fileno(), msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True
    # Each platform's own module, which exists only there.
    import fcntl

    try:
        fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True
