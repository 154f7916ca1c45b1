"""The only place a game's name becomes the game: its :class:`~cardtable.games.spec.GameSpec`,
its engine and the parts the spec names (bots, coach, narration, text, scoring, CLI options).

Each game declares itself once, in its package's ``spec.py``; :data:`SPEC_MODULES` lists those
modules in menu order, and adding a game means adding its line there. Specs are small and
imported together; an engine or any other part is imported on first use, so asking for one
game does not load the others.

A consumer names the kind of part it loads with a :class:`Part`: the spec field holding the
part's import path and the runtime-checkable protocol the part must satisfy. ``Part.load``
checks the loaded object against it and returns it typed, so a consumer states the part's
type once, where the :class:`Part` is declared, and a spec naming the wrong object fails with
a sentence saying which.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any, Final, Generic, Protocol, TypeVar, cast, runtime_checkable

from cardtable.errors import RulesError
from cardtable.games.contract import AnyEngine, GameEngine
from cardtable.games.spec import GameSpec, TableFormat

T = TypeVar("T")

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


@dataclass(frozen=True)  # not slots: a slotted frozen generic cannot be built as Part[T](...)
class Part(Generic[T]):
    """One kind of part a spec names: ``field``, the :class:`GameSpec` attribute holding its
    import path, and ``kind``, the runtime-checkable protocol (or class) the part satisfies.
    Declared with its type, ``Part[BotMaker]("bots", BotMaker)``; ``kind`` is typed loosely
    because a protocol is not a concrete class to mypy."""

    field: str
    kind: type[Any]

    def path(self, game: GameSpec | str) -> str:
        """The part's import path in ``game``'s spec; ``RulesError`` if the game has none."""
        spec = get_spec(game) if isinstance(game, str) else game
        path: str | None = getattr(spec, self.field)
        if path is None:
            raise RulesError(f"{spec.title} has no {self.field} part")
        return path

    def load(self, game: GameSpec | str) -> T:
        """``game``'s part (a spec or a game's name), checked to be a :attr:`kind`;
        ``TypeError`` naming the path if the spec names something else. A part found good
        is remembered (parts are asked for after every move, and checking an object against
        a runtime-checkable protocol costs more than the work it is asked for)."""
        path = self.path(game)
        checked = _CHECKED_PARTS.get((path, self.kind))
        if checked is not None:
            return cast(T, checked)
        part = load(path)
        if not isinstance(part, self.kind):
            name = game if isinstance(game, str) else game.name
            raise TypeError(
                f"{path}, the {self.field} part of {name}, is not a {self.kind.__name__}"
            )
        _CHECKED_PARTS[path, self.kind] = part
        return cast(T, part)


_CHECKED_PARTS: dict[tuple[str, type[Any]], Any] = {}
"""Parts already loaded and checked, by import path and kind (:meth:`Part.load`)."""


__all__ = [
    "ENGINE",
    "SPEC_MODULES",
    "TEXT",
    "AnyEngine",
    "GameText",
    "Part",
    "TableFormat",
    "canonical_name",
    "format_fields",
    "format_title",
    "game_names",
    "get_engine",
    "get_spec",
    "load",
    "specs",
    "table_format_of",
    "table_label",
]


def get_engine(name: str) -> AnyEngine:
    """The engine registered under ``name``.

    >>> get_engine("indian-rummy").title
    'Indian Rummy'
    """
    return ENGINE.load(name)


@runtime_checkable
class GameText(Protocol):
    """A game's terminal text module (:attr:`GameSpec.text`)."""

    def render_view(self, view: Any) -> str:
        """The table as ``view.seat`` sees it, in the terminal's markup."""
        ...

    def render_hand_summary(self, view: Any) -> str | None:
        """The finished deal's summary (``None`` while none is finished)."""
        ...


ENGINE: Final[Part[AnyEngine]] = Part("engine", GameEngine)
"""A game's engine (:class:`~cardtable.games.contract.GameEngine`)."""
TEXT: Final[Part[GameText]] = Part("text", GameText)
"""A game's terminal text."""


@runtime_checkable
class FormatNamer(Protocol):
    """A game's :attr:`GameSpec.table_format` part: the format some rules make, and the
    title of a format's key (Your Record keeps the key)."""

    def of(self, rules: Any) -> TableFormat:
        """The format of ``rules``."""
        ...

    def title(self, key: str) -> str:
        """The title of the format whose key is ``key``."""
        ...


TABLE_FORMAT: Final[Part[FormatNamer]] = Part("table_format", FormatNamer)
"""A game's format namer (games played in one format have none)."""


def table_format_of(game: str, rules: Any) -> TableFormat | None:
    """The format ``rules`` make in ``game``; ``None`` for a game played in one format.

    >>> from cardtable.games.indian_rummy.rules import PRESETS
    >>> table_format_of("indian-rummy", PRESETS["pool-101"])
    TableFormat(key='pool-101', title='Pool 101')
    >>> table_format_of("indecision", None) is None
    True
    """
    spec = get_spec(game)
    if spec.table_format is None:
        return None
    return TABLE_FORMAT.load(spec).of(rules)


def format_title(game: str, key: str) -> str:
    """The title of ``game``'s format ``key`` (``key`` itself in a game without formats).

    >>> format_title("indian-rummy", "pool-101")
    'Pool 101'
    """
    spec = get_spec(game)
    return key if spec.table_format is None else TABLE_FORMAT.load(spec).title(key)


def table_label(game: str, rules: Any, players: int) -> str:
    """How a listing or an invite names a table's format and size: ``Pool 101 · 4 players``,
    or ``4 players`` in a game played in one format.

    >>> from cardtable.games.indian_rummy.rules import PRESETS
    >>> table_label("indian-rummy", PRESETS["deals-3"], 3)
    'Deals (best of 3) · 3 players'
    """
    count = f"{players} players"
    shown = table_format_of(game, rules)
    return count if shown is None else f"{shown.title} · {count}"


def format_fields(game: str, rules: Any, players: int) -> dict[str, Any]:
    """What every listing of a table and every invite says of its format: ``format`` (its
    title, ``Pool 101``; ``None`` in a game played in one format) and ``table_label``
    (``Pool 101 · 4 players``).

    >>> from cardtable.games.indian_rummy.rules import PRESETS
    >>> format_fields("indian-rummy", PRESETS["pool-101"], 4)
    {'format': 'Pool 101', 'table_label': 'Pool 101 · 4 players'}
    """
    shown = table_format_of(game, rules)
    return {
        "format": None if shown is None else shown.title,
        "table_label": table_label(game, rules, players),
    }
