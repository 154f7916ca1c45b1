"""The bot interface: a computer player is a client of the public engine API.

A bot gets only its seat's view and the legal actions, never the state, and returns one of the
legal actions as fast as it can (pacing belongs to the interface that shows its moves).
:class:`Bot` is generic over the view it reads and the actions it chooses among
(``Bot[IndecisionView, IndecisionAction]``), so mypy checks that a game's bot fits the game;
a bare ``Bot`` is a bot of any game (the random bot, the driver's seats).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from typing_extensions import TypeVar

from cardtable.games.contract import Action, View

ViewT_contra = TypeVar("ViewT_contra", bound=View, contravariant=True, default=Any)
ActionT = TypeVar("ActionT", bound=Action, default=Any)


class Bot(Protocol[ViewT_contra, ActionT]):
    """A computer player: ``choose(view, legal_actions, rng) -> action``."""

    name: str
    version: str

    def choose(
        self, view: ViewT_contra, legal_actions: Sequence[ActionT], rng: random.Random
    ) -> ActionT:
        """One of ``legal_actions``."""
        ...


@runtime_checkable
class BotMaker(Protocol):
    """A game's bot module (its spec's ``bots``): the bot of each level above ``random``."""

    def make_bot(self, level: str) -> Bot:
        """The bot of ``level`` (``easy``, ``normal`` or ``hard``)."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions: the baseline every level must beat."""

    name = "random"
    version = "1"

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]
