"""Terminal rendering of a Declaration Rummy view, in Rich console markup.

:func:`render_view` draws the table from one seat (places in table order with hand sizes, the
stock and discard pile as stack levels, the seat's own hand, the recent events, a tie vote, and
a finished game's revealed hands); :func:`render_hand_summary` is the one-line count of the
seat's own hand. Card labels never contain square brackets, so only free text is escaped.
"""

from __future__ import annotations

from typing import Final

from cardtable.cards import format_card, is_regular, suit_of
from cardtable.games.contract import PublicEvent
from cardtable.games.declaration_rummy.scoring import count_hand
from cardtable.games.declaration_rummy.state import GameOutcome, Phase
from cardtable.games.declaration_rummy.view import DeclarationRummyView

_RED_SUITS: Final = (1, 2)
_VERBS: Final = {
    "shuffle": "shuffled",
    "cut": "cut the pack",
    "first-dealer": "deals first with",
    "seating": "chose a place first (Seating)",
    "deal": "dealt",
    "draw-stock": "drew from the stock",
    "take-discard": "took from the discard pile",
    "take-extra": "took the extra cards (Three-Card Draw), with",
    "discard": "discarded",
    "declare": "declared with",
    "go-out": "went out with",
    "four-sevens": "laid down the four sevens",
    "decline": "declined the discard pile",
    "propose-tie": "proposed a tie game",
    "accept-tie": "accepted the tie",
    "reject-tie": "rejected the tie",
    "drop": "dropped out",
    "reshuffle": "reshuffled the discard pile into a new stock",
    "next-game": "started the next game",
}


def escape(text: str) -> str:
    """Escape Rich markup in free text."""
    return text.replace("[", "\\[")


def card_markup(card: int) -> str:
    """One card with suit symbol, red suits in red, optional cards in bold."""
    label = format_card(card, symbols=True)
    if is_regular(card):
        return f"[red]{label}[/red]" if suit_of(card) in _RED_SUITS else label
    return f"[bold magenta]{label}[/bold magenta]"


def cards_markup(cards: tuple[int, ...]) -> str:
    """Several cards separated by spaces (``-`` for none)."""
    return " ".join(card_markup(c) for c in cards) if cards else "-"


def seat_name(view: DeclarationRummyView, seat: int) -> str:
    """``You`` for the viewing seat, else ``Seat n``."""
    return "You" if seat == view.seat else f"Seat {seat}"


def _event_line(view: DeclarationRummyView, event: PublicEvent) -> str:
    verb = _VERBS.get(event.verb, event.verb)
    cards = f" {cards_markup(event.cards)}" if event.cards else ""
    return f"{seat_name(view, event.seat)} {verb}{cards}"


def _table_lines(view: DeclarationRummyView) -> list[str]:
    lines: list[str] = []
    for seat in view.order:
        marks: list[str] = []
        if seat == view.dealer:
            marks.append("dealer")
        if seat == view.first_player:
            marks.append("drew first")
        if view.rules.match:
            marks.append(f"{view.match_wins[seat]} game win(s)")
        pointer = "[bold green]>[/bold green]" if seat == view.to_act else " "
        size = "[dim]dropped[/dim]" if view.dropped[seat] else f"{view.hand_sizes[seat]} cards"
        extra = f" ({', '.join(marks)})" if marks else ""
        lines.append(f" {pointer} {seat_name(view, seat):<8} {size}{extra}")
    return lines


def _variations(view: DeclarationRummyView) -> str:
    rules = view.rules
    names = [
        (rules.gin_rummy, f"Gin Rummy (declare at {rules.gin_threshold} or less)"),
        (rules.declare_bonus, "Declare Bonus"),
        (rules.going_out_single_meld, "Going Out Major or Minor"),
        (rules.declare_or_go_out, "Declare or Go Out"),
        (rules.three_card_draw, "Three-Card Draw"),
        (rules.four_sevens, "Four 7's"),
        (rules.spread_out_discard, "Spread-Out Discard-Pile"),
        (rules.missing_cards, "Missing Cards"),
        (rules.seating, "Seating"),
        (rules.shuffle_option, "Shuffle Option"),
    ]
    chosen = [name for on, name in names if on]
    return ", ".join(chosen) if chosen else "none"


def render_outcome(view: DeclarationRummyView, outcome: GameOutcome) -> str:
    """The revealed hands of a finished game, with counts, melds and the result."""
    lines = [f"[bold]Game {outcome.game} is over.[/bold] {escape(outcome.summary)}"]
    for seat in view.order:
        hand = outcome.hands[seat]
        if hand is None:
            lines.append(f"  {seat_name(view, seat):<8} dropped (cards unseen)")
            continue
        melds = outcome.melds_of(seat) or ()
        meld_text = "; ".join(cards_markup(m) for m in melds) or "no melds"
        count = outcome.counts[seat]
        compared = outcome.compared[seat]
        shown = f"{count}" if compared == count else f"{count} (compared as {compared})"
        tag = ""
        if seat == outcome.winner:
            tag = " [bold green]wins[/bold green]"
        elif seat == outcome.declarer:
            tag = " declared"
        lines.append(
            f"  {seat_name(view, seat):<8} count {shown:<4} {cards_markup(hand)}  "
            f"melds: {meld_text}{tag}"
        )
    return "\n".join(lines)


def render_view(view: DeclarationRummyView) -> str:
    """The whole table as seen from ``view.seat``, in Rich markup."""
    rules = view.rules
    title = f"[bold]Declaration Rummy[/bold] - game {view.game_number}"
    if rules.match:
        title += f" of a match (first to {rules.match_wins} wins)"
    optional = " ".join(rules.optional_cards) or "none"
    lines = [
        title,
        f"Optional cards: {optional}; variations: {_variations(view)}",
        *_table_lines(view),
    ]
    if view.phase in (Phase.DRAW, Phase.PLAY, Phase.TIE_VOTE):
        pile = (
            cards_markup(view.discard_pile)
            if view.discard_pile is not None
            else (cards_markup((view.discard_top,)) if view.discard_top is not None else "-")
        )
        lines.append(
            f"Stock: {view.stock_label}.  Discard pile ({view.pile_label}): {pile}"
            + ("  [yellow]stock exhausted[/yellow]" if view.exhaustion else "")
        )
        if view.removed_unseen:
            lines.append(f"{view.removed_unseen} cards are out of play unseen (Missing Cards).")
    recent = view.events
    if recent:
        lines.append("Recently: " + "; ".join(_event_line(view, e) for e in recent[-8:]) + ".")
    if view.vote is not None:
        vote = view.vote
        lines.append(
            f"Tie proposed by {seat_name(view, vote.proposer)}; accepted by "
            f"{', '.join(seat_name(view, s) for s in vote.accepted) or 'nobody yet'}; "
            f"waiting for {', '.join(seat_name(view, s) for s in vote.pending)}."
        )
    if view.hand:
        drawn = f"  (drawn: {cards_markup(view.drawn)})" if view.drawn else ""
        lines.append(f"Your hand: {cards_markup(view.hand)}{drawn}")
    elif view.dropped[view.seat]:
        lines.append("You dropped out of this game.")
    if view.outcome is not None and view.phase in (Phase.OVER, Phase.BETWEEN_GAMES):
        lines.append(render_outcome(view, view.outcome))
    if view.phase is Phase.BETWEEN_GAMES:
        lines.append(
            f"{seat_name(view, view.turn)} plays first in the next game ('next game' to start)."
        )
    elif view.to_act == view.seat:
        lines.append("[bold]Your move.[/bold]")
    elif view.to_act is not None:
        lines.append(f"Waiting for {seat_name(view, view.to_act)}.")
    return "\n".join(lines)


def render_hand_summary(view: DeclarationRummyView) -> str | None:
    """The seat's own count, melds, and whether it could go out or declare; ``None`` without a
    hand."""
    if not view.hand:
        return None
    counted = count_hand(view.hand, view.rules)
    return escape(f"Your count: {counted.count}. {counted.explain()}")
