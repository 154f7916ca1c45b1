"""Terminal rendering of an Indecision view (Rich markup): :func:`render_view` draws the table
for the seat, :func:`render_hand_summary` explains the last finished hand's count, and
:func:`move_warning` says why a stop would score 0 (asked before it when ``warn_invalid_stop``).

>>> from cardtable.games.indecision.engine import ENGINE
>>> from cardtable.games.indecision.rules import Rules
>>> state = ENGINE.new_game(Rules(), 3)
>>> while ENGINE.current_player(state) < 0:
...     state = ENGINE.chance_step(state)
>>> "Your hand" in render_view(ENGINE.view(state, 0))
True
>>> render_hand_summary(ENGINE.view(state, 0)) is None
True
"""

from __future__ import annotations

from cardtable.cards import format_card, format_cards, suit_of
from cardtable.errors import IllegalActionError
from cardtable.games.contract import PublicEvent
from cardtable.games.indecision.actions import Stop
from cardtable.games.indecision.engine import ENGINE
from cardtable.games.indecision.scoring import score_hand
from cardtable.games.indecision.state import HandSummary, Phase, SeatResult
from cardtable.games.indecision.view import IndecisionView

_RED_SUITS = frozenset((1, 2))
_EVENT_TEXT = {
    "deal": "dealt",
    "discard": "discarded {card}",
    "draw-stock": "drew from the deck",
    "take-discard": "took {card} from the pile",
    "stop": "stopped (spare card face down)",
    "reshuffle": "had the pile reshuffled into a new deck",
    "declare": "announced a score",
    "confirm": "confirmed the announcement",
    "correct": "corrected the announcement",
}
_DOING = {
    Phase.OPENING: "make the opening discard (or stop)",
    Phase.DRAW: "draw from the deck or the pile",
    Phase.DISCARD: "discard a card or stop",
    Phase.DECLARE: "declare the hand's score",
    Phase.CONFIRM: "confirm or correct the announced score",
}


def card_markup(card: int) -> str:
    """One card with its suit symbol, hearts and diamonds in red."""
    label = format_card(card, symbols=True)
    return f"[red]{label}[/red]" if suit_of(card) in _RED_SUITS else f"[bold]{label}[/bold]"


def cards_markup(cards: tuple[int, ...]) -> str:
    """Several cards with suit symbols and colours."""
    return " ".join(card_markup(card) for card in cards) if cards else "-"


def _count(cards: int) -> str:
    return f"{cards} card" if cards == 1 else f"{cards} cards"


def _seat_name(view: IndecisionView, seat: int) -> str:
    return "you" if seat == view.seat else f"seat {seat}"


def _event_line(view: IndecisionView, event: PublicEvent) -> str:
    text = _EVENT_TEXT.get(event.verb, event.verb)
    if event.cards:
        text = text.format(card=card_markup(event.cards[0]))
    return f"{_seat_name(view, event.seat)} {text}"


def render_view(view: IndecisionView) -> str:
    """The table as the seat sees it: hand number, totals, cards held, pile, whose turn, recent
    events and the seat's own hand with indices."""
    rules = view.rules
    dealer, starter = _seat_name(view, view.dealer), _seat_name(view, view.starter)
    lines = [
        f"[bold]Indecision[/bold] - hand {view.hand_number}, dealer {dealer}, starter {starter};"
        f" first to {rules.target_score} wins"
    ]
    if view.hand_number == 0:
        lines.append("Cutting for the first deal.")
        return "\n".join(lines)
    rows = []
    for seat in range(view.players):
        marks = []
        if seat == view.to_act:
            marks.append("on turn")
        if view.had_turn[seat]:
            marks.append("has had a turn")
        mark = f" ({', '.join(marks)})" if marks else ""
        rows.append(
            f"  {_seat_name(view, seat):<8} total {view.totals[seat]:>3}   "
            f"holds {view.hand_sizes[seat]} cards{mark}"
        )
    lines += rows
    pile_top = view.pile_top
    top = card_markup(pile_top) if pile_top is not None else "-"
    under = view.pile[-6:-1][::-1]
    under_text = f"  (below: {cards_markup(under)}{' ...' if len(view.pile) > 6 else ''})"
    lines.append(
        f"Deck: {_count(view.deck_size)}   Pile: {_count(len(view.pile))}, top {top}"
        + (under_text if under else "")
    )
    recent = [e for e in view.events if e.verb != "deal"][-4:]
    if recent:
        lines.append("Lately: " + "; ".join(_event_line(view, e) for e in recent))
    if view.stopper is not None and view.phase in (Phase.DECLARE, Phase.CONFIRM):
        lines.append(f"{_seat_name(view, view.stopper).capitalize()} stopped the hand.")
        lines += [f"  {_result_line(view, r)}" for r in view.scoring]
    hand = "  ".join(f"{i}:{card_markup(card)}" for i, card in enumerate(view.hand, 1))
    lines.append(f"[bold]Your hand[/bold]  {hand}")
    if view.drawn is not None and view.to_act == view.seat:
        lines.append(f"  you drew {card_markup(view.drawn)} from the {view.drawn_from}")
    if len(view.hand) == 5 and not rules.manual_declaration:
        scored = score_hand(view.hand, rules)
        used = "all cards used" if scored.all_cards_used else "not all cards used"
        lines.append(f"  counts {scored.score} ({used})")
    if view.game_over:
        lines.append("[bold]The game is over.[/bold]")
    elif view.to_act == view.seat:
        doing = _DOING.get(view.phase, "act")
        pending = view.pending_declaration
        note = f" (you announced {pending})" if pending is not None else ""
        lines.append(f"[bold green]Your turn:[/bold green] {doing}{note}.")
    elif view.to_act is not None:
        lines.append(f"Seat {view.to_act} is to {_DOING.get(view.phase, 'act')}.")
    return "\n".join(lines)


def _result_line(view: IndecisionView, result: SeatResult) -> str:
    who = _seat_name(view, result.seat)
    if not result.counted:
        return f"{who}: not counted (the game was already won)"
    if result.forfeited:
        return f"{who}: scores 0 (invalid stop), total {result.total}"
    if result.declared is not None:
        corrected = f" (corrected from {result.announced})" if result.announced is not None else ""
        if result.challenged:
            return (
                f"{who}: declared {result.declared}{corrected} but the hand is worth "
                f"{result.score}: challenged, scores 0 and loses {result.penalty}, "
                f"total {result.total}"
            )
        lost = result.score - result.declared
        forfeit = f", {lost} under-declared point{'s' if lost != 1 else ''} lost" if lost else ""
        return f"{who}: declared {result.declared}{corrected}{forfeit}, total {result.total}"
    return f"{who}: +{result.points}, total {result.total}"


def summary_lines(summary: HandSummary, seat: int | None = None) -> list[str]:
    """The count of a finished hand, one line per fact (``seat`` is called "you")."""

    def name(s: int) -> str:
        return "you" if s == seat else f"seat {s}"

    head = f"Hand {summary.hand_number} (dealer {name(summary.dealer)})"
    if summary.ending == "turn-cap":
        return [f"{head} was abandoned at the turn cap with no score."]
    if summary.ending == "turn-limit":
        lines = [
            f"{head} reached its limit of {summary.rules.hand_turn_cap} turns with nobody "
            "stopping; every hand is counted, as when the deck runs out."
        ]
    elif summary.stopper is None:
        lines = [f"{head} ended with an empty deck; every hand is counted."]
    elif summary.stop_problems:
        lines = [
            f"{head}: {name(summary.stopper)} stopped, but the stop is invalid "
            f"({'; '.join(summary.stop_problems)}): the stopper scores 0."
        ]
    else:
        lines = [f"{head}: {name(summary.stopper)} stopped."]
    for result in summary.results:
        scored = summary.hand_score(result)
        lines.append(f"  {name(result.seat)}: {format_cards(result.cards)} - {scored.explain()}")
        if result.counted:
            outcome = _result_text(result)
            lines.append(f"    {outcome}")
        else:
            lines.append("    not counted: the game was already won")
    winners = summary.winners
    if len(winners) == 1:
        lines.append(
            "You win the game." if winners[0] == seat else f"Seat {winners[0]} wins the game."
        )
    elif winners:
        lines.append(f"{' and '.join(name(s) for s in winners).capitalize()} share the win.")
    return lines


def _result_text(result: SeatResult) -> str:
    if result.forfeited:
        return f"invalid stop: scores 0, total {result.total}"
    if result.declared is None:
        return f"scores {result.points}, total {result.total}"
    corrected = f" (corrected from {result.announced})" if result.announced is not None else ""
    if result.challenged:
        return (
            f"declared {result.declared}{corrected}, over the true {result.score}: challenged, "
            f"scores 0 and loses {result.penalty}, total {result.total}"
        )
    return f"declared {result.declared}{corrected}: scores {result.points}, total {result.total}"


def render_hand_summary(view: IndecisionView) -> str | None:
    """The last finished hand's count in the game's terms, or ``None`` before any."""
    if view.last_hand is None:
        return None
    return "\n".join(summary_lines(view.last_hand, view.seat))


def move_warning(view: IndecisionView, action: object) -> str | None:
    """What to say before ``action`` when the rules ask interfaces to warn (``warn_invalid_stop``)
    and it is a stop that would score 0; ``None`` when there is nothing to warn about. An illegal
    stop gets no warning: the checked apply names its rule."""
    if not isinstance(action, Stop) or not view.rules.warn_invalid_stop:
        return None
    try:
        _, problems = ENGINE.stop_check(view, action.card)
    except IllegalActionError:
        return None
    if not problems:
        return None
    return (
        f"If you stop now you score 0 for this hand: {', and '.join(problems)}. "
        "The others are scored as usual."
    )
