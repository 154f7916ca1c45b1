"""A relaying process keeps the actions it forwarded with a client id until an answer names
them, and sends them again after greeting a table's new owner (the old one may have died before
answering); an answer, or a view past the version they were made for, settles them."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

from cardtable.server.cluster.relay import Proxy, Relay, inbox

from .conftest import run_async


class Published:
    """Stands for the bus: keeps what is published; one process listens on every channel."""

    def __init__(self) -> None:
        self.sent: list[tuple[str, dict[str, Any]]] = []

    async def publish(self, channel: str, data: bytes) -> int:
        self.sent.append((channel, json.loads(data)))
        return 1


def _relay() -> tuple[Relay, Published]:
    redis = Published()
    relay = Relay(redis, SimpleNamespace(holder="p1"))  # type: ignore[arg-type]
    return relay, redis


def _action(client_id: str | None, version: int) -> str:
    message: dict[str, Any] = {"type": "action", "version": version, "action": "draw stock"}
    if client_id is not None:
        message["client_id"] = client_id
    return json.dumps(message)


def test_unanswered_actions_are_sent_again_after_greeting_a_new_owner() -> None:
    relay, redis = _relay()
    proxy = Proxy("p1/1", "t1", profile_id=7)
    run_async(relay.forward(proxy, _action("a-1", 4)))
    run_async(relay.forward(proxy, _action(None, 4)))  # no client id: nothing to match
    run_async(relay.forward(proxy, json.dumps({"type": "quick", "phrase": "thanks"})))
    assert list(proxy.unconfirmed) == ["a-1"]
    redis.sent.clear()
    run_async(relay.hello(proxy))
    assert [payload["op"] for _channel, payload in redis.sent] == ["hello", "frame"]
    assert {channel for channel, _payload in redis.sent} == {inbox("t1")}
    assert json.loads(redis.sent[1][1]["raw"])["client_id"] == "a-1"


def test_an_answer_naming_the_action_or_a_later_view_settles_it() -> None:
    relay, _redis = _relay()
    proxy = Proxy("p1/1", "t1", profile_id=7)
    for client_id, version in (("a-1", 4), ("a-2", 6), ("a-3", 9)):
        run_async(relay.forward(proxy, _action(client_id, version)))
    proxy.note_received({"type": "ack", "client_id": "a-1", "version": 5, "duplicate": False})
    proxy.note_received({"type": "state", "version": 6})  # not past a-2's version 6
    assert sorted(proxy.unconfirmed) == ["a-2", "a-3"]
    proxy.note_received({"type": "error", "code": "stale", "client_id": "a-3"})
    proxy.note_received({"type": "state", "version": 7})
    assert proxy.unconfirmed == {}
