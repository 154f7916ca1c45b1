"""Owner calls refuse with domain errors, here and across the relay: the reason a call was
refused survives the trip to the asking process, and only the web app's edge turns it into an
HTTP status."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from cardtable.server.cluster.store import TableElsewhereError
from cardtable.server.hosting import owner_calls
from cardtable.server.hosting.owner_calls import CallRefused, Refusal
from cardtable.storage import StorageError

from .conftest import run_async


class _ElsewhereLobby:
    """A lobby that owns no table: every call must go to the owner."""

    settings = SimpleNamespace(lease_seconds=0.01)

    async def close(self, table_id: str, profile: int) -> None:
        raise TableElsewhereError(table_id)


class _OwnerRelay:
    """A relay whose owner answers every call with the given outcome."""

    def __init__(self, status: int, body: Any) -> None:
        self.answer = (status, body)
        self.calls: list[str] = []

    async def call(
        self, table_id: str, name: str, args: dict[str, Any], timeout: float
    ) -> tuple[int, Any]:
        self.calls.append(name)
        return self.answer


def _close_at_owner(relay: _OwnerRelay) -> Any:
    return run_async(
        owner_calls.at_owner(
            _ElsewhereLobby(),  # type: ignore[arg-type]
            relay,  # type: ignore[arg-type]
            "close",
            {"table_id": "t1", "profile": 1},
        )
    )


def test_an_unknown_call_is_refused_as_bad_input() -> None:
    with pytest.raises(CallRefused, match="unknown call 'nope'") as refused:
        run_async(owner_calls.run(None, "nope", {}))  # type: ignore[arg-type]
    assert refused.value.reason is Refusal.BAD_INPUT


def test_the_owner_answers_a_refusal_as_its_reason_and_sentence() -> None:
    status, body = run_async(owner_calls.answer(None, "nope", {}))  # type: ignore[arg-type]
    assert status == owner_calls.REFUSED
    assert body == {"reason": "bad-input", "message": "unknown call 'nope'"}


@pytest.mark.parametrize("reason", list(Refusal))
def test_a_relayed_refusal_is_raised_again_with_its_reason(reason: Refusal) -> None:
    relay = _OwnerRelay(owner_calls.REFUSED, {"reason": reason.value, "message": "no, because"})
    with pytest.raises(CallRefused, match="no, because") as refused:
        _close_at_owner(relay)
    assert refused.value.reason is reason
    assert relay.calls == ["close"]


def test_an_unreadable_refusal_is_a_failure_not_a_crash() -> None:
    with pytest.raises(CallRefused) as refused:
        _close_at_owner(_OwnerRelay(owner_calls.REFUSED, {"reason": "weird"}))
    assert refused.value.reason is Refusal.FAILED


def test_the_owners_storage_failure_is_a_storage_error_here() -> None:
    with pytest.raises(StorageError, match="the disk is full"):
        _close_at_owner(_OwnerRelay(owner_calls.UNAVAILABLE, "the disk is full"))


def test_an_answer_from_the_owner_is_returned_as_is() -> None:
    answer = {"table_id": "t1", "status": "abandoned"}
    assert _close_at_owner(_OwnerRelay(owner_calls.ANSWERED, answer)) == answer
