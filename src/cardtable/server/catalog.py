"""GET /api/games: each game's name, title, player range, presets, full rules schema, the
server's bound on a table's moves in all, bot levels, the words its table speaks (from its
spec: what a deal is called, whether points are good, which moves are face down), the computer
players' names and the entertainment-only notice; and how a listing names a table's format
(:func:`format_fields`)."""

from __future__ import annotations

from typing import Any, Final

from cardtable.registry import game_names, get_engine, get_spec, table_format_of, table_label
from cardtable.server.names import BOT_NAMES
from cardtable.server.options import BOT_LEVELS
from cardtable.server.rules_schema import rules_schema

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
