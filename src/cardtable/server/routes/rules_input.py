"""Rule options as a client sends them, checked for strict JSON types before the game's own
validation: a whole-number option takes only a whole number (not ``2.0``, ``true`` or a
number too large to mean anything), a yes/no option only ``true``/``false``, a list option only
a list of its items' type, a nested option only an object. The types are read from the game's
``Rules`` dataclass, so nothing here is written per game; bounds, choices and combinations are
the dataclass's own checks.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from typing import Any, Final

from cardtable.errors import RulesError

MAX_RULE_INTEGER: Final = 10**9
MAX_LIST_ITEMS: Final = 64


def check_rule_types(rules_type: type[Any], data: Mapping[str, Any], where: str = "") -> None:
    """Raise :class:`RulesError` naming the first option whose JSON type is wrong.

    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class Demo:
    ...     players: int = 2
    ...     cap: int | None = None
    ...     strict: bool = False
    >>> check_rule_types(Demo, {"players": 3, "cap": None, "strict": True})
    >>> check_rule_types(Demo, {"players": 2.0})
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: rule players must be a whole number, not 2.0
    >>> check_rule_types(Demo, {"cap": True})
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: rule cap must be a whole number or null, not true
    """
    if not dataclasses.is_dataclass(rules_type):
        return
    hints = typing.get_type_hints(rules_type)
    for name, value in data.items():
        if name in hints:
            _check(hints[name], value, f"{where}{name}")


def _check(hint: Any, value: Any, name: str) -> None:
    origin = typing.get_origin(hint)
    arguments = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in arguments:
            return
        kinds = [argument for argument in arguments if argument is not type(None)]
        if len(kinds) == 1:
            try:
                _check(kinds[0], value, name)
            except RulesError as exc:
                if type(None) in arguments and kinds[0] is int:
                    raise RulesError(
                        f"rule {name} must be a whole number or null, not {_shown(value)}"
                    ) from None
                raise exc from None
        return
    if hint is bool:
        if not isinstance(value, bool):
            raise RulesError(f"rule {name} must be true or false, not {_shown(value)}")
    elif hint is int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise RulesError(f"rule {name} must be a whole number, not {_shown(value)}")
        if abs(value) > MAX_RULE_INTEGER:
            raise RulesError(f"rule {name} must be at most {MAX_RULE_INTEGER:,} in size")
    elif origin is typing.Literal:
        if not any(type(value) is type(choice) and value == choice for choice in arguments):
            choices = ", ".join(_shown(choice) for choice in arguments)
            raise RulesError(f"rule {name} must be one of {choices}, not {_shown(value)}")
    elif hint is str:
        if not isinstance(value, str):
            raise RulesError(f"rule {name} must be text, not {_shown(value)}")
    elif origin in (frozenset, tuple, list, set):
        if not isinstance(value, list):
            raise RulesError(f"rule {name} must be a list, not {_shown(value)}")
        if len(value) > MAX_LIST_ITEMS:
            raise RulesError(f"rule {name} must have at most {MAX_LIST_ITEMS} items")
        item_hint = arguments[0] if arguments else Any
        for index, item in enumerate(value):
            _check(item_hint, item, f"{name}[{index}]")
    elif dataclasses.is_dataclass(hint):
        if not isinstance(value, Mapping):
            raise RulesError(f"rule {name} must be an object, not {_shown(value)}")
        check_rule_types(hint, value, f"{name}.")  # type: ignore[arg-type]


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."
