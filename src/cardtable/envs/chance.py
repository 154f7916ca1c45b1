"""Card-by-card chance for the OpenSpiel games: a generator that answers an engine's draws
with chance outcomes chosen one at a time (:class:`ScriptedRandom`).

An engine's chance step (a deal, a cut, a reshuffle) draws from a ``random.Random`` through
``randrange``, ``sample``, ``shuffle`` and :func:`cardtable.cards.shuffled`. The OpenSpiel
adapter runs the step with a :class:`ScriptedRandom` holding the outcomes chosen so far (its
*script*): each draw takes the next outcome, and the first draw the script cannot answer raises
:class:`NeedOutcome` with that draw's outcomes and their true probabilities, which the adapter
offers as the next chance node. Once the script answers every draw, the step completes.

* A shuffle becomes one chance node per card, in the order the engine deals them (for
  ``shuffled`` the first card of the result first; for ``shuffle``, whose list is dealt from
  its end, the last first): the outcome is a card id and its probability the share of the
  cards still unplaced that are copies of it. The last card is forced and takes no node.
* ``sample`` (a cut of distinct cards) takes one node per card drawn, each value equally likely.
* ``randrange(n)`` (a first dealer, a cut depth) is one node with ``n`` equal outcomes ``0..n-1``.

The engine's result is therefore the deal the outcomes spell out, with the same distribution as
its own shuffle. ``random()`` on its own has no card to name and is refused.

Replaying a step's script from the start for every node would make a shuffle's nodes cost the
square of its cards. The :class:`ChanceNode` a :class:`NeedOutcome` carries therefore also says
which node follows each of its outcomes *within the same draw* (:meth:`ChanceNode.then`: the
same shuffle or sample with that card taken out), which is exactly what running the step again
with that outcome appended would ask next; the adapter runs the engine again only when a draw
is complete.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, MutableSequence, Sequence
from typing import Any, Final

MAX_CHANCE_OUTCOMES: Final = 128
"""Largest outcome number (exclusive): card ids (below 64) and ``randrange`` results."""

CARD: Final = "card"
DRAW: Final = "draw"


class ChanceNode:
    """A chance node: ``outcomes`` as (outcome, probability), and its kind (:data:`CARD` or
    :data:`DRAW`)."""

    def __init__(self, outcomes: list[tuple[int, float]], kind: str) -> None:
        self.outcomes = outcomes
        self.kind = kind

    def then(self, outcome: int) -> ChanceNode | None:
        """The node that follows ``outcome`` within the same draw, or ``None`` when that
        outcome completes the draw (the step must then run on with the longer script)."""
        return None


class NeedOutcome(Exception):
    """Raised by the first draw the script cannot answer: that draw's chance ``node`` (with
    its ``outcomes`` and ``kind``)."""

    def __init__(self, node: ChanceNode) -> None:
        super().__init__(node.kind)
        self.node = node
        self.outcomes = node.outcomes
        self.kind = node.kind


class _CardsLeft(ChanceNode):
    """A node of a shuffle: ``remaining`` (card: copies, none zero) holds ``left`` cards."""

    def __init__(self, remaining: dict[int, int], left: int) -> None:
        super().__init__(
            [(card, remaining[card] / left) for card in sorted(remaining)],
            CARD,
        )
        self._remaining = remaining
        self._left = left

    def then(self, outcome: int) -> ChanceNode | None:
        # The shuffle goes on while more than one card is unplaced (the last is forced).
        if self._left - 1 <= 1:
            return None
        remaining = dict(self._remaining)
        if remaining[outcome] == 1:
            del remaining[outcome]
        else:
            remaining[outcome] -= 1
        return _CardsLeft(remaining, self._left - 1)


class _SampleLeft(ChanceNode):
    """A node of ``sample``: ``draws`` values still to draw from ``pool`` (sorted, distinct)."""

    def __init__(self, pool: list[int], draws: int) -> None:
        super().__init__([(p, 1.0 / len(pool)) for p in pool], CARD)
        self._pool = pool
        self._draws = draws

    def then(self, outcome: int) -> ChanceNode | None:
        # A draw from a pool of one is forced and takes no node: let the step run on then.
        if self._draws - 1 <= 0 or len(self._pool) - 1 <= 1:
            return None
        pool = list(self._pool)
        pool.remove(outcome)
        return _SampleLeft(pool, self._draws - 1)


class ScriptedRandom(random.Random):
    """A generator answering draws from ``script`` (see the module docstring)."""

    def __init__(self, script: Sequence[int]) -> None:
        super().__init__(0)
        self._script = script
        self._used = 0

    def _next(self) -> int | None:
        if self._used < len(self._script):
            value = self._script[self._used]
            self._used += 1
            return value
        return None

    def randrange(self, start: int, stop: int | None = None, step: int = 1) -> int:
        if stop is None:
            start, stop = 0, start
        count = stop - start
        if step != 1 or count <= 0 or count > MAX_CHANCE_OUTCOMES:
            raise ValueError(f"randrange({start}, {stop}, {step}) has no card-by-card outcome")
        if count == 1:
            return start
        value = self._next()
        if value is None:
            raise NeedOutcome(ChanceNode([(k, 1.0 / count) for k in range(count)], DRAW))
        return start + value

    def card_order(self, cards: Iterable[int]) -> list[int]:
        """``cards`` in the order the script chooses them, first position first."""
        remaining = Counter(cards)
        left = sum(remaining.values())
        out: list[int] = []
        while left > 1:
            value = self._next()
            if value is None:
                raise NeedOutcome(_CardsLeft({card: n for card, n in remaining.items() if n}, left))
            remaining[value] -= 1
            out.append(value)
            left -= 1
        out.extend(card for card, count in remaining.items() if count)
        return out

    def shuffle(self, x: MutableSequence[Any]) -> None:
        # The engine deals a shuffled list from its end: choose that card first.
        x[:] = self.card_order(x)[::-1]

    def sample(self, population: Sequence[Any], k: int, *, counts: Any = None) -> list[Any]:
        if counts is not None:
            raise ValueError("sample with counts has no card-by-card outcome")
        pool = sorted(population)
        out: list[int] = []
        for drawn in range(k):
            value = pool[0] if len(pool) == 1 else self._next()
            if value is None:
                raise NeedOutcome(_SampleLeft(list(pool), k - drawn))
            pool.remove(value)
            out.append(value)
        return out

    def random(self) -> float:
        raise RuntimeError(
            "a bare random number has no card-by-card outcome: draw through randrange, "
            "sample, shuffle or cardtable.cards.shuffled"
        )
