"""The Indian Rummy coach: how the hand counts now, its near-melds and the cards that complete
them (with how many copies are still unseen), what each discard leaves, and warnings about a
wrong show or a discard that feeds the next player.

The hint is the Hard player's choice (:mod:`cardtable.bots.indian_rummy`), with its reason in
the game's terms: pure sequence, second sequence, sets, jokers, points.

In Pool and Deals (RULES.md 2.13) the coach also reads the standing: how far each player still
in is from the pool limit (or each player's chips), a warning when a drop would take this player
to the limit and eliminate them (the hint then says why it keeps playing), and the reasons for
the answers to a rejoin offer and to the agreed finish.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.bots.indian_rummy import (
    HardBot,
    draw_odds,
    feed_risk,
    gone_cards,
    next_seat,
    showable,
)
from cardtable.bots.indian_shape import Shape, analyze
from cardtable.bots.indian_standing import rejoin_total, seats_in_game
from cardtable.cards import PRINTED_JOKER, format_card, format_cards, without
from cardtable.coach.report import CoachReport, DiscardOption, Hint, NearMeld
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.actions import IndianRummyAction
from cardtable.games.indian_rummy.formats import deals_to_play
from cardtable.games.indian_rummy.scoring import arrange
from cardtable.games.indian_rummy.state import Phase
from cardtable.games.indian_rummy.view import IndianRummyView, known_holdings
from cardtable.melds.indian import card_value, is_joker

_POLICY = HardBot()
"""The hint is the strongest player's choice, the one the move-by-move analysis judges by
(:mod:`cardtable.review.lenses`), so that the hint and the analysis agree."""


def _rng(view: IndianRummyView) -> random.Random:
    return random.Random(f"coach:{view.seat}:{view.deal_number}:{view.turns}")


def _needs(shape: Shape) -> str:
    """What the hand still lacks for a valid show, in the game's words."""
    if shape.pure == 0:
        return "you still need a pure sequence (no joker standing in)"
    if shape.sequences < 2:
        return "you have a pure sequence; you still need a second sequence"
    if shape.partials or shape.loose:
        return "you have both sequences; the rest must go into sets or sequences"
    return "every card is in a group"


def _points_if_shown(view: IndianRummyView, hand: Sequence[int]) -> int:
    return arrange(tuple(hand), view.wild_rank, view.rules).points


def hint(view: IndianRummyView, legal: Sequence[IndianRummyAction]) -> Hint:
    """Hard's choice with a one-line reason."""
    action = _POLICY.choose(view, legal, _rng(view))
    reason = _reason(view, action)
    eliminating = drop_eliminates(view)
    if eliminating is not None and isinstance(action, act.DrawStock | act.DrawPile):
        reason += f" Do not drop: {eliminating}."
    return Hint(action, reason)


def _names(view: IndianRummyView, seat: int) -> str:
    return "you" if seat == view.seat else f"seat {seat}"


def drop_eliminates(view: IndianRummyView) -> str | None:
    """In Pool, at the start of this seat's turn, why a drop now would eliminate it (its total
    would reach the pool limit); ``None`` when it would not, or outside Pool."""
    rules = view.rules
    if rules.format != "pool" or not view.my_turn or view.phase is not Phase.DRAW:
        return None
    if not rules.drops_allowed:
        return None
    penalty = rules.middle_drop if view.has_drawn[view.seat] else rules.first_drop
    total = view.totals[view.seat]
    if total + penalty < rules.pool_limit:
        return None
    return (
        f"a drop costs {penalty} and takes your total from {total} to {total + penalty}, "
        f"at or past the pool limit of {rules.pool_limit}: you would be eliminated"
    )


def standing_tip(view: IndianRummyView) -> str | None:
    """The standing in words: how far each player still in is from the pool limit, or each
    player's chips; ``None`` in free play."""
    standing = view.standing
    if standing is None:
        return None
    rules = view.rules
    if rules.format == "pool":
        cells = []
        for seat in range(rules.players):
            total = view.totals[seat]
            if standing.out[seat]:
                cells.append(f"{_names(view, seat)} out ({total})")
            else:
                cells.append(
                    f"{_names(view, seat)} {total}, {rules.pool_limit - total} from the limit"
                )
        return f"Pool {rules.pool_limit}: " + "; ".join(cells) + "."
    cells = [f"{_names(view, seat)} {chips}" for seat, chips in enumerate(standing.chips)]
    played = len(view.deal_points)
    planned = deals_to_play(rules)
    stage = "tie-break deal" if standing.tie_break else f"{played} of {planned} deals played"
    return f"Deals ({stage}), chips: " + "; ".join(cells) + "."


def _between_deals_reason(view: IndianRummyView, action: IndianRummyAction) -> str:
    standing = view.standing
    assert standing is not None
    rules = view.rules
    if isinstance(action, act.Rejoin):
        total = standing.rejoin_total
        return (
            f"Rejoin: you come back with {total} points, {rules.pool_limit - total} from the "
            "limit, and may still win the pool."
        )
    if isinstance(action, act.StayOut):
        return "Stay out: you leave the game for good."
    low = min(view.totals[seat] for seat in standing.seats_in)
    if isinstance(action, act.PlayOn):
        return f"Play on: you have the lowest total ({low}), the best chance to win it outright."
    return (
        f"Finish: someone else has the lowest total ({low}); sharing the win beats the risk of "
        "losing it."
    )


def _reason(view: IndianRummyView, action: IndianRummyAction) -> str:
    hand = view.hand
    wild = view.wild_rank
    if isinstance(action, act.Rejoin | act.StayOut | act.Finish | act.PlayOn):
        return _between_deals_reason(view, action)
    if isinstance(action, act.Declare):
        rest = without(hand, action.card)
        shown = arrange(rest, wild, view.rules)
        groups = "; ".join(group.describe() for group in shown.groups)
        return f"Declare, putting down {format_card(action.card)}: a valid show ({groups})."
    if isinstance(action, act.Drop):
        penalty = view.rules.middle_drop if view.has_drawn[view.seat] else view.rules.first_drop
        shape = analyze(hand, wild, gone=gone_cards(view))
        reason = (
            f"Drop for {penalty} points: {_needs(shape)}, and the hand would likely cost more "
            f"(it counts {_points_if_shown(view, hand)} now)."
        )
        if view.rules.format == "pool":
            total = view.totals[view.seat] + penalty
            limit = view.rules.pool_limit
            if total < limit:
                reason += f" You stay in the pool at {total}, {limit - total} short."
            else:
                totals = [*view.totals]
                totals[view.seat] = total
                others = [s for s in seats_in_game(view) if s != view.seat]
                back = rejoin_total(view, totals, others)
                reason += f" It takes you to {total}, out of the pool"
                reason += "." if back is None else f", and you rejoin at {back}."
        return reason
    if isinstance(action, act.DrawPile):
        top = view.pile_top
        assert top is not None
        before = analyze(hand, wild, gone=gone_cards(view))
        after = analyze((*hand, top), wild, gone=gone_cards(view))
        what = "a meld" if len(after.groups) > len(before.groups) else "a near-meld"
        return f"Take the {format_card(top)} from the pile: it makes {what} with your cards."
    if isinstance(action, act.DrawStock):
        top = view.pile_top
        if top is None:
            return "Draw from the stock: the pile is empty."
        if is_joker(top, wild):
            return (
                f"Draw from the stock: the {format_card(top)} on the pile is a joker, and "
                "jokers on the pile can never be taken."
            )
        return f"Draw from the stock: the {format_card(top)} on the pile does not help your hand."
    assert isinstance(action, act.Discard)
    card = action.card
    rest = without(hand, card)
    shape = analyze(rest, wild, gone=gone_cards(view))
    in_partial = any(card in p.cards for p in analyze(hand, wild).partials)
    role = "part of a weak near-meld" if in_partial else "a loose card"
    return (
        f"Discard {format_card(card)}: it is {role} worth {card_value(card, wild)}; "
        f"{_needs(shape)}."
    )


def near_melds(view: IndianRummyView, hand: Sequence[int]) -> list[NearMeld]:
    """The hand's near-melds with the cards that complete them and their unseen copies."""
    if not hand:
        return []
    odds = draw_odds(view)
    shape = analyze(hand, view.wild_rank, gone=gone_cards(view))
    out = []
    for partial in shape.partials:
        kind = "pure sequence" if partial.kind == "sequence" else "set"
        unseen = sum(odds.get(card, 0) for card in partial.completing)
        out.append(NearMeld(tuple(partial.cards), partial.completing, unseen, kind))
    return out


def coach(view: IndianRummyView, legal: Sequence[IndianRummyAction]) -> CoachReport:
    """The coach's report on ``view`` (see :mod:`cardtable.coach`)."""
    hand = view.hand
    wild = view.wild_rank
    tips: list[str] = []
    warnings: list[str] = []
    discards: list[DiscardOption] = []
    if view.wild_card is not None:
        wild_text = "aces" if view.wild_card == PRINTED_JOKER else format_card(view.wild_card)
        tips.append(
            f"Wild joker: {wild_text} (every card of that rank is a joker, as are printed jokers)."
        )
    report_hint = hint(view, legal) if legal else None
    standing = standing_tip(view)
    if standing is not None:
        tips.append(standing)
    if view.phase in (Phase.REJOIN, Phase.AGREED_FINISH):
        return CoachReport(tips=tips, near_melds=[], discards=[], warnings=[], hint=report_hint)
    eliminating = drop_eliminates(view)
    # A drop into a rejoin is the hint's own choice, explained by its reason.
    hinted_drop = report_hint is not None and isinstance(report_hint.action, act.Drop)
    if eliminating is not None and not hinted_drop:
        warnings.append(f"Do not drop: {eliminating}.")
    gone = gone_cards(view)
    thirteen = hand if len(hand) == 13 else None
    if len(hand) == 14:
        shows = showable(view)
        if shows:
            tips.append(
                f"You can declare: put down {format_card(shows[0])} and the other 13 make a "
                "valid show."
            )
        elif any(isinstance(a, act.Declare) for a in legal):
            shape = analyze(hand, wild, gone=gone)
            warnings.append(
                "A show now would be wrong and cost "
                f"{view.rules.wrong_show_penalty} points: {_needs(shape)}."
            )
        taken = view.taken
        if taken is not None and not any(
            isinstance(a, act.Discard) and a.card == taken for a in legal
        ):
            tips.append(
                f"You took the {format_card(taken)} from the pile, so you may not discard it "
                "this turn."
            )
        hint_card = (
            report_hint.action.card
            if report_hint is not None and isinstance(report_hint.action, act.Discard)
            else None
        )
        nxt = next_seat(view)
        taken_by_next = list(known_holdings(view)[nxt].elements()) if nxt != view.seat else []
        for card in dict.fromkeys(a.card for a in legal if isinstance(a, act.Discard)):
            rest = without(hand, card)
            shape = analyze(rest, wild, gone=gone)
            points = _points_if_shown(view, rest)
            kept = []
            if shape.pure:
                kept.append(f"{shape.pure} pure sequence{'s' if shape.pure > 1 else ''}")
            impure = shape.sequences - shape.pure
            if impure > 0:
                kept.append(f"{impure} other sequence{'s' if impure > 1 else ''}")
            sets = sum(1 for kind, _ in shape.groups if kind == "set")
            if sets:
                kept.append(f"{sets} set{'s' if sets > 1 else ''}")
            kept.append(f"{len(shape.partials)} near-meld{'s' if len(shape.partials) != 1 else ''}")
            notes = []
            if card == hint_card:
                notes.append("suggested")
            if is_joker(card, wild):
                notes.append("a joker: keep it")
            if feed_risk(view, card) > 0:
                fed = [format_card(c) for c in taken_by_next if _touch(card, c)]
                feed_note = f"feeds seat {nxt}, who took {', '.join(fed)} from the pile"
                notes.append(feed_note)
                warnings.append(f"Discarding {format_card(card)} {feed_note}.")
            discards.append(
                DiscardOption(
                    card,
                    f"{points} points if someone declares now; " + ", ".join(kept),
                    float(points),
                    "; ".join(notes),
                )
            )
        discards.sort(key=lambda option: option.value)
        thirteen = without(hand, hint_card) if hint_card is not None else None
    if thirteen is not None:
        shown = arrange(tuple(thirteen), wild, view.rules)
        tips.append(f"Count now: {shown.explain()}.")
        tips.append(_needs(analyze(thirteen, wild, gone=gone)).capitalize() + ".")
    top = view.pile_top
    if (
        view.phase is Phase.DRAW
        and view.seat == view.turn
        and top is not None
        and is_joker(top, wild)
    ):
        tips.append(f"The {format_card(top)} on the pile is a joker: it cannot be taken.")
    return CoachReport(
        tips=tips,
        near_melds=near_melds(view, thirteen if thirteen is not None else hand),
        discards=discards,
        warnings=warnings,
        hint=report_hint,
    )


def _touch(card: int, other: int) -> bool:
    if card == PRINTED_JOKER or other == PRINTED_JOKER:
        return False
    if card % 13 == other % 13:
        return card // 13 != other // 13
    gap = abs(card % 13 - other % 13)
    return card // 13 == other // 13 and (gap <= 2 or gap >= 11)


__all__ = ["coach", "format_cards", "hint", "near_melds"]
