"""Fixed action indices for the research environments: every action of a game has one number.

Reinforcement-learning and search libraries want a fixed ``Discrete`` action space and a mask
over it, so each game's research spec (``cardtable.envs.<game>``) builds one table of all its
actions, once, in an order it documents (a card's id is :mod:`cardtable.cards`'
``suit * 13 + rank``, specials after).

:class:`ActionIndex` maps both ways; an action outside the table (a manual declaration, a
``next game`` that changes rules) raises ``ValueError`` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


class ActionIndex:
    """A game's actions in a fixed order: ``index(action)`` and ``action(index)``."""

    def __init__(self, game: str, actions: Iterable[Any]) -> None:
        self.game = game
        self.actions: tuple[Any, ...] = tuple(actions)
        self._index: dict[Any, int] = {a: i for i, a in enumerate(self.actions)}
        if len(self._index) != len(self.actions):
            raise ValueError(f"the {game} action table repeats an action")
        # Engines hand out the table's own action objects on their hot paths: looking those up
        # by identity skips the frozen dataclasses' hash (a Python-level call per action).
        self._by_id: dict[int, int] = {id(a): i for i, a in enumerate(self.actions)}

    def __len__(self) -> int:
        return len(self.actions)

    def index(self, action: Any) -> int:
        """The number of ``action``; ``ValueError`` if the table has no such action."""
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise ValueError(f"{action!s} has no index in the {self.game} action table") from None

    def action(self, index: int) -> Any:
        """The action numbered ``index``; ``ValueError`` outside ``0..len-1``."""
        if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(self):
            raise ValueError(
                f"action index {index!r} is outside the {self.game} table (0-{len(self) - 1})"
            )
        return self.actions[index]

    def indices(self, actions: Sequence[Any]) -> list[int]:
        """The numbers of ``actions``, skipping those the table does not hold."""
        try:
            # The usual case, every action one of the table's own objects: one C-level pass.
            return list(map(self._by_id.__getitem__, map(id, actions)))
        except KeyError:
            pass
        by_id, get = self._by_id.get, self._index.get
        out: list[int] = []
        for action in actions:
            i = by_id(id(action))
            if i is None:
                i = get(action)
                if i is None:
                    continue
            out.append(i)
        return out

    def describe(self) -> list[str]:
        """One line per action: ``index: notation``."""
        return [f"{i}: {a}" for i, a in enumerate(self.actions)]
