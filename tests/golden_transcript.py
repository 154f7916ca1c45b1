"""The one writer of the games' golden transcripts, with each game's formatting as its hooks.

A golden transcript is a whole seeded game played through :func:`cardtable.driver.play` and told
in the game's own words, so that any change in dealing, rules or scoring shows up as a diff
(:func:`playthrough.check_golden`). The writer owns the loop: it asks the game's
:class:`TranscriptStyle` for the header, for what to tell before each seat action (a new deal
and its hands, a reshuffle, the summary of a hand that has just ended), for the action's line
(with whatever the action brought to light, such as the card a stock draw gave), for what to
tell after it (the end of a deal), and for the ending; then it checks that the game's record
replays to the very same state. The styles live beside each game's golden test.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from cardtable.driver import PlayedGame, play
from cardtable.games.contract import AnyEngine, GameResult
from cardtable.replay import record_of, replay


class TranscriptStyle(Protocol):
    """How one game tells its golden transcript. A style may keep what it has told so far
    (the deal it last described): the writer makes one per transcript."""

    def header(self, rules: Any, seed: int, seats: Sequence[Any]) -> list[str]:
        """The lines before the first action: the game, its rules, seed and seats."""
        ...

    def before(self, state: Any) -> list[str]:
        """What to tell before a seat acts in ``state`` (nothing when nothing new happened)."""
        ...

    def action(self, before: Any, seat: int, action: Any, after: Any, number: int) -> str:
        """The line of the ``number``-th seat action, ``after`` being the state it made."""
        ...

    def after(self, before: Any, after: Any) -> list[str]:
        """What to tell once the action is told (a finished deal's summary, say)."""
        ...

    def ending(self, game: PlayedGame, result: GameResult) -> list[str]:
        """The last lines, once the game is over."""
        ...


def golden_transcript(
    engine: AnyEngine,
    rules: Any,
    seed: int,
    seats: Sequence[Any],
    style: TranscriptStyle,
    *,
    checked: bool = False,
) -> str:
    """Play ``(engine, rules, seed)`` with the bots ``seats`` and tell it in ``style``; the
    record of the game must replay to the same state. ``checked`` routes every action through
    the checked apply, as the driver does for untrusted input."""
    lines = style.header(rules, seed, seats)
    number = 0

    def on_action(before: Any, seat: int, action: Any) -> None:
        nonlocal number
        number += 1
        lines.extend(style.before(before))
        after = engine.apply_unchecked(before, action, seat)
        lines.append(style.action(before, seat, action, after, number))
        lines.extend(style.after(before, after))

    game = play(engine, rules, seed, seats, checked=checked, on_action=on_action)
    result = engine.result(game.state)
    assert result is not None, "a golden game must finish"
    lines.extend(style.ending(game, result))
    assert replay(record_of(engine.name, rules, seed, game.actions)) == game.state
    return "\n".join(lines) + "\n"
