"""How the coach says a chance: in words people use ("rarely", "about 1 in 5 times", "about
half the time", "almost always") rather than a percentage to the point."""

from __future__ import annotations

from fractions import Fraction
from typing import Final

_LOW: Final = tuple(Fraction(n, d) for n, d in ((1, 10), (1, 8), (1, 6), (1, 5), (1, 4), (1, 3)))
_HIGH: Final = tuple(Fraction(n, d) for n, d in ((2, 5), (3, 5), (2, 3), (3, 4), (4, 5), (9, 10)))


def chance_words(chance: float) -> str:
    """A chance from 0 to 1 as words that follow a verb ("wins ...").

    >>> [chance_words(p) for p in (0.01, 0.07, 0.19, 0.5, 0.74, 0.99)]
    ['almost never', 'rarely', 'about 1 in 5 times', 'about half the time', \
'about 3 in 4 times', 'almost always']
    """
    if chance < 0.03:
        return "almost never"
    if chance < 0.09:
        return "rarely"
    if 0.45 <= chance <= 0.55:
        return "about half the time"
    if chance > 0.97:
        return "almost always"
    if chance > 0.93:
        return "nearly always"
    near = min(
        _LOW + _HIGH[:1] if chance < 0.5 else _HIGH[1:], key=lambda f: abs(float(f) - chance)
    )
    return f"about {near.numerator} in {near.denominator} times"
