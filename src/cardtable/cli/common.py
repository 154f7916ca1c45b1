"""Pieces shared by the CLI commands: the per-game text renderers and move warnings (named by
each game's spec), bots by level, and the one-line error exit used for every bad input."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

import typer

from cardtable.bots import Bot, make_bot
from cardtable.registry import TEXT, GameText


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2 (no traceback)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def text_module(game: str) -> GameText:
    """The game's terminal text module (``render_view``, ``render_hand_summary``)."""
    return TEXT.load(game)


def renderers(game: str) -> tuple[Callable[[Any], str], Callable[[Any], str | None]]:
    """The game's ``render_view`` and ``render_hand_summary`` functions."""
    module = text_module(game)
    return module.render_view, module.render_hand_summary


def move_warning_of(game: str) -> Callable[[Any, Any], str | None] | None:
    """The game's ``move_warning(view, action)`` (a sentence to confirm before the move), if any."""
    warning: Callable[[Any, Any], str | None] | None = getattr(
        text_module(game), "move_warning", None
    )
    return warning


def bot_for(game: str, level: str) -> Bot:
    """A computer player of ``level`` for ``game``."""
    return make_bot(game, level)
