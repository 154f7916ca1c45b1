"""Find a game engine by its name (``indecision``, ``indian-rummy``, ``declaration-rummy``).

Engines are imported on first use, so asking for one game does not load the others.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

from cardtable.errors import RulesError
from cardtable.games.contract import GameEngine

_ENGINE_MODULES: Final = {
    "indecision": "cardtable.games.indecision.engine",
    "indian-rummy": "cardtable.games.indian_rummy.engine",
    "declaration-rummy": "cardtable.games.declaration_rummy.engine",
}
_ALIASES: Final = {
    "indian_rummy": "indian-rummy",
    "declaration_rummy": "declaration-rummy",
    "ir": "indian-rummy",
    "dr": "declaration-rummy",
}

AnyEngine = GameEngine[Any, Any, Any, Any]


def game_names() -> tuple[str, ...]:
    """The registered game names, in menu order."""
    return tuple(_ENGINE_MODULES)


def canonical_name(name: str) -> str:
    """The registered name for ``name`` or an alias; ``RulesError`` naming the choices if none."""
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    if key not in _ENGINE_MODULES:
        raise RulesError(f"unknown game {name!r}: choose one of {', '.join(_ENGINE_MODULES)}")
    return key


def get_engine(name: str) -> AnyEngine:
    """The engine registered under ``name``.

    >>> get_engine("indian-rummy").title
    'Indian Rummy'
    """
    module = importlib.import_module(_ENGINE_MODULES[canonical_name(name)])
    engine: AnyEngine = module.ENGINE
    return engine
