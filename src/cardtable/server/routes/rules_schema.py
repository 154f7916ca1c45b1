"""Describe every option of a game's Rules dataclass, for the start screen's settings form.

Nothing here is written per game, and nothing is guessed: each field's label, help, bounds and
choices are the :class:`~cardtable.options.Option` declared on it (see :mod:`cardtable.options`),
its type and default come from the dataclass. A field of a nested dataclass (Indecision's meld
values) is an ``object`` with its own ``fields``. Fields the table sets itself (whether people
are seated) are not offered.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.games.contract import rules_to_json
from cardtable.options import Declared, bounds, options_of


def rules_schema(rules_type: type[Any], presets: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per field a player may set: name, label, type, default, help, and, as the
    type needs, ``min``/``max`` (with ``bounds_by`` when another field decides them),
    ``choices`` with ``choice_labels``, ``max_repeats`` or nested ``fields``.

    ``presets`` is accepted for the callers' convenience; the schema depends only on the type.

    >>> from cardtable.options import option
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     players: int = option(2, label="Players", help="How many play.", low=2, high=4)
    >>> rules_schema(Demo, {})
    [{'name': 'players', 'label': 'Players', 'type': 'int', 'default': 2, \
'help': 'How many play.', 'min': 2, 'max': 4}]
    """
    return _schema(rules_type)


def _schema(rules_type: type[Any]) -> list[dict[str, Any]]:
    defaults = rules_type()
    return [
        _entry(defaults, declared)
        for declared in options_of(rules_type)
        if not declared.option.table_sets
    ]


def _entry(defaults: Any, declared: Declared) -> dict[str, Any]:
    spec = declared.option
    entry: dict[str, Any] = {
        "name": declared.name,
        "label": spec.label,
        "type": declared.kind,
        "default": rules_to_json(getattr(defaults, declared.name)),
        "help": spec.help,
    }
    kind = declared.kind
    if kind in ("int", "int-or-none"):
        limits = bounds(defaults, declared)
        if limits is not None:
            entry["min"], entry["max"] = limits
        if spec.bounds_by is not None:
            other, table = spec.bounds_by
            entry["bounds_by"] = {
                "field": other,
                "bounds": [
                    {"when": rules_to_json(value), "min": low, "max": high}
                    for value, (low, high) in table.items()
                ],
            }
    elif kind == "choice":
        entry["choices"] = list(spec.choices)
        entry["choice_labels"] = [spec.choice_labels.get(c, str(c)) for c in spec.choices]
    elif kind == "labels":
        entry["choices"] = list(spec.choices)
        if spec.repeats:
            entry["max_repeats"] = dict(spec.repeats)
    elif kind == "object":
        assert declared.nested is not None
        entry["fields"] = _schema(declared.nested)
    return entry
