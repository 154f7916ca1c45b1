"""Rule options from the command line: ``--preset NAME`` and repeated ``--rule KEY=VALUE``.

Values are read by the type of the option's default (``true``/``false``, whole numbers, ``none``
where an option may be unset, comma-separated lists for card lists, ``meld_values.prile_4=20``
for a nested table), so every field of every game's ``Rules`` is reachable without a flag of its
own. Errors name the option and what it accepts.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from cardtable.errors import RulesError
from cardtable.registry import AnyEngine

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


def _coerce(name: str, default: Any, text: str) -> Any:
    """Read ``text`` as a value of the same kind as ``default``."""
    lowered = text.strip().lower()
    if isinstance(default, bool):
        if lowered in _TRUE:
            return True
        if lowered in _FALSE:
            return False
        raise RulesError(f"option {name} takes true or false, not {text!r}")
    if lowered == "none":
        return None
    if isinstance(default, int) or default is None:
        try:
            return int(lowered)
        except ValueError:
            if default is None:
                return text.strip()
            raise RulesError(f"option {name} takes a whole number, not {text!r}") from None
    if isinstance(default, tuple):
        return tuple(part.strip() for part in text.split(",") if part.strip())
    return text.strip()


def apply_rule_options(rules: Any, assignments: Sequence[str]) -> Any:
    """``rules`` with each ``KEY=VALUE`` assignment applied (validated by the rules class)."""
    changes: dict[str, Any] = {}
    nested: dict[str, dict[str, Any]] = {}
    field_names = {f.name for f in dataclasses.fields(rules)}
    for assignment in assignments:
        key, sep, value = assignment.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise RulesError(f"--rule takes KEY=VALUE, not {assignment!r}")
        head, dot, tail = key.partition(".")
        if head not in field_names:
            raise RulesError(
                f"unknown rule option {head!r}: choose from {', '.join(sorted(field_names))}"
            )
        current = getattr(rules, head)
        if dot:
            if not dataclasses.is_dataclass(current):
                raise RulesError(f"option {head} has no parts (no {key!r})")
            inner = {f.name for f in dataclasses.fields(current)}
            if tail not in inner:
                raise RulesError(f"unknown part {tail!r} of {head}: choose from {sorted(inner)}")
            nested.setdefault(head, {})[tail] = _coerce(key, getattr(current, tail), value)
        else:
            changes[head] = _coerce(head, current, value)
    for head, parts in nested.items():
        changes[head] = dataclasses.replace(getattr(rules, head), **parts)
    try:
        return dataclasses.replace(rules, **changes)
    except TypeError as exc:
        raise RulesError(str(exc)) from None


def build_rules(
    engine: AnyEngine,
    *,
    preset: str | None,
    players: int | None,
    assignments: Sequence[str],
    extra: Mapping[str, Any] | None = None,
) -> Any:
    """Rules for ``engine`` from a preset (``default`` if none), a player count and assignments."""
    presets = engine.presets()
    name = preset or "default"
    if name not in presets:
        raise RulesError(
            f"unknown preset {name!r} for {engine.name}: choose from {', '.join(presets)}"
        )
    rules = presets[name]
    changes: dict[str, Any] = dict(extra or {})
    if players is not None:
        changes["players"] = players
    if changes:
        rules = dataclasses.replace(rules, **changes)
    return apply_rule_options(rules, assignments)
