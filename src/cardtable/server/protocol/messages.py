"""The websocket protocol's messages: reading what a client sends, building what it receives.

Client messages are JSON text frames of at most :data:`MAX_MESSAGE_BYTES`; anything else is a
:class:`ProtocolError` carrying the error code the client is sent back. Server messages are
plain dicts built here, so every field name of the protocol is spelled in this one module.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Final, Literal

import orjson

from cardtable.errors import CardtableError

MAX_MESSAGE_BYTES: Final = 4096
MAX_ACTION_LENGTH: Final = 200

ErrorCode = Literal[
    "malformed",
    "unknown-type",
    "illegal",
    "stale",
    "not-your-turn",
    "too-large",
    "finished",
    "not-seated",
    "no-table",
    "unavailable",
    "forbidden-origin",
    "rate-limited",
    "server",
    "not-member",
    "spectator",
    "not-host",
    "phase",
    "seat-taken",
    "not-ready",
    "bad-seat",
    "bad-phrase",
]
CLIENT_TYPES: Final = (
    "action",
    "hint",
    "coach",
    "groups",
    "ping",
    "sit",
    "watch",
    "set_seat",
    "remove",
    "lock",
    "start",
    "quick",
    "leave",
    "rematch",
)
"""Message types; those after ``ping`` are for people's tables only."""
CLIENT_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}")


class ProtocolError(CardtableError, ValueError):
    """A client message the table refuses; ``code`` is the protocol's error code."""

    def __init__(self, code: ErrorCode, message: str, *, rule: str | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.rule = rule

    def to_message(self) -> dict[str, Any]:
        """The error message sent to the client that caused it."""
        return error_message(self.code, str(self), rule=self.rule)


@dataclass(frozen=True, slots=True)
class ClientMessage:
    """A well-formed client message: ``type`` and, for actions, the version and notation."""

    type: str
    version: int | None = None
    action: str | None = None
    client_id: str | None = None
    """An action's client id (people's tables acknowledge a resent action, never re-apply it)."""
    fields: tuple[tuple[str, Any], ...] = ()
    """A room message's other fields (``seat``, ``kind``, ``level``, ``phrase``, ``accept``…),
    checked by whoever handles it."""

    def get(self, name: str) -> Any:
        """A room message's field, or ``None``."""
        return dict(self.fields).get(name)


def parse_client_message(raw: str | bytes) -> ClientMessage:
    """Read one client frame, or raise :class:`ProtocolError` naming the problem.

    >>> parse_client_message('{"type": "action", "version": 3, "action": "draw stock"}')
    ClientMessage(type='action', version=3, action='draw stock', client_id=None, fields=())
    >>> parse_client_message('{"type": "sit", "seat": 2}').get("seat")
    2
    >>> parse_client_message('[1, 2]')
    Traceback (most recent call last):
    ...
    cardtable.server.protocol.messages.ProtocolError: a message must be a JSON object, not an array
    """
    size = len(raw.encode("utf-8")) if isinstance(raw, str) else len(raw)
    if size > MAX_MESSAGE_BYTES:
        raise ProtocolError(
            "too-large",
            f"message too large: {size} bytes, the limit is {MAX_MESSAGE_BYTES} bytes",
        )
    if isinstance(raw, bytes):
        raise ProtocolError("malformed", "binary frames are not accepted: send JSON text")
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError("malformed", "the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("malformed", f"a message must be a JSON object, not {_json_kind(data)}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("malformed", 'a message needs a "type" field holding text')
    if kind not in CLIENT_TYPES:
        raise ProtocolError(
            "unknown-type",
            f"unknown message type {kind[:40]!r}: expected one of {', '.join(CLIENT_TYPES)}",
        )
    if kind != "action":
        if kind in ("action", "hint", "coach", "ping"):
            return ClientMessage(type=kind)
        return ClientMessage(
            type=kind,
            fields=tuple((key, value) for key, value in data.items() if key != "type"),
        )
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 0:
        raise ProtocolError(
            "malformed", 'an action needs "version": the whole-number version you last saw'
        )
    action = data.get("action")
    if not isinstance(action, str) or not action.strip():
        raise ProtocolError("malformed", 'an action needs "action": its text notation')
    if len(action) > MAX_ACTION_LENGTH:
        raise ProtocolError(
            "malformed", f"action notation longer than {MAX_ACTION_LENGTH} characters"
        )
    client_id = data.get("client_id")
    if client_id is not None and (
        not isinstance(client_id, str) or CLIENT_ID.fullmatch(client_id) is None
    ):
        raise ProtocolError("malformed", "client_id must be 1 to 64 letters, digits, '-' or '_'")
    return ClientMessage(type="action", version=version, action=action.strip(), client_id=client_id)


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return "an array"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, bool):
        return "a boolean"
    if value is None:
        return "null"
    return "a number"


def error_message(
    code: ErrorCode, message: str, *, rule: str | None = None, client_id: str | None = None
) -> dict[str, Any]:
    """``{"type": "error", ...}``; ``rule`` names the game rule for illegal actions,
    ``client_id`` the action's client id when it had one."""
    payload: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if rule is not None:
        payload["rule"] = rule
    if client_id is not None:
        payload["client_id"] = client_id
    return payload


def state_message(
    *,
    version: int,
    seat: int | None,
    view: dict[str, Any],
    legal: list[str],
    to_move: int,
    result: dict[str, Any] | None,
    last_action: dict[str, Any] | None,
    summary: dict[str, Any] | None,
    announce: str,
    own: dict[str, Any] | None = None,
    moves: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """The state one seat sees after a change (or on connecting); ``own`` holds what the seat
    may know of its own hand without working it out (Declaration Rummy's ``count``), ``moves``
    the legal actions as structured moves (:mod:`cardtable.server.narration.moves`), in the
    order of ``legal``. A spectator's ``seat`` is ``None``."""
    return {
        "type": "state",
        "version": version,
        "seat": seat,
        "view": view,
        "legal": legal,
        "moves": moves or [],
        "to_move": to_move,
        "result": result,
        "last_action": last_action,
        "summary": summary,
        "announce": announce,
        "own": own or {},
    }


def hint_message(
    action: str | None, reason: str, *, version: int, move: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A suggested action (``None`` when the seat has nothing to do) and why, for the table at
    ``version`` (the page shows it only while its table is still at that version); ``move``
    is the action as a structured move (:func:`~cardtable.server.narration.moves.hint_move`)."""
    return {"type": "hint", "action": action, "move": move, "reason": reason, "version": version}


def groups_message(body: dict[str, Any], *, version: int, seq: int | None) -> dict[str, Any]:
    """The answer to a ``groups`` message (fields in docs/protocol.md), for the table at
    ``version``; ``seq`` echoes the request's, so the page keeps only its latest answer."""
    return {"type": "groups", "version": version, "seq": seq, **body}


def coach_message(
    tips: list[str],
    discards: list[dict[str, Any]],
    warnings: list[str],
    *,
    version: int,
    **more: Any,
) -> dict[str, Any]:
    """The coach's report for the seat's position at ``version`` (``more``: near-melds, its
    hint)."""
    return {
        "type": "coach",
        "tips": tips,
        "discards": discards,
        "warnings": warnings,
        "version": version,
        **more,
    }


def pong_message() -> dict[str, Any]:
    """The answer to a ping."""
    return {"type": "pong"}


class Frame(dict[str, Any]):
    """A server message about to be sent to several connections (a seat's open tabs, the
    spectators, pages relayed from other processes): its JSON text is encoded once, on the
    first send. Not to be changed once sent."""

    __slots__ = ("_text",)

    def __init__(self, message: dict[str, Any]) -> None:
        super().__init__(message)
        self._text: str | None = None

    @property
    def text(self) -> str:
        """The message as compact JSON text (:func:`dumps`)."""
        if self._text is None:
            self._text = _encode(self)
        return self._text


def dumps(message: dict[str, Any]) -> str:
    """A server message as compact JSON text (the same text ``json.dumps`` with compact
    separators and ``ensure_ascii=False`` writes, several times faster: a state is encoded
    for every connected seat after every move).

    >>> dumps({"type": "pong", "n": [1, 2], "name": "Zoë", 3: None})
    '{"type":"pong","n":[1,2],"name":"Zoë","3":null}'
    """
    if isinstance(message, Frame):
        return message.text
    return _encode(message)


def _encode(message: dict[str, Any]) -> str:
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def room_message(room: dict[str, Any]) -> dict[str, Any]:
    """A people's table's room (waiting room, presence, timers, rematch)."""
    return {"type": "room", "room": room}


def ack_message(client_id: str, version: int, *, duplicate: bool) -> dict[str, Any]:
    """An action with a client id was applied (or had been already: ``duplicate``)."""
    return {"type": "ack", "client_id": client_id, "version": version, "duplicate": duplicate}


def away_message(moves: int) -> dict[str, Any]:
    """To a person back after the grace ran out: how many moves were played for them."""
    plural = "move was" if moves == 1 else "moves were"
    return {
        "type": "away",
        "moves": moves,
        "message": f"You were away: {moves} {plural} played for you.",
    }


def quick_message(seat: int, name: str, phrase: str, text: str) -> dict[str, Any]:
    """A quick message from the person at ``seat``."""
    return {"type": "quick", "seat": seat, "name": name, "phrase": phrase, "text": text}
