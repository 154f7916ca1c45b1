"""Pieces shared by the CLI commands: the per-game text renderers, bots by level, and the
one-line error exit used for every bad input."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any, NoReturn

import typer

from cardtable.bots.base import Bot, RandomBot


def fail(message: str) -> NoReturn:
    """Print ``error: message`` on stderr and exit with code 2 (no traceback)."""
    typer.echo(f"error: {message}", err=True)
    raise typer.Exit(2)


def text_module(game: str) -> Any:
    """The ``text`` module of a game package (``render_view``, ``render_hand_summary``)."""
    return importlib.import_module(f"cardtable.games.{game.replace('-', '_')}.text")


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
    """A computer player of ``level`` for ``game`` (the random bot when levels are missing)."""
    try:
        from cardtable.bots import make_bot  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        if level != "random":
            raise
        return RandomBot()
    bot: Bot = make_bot(game, level)
    return bot
