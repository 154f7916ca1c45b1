"""Indian Rummy actions: the things a seat can do, and their short text notation.

Notation (one action per line in records and transcripts, read back by :func:`parse_action`):

================  ===============================================================
``draw stock``    take the top card of the face-down stock
``draw pile``     take the top card of the discard pile
``discard 7H``    end the turn by putting ``7H`` face up on the discard pile
``declare 8C``    put ``8C`` down and show the other 13 cards (a valid or wrong show)
``drop``          leave the deal at the start of one's turn (20 or 40 points)
``rejoin``        Pool: accept the offer to come back after an elimination
``stay out``      Pool: decline it
``finish``        Pool: agree to end the game and share the win (agreed finish)
``play on``       Pool: refuse the agreed finish; the next deal starts
================  ===============================================================

Words are case-insensitive and may be separated by any spaces; cards accept every spelling of
:func:`cardtable.cards.parse_card` (``10H``, ``TH``, ``10♥``, ``PJ``). ``take pile``, ``draw
discard`` and ``pile``/``stock`` alone are accepted as synonyms of the draws.

Actions are frozen and hashable; one instance of each exists per card (see :data:`DISCARDS`,
:data:`DECLARES`), so the engine's hot path never builds action objects.

>>> parse_action("Discard 10♥")
Discard(card=22)
>>> str(parse_action("declare th")), str(parse_action("DRAW  PILE"))
('declare 10H', 'draw pile')
>>> parse_action("discard W")
Traceback (most recent call last):
...
cardtable.errors.ActionSyntaxError: cannot read 'discard W': card W is not in the Indian Rummy pack
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from cardtable.cards import INDIAN_RUMMY_DECK, PRINTED_JOKER, format_card, parse_card
from cardtable.errors import ActionSyntaxError, CardError


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Take the top card of the stock."""

    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True, slots=True)
class DrawPile:
    """Take the top card of the discard pile (never a joker, RULES.md 2.3)."""

    def __str__(self) -> str:
        return "draw pile"


@dataclass(frozen=True, slots=True)
class Discard:
    """Put ``card`` face up on the discard pile, ending the turn."""

    card: int

    def __str__(self) -> str:
        return f"discard {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Put ``card`` down and show the other 13 cards (RULES.md 2.7)."""

    card: int

    def __str__(self) -> str:
        return f"declare {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the deal at the start of one's turn (RULES.md 2.6)."""

    def __str__(self) -> str:
        return "drop"


@dataclass(frozen=True, slots=True)
class Rejoin:
    """Pool: come back into the game after an elimination (RULES.md 2.13)."""

    def __str__(self) -> str:
        return "rejoin"


@dataclass(frozen=True, slots=True)
class StayOut:
    """Pool: decline the rejoin offer."""

    def __str__(self) -> str:
        return "stay out"


@dataclass(frozen=True, slots=True)
class Finish:
    """Pool: agree to end the game here and share the win (the agreed finish)."""

    def __str__(self) -> str:
        return "finish"


@dataclass(frozen=True, slots=True)
class PlayOn:
    """Pool: refuse the agreed finish."""

    def __str__(self) -> str:
        return "play on"


IndianRummyAction = (
    DrawStock | DrawPile | Discard | Declare | Drop | Rejoin | StayOut | Finish | PlayOn
)
"""Any Indian Rummy action."""
Action = IndianRummyAction
"""The action union under the name every game package gives it."""

DRAW_STOCK: Final = DrawStock()
DRAW_PILE: Final = DrawPile()
DROP: Final = Drop()
REJOIN: Final = Rejoin()
STAY_OUT: Final = StayOut()
FINISH: Final = Finish()
PLAY_ON: Final = PlayOn()
DISCARDS: Final = tuple(Discard(card) for card in range(PRINTED_JOKER + 1))
"""``DISCARDS[card]`` is the discard action of ``card``."""
DECLARES: Final = tuple(Declare(card) for card in range(PRINTED_JOKER + 1))
"""``DECLARES[card]`` is the declare action putting ``card`` down."""

_DRAW_WORDS: Final[dict[tuple[str, ...], IndianRummyAction]] = {
    ("draw", "stock"): DRAW_STOCK,
    ("take", "stock"): DRAW_STOCK,
    ("stock",): DRAW_STOCK,
    ("draw", "pile"): DRAW_PILE,
    ("take", "pile"): DRAW_PILE,
    ("draw", "discard"): DRAW_PILE,
    ("take", "discard"): DRAW_PILE,
    ("pile",): DRAW_PILE,
    ("drop",): DROP,
    ("rejoin",): REJOIN,
    ("stay", "out"): STAY_OUT,
    ("finish",): FINISH,
    ("play", "on"): PLAY_ON,
}


def parse_action(text: str) -> IndianRummyAction:
    """Read an action in the notation above; raise :class:`ActionSyntaxError` naming the problem."""
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action must be text, not {type(text).__name__}")
    words = tuple(text.lower().split())
    if not words:
        raise ActionSyntaxError(
            "empty action: expected draw stock, draw pile, discard CARD, declare CARD, drop, "
            "rejoin, stay out, finish or play on"
        )
    simple = _DRAW_WORDS.get(words)
    if simple is not None:
        return simple
    verb = words[0]
    if verb in ("discard", "declare"):
        if len(words) != 2:
            raise ActionSyntaxError(
                f"cannot read {text!r}: {verb} takes exactly one card, as in '{verb} 7H'"
            )
        try:
            card = parse_card(words[1])
        except CardError as exc:
            raise ActionSyntaxError(f"cannot read {text!r}: {exc}") from None
        if card not in INDIAN_RUMMY_DECK.copies:
            raise ActionSyntaxError(
                f"cannot read {text!r}: card {format_card(card)} is not in the Indian Rummy pack"
            )
        return DISCARDS[card] if verb == "discard" else DECLARES[card]
    if verb in ("draw", "take"):
        raise ActionSyntaxError(
            f"cannot read {text!r}: draw from 'stock' or 'pile', as in 'draw stock'"
        )
    raise ActionSyntaxError(
        f"unknown action {text!r}: expected draw stock, draw pile, discard CARD, "
        "declare CARD, drop, rejoin, stay out, finish or play on"
    )
