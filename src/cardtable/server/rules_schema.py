"""Describe every option of a game's Rules dataclass, for the start screen's settings form.

Nothing here is written per game: the fields, their types and defaults come from the dataclass,
the help text from the bullet list in its docstring (or a field's ``metadata["help"]``), the
ranges from probing the dataclass's own validation, and the choices of label lists from the
game's presets. A field of a nested dataclass (Indecision's meld values) is an ``object`` with
its own ``fields``.
"""

from __future__ import annotations

import dataclasses
import re
import types
import typing
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from cardtable.games.contract import rules_to_json

PROBE_WINDOW: Final = range(-5, 101)
FAR: Final = 1_000_000
_NAMES_BEFORE_COLON = re.compile(r"((?:``\w+``(?:,\s*|\s+and\s+))*``\w+``):")
_NAME = re.compile(r"``(\w+)``")
_JOINING_WORDS: Final = frozenset({"", "with", "and", "or", "plus"})


def rules_schema(rules_type: type[Any], presets: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per field: name, label, type, default, help, and choices/min/max/fields.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     '''Demo rules.
    ...
    ...     * ``players``: how many play, 2-4.
    ...     '''
    ...     players: int = 2
    ...     def __post_init__(self):
    ...         if not 2 <= self.players <= 4:
    ...             raise ValueError("2-4 players")
    >>> rules_schema(Demo, {})
    [{'name': 'players', 'label': 'Players', 'type': 'int', 'default': 2, \
'help': 'How many play, 2-4.', 'min': 2, 'max': 4}]
    """
    return [dict(entry) for entry in _schema(rules_type, tuple(presets.items()))]


_CACHE: dict[tuple[type[Any], tuple[str, ...]], tuple[dict[str, Any], ...]] = {}


def _schema(
    rules_type: type[Any], presets: tuple[tuple[str, Any], ...]
) -> tuple[dict[str, Any], ...]:
    key = (rules_type, tuple(name for name, _rules in presets))
    if key not in _CACHE:
        _CACHE[key] = _build_schema(rules_type, presets)
    return _CACHE[key]


def _build_schema(
    rules_type: type[Any], presets: tuple[tuple[str, Any], ...]
) -> tuple[dict[str, Any], ...]:
    hints = typing.get_type_hints(rules_type)
    defaults = rules_type()
    helps = field_help(rules_type)
    entries = []
    for field in dataclasses.fields(rules_type):
        default = getattr(defaults, field.name)
        entry: dict[str, Any] = {
            "name": field.name,
            "label": _label(field.name),
            "type": "",
            "default": rules_to_json(default),
            "help": str(field.metadata.get("help", "")) or helps.get(field.name, ""),
        }
        entry.update(_describe_type(rules_type, field.name, hints[field.name], default, presets))
        if not entry["help"]:
            entry["help"] = _sentence(entry["label"])
        entries.append(entry)
    return tuple(entries)


def _describe_type(
    rules_type: type[Any],
    name: str,
    annotation: Any,
    default: Any,
    presets: tuple[tuple[str, Any], ...],
) -> dict[str, Any]:
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation is bool:
        return {"type": "bool"}
    if origin is typing.Literal:
        return {"type": "choice", "choices": list(arguments)}
    if annotation is int:
        return _int_range(rules_type, name, "int")
    if origin in (typing.Union, types.UnionType) and set(arguments) == {int, type(None)}:
        return _int_range(rules_type, name, "int-or-none")
    if origin is tuple and arguments and arguments[0] is str:
        return _label_choices(name, default, presets)
    if dataclasses.is_dataclass(default):
        return {"type": "object", "fields": [dict(e) for e in _schema(type(default), ())]}
    return {"type": "text"}


def _int_range(rules_type: type[Any], name: str, kind: str) -> dict[str, Any]:
    def valid(value: int) -> bool:
        try:
            rules_type(**{name: value})
        except (ValueError, TypeError):
            return False
        return True

    accepted = [value for value in PROBE_WINDOW if valid(value)]
    if not accepted:
        return {"type": kind}
    contiguous = accepted == list(range(accepted[0], accepted[-1] + 1))
    if not contiguous and kind == "int":
        return {"type": "choice", "choices": accepted}
    described: dict[str, Any] = {"type": kind}
    if not valid(-FAR):
        described["min"] = accepted[0]
    top = accepted[-1]
    if top == PROBE_WINDOW[-1]:
        if valid(FAR):
            return described
        low, high = top, FAR  # valid(low), not valid(high): find the last valid value
        while high - low > 1:
            middle = (low + high) // 2
            low, high = (middle, high) if valid(middle) else (low, middle)
        top = low
    described["max"] = top
    return described


def _label_choices(name: str, default: Any, presets: tuple[tuple[str, Any], ...]) -> dict[str, Any]:
    most: Counter[str] = Counter(default)
    for _preset, rules in presets:
        most |= Counter(getattr(rules, name, ()))
    choices = list(most)
    described: dict[str, Any] = {"type": "labels", "choices": choices}
    repeats = {label: count for label, count in most.items() if count > 1}
    if repeats:
        described["max_repeats"] = repeats
    return described


def field_help(rules_type: type[Any]) -> dict[str, str]:
    """Help text per field, read from the ``*`` bullet list of the class docstring.

    A bullet ``* ``a``, ``b``: text`` gives ``text`` to both fields; ``name (text)`` inside
    a longer bullet gives ``text``; a field only listed gets the bullet's lead-in and its name.
    """
    fields = {field.name for field in dataclasses.fields(rules_type)}
    helps: dict[str, str] = {}
    for bullet in _bullets(rules_type.__doc__ or ""):
        lead = bullet.split("``", 1)[0].strip().rstrip(":").strip()
        found: dict[str, str] = {}
        for names, text in _segments(bullet, fields):
            for name in names:
                found.setdefault(name, _clean(text))
        for mention in _NAME.findall(bullet):
            if mention in fields:
                found.setdefault(mention, "")
        for name, text in found.items():
            if name in helps:
                continue
            if not re.search(r"[A-Za-z]{3}", text) and text.strip(" .,;()"):
                text = f"{_label(name)}: {text}"
            elif text.lower().strip(" .,;()") in _JOINING_WORDS:
                text = _explained_elsewhere(name, found) or (
                    f"{lead}: {_label(name).lower()}" if lead else _label(name)
                )
            helps[name] = _sentence(text)
    return helps


def _explained_elsewhere(name: str, found: dict[str, str]) -> str | None:
    """The text of another field that mentions ``name`` (``match`` explains ``match_wins``)."""
    for other, text in found.items():
        if other != name and re.search(rf"\b{name}\b", text):
            return f"{_label(other)}: {text}"
    return None


def _bullets(doc: str) -> list[str]:
    bullets: list[str] = []
    current: list[str] | None = None
    for line in doc.splitlines():
        stripped = line.strip()
        if stripped.startswith("* "):
            if current is not None:
                bullets.append(" ".join(current))
            current = [stripped[2:]]
        elif current is not None and stripped:
            current.append(stripped)
        elif current is not None:
            bullets.append(" ".join(current))
            current = None
    if current is not None:
        bullets.append(" ".join(current))
    return bullets


def _segments(bullet: str, fields: set[str]) -> list[tuple[list[str], str]]:
    """Split a bullet into ``(field names, their text)`` pieces."""
    headed = [
        match
        for match in _NAMES_BEFORE_COLON.finditer(bullet)
        if all(name in fields for name in _NAME.findall(match.group(1)))
    ]
    pieces: list[tuple[list[str], str]] = []
    if headed:
        for index, match in enumerate(headed):
            end = headed[index + 1].start() if index + 1 < len(headed) else len(bullet)
            pieces.append((_NAME.findall(match.group(1)), bullet[match.end() : end]))
        return pieces
    mentions = [m for m in _NAME.finditer(bullet) if m.group(1) in fields]
    for index, mention in enumerate(mentions):
        rest = bullet[mention.end() :]
        if rest.lstrip().startswith("("):
            pieces.append(([mention.group(1)], _parenthesised(rest.lstrip())))
            continue
        end = mentions[index + 1].start() if index + 1 < len(mentions) else len(bullet)
        pieces.append(([mention.group(1)], bullet[mention.end() : end]))
    return pieces


def _parenthesised(text: str) -> str:
    depth = 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0:
            return text[1:index]
    return text[1:]


def _clean(text: str) -> str:
    text = re.sub(r":\w+:`~?([\w.]+)`", lambda m: m.group(1).rsplit(".", 1)[-1], text)
    text = text.replace("``", "")
    return " ".join(text.split()).strip(" ,;:")


def _sentence(text: str) -> str:
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _label(name: str) -> str:
    """``four_sevens`` -> ``Four sevens``."""
    words = name.replace("_", " ").strip()
    return words[:1].upper() + words[1:]
