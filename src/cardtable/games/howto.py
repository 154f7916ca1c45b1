"""The pieces every game's How to play page is made of.

Each game package has a ``howto.py`` whose ``page()`` returns ``{title, sections, examples}``
(its spec names it); the web app adds the sections every game shares (how the table is handled,
the notice). Sections are short trusted HTML in the project's own words, after the rule book;
examples are hands drawn as cards with their score, which the tests check against the scorers.
"""

from __future__ import annotations

from typing import Any, Final

_SUIT_SYMBOLS: Final = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def cards_text(text: str) -> str:
    """Card labels written with suit symbols: "AS 2S 5H" reads "A♠ 2♠ 5♥".

    >>> cards_text("AS 10H")
    'A♠ 10♥'
    """
    return " ".join(label[:-1] + _SUIT_SYMBOLS[label[-1]] for label in text.split())


def section(heading: str, html: str) -> dict[str, str]:
    """One section of a page: a heading and its HTML."""
    return {"heading": heading, "html": html}


def example(caption: str, cards: str, score: int) -> dict[str, Any]:
    """A worked example: the caption, the cards (labels) and the score they make."""
    return {"caption": caption, "cards": cards.split(), "score": score}
