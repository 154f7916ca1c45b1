"""The typed protocol: every client message type is read into its own model, every field a
model names is refused with that model's named error when missing or of the wrong type, the
frames a real table sends are exactly what the server messages declare, and the message
tables of docs/protocol.md are the ones generated from the declarations."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.protocol.doc import TABLES, sections, with_tables
from cardtable.server.protocol.messages import (
    CLIENT_MODELS,
    CLIENT_TYPES,
    SERVER_MESSAGES,
    ActionMessage,
    ProtocolError,
    QuickMessage,
    SetSeatMessage,
    SitMessage,
    parse_client_message,
)

from .conftest import new_table, receive, receive_type, wait_for_turn
from .online import friend, join, shared_table, until

PROTOCOL_DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
CONTRIBUTION = "0123456789abcdef"
EXAMPLES: dict[str, dict[str, Any]] = {
    "action": {"type": "action", "version": 4, "action": "discard 7H", "client_id": "m-1"},
    "hint": {"type": "hint"},
    "coach": {"type": "coach"},
    "groups": {"type": "groups", "groups": [["5H", "6H"], ["QS"]], "put_down": "KD", "seq": 3},
    "ping": {"type": "ping"},
    "sit": {"type": "sit", "seat": 2, "contribution": CONTRIBUTION},
    "watch": {"type": "watch"},
    "set_seat": {"type": "set_seat", "seat": 1, "kind": "bot", "level": "hard"},
    "remove": {"type": "remove", "seat": 1},
    "lock": {"type": "lock", "locked": True},
    "start": {"type": "start"},
    "quick": {"type": "quick", "phrase": "good-game"},
    "leave": {"type": "leave"},
    "rematch": {"type": "rematch", "accept": False, "contribution": CONTRIBUTION},
}
WRONG_TYPES: dict[type, list[Any]] = {
    str: [5, 1.5, True, [1], {"a": 1}],
    int: ["1", 1.5, True, [1], {"a": 1}],
    bool: ["yes", 1, 0, [True]],
    list: ["5H", 5, True, {"a": 1}, ["5H"], [[5]], [["5H", None]]],
}
"""Values of other JSON types than a field's, by the type of the field's valid value."""


def _refused(message: dict[str, Any]) -> ProtocolError:
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(json.dumps(message))
    return refused.value


def test_every_client_message_type_has_an_example() -> None:
    assert set(EXAMPLES) == set(CLIENT_TYPES)


@pytest.mark.parametrize("kind", CLIENT_TYPES)
def test_each_client_message_is_read_into_its_own_model(kind: str) -> None:
    message = parse_client_message(json.dumps(EXAMPLES[kind] | {"unnamed": [1, 2]}))
    assert type(message) is CLIENT_MODELS[kind]
    assert message.model_dump(exclude_none=True) == EXAMPLES[kind]


def test_fields_are_read_as_the_protocol_says() -> None:
    action = parse_client_message(json.dumps({"type": "action", "version": 0, "action": " drop "}))
    assert action == ActionMessage(type="action", version=0, action="drop")
    sit = parse_client_message(json.dumps({"type": "sit", "seat": 0, "contribution": "ABCDEF12"}))
    assert isinstance(sit, SitMessage) and sit.contribution == "abcdef12"
    bot = parse_client_message(json.dumps({"type": "set_seat", "seat": 3, "kind": "bot"}))
    assert isinstance(bot, SetSeatMessage) and bot.level is None
    assert isinstance(parse_client_message('{"type": "quick", "phrase": "wow"}'), QuickMessage)


@pytest.mark.parametrize("kind", CLIENT_TYPES)
def test_every_field_of_a_message_has_its_named_refusal(kind: str) -> None:
    model = CLIENT_MODELS[kind]
    assert set(model.refusals) == set(model.model_fields) - {"type"}


@pytest.mark.parametrize(
    ("kind", "field"),
    [(kind, field) for kind, model in CLIENT_MODELS.items() for field in model.refusals],
)
def test_a_field_of_the_wrong_type_is_refused_naming_it(kind: str, field: str) -> None:
    model = CLIENT_MODELS[kind]
    valid = EXAMPLES[kind][field]
    wrong = WRONG_TYPES[type(valid)] + ([None] if model.model_fields[field].is_required() else [])
    for value in wrong:
        error = _refused(EXAMPLES[kind] | {field: value})
        assert (error.code, str(error)) == model.refusals[field], (field, value)


@pytest.mark.parametrize(
    ("kind", "field"),
    [
        (kind, field)
        for kind, model in CLIENT_MODELS.items()
        for field, info in model.model_fields.items()
        if field != "type" and info.is_required()
    ],
)
def test_a_missing_field_is_refused_naming_it(kind: str, field: str) -> None:
    message = {name: value for name, value in EXAMPLES[kind].items() if name != field}
    error = _refused(message)
    assert (error.code, str(error)) == CLIENT_MODELS[kind].refusals[field]


@pytest.mark.parametrize(
    ("message", "code", "words"),
    [
        ({"type": "action", "version": 0, "action": "x" * 201}, "malformed", "longer than 200"),
        ({"type": "action", "version": 0, "action": "   "}, "malformed", 'needs "action"'),
        ({"type": "action", "version": 2.0, "action": "drop"}, "malformed", 'needs "version"'),
        ({"type": "sit", "seat": 1, "contribution": "xyz"}, "malformed", "8 to 64 hex digits"),
        ({"type": "rematch", "accept": True, "contribution": "12"}, "malformed", "hex digits"),
        ({"type": "quick", "phrase": "<b>hi</b>"}, "bad-phrase", "phrase must be one of hello"),
        ({"type": "set_seat", "seat": 1, "kind": "human"}, "malformed", '"open" or "bot"'),
        ({"type": "set_seat", "seat": 1, "kind": "bot", "level": "god"}, "malformed", "level"),
        ({"type": "lock", "locked": "yes"}, "malformed", 'lock needs "locked"'),
        ({"type": "Ping"}, "unknown-type", "unknown message type 'Ping'"),
    ],
)
def test_a_garbled_field_is_refused_with_its_sentence(
    message: dict[str, Any], code: str, words: str
) -> None:
    error = _refused(message)
    assert error.code == code and words in str(error), error


@pytest.mark.parametrize("kind", [k for k, model in CLIENT_MODELS.items() if model.people_only])
def test_a_room_message_at_a_table_against_computers_is_of_an_unknown_type(kind: str) -> None:
    for message in (EXAMPLES[kind], {"type": kind}):  # whatever its fields
        with pytest.raises(ProtocolError) as refused:
            parse_client_message(json.dumps(message), shared=False)
        assert refused.value.code == "unknown-type"
        assert str(refused.value) == f"{kind!r} is only for tables shared with other people"
    assert type(parse_client_message(json.dumps(EXAMPLES[kind]))) is CLIENT_MODELS[kind]


def _checked(frame: dict[str, Any]) -> dict[str, Any]:
    """``frame`` read as the server messages declare it: it must come back unchanged (a
    field no declaration names would be dropped, a wrong type refused)."""
    read = SERVER_MESSAGES.validate_python(frame)
    assert SERVER_MESSAGES.dump_python(read) == frame
    return frame


def test_a_tables_frames_are_what_the_server_messages_declare(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = _checked(wait_for_turn(ws))
        assert state["type"] == "state" and state["legal"]
        for ask, answer in (("hint", "hint"), ("coach", "coach"), ("ping", "pong")):
            ws.send_json({"type": ask})
            _checked(receive_type(ws, answer))
        ws.send_json({"type": "action", "version": state["version"], "action": "fly"})
        error = _checked(receive_type(ws, "error"))
        assert error["code"] == "illegal" and error["rule"] == "notation"
        move = {"type": "action", "version": state["version"], "client_id": "c-1"}
        ws.send_json(move | {"action": state["legal"][0]})
        seen: list[dict[str, Any]] = []
        ack = _checked(until(ws, lambda m: m["type"] == "ack", seen))
        version = state["version"] + 1
        assert ack == {"type": "ack", "client_id": "c-1", "version": version, "duplicate": False}
        after = _checked(next(m for m in seen if m["type"] == "state"))
        assert after["version"] == version and after["last_action"]["seat"] == 0


def test_a_people_tables_frames_are_what_the_server_messages_declare(
    client: TestClient,
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "level": "random"}]
    table = shared_table(client, "indian-rummy", seats, rules={"deals": 1}, turn_seconds=60)
    bob = friend(client)
    join(bob, table["invite"]["token"], "Bob")
    url = f"/ws/tables/{table['table_id']}"
    with client.websocket_connect(url) as host, bob.websocket_connect(url) as guest:
        waiting = _checked(receive(host))
        assert waiting["type"] == "room" and "invite" in waiting["room"]
        assert "invite" not in _checked(receive(guest))["room"]
        host.send_json({"type": "start"})
        started = _checked(until(guest, lambda m: m["type"] == "state"))
        assert started["room"]["phase"] == "playing" and started["room"]["turn"] is not None
        guest.send_json({"type": "quick", "phrase": "good-luck"})
        _checked(until(host, lambda m: m["type"] == "quick"))
        host.send_json({"type": "sit", "seat": 1})
        refused = _checked(until(host, lambda m: m["type"] == "error"))
        assert refused["code"] == "phase"


def test_the_protocol_documents_message_tables_are_generated_from_the_declarations() -> None:
    document = PROTOCOL_DOC.read_text(encoding="utf-8")
    assert sections(document) == set(TABLES)
    assert with_tables(document) == document, (
        "docs/protocol.md's message tables differ from cardtable.server.protocol.messages: "
        "run python -m cardtable.server.protocol.doc docs/protocol.md"
    )
