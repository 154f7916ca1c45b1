"""The websocket message tables of ``docs/protocol.md``, generated from the message
declarations of :mod:`cardtable.server.protocol.messages` (their JSON schemas, as pydantic
writes them), so that the document and the code cannot say different things.

The tables sit in the document between ``<!-- messages:NAME -->`` and ``<!-- /messages:NAME -->``
lines; ``python -m cardtable.server.protocol.doc docs/protocol.md`` writes them again, and a
test fails while the document holds other tables than these.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from pydantic import JsonValue

from cardtable.server.protocol.messages import CLIENT_MODELS, SERVER_MESSAGES, SERVER_MODELS

Schema = Mapping[str, JsonValue]
PARTS: Final = (
    "LastAction",
    "MoveJson",
    "GameResultJson",
    "SummaryJson",
    "SummaryScoreJson",
    "OwnFactsJson",
    "DiscardAdvice",
    "LabelledGroupJson",
    "BestGroupsJson",
    "BestMeldJson",
    "RoomJson",
    "YouJson",
    "InviteJson",
    "RoomSettingsJson",
    "PersonSeatJson",
    "BotSeatJson",
    "OpenSeatJson",
    "TurnJson",
    "RematchJson",
)
"""The objects inside server messages that get a table of their own, in reading order."""
_SECTION: Final = re.compile(r"(<!-- messages:(\w+) -->\n).*?(<!-- /messages:\2 -->)", re.DOTALL)


_ROLE: Final = re.compile(r":\w+:`~?(?:[\w.]+\.)?([^`.]+)`")


def _words(text: str) -> str:
    """A docstring as one table cell (Sphinx roles shown as code)."""
    text = _ROLE.sub(r"`\1`", " ".join(text.split()).replace("``", "`"))
    return text.replace("|", "\\|")


def _type(schema: Schema) -> str:
    """A field's type in a few words."""
    if "$ref" in schema:
        name = str(schema["$ref"]).rsplit("/", 1)[-1]
        return "JSON" if name == "JsonValue" else f"`{name}`"
    if "anyOf" in schema:
        options = schema["anyOf"]
        assert isinstance(options, list)
        return " or ".join(_type(option) for option in options if isinstance(option, dict))
    if "const" in schema:
        return f'`"{schema["const"]}"`'
    if "enum" in schema:
        values = schema["enum"]
        assert isinstance(values, list)
        return " \\| ".join(f'`"{value}"`' for value in values)
    kind = schema.get("type")
    if kind == "array":
        items = schema.get("items")
        return f"list of {_type(items) if isinstance(items, dict) else 'JSON'}"
    if kind == "object":
        return "object"
    words = {"integer": "whole number", "string": "text", "boolean": "true/false", "null": "null"}
    shown = words.get(str(kind), str(kind))
    bounds = [
        f"{name} {schema[key]}"
        for key, name in (("minimum", "≥"), ("maximum", "≤"))
        if key in schema
    ]
    if "pattern" in schema:
        bounds.append(f"matching `{schema['pattern']}`")
    return shown + (f" ({', '.join(bounds)})" if bounds else "")


def _fields(schema: Schema) -> str:
    """An object's fields, but its ``type``: ``name: type``, ``name?`` when it may be left
    out."""
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    assert isinstance(properties, dict) and isinstance(required, list)
    shown = [
        f"`{name}{'' if name in required else '?'}`: {_type(field)}"
        for name, field in properties.items()
        if name != "type" and isinstance(field, dict)
    ]
    return "; ".join(shown) or "none"


def client_table() -> str:
    """The client messages: type, fields, what it does, and who may send it."""
    lines = ["| `type` | fields | what it asks | who, when |", "| --- | --- | --- | --- |"]
    for tag, model in CLIENT_MODELS.items():
        schema = model.model_json_schema()
        where = "people's tables" if model.people_only else "every table"
        if model.host_only:
            where += ", the host"
        if model.waiting_only:
            where += ", waiting room"
        lines.append(f"| `{tag}` | {_fields(schema)} | {_words(model.__doc__ or '')} | {where} |")
    return "\n".join(lines)


def _server_schemas() -> dict[str, Schema]:
    definitions = SERVER_MESSAGES.json_schema()["$defs"]
    assert isinstance(definitions, dict)
    return {name: value for name, value in definitions.items() if isinstance(value, dict)}


def server_table() -> str:
    """The server messages: type, fields and when it is sent."""
    schemas = _server_schemas()
    lines = ["| `type` | fields | sent |", "| --- | --- | --- |"]
    for model in SERVER_MODELS:
        schema = schemas[model.__name__]
        properties = schema["properties"]
        assert isinstance(properties, dict)
        tag = properties["type"]
        assert isinstance(tag, dict)
        lines.append(f"| `{tag['const']}` | {_fields(schema)} | {_words(model.__doc__ or '')} |")
    return "\n".join(lines)


def parts_table() -> str:
    """The objects server messages hold (the room, the last action…)."""
    schemas = _server_schemas()
    lines = ["| object | fields | what it is |", "| --- | --- | --- |"]
    for name in PARTS:
        schema = schemas[name]
        description = str(schema.get("description", ""))
        lines.append(f"| `{name}` | {_fields(schema)} | {_words(description)} |")
    return "\n".join(lines)


TABLES: Final = {"client": client_table, "server": server_table, "parts": parts_table}


def with_tables(document: str) -> str:
    """``document`` with every generated table written afresh."""

    def table(match: re.Match[str]) -> str:
        return f"{match.group(1)}{TABLES[match.group(2)]()}\n{match.group(3)}"

    return _SECTION.sub(table, document)


def sections(document: str) -> set[str]:
    """The generated tables ``document`` has places for."""
    return {match.group(2) for match in _SECTION.finditer(document)}


def main(argv: list[str]) -> int:
    """Write the tables into the document named on the command line."""
    path = Path(argv[0])
    path.write_text(with_tables(path.read_text(encoding="utf-8")), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
