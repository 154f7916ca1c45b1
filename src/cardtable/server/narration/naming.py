"""The engines' sentences ("Seat 0 went out and wins.") in the words of one seat: every seat
number becomes the name that seat knows the other by, "you" is capitalised only where a
sentence begins, and the verbs whose subject became "you" agree with it ("You went out and
win.", "…and you declined the discard pile; you win…").

The engines speak of seats by number so that one sentence serves every reader; the table turns
it into each reader's own before it is sent, so that the page never has to guess the grammar.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final

from cardtable.server.narration import list_text

# The third-person verbs the engines' sentences use, as "you" says them.
_AGREE: Final = {
    "wins": "win",
    "takes": "take",
    "leads": "lead",
    "has": "have",
    "is": "are",
    "was": "were",
    "goes": "go",
    "reaches": "reach",
    "scores": "score",
    "shares": "share",
    "keeps": "keep",
    "draws": "draw",
    "plays": "play",
    "ties": "tie",
}
_SEATS: Final = re.compile(r"\b([Ss])eats ((?:\d+, )*\d+)(?: and (\d+))?\b")
_SEAT: Final = re.compile(r"\b[Ss]eat (\d+)\b")
# A "you" standing for a seat, up to the end of its clause: its verb is among the words there
# ("you, furthest to the left, take the tie": an aside between commas stays in the clause).
_CLAUSE_END: Final = re.compile(r"[;:.!?()]|, (?:so|but|and|while) ")
_SENTENCE_START: Final = re.compile(r"(?:^|[.!?]\s+)$")
_MARK: Final = "\x00"


def _agree(clause: str) -> str:
    """The clause after a "you" subject, with its verb agreeing with "you": the first one the
    engines use, only (in "win the match with 2 game wins" the second is a noun)."""
    for match in re.finditer(r"\b\w+\b", clause):
        plain = _AGREE.get(match.group(0))
        if plain is not None:
            return clause[: match.start()] + plain + clause[match.end() :]
    return clause


def name_seats(text: str, names: Sequence[str]) -> str:
    """``text`` with seat numbers replaced by ``names`` (the reader's own seat is "You").

    >>> name_seats("Seat 0 went out and wins.", ["You", "Ruby"])
    'You went out and win.'
    >>> name_seats("Seat 1 was out and seat 0 declined; seat 0 wins with 5.", ["You", "Ruby"])
    'Ruby was out and you declined; you win with 5.'
    >>> name_seats("seat 1 wins with 121 points after 4 hands", ["You", "Ruby"])
    'Ruby wins with 121 points after 4 hands'
    >>> name_seats("The cap came; seats 1, 0 led with 3 game wins.", ["You", "Ruby"])
    'The cap came; Ruby and you led with 3 game wins.'
    """
    if not text:
        return text

    def you(before: str) -> str:
        return "You" if _SENTENCE_START.search(before) else "you"

    def many(match: re.Match[str]) -> str:
        numbers = [int(n) for n in match.group(2).split(", ")]
        if match.group(3):
            numbers.append(int(match.group(3)))
        if any(n >= len(names) for n in numbers):
            return match.group(0)
        said = [names[n] for n in numbers]
        # A list is a plural subject: its verbs need no change, only its "you" its case.
        said = [
            (you(match.string[: match.start()]) if i == 0 else "you") if name == "You" else name
            for i, name in enumerate(said)
        ]
        return list_text(said)

    text = _SEATS.sub(many, text)

    def one(match: re.Match[str]) -> str:
        seat = int(match.group(1))
        if seat >= len(names):
            return match.group(0)
        if names[seat] != "You":
            return names[seat]
        # Marked, so that the verbs of this "you" (and of no listed one) are made to agree.
        return _MARK + you(match.string[: match.start()])

    return _you_agree(_SEAT.sub(one, text))


def _you_agree(text: str) -> str:
    """Each marked "you" on its own (not "you and Ruby"): the verb of its clause agrees (the
    clause ends at punctuation or at a joining word that starts a new subject)."""
    result: list[str] = []
    position = 0
    for match in re.finditer(_MARK + r"[Yy]ou\b", text):
        if match.start() < position:
            continue
        start = match.end()
        result.append(text[position:start])
        position = start
        if text.startswith(" and ", start):
            continue
        end_match = _CLAUSE_END.search(text, start)
        end = len(text) if end_match is None else end_match.start()
        result.append(_agree(text[start:end]))
        position = end
    result.append(text[position:])
    return "".join(result).replace(_MARK, "")
