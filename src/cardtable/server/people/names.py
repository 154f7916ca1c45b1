"""Display names: normalised, and refused when they could mislead other players.

A name is shown to everybody at a table, in announcements ("Ruby took 7H from the pile"), so
it is normalised (Unicode NFKC, runs of spaces made one) and refused when it holds characters
that change how text around it reads (right-to-left overrides, zero-width and other invisible
format characters, control characters such as NUL, unassigned or private code points), has no
letter or digit at all, or takes a name the table already uses for somebody else: "You" (each
player's own seat) or a computer player's name; at a people's table (:func:`check_table_name`)
also "Player" or "Open seat", the labels of a seat nobody has taken.

Names that only look like another are refused too: a word mixing Latin, Greek and Cyrillic
letters ("Rubу" with a Cyrillic у), a name whose :func:`skeleton` (accents dropped, Greek and
Cyrillic look-alikes read as the Latin letter they resemble) is a reserved name, and letters
carrying more than :data:`MAX_MARKS` combining marks (stacked marks draw over the lines
around them). :func:`skeleton` also decides whether two people at one table have the same name.
"""

from __future__ import annotations

import unicodedata
from typing import Final

from cardtable.errors import CardtableError

MAX_NAME_LENGTH: Final = 40
BOT_NAMES: Final = ("Ruby", "Max", "Ivy", "Otto", "Nell", "Finn", "Rosa", "Theo", "Lena", "Hugo")
"""The computer players' names, after the players of the rule book's examples and friends."""
RESERVED_NAMES: Final = frozenset(name.casefold() for name in ("You", *BOT_NAMES))
SEAT_LABELS: Final = frozenset(name.casefold() for name in ("Player", "Open seat"))
"""What a people's table shows at a seat nobody has taken: no name at the table may read so
(a profile keeps "Player", its default name, until it joins one)."""
MAX_MARKS: Final = 2
"""Combining marks one letter may carry (Vietnamese letters have two)."""
_LOOKALIKE_SCRIPTS: Final = ("LATIN", "GREEK", "CYRILLIC")
# Greek and Cyrillic letters that look like a Latin one, lowercase (names are casefolded first).
_LOOKALIKES: Final = str.maketrans(
    {
        "а": "a", "в": "b", "с": "c", "ԁ": "d", "е": "e", "ё": "e", "һ": "h", "і": "i",
        "ї": "i", "ј": "j", "к": "k", "ӏ": "l", "м": "m", "н": "h", "о": "o", "р": "p",
        "ԛ": "q", "ѕ": "s", "т": "t", "у": "y", "ү": "y", "х": "x", "ԝ": "w", "ь": "b",
        "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ϲ": "c", "ϳ": "j",
    }
)  # fmt: skip
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
    cardtable.server.people.names.DisplayNameError: name must not contain an invisible formatting \
character (U+202E)
    >>> check_name("you")
    Traceback (most recent call last):
    ...
    cardtable.server.people.names.DisplayNameError: name 'you' is used by the table itself: \
choose another
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
    _check_marks(cleaned)
    _check_scripts(cleaned)
    if cleaned.casefold() in RESERVED_NAMES:
        raise DisplayNameError(f"name {cleaned!r} is used by the table itself: choose another")
    if skeleton(cleaned) in RESERVED_NAMES:
        raise DisplayNameError(
            f"name {cleaned!r} looks like a name the table uses itself: choose another"
        )
    return cleaned


def skeleton(name: str) -> str:
    """What ``name`` looks like: casefolded, accents and other marks dropped, and Greek or
    Cyrillic look-alikes read as Latin letters.

    >>> skeleton("Rubу") == skeleton("RUBY") == skeleton("Rúby") == "ruby"
    True
    >>> skeleton("Анна")
    'ahha'
    """
    decomposed = unicodedata.normalize("NFKD", name.casefold())
    bare = "".join(char for char in decomposed if not unicodedata.combining(char))
    return bare.translate(_LOOKALIKES)


def _check_marks(name: str) -> None:
    run = 0
    for char in unicodedata.normalize("NFD", name):  # composed letters count their marks
        run = run + 1 if unicodedata.combining(char) else 0
        if run > MAX_MARKS:
            raise DisplayNameError(
                f"name must not stack more than {MAX_MARKS} combining marks on one letter"
            )


def _script(char: str) -> str | None:
    """``LATIN``, ``GREEK`` or ``CYRILLIC`` for a letter of one of those scripts."""
    if not char.isalpha():
        return None
    script = unicodedata.name(char, "").split(" ", 1)[0]
    return script if script in _LOOKALIKE_SCRIPTS else None


def _check_scripts(name: str) -> None:
    for word in name.split():
        scripts = {script for char in word if (script := _script(char)) is not None}
        if len(scripts) > 1:
            mixed = " and ".join(sorted(s.title() for s in scripts))
            raise DisplayNameError(
                f"name must not mix {mixed} letters in one word ({word!r}): they look alike"
            )


def check_table_name(name: object) -> str:
    """A name to sit at a people's table with: :func:`check_name`, and not the label of a
    seat nobody has taken ("Player", "Open seat"), in any case or look-alike letters.

    >>> check_table_name("Player")
    Traceback (most recent call last):
    ...
    cardtable.server.people.names.DisplayNameError: name 'Player' is what an open seat shows: \
choose another
    """
    cleaned = check_name(name)
    if skeleton(cleaned) in SEAT_LABELS:
        raise DisplayNameError(f"name {cleaned!r} is what an open seat shows: choose another")
    return cleaned
