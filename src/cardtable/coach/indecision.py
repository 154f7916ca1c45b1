"""The Indecision coach: what the hand scores, what it is close to, what each discard keeps,
and when a stop would forfeit or hand the race to someone else.

The hint is the Hard player's choice (:mod:`cardtable.bots.indecision`), explained with the
same numbers it weighed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.bots.indecision import (
    HardBot,
    best_keep,
    draw_potential,
    estimate_opponents,
    keeps,
    scorer_of,
    turn_requirement_met,
    unseen_cards,
    valid_stops,
    would_win_now,
)
from cardtable.cards import RANK_PLURALS, SUIT_NAMES, format_card, format_cards
from cardtable.coach.report import CoachReport, DiscardOption, Hint, NearMeld
from cardtable.games.indecision.actions import (
    Confirm,
    Correct,
    Declare,
    Discard,
    DrawDeck,
    DrawPile,
    IndecisionAction,
    Stop,
)
from cardtable.games.indecision.scoring import score_hand
from cardtable.games.indecision.state import Phase
from cardtable.games.indecision.view import IndecisionView

_POLICY = HardBot()
"""The hint is the strongest player's choice, the one the move-by-move analysis judges by
(:mod:`cardtable.review.lenses`), so that the hint and the analysis agree."""


def _rng(view: IndecisionView) -> random.Random:
    """Dice that depend only on what the seat sees, so the same position gets the same advice."""
    return random.Random(f"coach:{view.seat}:{view.hand_number}:{view.turns}:{view.hand}")


def _kept_hand(view: IndecisionView) -> tuple[int, ...]:
    """The five cards the seat holds or would best keep."""
    if len(view.hand) <= 5:
        return view.hand
    scorer = scorer_of(view.rules)
    _, spare = best_keep(scorer, view.hand)
    return tuple(c for c in view.hand if c != spare)


def hint(view: IndecisionView, legal: Sequence[IndecisionAction]) -> Hint:
    """Hard's choice with a one-line reason."""
    action = _POLICY.choose(view, legal, _rng(view))
    return Hint(action, _reason(view, action))


def _reason(view: IndecisionView, action: IndecisionAction) -> str:
    scorer = scorer_of(view.rules)
    if isinstance(action, Declare):
        return f"Announce {action.points}: that is your hand's true score."
    if isinstance(action, Confirm | Correct):
        return "Record your announcement: it matches your hand."
    if isinstance(action, DrawPile | DrawDeck):
        top = view.pile_top
        now = score_hand(view.hand, view.rules).score if len(view.hand) == 5 else 0
        if isinstance(action, DrawPile) and top is not None:
            _, spare = best_keep(scorer, (*view.hand, top))
            kept = tuple(c for c in (*view.hand, top) if c != spare)
            counted = score_hand(kept, view.rules)
            return (
                f"Take the {format_card(top)} from the pile: keeping {format_cards(kept)} "
                f"scores {counted.score} (now {now})."
            )
        expected = draw_potential(scorer, view.hand, unseen_cards(view))
        pile = "" if top is None else f"the {format_card(top)} on the pile adds too little; "
        return f"Draw from the deck: {pile}an unseen card is worth about {expected:.1f} to you."
    if isinstance(action, Stop):
        kept = tuple(c for c in view.hand if c != action.card)
        counted = score_hand(kept, view.rules)
        if would_win_now(view, counted.score):
            return (
                f"Stop with {format_card(action.card)} as the spare: {counted.score} points "
                f"take you to {view.totals[view.seat] + counted.score} and win the game."
            )
        rivals = estimate_opponents(scorer, view, _rng(view))
        rival = max(rivals.values(), default=0.0)
        return (
            f"Stop with {format_card(action.card)} as the spare: you score {counted.score} "
            f"({counted.explain()}); the others likely hold about {rival:.0f}."
        )
    assert isinstance(action, Discard)
    kept = tuple(c for c in view.hand if c != action.card)
    counted = score_hand(kept, view.rules)
    later = draw_potential(scorer, kept, unseen_cards(view))
    return (
        f"Discard {format_card(action.card)}: {format_cards(kept)} scores {counted.score} now "
        f"and about {later:.1f} after your next draw."
    )


def near_melds(view: IndecisionView, hand: Sequence[int]) -> list[NearMeld]:
    """Melds one card away in ``hand``: a pair to a Prile, a Prile of 3 to a Prile of 4, two
    cards in a row to a Run, a run to a longer one, and a Flush of 3 or 4 to a longer one."""
    unseen = set(unseen_cards(view))
    out: list[NearMeld] = []
    by_rank: dict[int, list[int]] = {}
    for card in hand:
        by_rank.setdefault(card % 13, []).append(card)
    for rank, same in sorted(by_rank.items()):
        if len(same) in (2, 3):
            completing = tuple(s * 13 + rank for s in range(4) if s * 13 + rank not in same)
            kind = "Prile of 3" if len(same) == 2 else "Prile of 4"
            out.append(
                NearMeld(tuple(same), completing, sum(c in unseen for c in completing), kind)
            )
    ranks = sorted(by_rank)
    present = set(ranks)
    for rank in ranks:
        if (rank - 1) % 13 in present:
            continue  # start only at the first rank of each stretch
        stretch = [rank]
        while (stretch[-1] + 1) % 13 in present and len(stretch) < 5:
            stretch.append((stretch[-1] + 1) % 13)
        if 2 <= len(stretch) <= 4:
            ends = {(stretch[0] - 1) % 13, (stretch[-1] + 1) % 13} - present
            completing = tuple(s * 13 + r for r in sorted(ends) for s in range(4))
            cards = tuple(c for c in hand if c % 13 in stretch)
            out.append(
                NearMeld(
                    cards,
                    completing,
                    sum(c in unseen for c in completing),
                    f"Run of {len(stretch) + 1}",
                )
            )
    for suit in range(4):
        cards = tuple(c for c in hand if c // 13 == suit)
        if 3 <= len(cards) <= 4:
            completing = tuple(suit * 13 + r for r in range(13) if suit * 13 + r not in cards)
            out.append(
                NearMeld(
                    cards,
                    completing,
                    sum(c in unseen for c in completing),
                    f"Flush of {max(3, len(cards) + 1)} ({SUIT_NAMES[suit]})",
                )
            )
    return out


def coach(view: IndecisionView, legal: Sequence[IndecisionAction]) -> CoachReport:
    """The coach's report on ``view`` (see :mod:`cardtable.coach`)."""
    rules = view.rules
    scorer = scorer_of(rules)
    tips: list[str] = []
    warnings: list[str] = []
    discards: list[DiscardOption] = []
    hand = view.hand
    target = rules.target_score
    tips.append(
        "Totals: "
        + ", ".join(
            f"{'you' if s == view.seat else f'seat {s}'} {t}" for s, t in enumerate(view.totals)
        )
        + f" (first to {target} wins)."
    )
    kept = _kept_hand(view)
    if len(kept) == 5:
        counted = score_hand(kept, rules)
        prefix = "Your hand" if len(hand) == 5 else f"Your best five ({format_cards(kept)})"
        tips.append(f"{prefix}: {counted.explain()}.")
    report_hint = hint(view, legal) if legal else None
    if len(hand) == 6:
        hint_card = None
        if report_hint is not None and isinstance(report_hint.action, Discard | Stop):
            hint_card = report_hint.action.card
        pool = unseen_cards(view)
        legal_discards = {a.card for a in legal if isinstance(a, Discard)}
        for spare, five in keeps(hand):
            if legal and spare not in legal_discards:
                continue
            counted = score_hand(five, rules)
            later = draw_potential(scorer, five, pool)
            melds = ", ".join(m.name for m in counted.melds) or "no melds"
            used = "all cards used" if counted.all_cards_used else "not all cards used"
            note_parts = []
            if spare == hint_card:
                note_parts.append("suggested")
            feeds = _feeds(view, spare)
            if feeds:
                note_parts.append(feeds)
            discards.append(
                DiscardOption(
                    spare,
                    f"{counted.score} points ({melds}; {used}); about {later:.1f} after a draw",
                    float(counted.score),
                    "; ".join(note_parts),
                )
            )
            if feeds:
                warnings.append(f"Discarding {format_card(spare)} {feeds}.")
        discards.sort(key=lambda option: -option.value)
        warnings.extend(_stop_warnings(view, legal))
        tips.extend(_stop_spares(view, legal))
    if view.phase is Phase.DRAW and view.pile_top is not None:
        tips.append(f"The pile's top card is {format_card(view.pile_top)}.")
    return CoachReport(
        tips=tips,
        near_melds=near_melds(view, kept),
        discards=discards,
        warnings=warnings,
        hint=report_hint,
    )


def _feeds(view: IndecisionView, card: int) -> str:
    """A note when ``card`` matches what the next seat has been taking from the pile."""
    nxt = (view.seat + 1) % view.players
    taken = view.taken_cards().get(nxt, set())
    for other in taken:
        same_rank = other % 13 == card % 13
        near = other // 13 == card // 13 and min((other - card) % 13, (card - other) % 13) <= 2
        if same_rank or near:
            return f"feeds seat {nxt}, who took {format_card(other)} from the pile" + (
                f" (they collect {RANK_PLURALS[card % 13]})" if same_rank else ""
            )
    return ""


def _stop_spares(view: IndecisionView, legal: Sequence[IndecisionAction]) -> list[str]:
    """A tip when only some spare cards make a valid stop: the ones that do ("A stop counts
    with 9♠ or K♦ as the spare; any other spare would forfeit.")."""
    stops = {a.card for a in legal if isinstance(a, Stop)}
    valid = list(
        dict.fromkeys(o.spare for o in valid_stops(scorer_of(view.rules), view) if o.spare in stops)
    )
    if not valid or len(valid) == len(stops):
        return []
    spares = " or ".join(format_card(card) for card in valid)
    return [f"A stop counts only with {spares} as the spare; any other spare would forfeit."]


def _stop_warnings(view: IndecisionView, legal: Sequence[IndecisionAction]) -> list[str]:
    """Warnings about stopping now: a stop that forfeits, or one that lets someone win."""
    stops = [a for a in legal if isinstance(a, Stop)]
    if not stops:
        return []
    scorer = scorer_of(view.rules)
    out: list[str] = []
    if not turn_requirement_met(view):
        out.append(
            "Any stop now forfeits your hand (scores 0): not every player has had a turn yet."
        )
        return out
    valid = valid_stops(scorer, view)
    if not valid:
        out.append(
            "Any stop now forfeits your hand (scores 0): no five of your cards are all used "
            "by counted melds."
        )
        return out
    # Which spare cards make a stop that forfeits is a detail of the stop, not an alarm: it is
    # said as a tip naming the spares that do count (see _stop_spares).
    best = valid[0]
    if not would_win_now(view, best.score):
        rivals = estimate_opponents(scorer, view, _rng(view))
        for seat, expected in rivals.items():
            if view.totals[seat] + expected >= view.rules.target_score:
                out.append(
                    f"Stopping now counts seat {seat}'s hand too: with about {expected:.0f} "
                    f"points they would likely reach {view.rules.target_score}."
                )
    return out
