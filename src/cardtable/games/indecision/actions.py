"""Indecision actions: frozen types, their text notation and :func:`parse_action`.

Notation (case and extra spaces are ignored when reading):

==================  =========================================================================
``draw deck``       take the top card of the face-down deck (``draw stock`` is read too)
``draw pile``       take the top card of the face-up pile (``draw discard`` is read too)
``discard 7H``      put a card of the hand face up on the pile (also the starter's opening
                    discard)
``stop 9S``         stop the hand, placing ``9S`` face down on the STOP area as the spare card
``declare 15``      manual declaration mode: announce this hand's score
``correct 12``      manual declaration mode: correct the announced number; it is recorded
``confirm``         manual declaration mode: record the announced number as it stands
==================  =========================================================================

Every card action exists once per card (:data:`DISCARDS`, :data:`STOPS`), so engines and
bots share the objects instead of building new ones.

>>> parse_action("Discard 10h")
Discard(card=22)
>>> str(parse_action("  stop   qs "))
'stop QS'
>>> parse_action("discard")
Traceback (most recent call last):
...
cardtable.errors.ActionSyntaxError: 'discard' needs one card, as in 'discard 7H'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardtable.cards import format_card, parse_card
from cardtable.errors import ActionSyntaxError, CardError

MAX_DECLARATION: Final = 1000
"""No declaration above this is read (the engine narrows it to the rules' possible maximum)."""


@dataclass(frozen=True, slots=True)
class DrawDeck:
    """Take the top card of the deck."""

    def __str__(self) -> str:
        return "draw deck"


@dataclass(frozen=True, slots=True)
class DrawPile:
    """Take the top card of the pile."""

    def __str__(self) -> str:
        return "draw pile"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` face up onto the pile (the opening discard too)."""

    card: int

    def __str__(self) -> str:
        return f"discard {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Stop:
    """Stop the hand with ``card`` as the face-down spare card."""

    card: int

    def __str__(self) -> str:
        return f"stop {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Manual declaration mode: announce ``points`` as this hand's score."""

    points: int

    def __str__(self) -> str:
        return f"declare {self.points}"


@dataclass(frozen=True, slots=True)
class Correct:
    """Manual declaration mode: replace the announced number by ``points`` and record it."""

    points: int

    def __str__(self) -> str:
        return f"correct {self.points}"


@dataclass(frozen=True, slots=True)
class Confirm:
    """Manual declaration mode: record the announced number."""

    def __str__(self) -> str:
        return "confirm"


IndecisionAction = DrawDeck | DrawPile | Discard | Stop | Declare | Correct | Confirm
"""Any Indecision action."""
Action = IndecisionAction
"""The action union under the name every game package gives it."""

DRAW_DECK: Final = DrawDeck()
DRAW_PILE: Final = DrawPile()
CONFIRM: Final = Confirm()
DISCARDS: Final = tuple(Discard(card) for card in range(52))
"""``DISCARDS[card]`` is the discard of ``card``."""
STOPS: Final = tuple(Stop(card) for card in range(52))
"""``STOPS[card]`` is the stop with ``card`` as the spare card."""

_EXPECTED: Final = (
    "expected 'draw deck', 'draw pile', 'discard CARD', 'stop CARD', "
    "'declare N', 'correct N' or 'confirm'"
)
_DRAW_SOURCES: Final[dict[str, DrawDeck | DrawPile]] = {
    "deck": DRAW_DECK,
    "stock": DRAW_DECK,
    "pile": DRAW_PILE,
    "discard": DRAW_PILE,
}


def _card_argument(verb: str, words: list[str]) -> int:
    if len(words) != 2:
        raise ActionSyntaxError(f"{verb!r} needs one card, as in '{verb} 7H'")
    try:
        card = parse_card(words[1])
    except CardError as exc:
        raise ActionSyntaxError(f"{verb!r}: {exc}") from None
    if card >= 52:
        raise ActionSyntaxError(f"{verb!r}: {format_card(card)} is not in the Indecision deck")
    return card


def _number_argument(verb: str, words: list[str]) -> int:
    if len(words) != 2:
        raise ActionSyntaxError(f"{verb!r} needs one number, as in '{verb} 12'")
    text = words[1]
    if not text.isdigit():
        raise ActionSyntaxError(f"{verb!r} needs a whole number of points, not {text!r}")
    points = int(text)
    if points > MAX_DECLARATION:
        raise ActionSyntaxError(f"{verb!r}: {points} points is more than any hand can score")
    return points


def parse_action(text: str) -> IndecisionAction:
    """Read an action written in the notation above; raise ``ActionSyntaxError`` naming the
    problem.

    >>> [str(parse_action(t)) for t in ("draw stock", "DRAW PILE", "declare 07", "confirm")]
    ['draw deck', 'draw pile', 'declare 7', 'confirm']
    >>> parse_action("stop 1X")
    Traceback (most recent call last):
    ...
    cardtable.errors.ActionSyntaxError: 'stop': unknown card '1X': expected a rank (A 2-10 J Q K) \
and a suit (S H D C), or PJ, W, C1-C12, NM0, NM2, CD0
    """
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    if not words:
        raise ActionSyntaxError(f"empty action: {_EXPECTED}")
    verb = words[0].lower()
    if verb == "draw":
        if len(words) != 2 or words[1].lower() not in _DRAW_SOURCES:
            raise ActionSyntaxError("'draw' needs a source: 'draw deck' or 'draw pile'")
        return _DRAW_SOURCES[words[1].lower()]
    if verb == "discard":
        return DISCARDS[_card_argument(verb, words)]
    if verb == "stop":
        return STOPS[_card_argument(verb, words)]
    if verb == "declare":
        return Declare(_number_argument(verb, words))
    if verb == "correct":
        return Correct(_number_argument(verb, words))
    if verb == "confirm":
        if len(words) != 1:
            raise ActionSyntaxError("'confirm' takes nothing after it")
        return CONFIRM
    raise ActionSyntaxError(f"unknown action {text.strip()!r}: {_EXPECTED}")
