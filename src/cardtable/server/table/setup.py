"""A table's game setup: what it plays and under which rules, dealt from which seed, made by
whom, and how long it may run. Fixed once the table exists, but for the seed of a people's
table, drawn when its host starts it (the owner then holds a new record)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.games.contract import AnyEngine


@dataclass(frozen=True, slots=True)
class TableSetup:
    """The game a table plays (see the module docstring)."""

    table_id: str
    game: str
    engine: AnyEngine
    rules: Any
    seed: int
    creator: int = -1
    """The profile that created the table (its options pace the computer players)."""
    max_moves: int = 5_000
    """Moves a table may have in all, whatever its rules allow: at this many the table is
    closed (its finished deals stay in the record), so no game outgrows what a replay or a
    reload can afford (the settings' ``max_table_moves``)."""
