"""What every research adapter needs to know about one game, in one :class:`GameSpec`.

A spec ties a registered engine to its fixed action table (:mod:`cardtable.envs.actions`), its
observation layout and encoder (:mod:`cardtable.envs.encoding`), the rules an environment is
built from (a named preset, a seat count and option overrides), and a plain-text rendering of a
view.

Rules chosen here for environments: Indian Rummy free play (``deals=None``) has no end, so an
environment plays one deal unless ``deals`` is given; Indecision's manual declaration mode
(announced numbers) has no fixed action space and is refused.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from rich.text import Text

from cardtable.errors import RulesError
from cardtable.games.contract import AnyEngine
from cardtable.registry import canonical_name, get_engine

from .actions import (
    DECLARATION_RUMMY_ACTIONS,
    INDECISION_ACTIONS,
    INDIAN_RUMMY_ACTIONS,
    ActionIndex,
)
from .encoding import (
    Layout,
    Vector,
    declaration_rummy_layout,
    encode_declaration_rummy,
    encode_indecision,
    encode_indian_rummy,
    indecision_layout,
    indian_rummy_layout,
)


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game as the research adapters see it (see the module docstring)."""

    name: str
    title: str
    actions: ActionIndex
    layout_for: Callable[[int], Layout]
    encoder: Callable[[Any, Layout], Vector]
    render_markup: Callable[[Any], str]

    @property
    def engine(self) -> AnyEngine:
        """The game's engine from the registry."""
        return get_engine(self.name)

    def make_rules(
        self,
        *,
        players: int | None = None,
        preset: str = "default",
        rules: Mapping[str, Any] | None = None,
    ) -> Any:
        """Rules from a named ``preset``, then ``players`` and the option overrides ``rules``.

        Raises ``RulesError`` naming the problem (an unknown preset or option, a bad value).
        """
        engine = self.engine
        presets = engine.presets()
        if preset not in presets:
            raise RulesError(
                f"unknown {self.title} preset {preset!r}: choose one of {', '.join(presets)}"
            )
        base = presets[preset]
        changes: dict[str, Any] = dict(engine.rules_to_json(base))
        changes.update(rules or {})
        if players is not None:
            changes["players"] = players
        built = engine.rules_from_json(changes)
        if self.name == "indian-rummy" and built.deals is None:
            built = dataclasses.replace(built, deals=1)
        if self.name == "indecision" and built.manual_declaration:
            raise RulesError(
                "manual declaration (announced numbers) is not offered by the research "
                "environments: its announcements have no fixed action space"
            )
        return built

    def render_text(self, view: Any) -> str:
        """The table as ``view.seat`` sees it, in plain text."""
        return Text.from_markup(self.render_markup(view)).plain


def _render_indecision(view: Any) -> str:
    from cardtable.games.indecision.text import render_view

    return render_view(view)


def _render_indian_rummy(view: Any) -> str:
    from cardtable.games.indian_rummy.text import render_view

    return render_view(view)


def _render_declaration_rummy(view: Any) -> str:
    from cardtable.games.declaration_rummy.text import render_view

    return render_view(view)


SPECS: Final = {
    "indecision": GameSpec(
        "indecision",
        "Indecision",
        INDECISION_ACTIONS,
        indecision_layout,
        encode_indecision,
        _render_indecision,
    ),
    "indian-rummy": GameSpec(
        "indian-rummy",
        "Indian Rummy",
        INDIAN_RUMMY_ACTIONS,
        indian_rummy_layout,
        encode_indian_rummy,
        _render_indian_rummy,
    ),
    "declaration-rummy": GameSpec(
        "declaration-rummy",
        "Declaration Rummy",
        DECLARATION_RUMMY_ACTIONS,
        declaration_rummy_layout,
        encode_declaration_rummy,
        _render_declaration_rummy,
    ),
}


def game_spec(name: str) -> GameSpec:
    """The spec of ``name`` (a registered game name or alias)."""
    return SPECS[canonical_name(name)]
