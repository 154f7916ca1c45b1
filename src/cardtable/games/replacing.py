"""Keyword replacement for the engines' ``NamedTuple`` states, cheaper than ``_replace``.

Every game's engine builds a new immutable state for each action and chance step, by naming the
fields that change. ``NamedTuple._replace`` does that through a Python-level ``_make`` and a map
over every field; :func:`replacer` makes a function for one class that copies the tuple into a
list, sets the named fields by their precomputed positions and builds the tuple directly (what
that saves: benchmarks/README.md, "Building the next state by keyword").
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T", bound=tuple[Any, ...])


def replacer(cls: type[T]) -> Callable[..., T]:
    """``replace(item, **changes)`` for the ``NamedTuple`` class ``cls``: the same as
    ``item._replace(**changes)``; an unknown field name raises ``KeyError``.

    >>> from typing import NamedTuple
    >>> class Point(NamedTuple):
    ...     x: int
    ...     y: int
    >>> replace_point = replacer(Point)
    >>> replace_point(Point(1, 2), y=5), Point(1, 2)._replace(y=5)
    (Point(x=1, y=5), Point(x=1, y=5))
    """
    # Every NamedTuple class has _fields; the bound ``tuple`` cannot say so to the checker.
    fields: tuple[str, ...] = cls._fields  # type: ignore[attr-defined]
    position = {name: index for index, name in enumerate(fields)}
    build = tuple.__new__

    def replace(item: T, **changes: Any) -> T:
        values = list(item)
        for name, value in changes.items():
            values[position[name]] = value
        made: T = build(cls, values)
        return made

    replace.__doc__ = f"``item._replace(**changes)`` for {cls.__name__}, more cheaply."
    return replace
