"""Declaration Rummy actions: frozen records whose ``str()`` is their text notation.

The notation, one action per line, as records store it:

==========================  ============================================================
``draw stock``              draw the top card of the stockpile
``take discard``            take the top card of the discard pile
``take discard 3``          Spread-Out Discard-Pile: take the third card from the top and
                            every card above it (``take discard 1`` is ``take discard``)
``take extra``              Three-Card Draw: after taking the top discard, also take the
                            next discard and the top stock card (both or neither)
``decline``                 stock exhausted: decline the discard pile, ending the game
``discard 7H``              discard a card (never NO MELD 2)
``declare``                 lay the hand down claiming the lowest count
``go out``                  meld every card, or every card but one, and win
``four sevens``             Four 7's: lay down the four natural sevens and win
``propose tie``             ask the others to end the game as a tie
``accept tie`` /            answer a tie proposal
``reject tie``
``drop``                    leave the game (any remaining player, at any time)
``next game``               match: start the next game, optionally changing its rules:
                            ``next game cards_dealt=5 gin_rummy=true optional_cards=W,W,C7``
==========================  ============================================================

>>> parse_action("Discard 10h")
Discard(card=22)
>>> str(parse_action("take discard 1")), str(parse_action("take  discard 3"))
('take discard', 'take discard 3')
>>> str(parse_action("next game cards_dealt=5 optional_cards=W,c7,W"))
'next game cards_dealt=5 optional_cards=C7,W,W'
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Final

from cardtable.cards import format_card, parse_card
from cardtable.errors import ActionSyntaxError, CardError, RulesError
from cardtable.games.declaration_rummy.rules import Rules, canonical_optional


@dataclass(frozen=True, slots=True)
class DrawStock:
    """Draw the top card of the stockpile."""

    def __str__(self) -> str:
        return "draw stock"


@dataclass(frozen=True, slots=True)
class TakeDiscard:
    """Take ``count`` cards from the top of the discard pile (more than one only when spread)."""

    count: int = 1

    def __str__(self) -> str:
        return "take discard" if self.count == 1 else f"take discard {self.count}"


@dataclass(frozen=True, slots=True)
class TakeExtra:
    """Three-Card Draw: also take the next discard and the top stock card."""

    def __str__(self) -> str:
        return "take extra"


@dataclass(frozen=True, slots=True)
class Decline:
    """Stock exhausted: do not take the top discard; the game ends and counts are compared."""

    def __str__(self) -> str:
        return "decline"


@dataclass(frozen=True, slots=True)
class Discard:
    """Discard ``card`` face up on the discard pile."""

    card: int

    def __str__(self) -> str:
        return f"discard {format_card(self.card)}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Lay the hand face up claiming the lowest count; the game ends."""

    def __str__(self) -> str:
        return "declare"


@dataclass(frozen=True, slots=True)
class GoOut:
    """Meld every card (or every card but one) and win at once."""

    def __str__(self) -> str:
        return "go out"


@dataclass(frozen=True, slots=True)
class FourSevens:
    """Four 7's variation: lay down the four natural sevens and win at once."""

    def __str__(self) -> str:
        return "four sevens"


@dataclass(frozen=True, slots=True)
class ProposeTie:
    """Propose to end the game as a tie (every other remaining player must accept)."""

    def __str__(self) -> str:
        return "propose tie"


@dataclass(frozen=True, slots=True)
class AcceptTie:
    """Accept the tie proposal under vote."""

    def __str__(self) -> str:
        return "accept tie"


@dataclass(frozen=True, slots=True)
class RejectTie:
    """Reject the tie proposal under vote; play resumes where it was."""

    def __str__(self) -> str:
        return "reject tie"


@dataclass(frozen=True, slots=True)
class Drop:
    """Leave the game; the hand goes face down, unseen, out of play."""

    def __str__(self) -> str:
        return "drop"


FIXED_FOR_MATCH: Final = frozenset({"players", "match", "match_wins", "match_game_cap"})
"""Rule fields a match keeps from its first game (``next game`` may change every other one)."""


@dataclass(frozen=True, slots=True)
class NextGame:
    """Match: start the next game, with ``changes`` (rule field, value) applied to its rules."""

    changes: tuple[tuple[str, Any], ...] = ()

    def __str__(self) -> str:
        if not self.changes:
            return "next game"
        parts = " ".join(f"{name}={_format_rule_value(value)}" for name, value in self.changes)
        return f"next game {parts}"


Action = (
    DrawStock
    | TakeDiscard
    | TakeExtra
    | Decline
    | Discard
    | Declare
    | GoOut
    | FourSevens
    | ProposeTie
    | AcceptTie
    | RejectTie
    | Drop
    | NextGame
)

DRAW_STOCK: Final = DrawStock()
TAKE_DISCARD: Final = TakeDiscard()
TAKE_EXTRA: Final = TakeExtra()
DECLINE: Final = Decline()
DECLARE: Final = Declare()
GO_OUT: Final = GoOut()
FOUR_SEVENS: Final = FourSevens()
PROPOSE_TIE: Final = ProposeTie()
ACCEPT_TIE: Final = AcceptTie()
REJECT_TIE: Final = RejectTie()
DROP: Final = Drop()
NEXT_GAME: Final = NextGame()
DISCARDS: Final = tuple(Discard(card) for card in range(63))
"""One shared ``Discard`` per card id, so legal-action lists allocate nothing."""

_FIXED_WORDS: Final[dict[str, Action]] = {
    "draw stock": DRAW_STOCK,
    "take discard": TAKE_DISCARD,
    "take extra": TAKE_EXTRA,
    "decline": DECLINE,
    "declare": DECLARE,
    "go out": GO_OUT,
    "four sevens": FOUR_SEVENS,
    "propose tie": PROPOSE_TIE,
    "accept tie": ACCEPT_TIE,
    "reject tie": REJECT_TIE,
    "drop": DROP,
    "next game": NEXT_GAME,
}
_RULE_DEFAULTS: Final = Rules()
_RULE_FIELDS: Final = tuple(f.name for f in dataclasses.fields(Rules))


def _format_rule_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "none"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value) if value else "none"
    return str(value)


def _parse_rule_value(name: str, text: str) -> Any:
    default = getattr(_RULE_DEFAULTS, name)
    lowered = text.strip().lower()
    if isinstance(default, bool):
        if lowered in ("true", "yes", "on", "1"):
            return True
        if lowered in ("false", "no", "off", "0"):
            return False
        raise ActionSyntaxError(f"rule {name} takes true or false, not {text!r}")
    if isinstance(default, tuple):
        if lowered in ("", "none"):
            return ()
        try:
            return canonical_optional([label for label in text.split(",") if label])
        except RulesError as exc:
            raise ActionSyntaxError(f"rule {name}: {exc}") from None
    if default is None and lowered == "none":
        return None
    try:
        return int(lowered)
    except ValueError:
        raise ActionSyntaxError(f"rule {name} takes a whole number, not {text!r}") from None


def parse_next_game(words: list[str]) -> NextGame:
    """Read the ``field=value`` words after ``next game``."""
    changes: list[tuple[str, Any]] = []
    seen: set[str] = set()
    for word in words:
        name, sep, value = word.partition("=")
        name = name.strip().lower().replace("-", "_")
        if not sep:
            raise ActionSyntaxError(f"expected field=value after 'next game', not {word!r}")
        if name not in _RULE_FIELDS:
            raise ActionSyntaxError(f"unknown rule field {name!r} in 'next game'")
        if name in seen:
            raise ActionSyntaxError(f"rule field {name!r} is given twice in 'next game'")
        seen.add(name)
        changes.append((name, _parse_rule_value(name, value)))
    return NextGame(tuple(changes))


def parse_action(text: str) -> Action:
    """Read one action's notation (case and spacing are free); raise ``ActionSyntaxError``.

    >>> parse_action("go  OUT")
    GoOut()
    >>> parse_action("discard XX")
    Traceback (most recent call last):
    ...
    cardtable.errors.ActionSyntaxError: cannot read the card in 'discard XX': unknown card 'XX': \
expected a rank (A 2-10 J Q K) and a suit (S H D C), or PJ, W, C1-C12, NM0, NM2, CD0
    """
    if not isinstance(text, str):
        raise ActionSyntaxError(f"an action is text, not {type(text).__name__}")
    words = text.split()
    key = " ".join(words).lower()
    fixed = _FIXED_WORDS.get(key)
    if fixed is not None:
        return fixed
    if len(words) == 2 and words[0].lower() == "discard":
        try:
            card = parse_card(words[1])
        except CardError as exc:
            raise ActionSyntaxError(f"cannot read the card in {text.strip()!r}: {exc}") from None
        if card == 52:
            raise ActionSyntaxError("the printed joker is not a Declaration Rummy card")
        return DISCARDS[card]
    if len(words) == 3 and key.startswith("take discard "):
        if not words[2].isdigit() or int(words[2]) < 1:
            raise ActionSyntaxError(
                f"'take discard N' needs a number of cards of at least 1, not {words[2]!r}"
            )
        count = int(words[2])
        return TAKE_DISCARD if count == 1 else TakeDiscard(count)
    if len(words) > 2 and key.startswith("next game "):
        return parse_next_game(words[2:])
    raise ActionSyntaxError(
        f"unknown action {text.strip()!r}: expected draw stock, take discard [N], take extra, "
        "decline, discard CARD, declare, go out, four sevens, propose/accept/reject tie, drop "
        "or next game"
    )
