"""Indian Rummy: a deal ends when the view's public ``last_deal`` summary changes; a game (with
a set number of deals, or a Pool or Deals game) ends with the engine's result. Free play has
deals only. In Pool a deal's summary says who it put out; in Deals it gives the chips."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from cardtable.cards import format_card
from cardtable.games.contract import AnyEngine
from cardtable.games.indian_rummy.view import deal_arrangements
from cardtable.melds.indian import is_joker
from cardtable.server.narration import (
    Names,
    Outcome,
    SeatOutcome,
    game_outcome,
    list_text,
    mid_sentence,
    points_text,
    score_line,
    summary,
)
from cardtable.server.protocol.messages import OwnFactsJson, SummaryJson


class IndianRummyNarrator:
    """Deals (with drops, valid and wrong shows) and games of Indian Rummy."""

    def own_facts(self, view: Any) -> OwnFactsJson:
        """``jokers``: the labels of the seat's cards that are jokers this deal (printed jokers
        and the wild rank); ``pile_top_joker``: the discard pile's top card is one (it cannot
        be taken)."""
        wild = view.wild_rank
        top = view.pile_top
        return {
            "jokers": list(_joker_labels(tuple(view.hand), wild)),
            "pile_top_joker": top is not None and is_joker(top, wild),
        }

    def finished(self, engine: AnyEngine, before: Any, after: Any) -> list[Outcome]:
        """The deal that ``after`` finished, then the game if it is over."""
        outcomes: list[Outcome] = []
        old, new = before.last_deal, after.last_deal
        if new is not None and (old is None or old.number != new.number):
            view = engine.view(after, 0)
            outcomes.append(_deal_outcome(new, view))
        if engine.result(after) is not None and engine.result(before) is None:
            outcomes.append(game_outcome(engine, after))
        return outcomes


@lru_cache(maxsize=4096)
def _joker_labels(hand: tuple[int, ...], wild: int | None) -> tuple[str, ...]:
    """The labels of ``hand``'s jokers, sorted, remembered: every seat's state is sent after
    every move, and only the seat that moved holds another hand."""
    return tuple(sorted({format_card(card) for card in hand if is_joker(card, wild)}))


def _deal_outcome(deal: Any, view: Any) -> Outcome:
    seats = []
    for seat in range(len(deal.points)):
        seats.append(
            SeatOutcome(
                won=deal.winner == seat,
                points=deal.points[seat],
                details={
                    "dropped": deal.drops[seat] is not None,
                    "wrong_show": deal.outcome == "wrong-show" and deal.declarer == seat,
                    "valid_show": deal.outcome == "valid-show" and deal.declarer == seat,
                    "abandoned": deal.outcome == "abandoned",
                },
            )
        )
    totals = tuple(view.totals)
    details = deal.to_json()
    details["arrangements"] = _arrangements(deal, view)

    def describe(names: Names) -> SummaryJson:
        headline = _headline(deal, names)
        lines = []
        scores = []
        for seat, points in enumerate(deal.points):
            dropped = deal.drops[seat] is not None
            note = " (dropped)" if dropped else ""
            lines.append(f"{names[seat]}: {points_text(points)}{note}, total {totals[seat]}.")
            scores.append(score_line(seat, names, points, totals[seat]))
        standing = view.standing
        if standing is not None and deal.number == view.deal_number:
            # Pool and Deals (RULES.md 2.13): who the deal put out, and the standing.
            for seat in standing.eliminated:
                lines.append(f"{names[seat]} reached {view.rules.pool_limit} and is out.")
            if view.rules.format == "deals":
                chips = ", ".join(
                    f"{names[seat]} {count}" for seat, count in enumerate(standing.chips)
                )
                lines.append(f"Chips: {chips}.")
        return summary("deal", deal.number, headline, lines, scores, details)

    return Outcome(kind="deal", number=deal.number, seats=tuple(seats), describe=describe)


def _headline(deal: Any, names: Names) -> str:
    number = f"Deal {deal.number}: "
    if deal.outcome == "valid-show":
        return f"{number}{names[deal.declarer]} declared a valid show."
    if deal.outcome == "wrong-show":
        points = deal.points[deal.declarer]
        return f"{number}{names[deal.declarer]} made a wrong show ({points_text(points)})."
    if deal.outcome == "all-dropped":
        # Who dropped, by name: "you dropped, so Ruby won the deal." (at two players the
        # dropper is one seat, perhaps the reader's own, not "everyone else").
        dropped = [
            mid_sentence(names[seat])
            for seat in range(len(deal.drops))
            if deal.drops[seat] is not None
        ]
        winner = mid_sentence(names[deal.winner])
        return f"{number}{list_text(dropped)} dropped, so {winner} won the deal."
    return f"{number}the deal reached its turn limit and nobody scores."


def _arrangements(deal: Any, view: Any) -> list[Any] | None:
    """Each shown hand's groups (as card labels), where the engine can arrange them."""
    shown: list[Any] = []
    for arrangement in deal_arrangements(deal, view.rules):
        if arrangement is None or not hasattr(arrangement, "to_json"):
            shown.append(None)
        else:
            shown.append(arrangement.to_json())
    return shown
