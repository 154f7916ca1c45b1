"""The only place a game's name becomes the game: its :class:`~cardtable.games.spec.GameSpec`,
its engine and the parts the spec names (bots, coach, narration, text, scoring, CLI options).

Each game declares itself once, in its package's ``spec.py``; :data:`SPEC_MODULES` lists those
modules in menu order, and adding a game means adding its line there. Specs are small and
imported together; an engine or any other part is imported on first use, so asking for one
game does not load the others.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Final

from cardtable.errors import RulesError
from cardtable.games.contract import AnyEngine
from cardtable.games.spec import GameSpec

SPEC_MODULES: Final = (
    "cardtable.games.indecision.spec",
    "cardtable.games.indian_rummy.spec",
    "cardtable.games.declaration_rummy.spec",
)
"""Every registered game's spec module, in menu order: one line per game."""


@cache
def _specs() -> dict[str, GameSpec]:
    specs: dict[str, GameSpec] = {}
    for path in SPEC_MODULES:
        spec: GameSpec = importlib.import_module(path).SPEC
        specs[spec.name] = spec
    return specs


@cache
def _names() -> dict[str, str]:
    """Every accepted spelling (name, alias, title) in lower case -> registry name."""
    names: dict[str, str] = {}
    for spec in _specs().values():
        for spelling in (spec.name, spec.title, *spec.aliases):
            names[spelling.lower()] = spec.name
    return names


def game_names() -> tuple[str, ...]:
    """The registered game names, in menu order.

    >>> game_names()
    ('indecision', 'indian-rummy', 'declaration-rummy')
    """
    return tuple(_specs())


def canonical_name(name: str) -> str:
    """The registered name for ``name`` or an alias; ``RulesError`` naming the choices if none.

    >>> canonical_name(" IR ")
    'indian-rummy'
    """
    key = _names().get(name.strip().lower())
    if key is None:
        raise RulesError(f"unknown game {name!r}: choose one of {', '.join(_specs())}")
    return key


def get_spec(name: str) -> GameSpec:
    """The spec of the game registered under ``name`` (or an alias)."""
    return _specs()[canonical_name(name)]


def specs() -> tuple[GameSpec, ...]:
    """Every registered game's spec, in menu order."""
    return tuple(_specs().values())


def load(path: str) -> Any:
    """The object a spec names: ``"package.module"`` or ``"package.module:attribute"``."""
    module_name, _, attribute = path.partition(":")
    module = importlib.import_module(module_name)
    return getattr(module, attribute) if attribute else module


__all__ = [
    "SPEC_MODULES",
    "AnyEngine",
    "canonical_name",
    "game_names",
    "get_engine",
    "get_spec",
    "load",
    "specs",
]


def get_engine(name: str) -> AnyEngine:
    """The engine registered under ``name``.

    >>> get_engine("indian-rummy").title
    'Indian Rummy'
    """
    engine: AnyEngine = load(get_spec(name).engine)
    return engine
