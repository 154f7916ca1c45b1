"""Rule options declared as data: each field of a game's frozen ``Rules`` dataclass carries an
:class:`Option` in its metadata (a label and help in plain words, bounds, choices), as
OpenSpiel's parameter specifications do, and everything else is generated from it.

:func:`option` declares a field; :func:`check_options` validates a rules object against its
declarations (strict types: a whole number is never a float or a bool, a switch is a bool; every
number has a lower and an upper bound, and a bound may depend on another field, as the deal size
depends on the number of players); :func:`options_of` lists the declarations for the house-rules
schema the server sends to the browser, each in its :class:`RuleGroup` (the heading the form
shows it under). Errors are one sentence naming the field and the
accepted values. It sits beside ``errors`` at the bottom of the layers because the meld value
table of Indecision (in ``melds``) is declared with it too.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Final

from cardtable.errors import RulesError

OPTION_KEY: Final = "option"
"""The field metadata key holding a field's :class:`Option`."""


class RuleGroup(StrEnum):
    """The headings the house-rules form groups options under, in the order it shows them."""

    PLAYERS = "players"
    SCORING = "scoring"
    PLAY = "play"
    DROPPING = "dropping"
    VARIATIONS = "variations"
    MORE = "more"
    SAFEGUARDS = "safeguards"

    @property
    def heading(self) -> str:
        """The heading in words."""
        return _GROUP_TITLES[self]

    @property
    def folded(self) -> bool:
        """Whether the form folds the group away (options only guarding against endless games)."""
        return self is RuleGroup.SAFEGUARDS


_GROUP_TITLES: Final = {
    RuleGroup.PLAYERS: "Players and the deal",
    RuleGroup.SCORING: "Scoring and winning",
    RuleGroup.PLAY: "Drawing, discarding and stopping",
    RuleGroup.DROPPING: "Dropping and showing",
    RuleGroup.VARIATIONS: "Variations",
    RuleGroup.MORE: "More rules",
    RuleGroup.SAFEGUARDS: "Safeguards against endless games",
}


@dataclass(frozen=True, slots=True)
class Option:
    """How one rule option is shown and checked.

    ``label`` and ``help`` are plain words for players (a short name and one or two sentences).
    Whole numbers have ``low`` and ``high``; ``bounds_by`` names another field whose value picks
    the bounds instead (``{value: (low, high)}``). ``choices`` lists the accepted values of a
    choice (``choice_labels`` says each in words) or the labels of a list of labels (each at most
    once unless ``repeats`` allows more). ``table_sets`` marks a field the table sets itself (it
    is not offered in the house-rules form). ``message`` words the out-of-range error for this
    field (format keys ``low``, ``high``, ``value`` and the ``bounds_by`` field's name).
    ``group`` is the heading of the house-rules form it is shown under.
    """

    label: str
    help: str
    low: int | None = None
    high: int | None = None
    bounds_by: tuple[str, Mapping[Any, tuple[int, int]]] | None = None
    choices: tuple[Any, ...] = ()
    choice_labels: Mapping[Any, str] = field(default_factory=dict)
    repeats: Mapping[str, int] = field(default_factory=dict)
    table_sets: bool = False
    message: str = ""
    group: RuleGroup = RuleGroup.MORE


def option(
    default: Any = dataclasses.MISSING,
    *,
    label: str,
    help: str,
    low: int | None = None,
    high: int | None = None,
    bounds_by: tuple[str, Mapping[Any, tuple[int, int]]] | None = None,
    choices: tuple[Any, ...] = (),
    choice_labels: Mapping[Any, str] | None = None,
    repeats: Mapping[str, int] | None = None,
    table_sets: bool = False,
    message: str = "",
    group: RuleGroup = RuleGroup.MORE,
    default_factory: Callable[[], Any] | None = None,
) -> Any:
    """A dataclass field declared as a rule option (see :class:`Option`)."""
    declared = Option(
        label=label,
        help=help,
        low=low,
        high=high,
        bounds_by=bounds_by,
        choices=choices,
        choice_labels=dict(choice_labels or {}),
        repeats=dict(repeats or {}),
        table_sets=table_sets,
        message=message,
        group=group,
    )
    metadata = {OPTION_KEY: declared}
    if default_factory is not None:
        return field(default_factory=default_factory, metadata=metadata)
    return field(default=default, metadata=metadata)


@dataclass(frozen=True, slots=True)
class Declared:
    """One field of a rules dataclass with its declaration and its kind of value.

    ``kind`` is ``bool``, ``int``, ``int-or-none``, ``choice``, ``labels`` or ``object`` (a
    nested rules dataclass, whose type is ``nested``).
    """

    name: str
    option: Option
    kind: str
    nested: type[Any] | None = None


_DECLARED: dict[type[Any], tuple[Declared, ...]] = {}


def options_of(rules_type: type[Any]) -> tuple[Declared, ...]:
    """Every field of ``rules_type`` with its declared :class:`Option`, in field order.

    Raises ``TypeError`` for a field declared without :func:`option`: every rule has its words.
    """
    known = _DECLARED.get(rules_type)
    if known is None:
        known = _DECLARED[rules_type] = _declare(rules_type)
    return known


def _declare(rules_type: type[Any]) -> tuple[Declared, ...]:
    hints = typing.get_type_hints(rules_type)
    declared = []
    for spec in dataclasses.fields(rules_type):
        found = spec.metadata.get(OPTION_KEY)
        if not isinstance(found, Option):
            raise TypeError(f"{rules_type.__name__}.{spec.name} is not declared with option()")
        kind, nested = _kind(hints[spec.name])
        if kind == "choice" and not found.choices:
            found = dataclasses.replace(found, choices=typing.get_args(hints[spec.name]))
        declared.append(Declared(spec.name, found, kind, nested))
    return tuple(declared)


def _kind(annotation: Any) -> tuple[str, type[Any] | None]:
    origin = typing.get_origin(annotation)
    arguments = typing.get_args(annotation)
    if annotation is bool:
        return "bool", None
    if annotation is int:
        return "int", None
    if origin is typing.Literal:
        return "choice", None
    if origin in (typing.Union, types.UnionType) and set(arguments) == {int, type(None)}:
        return "int-or-none", None
    if origin is tuple and arguments and arguments[0] is str:
        return "labels", None
    if isinstance(annotation, type) and dataclasses.is_dataclass(annotation):
        return "object", annotation
    raise TypeError(f"no rule option kind for {annotation!r}")


def bounds(rules: Any, declared: Declared) -> tuple[int, int] | None:
    """The bounds of a whole-number option given the other fields of ``rules``."""
    spec = declared.option
    if spec.bounds_by is not None:
        other, table = spec.bounds_by
        return table.get(getattr(rules, other))
    if spec.low is None or spec.high is None:
        return None
    return spec.low, spec.high


def check_options(rules: Any) -> None:
    """Raise ``RulesError`` (one sentence) unless every field of ``rules`` is as declared."""
    for declared in options_of(type(rules)):
        _check(rules, declared, getattr(rules, declared.name))


def _is_whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check(rules: Any, declared: Declared, value: Any) -> None:
    name = declared.name
    spec = declared.option
    kind = declared.kind
    if kind == "bool":
        if not isinstance(value, bool):
            raise RulesError(f"{name} must be true or false, not {value!r}")
        return
    if kind == "object":
        if not isinstance(value, declared.nested or ()):
            raise RulesError(f"{name} must be a table of {spec.label.lower()}, not {value!r}")
        return
    if kind == "choice":
        # Same type as well as equal: 2.0 or True is not the choice 2 or 1.
        if not any(type(value) is type(c) and value == c for c in spec.choices):
            accepted = " or ".join(repr(c) for c in spec.choices)
            raise RulesError(f"{name} must be {accepted}, not {value!r}")
        return
    if kind == "labels":
        if not isinstance(value, tuple) or not all(isinstance(v, str) for v in value):
            raise RulesError(f"{name} must be a list of card labels, not {value!r}")
        return
    if value is None and kind == "int-or-none":
        return
    limits = bounds(rules, declared)
    if not _is_whole(value) or limits is None or not limits[0] <= value <= limits[1]:
        low, high = limits if limits is not None else (None, None)
        if spec.message and limits is not None:
            words = {"low": low, "high": high, "value": value}
            if spec.bounds_by is not None:
                words[spec.bounds_by[0]] = getattr(rules, spec.bounds_by[0])
            raise RulesError(spec.message.format(**words))
        none = " or none" if kind == "int-or-none" else ""
        raise RulesError(f"{name} must be {low}-{high} (a whole number){none}, not {value!r}")
