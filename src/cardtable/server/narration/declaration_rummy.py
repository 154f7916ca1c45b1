"""Declaration Rummy: one deal is a whole game, which ends when the view's ``outcome`` changes;
in a match, the match ends with the engine's result."""

from __future__ import annotations

import functools
from typing import Any, Final

from cardtable.errors import CardtableError
from cardtable.games.contract import AnyEngine
from cardtable.games.declaration_rummy.scoring import count_hand
from cardtable.server.narration import (
    Names,
    Outcome,
    SeatOutcome,
    game_outcome,
    mid_sentence,
    score_line,
    summary,
)
from cardtable.server.narration.naming import name_seats
from cardtable.server.protocol.messages import OwnFactsJson, SummaryJson

_ENDINGS: Final = {
    "declared": "{declarer} declared; the lowest count wins.",
    "went-out": "{winner} went out.",
    "four-sevens": "{winner} laid down the four sevens.",
    "declined": "{ender} declined the discard pile; the lowest count wins.",
    "exhaustion-cap": "The stock was exhausted for too long; the lowest count wins.",
    "turn-cap": "The game reached its turn limit; the lowest count wins.",
    "last-player": "Everyone else dropped.",
    "tie": "The players agreed a tie game.",
}


@functools.lru_cache(maxsize=4096)
def _own_count(hand: tuple[int, ...], rules: Any) -> int | None:
    """The count of a hand, remembered: every seat's state is sent after every move, and only
    the seat that moved holds another hand."""
    try:
        return count_hand(hand, rules).count
    except CardtableError:
        return None


class DeclarationRummyNarrator:
    """Games (declared, gone out, dropped, tied) and matches of Declaration Rummy."""

    def own_facts(self, view: Any) -> OwnFactsJson:
        """``count``: the count of the seat's own hand (``None`` with no hand, or one larger
        than the scorer takes)."""
        if not view.hand:
            return {"count": None}
        return {"count": _own_count(tuple(view.hand), view.rules)}

    def finished(self, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
        """The game that ``after`` finished, then the match if it is over."""
        outcomes: list[Outcome] = []
        # The states' own outcomes, which every view shows as they are: asked after every move,
        # where two whole views would cost more than the rest of this together.
        old, new = before.outcome, after.outcome
        if new is not None and (old is None or old.game != new.game):
            outcomes.append(_game_outcome(new, engine.view(after, 0)))
        if after.rules.match and engine.result(after) is not None and engine.result(before) is None:
            outcomes.append(
                game_outcome(
                    engine, after, kind="match", number=after.game_number, score_label="games won"
                )
            )
        return outcomes


def _game_outcome(outcome: Any, view: Any) -> Outcome:
    players = len(outcome.hands)
    seats = tuple(
        SeatOutcome(
            won=outcome.winner == seat,
            points=outcome.counts[seat],
            details={
                "declared": outcome.declarer == seat,
                "went_out": outcome.reason == "went-out" and outcome.winner == seat,
                "dropped": outcome.hands[seat] is None,
                "tie": outcome.reason == "tie",
            },
        )
        for seat in range(players)
    )
    details = outcome.to_json()
    match_wins = list(view.match_wins) if view.rules.match else None

    def describe(names: Names) -> SummaryJson:
        def name(seat: int | None) -> str:
            return "Nobody" if seat is None else names[seat]

        ending = _ENDINGS.get(outcome.reason, outcome.summary).format(
            declarer=name(outcome.declarer), winner=name(outcome.winner), ender=name(outcome.ender)
        )
        won = "Nobody won." if outcome.winner is None else f"{name(outcome.winner)} won."
        headline = f"Game {outcome.game}: {ending} {won}"
        lines = []
        scores = []
        for seat in range(players):
            count = outcome.counts[seat]
            compared = outcome.compared[seat]
            if outcome.hands[seat] is None:
                text = "dropped"
            elif compared is not None and compared != count:
                text = f"count {count} (compared as {compared})"
            else:
                text = f"count {count}"
            lines.append(f"{names[seat]}: {text}.")
            total = None if match_wins is None else match_wins[seat]
            scores.append(score_line(seat, names, count, total))
        if outcome.tie_break:
            lines.append(f"Tie broken: {name_seats(outcome.tie_break, names)}")
        if match_wins is not None:
            lines.append(
                "Match games won: "
                + ", ".join(
                    f"{mid_sentence(names[seat])} {wins}" for seat, wins in enumerate(match_wins)
                )
                + "."
            )
        described = summary("game", outcome.game, headline, lines, scores, details)
        # The engine's sentence on how the game ended, in this reader's words.
        described["lead"] = name_seats(outcome.summary, names)
        return described

    return Outcome(kind="game", number=outcome.game, seats=seats, describe=describe)
