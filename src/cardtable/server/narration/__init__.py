"""What the table tells its players when a deal, hand, game or match ends, and what it records.

After every move the table owner asks :func:`finished_between` which units of play the move
finished. Each :class:`Outcome` says, per seat, whether it won, its points and the game's own
facts (a drop, a wrong show, a stop, a forfeit), which become record events; and it can
describe itself for one seat (``summary``), with the names that seat knows the others by.

The per-game modules read the public summaries the engines keep in their views (Indian Rummy's
last deal, Indecision's last hand, Declaration Rummy's game outcome); each game's spec names its
narrator class (what one deal is called is the spec's ``deal_word``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from cardtable.games.contract import AnyEngine, GameResult
from cardtable.registry import get_spec, load
from cardtable.server.protocol.messages import (
    JsonObject,
    OwnFactsJson,
    SummaryJson,
    SummaryScoreJson,
    UnitKind,
)
from cardtable.storage.record_totals import RecordDetails

Names = Sequence[str]
KIND_ORDER: Final = {"deal": 0, "game": 1, "match": 2}


@dataclass(frozen=True, slots=True)
class SeatOutcome:
    """How one seat fared in a finished unit of play."""

    won: bool
    points: int | None
    details: RecordDetails = field(default_factory=dict)
    """The game's own facts about the seat's result (a drop, a wrong show, a stop, a
    forfeit), recorded as they are."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished deal/hand (``kind="deal"``), game or match."""

    kind: UnitKind
    number: int
    seats: tuple[SeatOutcome, ...]
    describe: Callable[[Names], SummaryJson]
    """Builds the ``summary`` for a seat, given the seat names as that seat sees them."""


class Narrator(Protocol):
    """A game's knowledge of how its deals, games and matches end."""

    def finished(self, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
        """The units of play that ended between two states (smallest first)."""
        ...


def summary(
    kind: UnitKind,
    number: int,
    headline: str,
    lines: list[str],
    scores: list[SummaryScoreJson],
    details: JsonObject | None,
) -> SummaryJson:
    """The ``summary`` object of the protocol's state message, for one unit of play (its
    ``parts`` that unit alone)."""
    return SummaryJson(
        kind=kind,
        number=number,
        headline=headline,
        lines=lines,
        scores=scores,
        details=details,
        parts=[kind],
        details_by_kind={kind: details},
    )


def score_line(seat: int, names: Names, points: int | None, total: int | None) -> SummaryScoreJson:
    """One seat's entry in a summary's ``scores``."""
    return SummaryScoreJson(seat=seat, name=names[seat], points=points, total=total)


def merge_summaries(outcomes: Sequence[Outcome], names: Names) -> SummaryJson | None:
    """One summary for everything a move finished: the biggest unit's, with the smaller ones'
    headlines and lines after its own (a deal that also ended the game); ``parts`` lists the
    kinds finished and ``details_by_kind`` each one's details."""
    if not outcomes:
        return None
    ordered = sorted(outcomes, key=lambda outcome: KIND_ORDER.get(outcome.kind, 0), reverse=True)
    described = [outcome.describe(names) for outcome in ordered]
    merged = described[0].copy()
    lines = list(merged["lines"])
    for smaller in described[1:]:
        lines.extend([smaller["headline"], *smaller["lines"]])
        if merged["details"] is None:
            merged["details"] = smaller["details"]
        if "lead" not in merged and "lead" in smaller:
            merged["lead"] = smaller["lead"]
    merged["lines"] = lines
    merged["parts"] = [part["kind"] for part in described]
    # Each unit's own details too: the last deal's arrangements when it also ended the game.
    merged["details_by_kind"] = {part["kind"]: part["details"] for part in described}
    return merged


def game_outcome(
    engine: AnyEngine,
    state: Any,
    *,
    kind: UnitKind = "game",
    number: int = 1,
    score_label: str = "total",
) -> Outcome:
    """The unit described by a :class:`GameResult` (``engine.result(state)`` must be set);
    ``score_label`` says what its scores are (``total``, ``games won``)."""
    result = engine.result(state)
    assert result is not None
    seats = tuple(
        SeatOutcome(won=seat in result.winners, points=result.scores[seat])
        for seat in range(len(result.scores))
    )
    return Outcome(
        kind=kind,
        number=number,
        seats=seats,
        describe=lambda names: _describe_result(kind, number, result, names, score_label),
    )


def _describe_result(
    kind: UnitKind, number: int, result: GameResult, names: Names, score_label: str
) -> SummaryJson:
    winners = [names[seat] for seat in result.winners]
    if not winners:
        headline = f"The {kind} ended with no winner."
    elif len(winners) == 1:
        headline = f"{winners[0]} won the {kind}."
    else:
        headline = f"{list_text([winners[0], *map(mid_sentence, winners[1:])])} tied for the win."
    scores = [score_line(seat, names, score, score) for seat, score in enumerate(result.scores)]
    lines = [
        f"{names[seat]}: {'no score' if score is None else f'{score_label} {score}'}."
        for seat, score in enumerate(result.scores)
    ]
    return summary(kind, number, headline, lines, scores, result.to_json())


class ResultOnly:
    """A narrator that reports only the game's end (a game's spec may name it when its deals
    need no summaries of their own)."""

    def finished(self, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
        """The game, when ``after`` is its end."""
        if engine.result(after) is None or engine.result(before) is not None:
            return []
        return [game_outcome(engine, after)]


@functools.lru_cache(maxsize=64)
def narrator_for(game: str) -> Narrator:
    """The narrator of a registered game, as its spec names it (made once per game: it is
    asked after every move, and for every seat's state)."""
    narrator: Narrator = load(get_spec(game).narrator)()
    return narrator


def own_facts(game: str, view: Any) -> OwnFactsJson:
    """What a seat may know of its own hand without working it out, sent as ``own`` in the
    state message (Declaration Rummy's count, which the Declare question shows); a game's
    narrator gives them through an ``own_facts(view)`` method, when it has one."""
    facts: Callable[[Any], OwnFactsJson] | None = getattr(narrator_for(game), "own_facts", None)
    return {} if facts is None else facts(view)


def finished_between(game: str, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
    """Every unit of play a move finished, smallest first."""
    return narrator_for(game).finished(engine, before, after)


def possessive(name: str) -> str:
    """``Ruby's``, ``your`` for ``You``.

    >>> possessive("You"), possessive("Max")
    ('your', "Max's")
    """
    return "your" if name == "You" else f"{name}'s"


def mid_sentence(name: str) -> str:
    """A seat's name where a sentence does not begin: ``you`` for ``You``.

    >>> mid_sentence("You"), mid_sentence("Ruby")
    ('you', 'Ruby')
    """
    return "you" if name == "You" else name


def list_text(items: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bo``, ``Ann, Bo and Cy``.

    >>> list_text(["you"]), list_text(["Ann", "Bo", "Cy"])
    ('you', 'Ann, Bo and Cy')
    """
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} and {items[-1]}"


def points_text(points: int | None) -> str:
    """``1 point``, ``23 points``, ``no score``."""
    if points is None:
        return "no score"
    return f"{points} point" if points == 1 else f"{points} points"
