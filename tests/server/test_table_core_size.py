"""The table core stays small: :class:`TableOwner` holds at most twelve fields and its class
body fits in three hundred lines, everything else living in the parts it is handed (its
setup, services, audience, computer players and, at a people's table, the people's part);
the hooks of a table against computer players hold nothing at all."""

from __future__ import annotations

import dataclasses
import inspect

import pytest

from cardtable.server.people.presence import PeoplesTable
from cardtable.server.table.owner import NO_PEOPLE, NoPeople, PeopleHooks, TableOwner

MAX_FIELDS = 12
MAX_LINES = 300


def test_the_table_core_has_at_most_twelve_fields() -> None:
    names = [field.name for field in dataclasses.fields(TableOwner)]
    assert len(names) <= MAX_FIELDS, names


def test_the_table_core_class_fits_in_three_hundred_lines() -> None:
    lines, _start = inspect.getsourcelines(TableOwner)
    assert len(lines) <= MAX_LINES, f"TableOwner is {len(lines)} lines long"


def test_the_hooks_of_a_table_without_people_hold_no_state() -> None:
    assert NoPeople.__slots__ == ()
    assert not hasattr(NO_PEOPLE, "__dict__")
    assert not dataclasses.is_dataclass(NoPeople)
    # Nothing can be set on an instance either: the one instance serves every such table.
    with pytest.raises(AttributeError):
        NO_PEOPLE.room_part = None  # type: ignore[attr-defined]


def test_both_people_parts_answer_every_hook() -> None:
    hooks = {
        name
        for name in vars(PeopleHooks)
        if not name.startswith("_") and name not in {"_is_protocol", "_is_runtime_protocol"}
    }
    assert hooks
    for part in (NoPeople, PeoplesTable):
        missing = sorted(name for name in hooks if not hasattr(part, name))
        assert not missing, (part.__name__, missing)
