"""Display names: normalised, and refused when they could mislead other players.

A name is shown to everybody at a table, in announcements ("Ruby took 7H from the pile"), so
it is normalised (Unicode NFKC, runs of spaces made one) and refused when it holds characters
that change how text around it reads (right-to-left overrides, zero-width and other invisible
format characters, control characters such as NUL, unassigned or private code points), has no
letter or digit at all, or takes a name the table already uses for somebody else: "You" (each
player's own seat) or a computer player's name.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from cardtable.errors import CardtableError

MAX_NAME_LENGTH: Final = 40
BOT_NAMES: Final = ("Ruby", "Max", "Ivy", "Otto", "Nell", "Finn", "Rosa", "Theo", "Lena", "Hugo")
"""The computer players' names, after the players of the rule book's examples and friends."""
RESERVED_NAMES: Final = frozenset(name.casefold() for name in ("You", *BOT_NAMES))
_REFUSED_CATEGORIES: Final = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Cs": "a lone surrogate",
    "Co": "a private-use character",
    "Cn": "an unassigned character",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}


class DisplayNameError(CardtableError, ValueError):
    """A display name that cannot be used; the message says why."""


def check_name(name: object) -> str:
    """A display name, normalised, or :class:`DisplayNameError` saying why it cannot be used.

    >>> check_name("  Ruby  Tuesday ")
    'Ruby Tuesday'
    >>> check_name("ｍａｒｙ")
    'mary'
    >>> check_name("evil\\u202egnp.exe")
    Traceback (most recent call last):
    ...
    cardtable.server.names.DisplayNameError: name must not contain an invisible formatting \
character (U+202E)
    >>> check_name("you")
    Traceback (most recent call last):
    ...
    cardtable.server.names.DisplayNameError: name 'you' is used by the table itself: choose another
    """
    if not isinstance(name, str):
        raise DisplayNameError("name must be text")
    for char in name:
        category = unicodedata.category(char)
        if category in _REFUSED_CATEGORIES and char not in "\t\n\r":
            raise DisplayNameError(
                f"name must not contain {_REFUSED_CATEGORIES[category]} (U+{ord(char):04X})"
            )
    cleaned = " ".join(unicodedata.normalize("NFKC", name).split())
    if not cleaned:
        raise DisplayNameError("name must be non-empty text")
    if len(cleaned) > MAX_NAME_LENGTH:
        raise DisplayNameError(f"name must be at most {MAX_NAME_LENGTH} characters")
    if not any(char.isalnum() for char in cleaned):
        raise DisplayNameError("name must have at least one letter or digit")
    if cleaned.casefold() in RESERVED_NAMES:
        raise DisplayNameError(f"name {cleaned!r} is used by the table itself: choose another")
    return cleaned
