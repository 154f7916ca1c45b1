"""GET /api/games: each game's name, title, player range, presets, full rules schema and the
groups of its house-rules form, the server's bound on a table's moves in all, bot levels, the
words its table speaks (from its spec: what a deal is called, whether points are good, which
moves are face down), the computer players' names and the entertainment-only notice."""

from __future__ import annotations

from typing import Any, Final

from cardtable.registry import game_names, get_engine, get_spec
from cardtable.server.people.names import BOT_NAMES
from cardtable.server.people.player_options import BOT_LEVELS
from cardtable.server.routes.rules_schema import rule_groups, rules_schema

NOTICE: Final = (
    "{title} is played here for entertainment only: there is no wagering, no real money and "
    "no prizes of any kind."
)


def notice(title: str) -> str:
    """The entertainment-only notice for a game.

    >>> notice("Indian Rummy").startswith("Indian Rummy is played here for entertainment only")
    True
    """
    return NOTICE.format(title=title)


DEFAULT_MAX_TABLE_MOVES: Final = 5_000


def game_entry(name: str, max_table_moves: int = DEFAULT_MAX_TABLE_MOVES) -> dict[str, Any]:
    """The catalogue entry of one registered game; ``max_table_moves`` is the server's bound
    on a table's moves in all, stated beside the rules' own bounds."""
    spec = get_spec(name)
    engine = get_engine(name)
    presets = engine.presets()
    return {
        "name": engine.name,
        "title": engine.title,
        "min_players": engine.min_players,
        "max_players": engine.max_players,
        "presets": {preset: engine.rules_to_json(rules) for preset, rules in presets.items()},
        "rules_schema": rules_schema(engine.rules_type, presets),
        "rule_groups": rule_groups(),
        "max_table_moves": max_table_moves,
        "bot_levels": list(BOT_LEVELS),
        "deal_word": spec.deal_word,
        "points_good": spec.points_good,
        "face_down_verbs": sorted(spec.face_down_verbs),
        "computer_names": list(BOT_NAMES),
        "notice": notice(engine.title),
    }


def catalog(max_table_moves: int = DEFAULT_MAX_TABLE_MOVES) -> list[dict[str, Any]]:
    """Every registered game, in menu order."""
    return [game_entry(name, max_table_moves) for name in game_names()]
