"""Computer players for all three games, found by game name and level.

Every level is a :class:`~cardtable.bots.base.Bot`: it reads only its seat's view and the legal
actions. ``random`` picks any legal action; ``easy`` makes simple, plausible choices; ``normal``
plays sound heuristics (keeps near-melds, follows what the others took and threw, knows when to
stop, drop, declare or go out); ``hard`` looks ahead over the hidden cards: it deals them many
times in ways consistent with its view (or averages exactly over the unseen cards) and compares
its candidate actions by what follows them.

Each game's levels live in a module of their own (:mod:`cardtable.bots.indecision`,
:mod:`cardtable.bots.indian_rummy`, :mod:`cardtable.bots.declaration_rummy`), named by the
game's spec and imported on first use, so that asking for one game's bot does not load the
others.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from cardtable.bots.base import Bot, BotMaker, RandomBot
from cardtable.errors import RulesError
from cardtable.registry import Part, get_spec


class Level(StrEnum):
    """A computer player's level, weakest first: the one declaration of the levels (the
    server's options and models, the catalogue the page reads and the CLI take them from
    here)."""

    RANDOM = "random"
    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"


LEVELS: Final = tuple(level.value for level in Level)
"""The playing levels' names, weakest first."""


def make_bot(game: str, level: str) -> Bot:
    """A computer player of ``level`` (one of :data:`LEVELS`) for ``game`` (name or alias).

    >>> make_bot("indecision", "random").name
    'random'
    >>> make_bot("indecision", "expert")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cardtable.errors.RulesError: unknown bot level 'expert': choose one of random, easy, ...
    """
    key = level.strip().lower()
    if key not in LEVELS:
        raise RulesError(f"unknown bot level {level!r}: choose one of {', '.join(LEVELS)}")
    spec = get_spec(game)
    if key == "random":
        return RandomBot()
    bots: Part[BotMaker] = Part("bots", BotMaker)
    return bots.load(spec).make_bot(key)


__all__ = ["LEVELS", "Bot", "Level", "RandomBot", "make_bot"]
