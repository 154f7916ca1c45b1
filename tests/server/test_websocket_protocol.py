"""The websocket protocol: every bad message is answered with an error to its sender only, the
table's state (version, view, log) stays exactly as it was, and the connection keeps working."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from cardtable.server.protocol.messages import MAX_MESSAGE_BYTES

from .conftest import new_table, owner_of, receive, receive_type, visitor, wait_for_turn

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


@contextmanager
def seat_zero(client: TestClient, table_id: str) -> Iterator[tuple[WebSocketTestSession, Any]]:
    """The creator's connection, once it is the creator's turn; with that state."""
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        yield ws, wait_for_turn(ws)


def assert_refused_and_unchanged(
    client: TestClient,
    ws: WebSocketTestSession,
    table_id: str,
    state: dict[str, Any],
    send: Any,
    code: str,
    words: str,
) -> dict[str, Any]:
    """Send ``send`` (a dict as JSON, text or bytes as they are), expect error ``code`` whose
    message contains ``words``, and check nothing changed and the connection still answers."""
    owner = owner_of(client, table_id)
    before_state, before_log = owner.state, list(owner.log)
    if isinstance(send, dict):
        ws.send_json(send)
    elif isinstance(send, bytes):
        ws.send_bytes(send)
    else:
        ws.send_text(send)
    error = receive(ws)
    assert error["type"] == "error", error
    assert error["code"] == code, error
    assert words in error["message"], error
    assert owner.state is before_state
    assert owner.log == before_log and owner.version == state["version"]
    assert owner.state_for(state["seat"])["view"] == state["view"]
    ws.send_json({"type": "ping"})
    assert receive(ws) == {"type": "pong"}
    return error


@pytest.mark.parametrize(
    ("send", "code", "words"),
    [
        ("{not json", "malformed", "not valid JSON"),
        ("", "malformed", "not valid JSON"),
        ("[1, 2, 3]", "malformed", "must be a JSON object, not an array"),
        ('"action"', "malformed", "not a string"),
        ("42", "malformed", "not a number"),
        ("null", "malformed", "not null"),
        (b'{"type": "ping"}', "malformed", "binary frames are not accepted"),
        ({"version": 0}, "malformed", 'needs a "type" field'),
        ({"type": 7}, "malformed", 'needs a "type" field'),
        ({"type": "shout"}, "unknown-type", "unknown message type 'shout'"),
        ({"type": "sit", "seat": 1}, "unknown-type", "'sit' is only for tables shared"),
        ({"type": "lock"}, "unknown-type", "'lock' is only for tables shared"),
        ({"type": "action", "action": "drop"}, "malformed", 'needs "version"'),
        ({"type": "action", "version": "1", "action": "drop"}, "malformed", 'needs "version"'),
        ({"type": "action", "version": True, "action": "drop"}, "malformed", 'needs "version"'),
        ({"type": "action", "version": 0}, "malformed", 'needs "action"'),
        ({"type": "action", "version": 0, "action": "  "}, "malformed", 'needs "action"'),
        ({"type": "action", "version": 0, "action": 5}, "malformed", 'needs "action"'),
    ],
)
def test_bad_messages_get_an_error_and_change_nothing(
    client: TestClient, send: Any, code: str, words: str
) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        assert_refused_and_unchanged(client, ws, table_id, state, send, code, words)


def test_oversized_message_is_too_large(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    big = json.dumps({"type": "ping", "padding": "x" * MAX_MESSAGE_BYTES})
    with seat_zero(client, table_id) as (ws, state):
        error = assert_refused_and_unchanged(
            client, ws, table_id, state, big, "too-large", "message too large"
        )
        assert f"limit is {MAX_MESSAGE_BYTES} bytes" in error["message"]
        oversized_binary = b"x" * (MAX_MESSAGE_BYTES + 1)
        assert_refused_and_unchanged(
            client, ws, table_id, state, oversized_binary, "too-large", "message too large"
        )


def test_message_of_exactly_the_limit_is_read(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    with seat_zero(client, table_id) as (ws, _state):
        text = json.dumps({"type": "ping", "pad": ""})
        text = text.replace('""', '"' + "x" * (MAX_MESSAGE_BYTES - len(text)) + '"')
        assert len(text.encode()) == MAX_MESSAGE_BYTES
        ws.send_text(text)
        assert receive(ws) == {"type": "pong"}


def test_unknown_action_notation_is_illegal_naming_the_notation(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        for text, words in [
            ("fly away", "unknown action 'fly away'"),
            ("discard ZZ", "cannot read 'discard ZZ'"),
        ]:
            message = {"type": "action", "version": state["version"], "action": text}
            error = assert_refused_and_unchanged(
                client, ws, table_id, state, message, "illegal", words
            )
            assert error["rule"] == "notation"


def test_action_the_rules_forbid_is_illegal_naming_the_rule(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        assert "draw stock" in state["legal"]
        in_hand = set(state["view"]["hand"])
        absent = next(
            label for label in ("AS", "2H", "3D", "4C", "5S", "6H", "7D") if label not in in_hand
        )
        message = {"type": "action", "version": state["version"], "action": f"discard {absent}"}
        error = assert_refused_and_unchanged(client, ws, table_id, state, message, "illegal", "")
        assert error["rule"] and error["rule"] != "notation"
        assert error["message"]


def test_stale_version_is_refused(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        after_draw = wait_for_turn(ws)
        assert after_draw["version"] == state["version"] + 1
        hand = after_draw["view"]["hand"]
        old = {"type": "action", "version": state["version"], "action": f"discard {hand[0]}"}
        error = assert_refused_and_unchanged(
            client, ws, table_id, after_draw, old, "stale", f"version {state['version']}"
        )
        assert f"table is at version {after_draw['version']}" in error["message"]
        ahead = {"type": "action", "version": 999, "action": f"discard {hand[0]}"}
        assert_refused_and_unchanged(client, ws, table_id, after_draw, ahead, "stale", "999")


def test_action_out_of_turn_is_refused(client: TestClient) -> None:
    table_id = new_table(client, "indecision", seats=TWO_HUMANS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        if state["to_move"] == 0:
            # Seat 0 moves once so that the (absent) second human is to move.
            ws.send_json(
                {"type": "action", "version": state["version"], "action": state["legal"][0]}
            )
            state = receive(ws)
        assert state["to_move"] == 1 and state["legal"] == []
        message = {"type": "action", "version": state["version"], "action": "draw deck"}
        error = assert_refused_and_unchanged(
            client, ws, table_id, state, message, "not-your-turn", "it is not your turn"
        )
        assert error["rule"] == "not-your-turn"


def test_action_after_the_game_ended_is_refused(client: TestClient) -> None:
    table_id = new_table(client, "indecision", rules={"target_score": 5})
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        while state["result"] is None:
            if state["to_move"] == 0 and state["legal"]:
                ws.send_json(
                    {"type": "action", "version": state["version"], "action": state["legal"][0]}
                )
            state = receive(ws)
        assert state["legal"] == []
        message = {"type": "action", "version": state["version"], "action": "draw deck"}
        assert_refused_and_unchanged(
            client, ws, table_id, state, message, "finished", "this game is over"
        )


def test_action_on_an_abandoned_table_is_refused(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        owner = owner_of(client, table_id)
        assert client.delete(f"/api/tables/{table_id}").status_code == 200
        closed = receive(ws)
        assert closed["type"] == "state" and closed["legal"] == []
        before = owner.state
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        error = receive(ws)
        assert error["code"] == "finished" and "closed" in error["message"]
        assert owner.state is before and owner.version == state["version"]


def test_errors_go_only_to_the_sender(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with (
        client.websocket_connect(f"/ws/tables/{table_id}") as first,
        client.websocket_connect(f"/ws/tables/{table_id}") as second,
    ):
        state = wait_for_turn(first)
        wait_for_turn(second)
        first.send_text("{oops")
        assert receive(first)["code"] == "malformed"
        second.send_json({"type": "ping"})
        assert receive(second) == {"type": "pong"}
        first.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        assert receive(first)["version"] == state["version"] + 1
        assert receive(second)["version"] == state["version"] + 1


def test_hint_and_coach_answer_the_asking_seat(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        ws.send_json({"type": "hint"})
        hint = receive_type(ws, "hint")
        assert hint["action"] in state["legal"] and hint["reason"]
        # Each answer names the table version it is about.
        assert hint["version"] == state["version"]
        ws.send_json({"type": "coach"})
        coach = receive_type(ws, "coach")
        assert coach["version"] == state["version"]
        assert isinstance(coach["tips"], list) and isinstance(coach["warnings"], list)
        for row in coach["discards"]:
            assert {"card", "leaves", "note"} <= set(row)
        assert owner_of(client, table_id).version == state["version"]


def test_hint_when_there_is_nothing_to_do_says_so(client: TestClient) -> None:
    table_id = new_table(client, "indecision", seats=TWO_HUMANS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        if state["to_move"] == 0:
            ws.send_json(
                {"type": "action", "version": state["version"], "action": state["legal"][0]}
            )
            receive(ws)
        version = owner_of(client, table_id).version
        ws.send_json({"type": "hint"})
        assert receive(ws) == {
            "type": "hint",
            "action": None,
            "move": None,
            "reason": "You have nothing to do right now.",
            "version": version,
        }


def test_connection_without_a_profile_or_seat_or_table_is_closed(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    anonymous = TestClient(client.app)
    with anonymous.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["code"] == "not-seated"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4401
    stranger = visitor(client)
    with stranger.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["message"] == "you do not sit at this table"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4403
    with client.websocket_connect("/ws/tables/missing") as ws:
        assert receive(ws)["code"] == "no-table"
        with pytest.raises(WebSocketDisconnect) as closed:
            receive(ws)
        assert closed.value.code == 4404


def test_state_message_has_every_protocol_field(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        assert set(state) == {
            "type",
            "version",
            "seat",
            "view",
            "legal",
            "moves",
            "to_move",
            "result",
            "last_action",
            "summary",
            "announce",
            "own",
        }
        # One structured move per legal notation, in the same order.
        assert [move["notation"] for move in state["moves"]] == state["legal"]
        assert state["seat"] == 0 and state["to_move"] == 0 and state["result"] is None
        assert state["announce"].endswith("Your turn.")
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        drawn = receive(ws)
        assert drawn["last_action"] == {
            "seat": 0,
            "action": "draw stock",
            "kind": "draw stock",
            "said": "You drew from the stock.",
        }
        assert drawn["announce"].startswith("You drew from the stock.")


def test_server_keeps_serving_after_a_burst_of_garbage(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with seat_zero(client, table_id) as (ws, state):
        for garbage in ["", "{", "[]", '{"type":"x"}', "\u0000", "9" * 5000]:
            ws.send_text(garbage)
            assert receive(ws)["type"] == "error"
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        assert receive(ws)["version"] == state["version"] + 1
    assert client.get("/api/games").status_code == 200
