"""Describe every option of a game's Rules dataclass, for the start screen's settings form, and
the player options, for the page's Options panel.

Nothing here is written per game, and nothing is guessed: each field's label, help, bounds and
choices are the :class:`~cardtable.rule_options.Option` declared on it (see
:mod:`cardtable.rule_options`), its type and default come from the dataclass. A field of a
nested dataclass (Indecision's meld values) is an ``object`` with its own ``fields``. Fields
the table sets itself (whether people are seated) are not offered. Each field names the
:class:`~cardtable.rule_options.RuleGroup` it is shown under; :func:`rule_groups` lists the
groups in the form's order.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardtable.games.contract import rules_to_json
from cardtable.rule_options import Declared, RuleGroup, bounds, options_of
from cardtable.server.people.player_options import PlayerOptions


def rules_schema(rules_type: type[Any], presets: Mapping[str, Any]) -> list[dict[str, Any]]:
    """One entry per field a player may set: name, label, type, default, help, group, and, as
    the type needs, ``min``/``max`` (with ``bounds_by`` when another field decides them),
    ``choices`` with ``choice_labels``, ``max_repeats`` or nested ``fields``.

    ``presets`` is accepted for the callers' convenience; the schema depends only on the type.

    >>> from cardtable.rule_options import option
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True, kw_only=True)
    ... class Demo:
    ...     players: int = option(2, label="Players", help="How many play.", low=2, high=4)
    >>> rules_schema(Demo, {})
    [{'name': 'players', 'label': 'Players', 'type': 'int', 'default': 2, \
'help': 'How many play.', 'group': 'more', 'min': 2, 'max': 4}]
    """
    return _schema(rules_type)


def rule_groups() -> list[dict[str, Any]]:
    """The house-rules form's groups in the order it shows them: each one's ``name`` (what a
    schema entry's ``group`` says), its ``title`` and whether it is ``folded`` away.

    >>> rule_groups()[0]
    {'name': 'players', 'title': 'Players and the deal', 'folded': False}
    """
    return [
        {"name": group.value, "title": group.heading, "folded": group.folded} for group in RuleGroup
    ]


def options_schema() -> list[dict[str, Any]]:
    """The player options for the page (``GET /api/options``), in the form of a game's rules
    schema: name, label, type, default, help, and a choice's ``choices`` and ``choice_labels``.

    >>> options_schema()[0]
    {'name': 'coach', 'label': 'Coach', 'type': 'bool', 'default': False, \
'help': 'Tips, near-melds, what each discard leaves, warnings'}
    """
    # The house-rules form's groups mean nothing for the Options panel.
    return [
        {key: value for key, value in entry.items() if key != "group"}
        for entry in rules_schema(PlayerOptions, {})
    ]


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
        "group": spec.group.value,
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
