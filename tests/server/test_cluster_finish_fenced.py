"""Storing a finished game refused because another process of a cluster owns the table now is
expected there: a warning without a traceback. Any other failure to store it stays an error
with its traceback. The table is finished for its players either way."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any

import pytest

from cardtable.games.contract import TERMINAL
from cardtable.server.table.computer_players import ComputerPlayers
from cardtable.server.table.ending import finish_if_over
from cardtable.server.table.owner import TableOwner
from cardtable.server.table.services import TableServices
from cardtable.server.table.setup import TableSetup
from cardtable.storage import FINISHED, FencedOutError

from .conftest import run_async


class RefusingStore:
    """Stands for the log store: refuses to store a table's status with ``refusal``."""

    def __init__(self, refusal: Exception) -> None:
        self.refusal = refusal
        self.asked: list[tuple[str, str, Any]] = []

    async def set_status(self, table_id: str, status: str, result: Any) -> None:
        self.asked.append((table_id, status, result))
        raise self.refusal


def a_game_just_over(store: RefusingStore) -> TableOwner:
    """A table whose game has just ended (no result: an engine that only says it is over)."""
    engine = SimpleNamespace(result=lambda state: None, current_player=lambda state: TERMINAL)
    return TableOwner(
        setup=TableSetup("t-over", "indecision", engine, None, 1),  # type: ignore[arg-type]
        seats=[],
        seated={},
        state=None,
        log=[],
        services=TableServices(store=store),  # type: ignore[arg-type]
        bots=ComputerPlayers(lambda: 0.0),
    )


def finish(refusal: Exception, caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    store = RefusingStore(refusal)
    owner = a_game_just_over(store)
    caplog.set_level(logging.DEBUG, logger="cardtable.server.table.ending")
    caplog.clear()
    run_async(finish_if_over(owner, owner.services.store))
    assert store.asked == [("t-over", FINISHED, None)]
    assert owner.status == FINISHED and owner.finished
    return [r for r in caplog.records if r.name == "cardtable.server.table.ending"]


def test_a_finished_game_refused_by_the_fence_is_a_warning_without_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    records = finish(FencedOutError("another server process owns table t-over"), caplog)
    assert [r.levelno for r in records] == [logging.WARNING]
    assert records[0].exc_info is None
    assert "t-over" in records[0].getMessage()
    assert "another server process" in records[0].getMessage()


def test_any_other_failure_to_store_a_finished_game_is_an_error_with_traceback(
    caplog: pytest.LogCaptureFixture,
) -> None:
    records = finish(RuntimeError("the disk is full"), caplog)
    assert [r.levelno for r in records] == [logging.ERROR]
    assert records[0].exc_info is not None
    assert isinstance(records[0].exc_info[1], RuntimeError)
