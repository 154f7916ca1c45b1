"""Fixed action indices for the research environments: every action of a game has one number.

Reinforcement-learning and search libraries want a fixed ``Discrete`` action space and a mask
over it, so each game gets a table built once, in this order (``N`` is the number of card ids
the game uses: 52 in Indecision, 53 in Indian Rummy with the printed joker 52 last, 63 in
Declaration Rummy; a card's id is :mod:`cardtable.cards`' ``suit * 13 + rank``, specials after):

Indecision (106 actions): ``0`` draw deck, ``1`` draw pile, ``2 + c`` discard card ``c``,
``54 + c`` stop with ``c`` as the spare card. Manual declaration mode (announced numbers) is not
offered.

Indian Rummy (109 actions): ``0`` draw stock, ``1`` draw pile, ``2`` drop, ``3 + c`` discard
``c``, ``56 + c`` declare (show) putting ``c`` down.

Declaration Rummy (138 actions): ``0`` draw stock, ``1`` take extra, ``2`` decline, ``3``
declare, ``4`` go out, ``5`` four sevens, ``6`` propose tie, ``7`` accept tie, ``8`` reject tie,
``9`` drop, ``10`` next game (unchanged rules), ``11 + c`` discard ``c`` (``c`` in 0..62),
``74 + k - 1`` take the top ``k`` discards (``k`` 1..64; more than one only with the
Spread-Out Discard-Pile).

:class:`ActionIndex` maps both ways; an action outside the table (a manual declaration, a
``next game`` that changes rules) raises ``ValueError`` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, Final

from cardtable.games.declaration_rummy import actions as dr
from cardtable.games.indecision import actions as ind
from cardtable.games.indian_rummy import actions as ir

DECLARATION_RUMMY_MAX_TAKE: Final = 64
"""Most cards a spread pile can hold: every card of the largest pack (52 + 12 optional)."""


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


INDECISION_ACTIONS: Final = ActionIndex(
    "indecision", (ind.DRAW_DECK, ind.DRAW_PILE, *ind.DISCARDS, *ind.STOPS)
)
INDIAN_RUMMY_ACTIONS: Final = ActionIndex(
    "indian-rummy", (ir.DRAW_STOCK, ir.DRAW_PILE, ir.DROP, *ir.DISCARDS, *ir.DECLARES)
)
DECLARATION_RUMMY_ACTIONS: Final = ActionIndex(
    "declaration-rummy",
    (
        dr.DRAW_STOCK,
        dr.TAKE_EXTRA,
        dr.DECLINE,
        dr.DECLARE,
        dr.GO_OUT,
        dr.FOUR_SEVENS,
        dr.PROPOSE_TIE,
        dr.ACCEPT_TIE,
        dr.REJECT_TIE,
        dr.DROP,
        dr.NEXT_GAME,
        *dr.DISCARDS,
        dr.TAKE_DISCARD,
        *(dr.TakeDiscard(k) for k in range(2, DECLARATION_RUMMY_MAX_TAKE + 1)),
    ),
)
