"""Indecision: a hand ends when the view's public ``last_hand`` summary changes (a stop, the
deck running out, or the turn cap); the game ends when someone reaches the target."""

from __future__ import annotations

from typing import Any

from cardtable.games.contract import AnyEngine
from cardtable.server.narration import (
    Names,
    Outcome,
    SeatOutcome,
    game_outcome,
    points_text,
    score_line,
    summary,
)
from cardtable.server.protocol.messages import SummaryJson


class IndecisionNarrator:
    """Hands (with stops and forfeits) and games of Indecision."""

    def finished(self, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
        """The hand that ``after`` finished, then the game if it is over."""
        outcomes: list[Outcome] = []
        old = engine.view(before, 0).last_hand
        view = engine.view(after, 0)
        new = view.last_hand
        if new is not None and (old is None or old.hand_number != new.hand_number):
            outcomes.append(_hand_outcome(new, view))
        if engine.result(after) is not None and engine.result(before) is None:
            outcomes.append(game_outcome(engine, after))
        return outcomes


def _hand_outcome(hand: Any, view: Any) -> Outcome:
    players = len(view.totals)
    by_seat = {result.seat: result for result in hand.results}
    counted = [result.points for result in hand.results if result.counted]
    best = max(counted, default=0)
    # A hand is won by the one seat with the most points: two seats tied on the most points
    # both drew it, and neither counts it as a win.
    tied = counted.count(best) > 1
    seats = []
    for seat in range(players):
        result = by_seat.get(seat)
        stopped = hand.stopper == seat
        points = None if result is None or not result.counted else result.points
        seats.append(
            SeatOutcome(
                won=points is not None and points > 0 and points == best and not tied,
                points=points,
                details={
                    "tied": points is not None and points > 0 and points == best and tied,
                    "stopped": stopped,
                    "forfeit": stopped and bool(hand.stop_problems),
                    "ending": hand.ending,
                },
            )
        )
    totals = tuple(view.totals)
    details = hand.to_json()

    def describe(names: Names) -> SummaryJson:
        headline = _headline(hand, names)
        lines = []
        scores = []
        for seat in range(players):
            result = by_seat.get(seat)
            if result is None or not result.counted:
                lines.append(f"{names[seat]}: not counted, total {totals[seat]}.")
                scores.append(score_line(seat, names, None, totals[seat]))
                continue
            note = ""
            if result.challenged:
                over = result.declared - result.score
                capped = ", capped at the total" if result.penalty < 2 * over else ""
                note = (
                    f" (announced {result.declared}, {over} over the hand's {result.score}: "
                    f"challenged, {result.penalty} off the total, twice the {over}{capped})"
                )
            elif result.forfeited:
                note = f" (the hand was worth {result.score}, forfeited)"
            elif result.points != result.score:
                note = f" (the hand was worth {result.score})"
            lines.append(
                f"{names[seat]}: {points_text(result.points)}{note}, total {result.total}."
            )
            scores.append(score_line(seat, names, result.points, result.total))
        return summary("deal", hand.hand_number, headline, lines, scores, details)

    return Outcome(kind="deal", number=hand.hand_number, seats=tuple(seats), describe=describe)


def _headline(hand: Any, names: Names) -> str:
    number = f"Hand {hand.hand_number}: "
    if hand.ending == "stop" and hand.stopper is not None:
        stopper = names[hand.stopper]
        if hand.stop_problems:
            problems = "; ".join(hand.stop_problems)
            return f"{number}{stopper} stopped, but the stop was not valid ({problems})."
        return f"{number}{stopper} stopped the hand."
    if hand.ending == "deck-exhausted":
        return f"{number}the deck ran out and every hand was scored."
    return f"{number}the hand reached its turn limit and nobody scores."
