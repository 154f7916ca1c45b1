"""Every error cardtable raises on purpose is a ``CardtableError``: a missing table or profile is
a ``NotFoundError`` (still a ``LookupError`` for older callers), and the storage and lease
failures sit under the same base, so one ``except CardtableError`` sees them all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cardtable import storage
from cardtable.errors import CardtableError, NotFoundError
from cardtable.server.cluster.lease import LeaseUnavailableError
from cardtable.server.cluster.store import TableElsewhereError
from cardtable.storage import Database, FencedOutError, StorageError


@pytest.fixture
def db(tmp_path: Path) -> Iterator[Database]:
    database = Database(storage.sqlite_url(tmp_path))
    yield database
    database.close()


def test_no_such_profile_is_a_not_found_error(db: Database) -> None:
    with pytest.raises(NotFoundError, match="no profile 999"):
        storage.update_profile(db, 999, name="Ann")
    with pytest.raises(NotFoundError, match="no profile 999"):
        storage.export_profile(db, 999)


def test_no_such_table_is_a_not_found_error(db: Database) -> None:
    with pytest.raises(NotFoundError, match="no table nope"):
        storage.set_status(db, "nope", "abandoned")


def test_not_found_is_still_a_lookup_error() -> None:
    assert issubclass(NotFoundError, LookupError)
    assert issubclass(NotFoundError, CardtableError)


@pytest.mark.parametrize(
    "error", [StorageError, FencedOutError, TableElsewhereError, LeaseUnavailableError]
)
def test_storage_and_lease_failures_are_cardtable_errors(error: type[Exception]) -> None:
    assert issubclass(error, CardtableError)
    assert issubclass(error, RuntimeError)  # as before, for callers that catch that
