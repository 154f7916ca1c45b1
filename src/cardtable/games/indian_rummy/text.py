"""Terminal text for Indian Rummy: a seat's view of the table and the last deal explained, and
what a drop would cost the seat to move (:func:`move_cost`, sent with the page's moves).

Both functions return strings with Rich console markup (colour only: the text reads the same
without it). Hearts and diamonds are red; with ``four_colour`` diamonds are blue and clubs green
(the seed's four-colour deck option). Jokers (printed, or of the wild rank) are shown in bold
magenta with a ``*``; the card just drawn is underlined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from cardtable.cards import PRINTED_JOKER, RANK_PLURALS, format_card, format_cards, suit_of
from cardtable.games.indian_rummy.actions import Drop
from cardtable.games.indian_rummy.formats import deals_to_play
from cardtable.games.indian_rummy.scoring import CATEGORY_NO_PURE, CATEGORY_PURE_ONLY, Arrangement
from cardtable.games.indian_rummy.state import Phase
from cardtable.games.indian_rummy.view import IndianRummyView, deal_arrangements
from cardtable.melds.indian import is_joker

_SUIT_STYLES: Final = ("", "red", "red", "")
_FOUR_COLOUR_STYLES: Final = ("", "red", "blue", "green")


def _escape(text: str) -> str:
    """Escape Rich markup in plain text (card labels never need it; explanations might)."""
    return text.replace("[", "\\[")


def card_markup(
    card: int,
    wild_rank: int | None,
    *,
    four_colour: bool = False,
    underline: bool = False,
) -> str:
    """One card with suit symbols and colour, jokers marked (``7♥*`` when sevens are wild)."""
    label = format_card(card, symbols=True)
    if is_joker(card, wild_rank):
        style = "bold magenta"
        label += "*"
    else:
        style = (_FOUR_COLOUR_STYLES if four_colour else _SUIT_STYLES)[suit_of(card)]
    if underline:
        style = f"{style} underline".strip()
    return f"[{style}]{label}[/]" if style else label


def _cards(cards: tuple[int, ...], wild_rank: int | None, four_colour: bool) -> str:
    return " ".join(card_markup(c, wild_rank, four_colour=four_colour) for c in cards)


Names = Sequence[str] | None
"""Optional display names, one per seat; by default the viewer is "you", others "seat N"."""


def _seat_name(view: IndianRummyView, seat: int, names: Names = None) -> str:
    if names is not None:
        return names[seat]
    return "you" if seat == view.seat else f"seat {seat}"


def _upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def _wild_line(view: IndianRummyView, four_colour: bool) -> str:
    if view.wild_card is None:
        if view.deal_number == 0:
            return "Wild joker: not cut yet"
        return "Wild joker: none (house rule): only the printed jokers are jokers"
    cut = card_markup(view.wild_card, None, four_colour=four_colour)
    rank = RANK_PLURALS[view.wild_rank if view.wild_rank is not None else 0]
    how = "a printed joker was cut, so " if view.wild_card == PRINTED_JOKER else ""
    jokers = ", and so are the printed jokers" if view.rules.printed_jokers else ""
    return f"Wild joker: {cut} ({how}all {rank} are jokers{jokers})"


def _status(view: IndianRummyView, names: Names) -> str:
    phase = view.phase
    rules = view.rules
    if phase in (Phase.CHOOSE_DEALER, Phase.DEAL):
        return "The cards are being dealt."
    if phase is Phase.RESHUFFLE:
        return "The stock ran out: the discard pile under its top card becomes the new stock."
    if phase is Phase.GAME_OVER:
        return "The game is over."
    if phase is Phase.REJOIN or phase is Phase.AGREED_FINISH:
        return _between_deals_status(view, names)
    if view.turn != view.seat:
        return f"{_upper_first(_seat_name(view, view.turn, names))} is to play."
    if phase is Phase.DRAW:
        options = ["[bold]draw stock[/bold] (S)"]
        top = view.pile_top
        if top is not None:
            label = format_card(top, symbols=True)
            takeable = not is_joker(top, view.wild_rank) or (
                view.opening_on_top and rules.joker_from_discard == "opening-card"
            )
            options.append(
                f"[bold]draw pile[/bold] (D) for {label}"
                if takeable
                else f"not the pile: {label} is a joker and cannot be taken"
            )
        if rules.drops_allowed:
            options.append(f"[bold]drop[/bold] for {drop_cost(view)} points")
        return "Your turn: " + "; ".join(options) + "."
    text = (
        "Your turn: [bold]discard CARD[/bold], or [bold]declare CARD[/bold] to put CARD down "
        "and show the other 13."
    )
    if view.taken is not None:
        text += (
            f" You may not discard or put down {format_card(view.taken, symbols=True)} "
            "(nor another copy of it) this turn: you just took it from the pile."
        )
    return text


def drop_cost(view: IndianRummyView) -> int:
    """The points a drop scores for the seat now: the middle drop once it has drawn this deal,
    the first drop before (RULES.md 2.6)."""
    return view.rules.middle_drop if view.has_drawn[view.seat] else view.rules.first_drop


def move_cost(view: IndianRummyView, action: object) -> tuple[int, str] | None:
    """The points ``action`` scores for the seat making it and the sentence saying so, for a
    drop (asked before it is made); ``None`` for a move that costs nothing by itself."""
    if not isinstance(action, Drop):
        return None
    cost = drop_cost(view)
    rules = view.rules
    later = (
        ""
        if view.has_drawn[view.seat] or rules.middle_drop == cost
        else f" (after your first draw it would cost {rules.middle_drop})"
    )
    return cost, f"You score {cost} points for this deal{later} and sit out until the next deal."


def _between_deals_status(view: IndianRummyView, names: Names) -> str:
    standing = view.standing
    assert standing is not None
    who = _upper_first(_seat_name(view, view.turn, names))
    if view.phase is Phase.REJOIN:
        offer = f"come back with {standing.rejoin_total} points"
        if view.turn != view.seat:
            return f"{who} may rejoin ({offer}) and is deciding."
        return (
            f"You are out, but may rejoin: [bold]rejoin[/bold] to {offer}, or "
            "[bold]stay out[/bold]."
        )
    if view.turn != view.seat:
        return f"{who} is answering the agreed finish."
    return (
        "The players left may finish here and share the win: [bold]finish[/bold] to agree, "
        "or [bold]play on[/bold]."
    )


def standing_text(view: IndianRummyView, *, names: Names = None) -> str | None:
    """The Pool or Deals standing in one line (``None`` in free play): each seat's total and
    how far it is from the limit, or its chips, and who is out."""
    standing = view.standing
    if standing is None:
        return None
    rules = view.rules
    cells = []
    for seat in range(rules.players):
        name = _seat_name(view, seat, names)
        total = view.totals[seat]
        if rules.format == "pool":
            if standing.out[seat]:
                cells.append(f"{name} {total} (out)")
            else:
                cells.append(f"{name} {total} ({rules.pool_limit - total} to go)")
        else:
            sits = " (sits out the tie-break)" if standing.out[seat] else ""
            cells.append(f"{name} {standing.chips[seat]} chips{sits}")
    if rules.format == "pool":
        head = f"Pool {rules.pool_limit}"
    else:
        played = len(view.deal_points)
        planned = deals_to_play(rules)
        head = f"Deals: {min(played, planned)} of {planned} played"
        if standing.tie_break:
            head += ", tie-break"
    return f"{head} · " + " · ".join(cells)


def render_view(view: IndianRummyView, *, four_colour: bool = False, names: Names = None) -> str:
    """The table as ``view.seat`` sees it: wild joker, pile top, stock, seats, hand, turn."""
    lines = [
        f"[bold]Indian Rummy[/bold] · deal {view.deal_number}"
        + (f" · dealer: {_seat_name(view, view.dealer, names)}" if view.dealer >= 0 else "")
        + f" · you are seat {view.seat}",
        _wild_line(view, four_colour),
    ]
    top = view.pile_top
    pile = "empty" if top is None else card_markup(top, view.wild_rank, four_colour=four_colour)
    seen = len(view.discards_seen)
    lines.append(
        f"Discard pile: {pile} ({len(view.pile)} card{'s' if len(view.pile) != 1 else ''}, "
        f"{seen} seen face up this deal) · Stock: {view.stock_size} cards"
    )
    seats = []
    for seat in range(view.rules.players):
        marker = "▶ " if seat == view.turn and view.phase in (Phase.DRAW, Phase.DISCARD) else ""
        drop = view.drops[seat]
        state = f"dropped ({drop})" if drop is not None else f"{view.hand_sizes[seat]} cards"
        if view.standing is not None and view.standing.out[seat]:
            state = "out of the game"
        name = _seat_name(view, seat, names)
        seats.append(f"{marker}{name}: {state}, total {view.totals[seat]}")
    lines.append("Seats: " + " · ".join(seats))
    if view.hand:
        cells = [
            f"{index}:"
            + card_markup(
                card,
                view.wild_rank,
                four_colour=four_colour,
                underline=card == view.drawn,
            )
            for index, card in enumerate(view.hand, 1)
        ]
        lines.append("Your hand: " + " ".join(cells))
    standing = standing_text(view, names=names)
    if standing is not None:
        lines.append(standing)
    lines.append(_status(view, names))
    return "\n".join(lines)


def _why_wrong(arrangement: Arrangement) -> str:
    """Why 13 shown cards are not a valid declaration, in the rule book's terms."""
    if arrangement.category == CATEGORY_NO_PURE:
        return "there is no pure sequence"
    if arrangement.category == CATEGORY_PURE_ONLY:
        return "there is a pure sequence but no second sequence"
    if arrangement.loose:
        return "not every card is in a group (" + format_cards(arrangement.loose) + " left out)"
    return "the cards cannot all be laid in groups under these house rules"


def _drop_name(view: IndianRummyView, penalty: int) -> str:
    rules = view.rules
    if penalty == rules.first_drop and penalty != rules.middle_drop:
        return "first drop"
    if penalty == rules.middle_drop and penalty != rules.first_drop:
        return "middle drop"
    return "drop"


def render_hand_summary(
    view: IndianRummyView, *, four_colour: bool = False, names: Names = None
) -> str | None:
    """The last finished deal explained: who declared, valid or wrong show, each shown hand's
    groups and loose cards, the cap, the drops, and the totals; ``None`` before any deal ends."""
    summary = view.last_deal
    if summary is None:
        return None
    rules = view.rules
    wild = summary.wild_rank
    head = f"[bold]Deal {summary.number}[/bold] (dealer {_seat_name(view, summary.dealer, names)}"
    if summary.wild_card is not None and wild is not None:
        head += f"; wild joker {format_card(summary.wild_card, symbols=True)}, "
        head += f"{RANK_PLURALS[wild]} wild"
    lines = [head + ")"]
    declarer = summary.declarer
    if summary.outcome == "abandoned":
        lines.append(
            f"The deal reached the turn cap ({rules.deal_turn_cap} turns) and was abandoned: "
            "nobody scores."
        )
    elif summary.outcome == "turn-limit":
        lines.append(
            f"The deal reached its limit of {rules.deal_turn_cap} turns with no show: drop "
            "penalties stand and everyone else scores 0."
        )
    elif summary.outcome == "all-dropped":
        assert summary.winner is not None
        winner = _seat_name(view, summary.winner, names)
        verb = "win" if winner == "you" else "wins"
        lines.append(f"Everyone else dropped: {winner} {verb} the deal with 0 points.")
    elif declarer is not None and summary.put_down is not None:
        put = format_card(summary.put_down, symbols=True)
        who = _upper_first(_seat_name(view, declarer, names))
        if summary.outcome == "valid-show":
            lines.append(
                f"{who} declared, putting down {put}: [green]a valid show[/green], 0 points."
            )
        else:
            lines.append(
                f"{who} declared, putting down {put}: "
                f"[red]a wrong show[/red], {rules.wrong_show_penalty} points."
            )
            if rules.wrong_show_others == "zero":
                lines.append("After a wrong show the other players score nothing.")
    arrangements = deal_arrangements(summary, rules)
    counted_after_wrong = rules.wrong_show_others == "counted"
    for seat in range(rules.players):
        name = _upper_first(_seat_name(view, seat, names))
        points = summary.points[seat]
        drop = summary.drops[seat]
        if drop is not None:
            lines.append(f"{name} dropped ({_drop_name(view, drop)}): {points} points.")
            continue
        hand = summary.hands[seat]
        arrangement = arrangements[seat]
        if hand is None or arrangement is None:
            continue
        lines.append(f"{name} showed {_cards(hand, wild, four_colour)}")
        explanation = _escape(arrangement.explain())
        if seat == declarer and summary.outcome == "wrong-show":
            lines.append(f"  A wrong show: {_why_wrong(arrangement)}.")
            lines.append(f"  Best arrangement: {explanation}.")
        elif seat == declarer or summary.outcome == "valid-show" or counted_after_wrong:
            lines.append(f"  {explanation}.")
        else:
            lines.append(f"  {explanation}: not counted after a wrong show, 0 points.")
    lines.append(
        "Deal points: "
        + " · ".join(f"{_seat_name(view, s, names)} {p}" for s, p in enumerate(summary.points))
        + " | Totals: "
        + " · ".join(f"{_seat_name(view, s, names)} {t}" for s, t in enumerate(view.totals))
    )
    standing = view.standing
    if standing is not None and summary.number == view.deal_number:
        for seat in standing.eliminated:
            lines.append(
                f"{_upper_first(_seat_name(view, seat, names))} reached "
                f"{rules.pool_limit} and is out."
            )
        standing_line = standing_text(view, names=names)
        if standing_line is not None:
            lines.append(standing_line)
    return "\n".join(lines)
