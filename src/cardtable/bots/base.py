"""The bot interface: a computer player is a client of the public engine API.

A bot gets only its seat's view and the legal actions, never the state, and returns one of the
legal actions as fast as it can (pacing belongs to the interface that shows its moves).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Protocol


class Bot(Protocol):
    """A computer player: ``choose(view, legal_actions, rng) -> action``."""

    name: str
    version: str

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """One of ``legal_actions``."""
        ...


class RandomBot:
    """Chooses uniformly among the legal actions: the baseline every level must beat."""

    name = "random"
    version = "1"

    def choose(self, view: Any, legal_actions: Sequence[Any], rng: random.Random) -> Any:
        """A uniformly random legal action."""
        return legal_actions[rng.randrange(len(legal_actions))]
