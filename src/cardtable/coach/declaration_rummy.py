"""The Declaration Rummy coach: the hand's count and melds, cards one step from a meld, the
count each discard leaves, and warnings about a declaration likely to lose, a blocked
declaration (CAN'T DECLARE 0, the Gin Rummy limit) or a discard that helps the next player.

The hint is the Hard player's choice (:mod:`cardtable.bots.declaration_rummy`); its chance of
holding the lowest count is estimated from the unseen cards, as Normal does.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from cardtable.bots.declaration_hand import count_of, legal_discards, touches
from cardtable.bots.declaration_rivals import (
    estimate_rival_counts,
    recent_pickups,
    unseen_cards,
    win_chance,
)
from cardtable.bots.declaration_rummy import HardBot
from cardtable.cards import CANT_DECLARE_0, NO_MELD_2, WILDCARD, format_card, is_regular, without
from cardtable.coach.report import CoachReport, DiscardOption, Hint, NearMeld
from cardtable.coach.words import chance_words
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.actions import Action
from cardtable.games.declaration_rummy.scoring import count_hand
from cardtable.games.declaration_rummy.state import DrawKind, Phase
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from cardtable.melds.declaration import card_count, dr_best

_POLICY = HardBot()
"""The hint is the strongest player's choice, the one the move-by-move analysis judges by
(:mod:`cardtable.review.lenses`), so that the hint and the analysis agree."""


def _rng(view: DeclarationRummyView) -> random.Random:
    return random.Random(f"coach:{view.seat}:{view.game_number}:{view.hand}:{view.stock_level}")


def _chance(view: DeclarationRummyView, count: int) -> float:
    return win_chance(view, count, estimate_rival_counts(view, _rng(view), samples=32))


def hint(view: DeclarationRummyView, legal: Sequence[Action]) -> Hint:
    """Hard's choice with a one-line reason. It never advises taking a card from the pile
    only to discard it again (a pass that wastes the draw): not "take the top discard" when
    discarding it again would be best, and not "discard" a card just taken from the pile."""
    action = _POLICY.choose(view, legal, _rng(view))
    if (
        isinstance(action, act.TakeDiscard)
        and action.count == 1
        and act.DRAW_STOCK in legal
        and view.discard_top is not None
        and _discarded_again(view.hand, view.discard_top)
    ):
        action = act.DRAW_STOCK
    elif isinstance(action, act.Discard) and _taken_from_pile(view, action.card):
        action = _other_discard(view, legal, action)
    return Hint(action, _reason(view, action))


def _taken_from_pile(view: DeclarationRummyView, card: int) -> bool:
    return view.draw_kind is not DrawKind.STOCK and card in view.drawn


def _other_discard(
    view: DeclarationRummyView, legal: Sequence[Action], chosen: act.Discard
) -> Action:
    """The discard leaving the lowest count among those of cards not just taken from the pile
    (``chosen`` when there is none)."""
    others = [c for c in dict.fromkeys(legal_discards(legal)) if not _taken_from_pile(view, c)]
    if not others:
        return chosen
    best = min(others, key=lambda c: dr_best(tuple(sorted(without(view.hand, c))))[0])
    return act.Discard(best)


def _discarded_again(hand: Sequence[int], top: int) -> bool:
    """Whether, after taking ``top``, discarding it again leaves the lowest count."""
    after = (*hand, top)
    counts = {
        card: dr_best(tuple(sorted(without(after, card))))[0]
        for card in set(after)
        if card != NO_MELD_2
    }
    return counts[top] <= min(counts.values())


def _reason(view: DeclarationRummyView, action: Action) -> str:
    hand = view.hand
    if isinstance(action, act.GoOut):
        return "Go out: every card but at most one melds, and going out wins at once."
    if isinstance(action, act.FourSevens):
        return "Lay down the four sevens: under Four 7's that wins at once."
    if isinstance(action, act.NextGame):
        return "Start the next game of the match."
    if isinstance(action, act.Drop):
        return "Drop out of this game: a dropped player cannot win, so only do it to leave."
    if isinstance(action, act.Declare):
        count = count_of(hand)
        return (
            f"Declare: with the cards still unseen, a count of {count} is the lowest at the "
            f"table {chance_words(_chance(view, count))}."
        )
    if isinstance(action, act.ProposeTie):
        return "Propose a tie: if every other player accepts, the game ends with nobody losing."
    if isinstance(action, act.AcceptTie | act.RejectTie):
        chance = _chance(view, count_of(hand))
        verb = "Accept" if isinstance(action, act.AcceptTie) else "Reject"
        return f"{verb} the tie: your count would be the lowest {chance_words(chance)}."
    if isinstance(action, act.Decline):
        count = count_of(hand)
        return (
            f"Decline the discard pile: the game ends now and your count of {count} is likely "
            "the lowest."
        )
    if isinstance(action, act.TakeExtra):
        return "Take the extra two cards: your hand is nearly melded and can use them."
    if isinstance(action, act.TakeDiscard):
        top = view.discard_top
        label = "the top discard" if top is None else f"the {format_card(top)}"
        if action.count > 1:
            label = f"the top {action.count} discards"
        return f"Take {label}: it lowers your count more than an unseen stock card would."
    if isinstance(action, act.DrawStock):
        top = view.discard_top
        if top is None:
            return "Draw from the stockpile: there is no discard pile yet."
        return f"Draw from the stockpile: the {format_card(top)} would not lower your count."
    if not isinstance(action, act.Discard):
        return f"Play {action}."
    card = action.card
    if card == CANT_DECLARE_0:
        return "Discard CAN'T DECLARE 0: while you hold it you may not declare."
    rest = without(hand, card)
    count, melds, _ = dr_best(rest)
    return (
        f"Discard {format_card(card)}: it counts {card_count(card)}, and your count drops to "
        f"{count}"
        + (f", keeping {len(melds)} meld{'s' if len(melds) != 1 else ''}" if melds else "")
        + "."
    )


def near_melds(view: DeclarationRummyView, hand: Sequence[int]) -> list[NearMeld]:
    """Unmelded cards one card from a meld: a pair to a group of three, two cards of a suit a
    rank or two apart to a sequence (a WILDCARD completes either)."""
    if not hand:
        return []
    unseen = unseen_cards(view)
    unseen_set = set(unseen)
    wild_unseen = unseen.count(WILDCARD)
    _, _, unmelded = dr_best(tuple(sorted(hand)))
    loose = [c for c in unmelded if is_regular(c)]
    out: list[NearMeld] = []
    seen_pairs: set[tuple[int, int]] = set()
    for i, a in enumerate(loose):
        for b in loose[i + 1 :]:
            if not touches(a, b) or (a, b) in seen_pairs:
                continue
            seen_pairs.add((a, b))
            if a % 13 == b % 13:
                completing = tuple(
                    s * 13 + a % 13 for s in range(4) if s * 13 + a % 13 not in (a, b)
                )
                kind = "group"
            else:
                low, high = sorted((a % 13, b % 13))
                if high - low > 2:  # the ace-high case: Q or K with an ace
                    low, high = high, 13
                suit = a // 13
                if high - low == 1:
                    ranks = [r for r in (low - 1, high + 1) if 0 <= r <= 13]
                else:
                    ranks = [low + 1]
                completing = tuple(suit * 13 + r % 13 for r in ranks)
                kind = "sequence"
            unseen_count = sum(c in unseen_set for c in completing) + wild_unseen
            out.append(NearMeld((a, b), completing, unseen_count, kind))
    return out


def _advisable(view: DeclarationRummyView, legal: Sequence[Action]) -> bool:
    """Whether the seat has a move to be advised on: its turn, or a tie vote to answer."""
    return view.to_act == view.seat or any(
        isinstance(a, act.AcceptTie | act.RejectTie) for a in legal
    )


def coach(view: DeclarationRummyView, legal: Sequence[Action]) -> CoachReport:
    """The coach's report on ``view`` (see :mod:`cardtable.coach`)."""
    hand = view.hand
    rules = view.rules
    tips: list[str] = []
    warnings: list[str] = []
    discards: list[DiscardOption] = []
    # Out of turn a seat may only propose a tie or drop: nothing worth advising.
    report_hint = hint(view, legal) if legal and _advisable(view, legal) else None
    if hand:
        counted = count_hand(hand, rules)
        tips.append(f"Your hand: {counted.explain()}.")
    if NO_MELD_2 in hand:
        tips.append("NO MELD 2 can never be discarded; it may be the one loose card going out.")
    if CANT_DECLARE_0 in hand:
        warnings.append(
            "You hold CAN'T DECLARE 0: you may not declare until you discard it "
            "(going out is still allowed)."
        )
    if rules.gin_rummy and hand:
        count = count_of(hand)
        if count > rules.gin_threshold:
            tips.append(
                f"Gin Rummy variation: you may declare only with a count of "
                f"{rules.gin_threshold} or less after drawing (yours is {count})."
            )
    if view.phase is Phase.PLAY and view.to_act == view.seat:
        if act.GO_OUT in legal:
            tips.append("You can go out now and win.")
        if act.DECLARE in legal:
            count = count_of(hand)
            chance = _chance(view, count)
            if chance < 0.5:
                warnings.append(
                    f"A declaration now is likely to lose: your count of {count} would be the "
                    f"lowest only {chance_words(chance)}."
                )
            else:
                tips.append(f"Declaring now with a count of {count} wins {chance_words(chance)}.")
        hint_card = (
            report_hint.action.card
            if report_hint is not None and isinstance(report_hint.action, act.Discard)
            else None
        )
        for card in dict.fromkeys(legal_discards(legal)):
            rest = without(hand, card)
            count, melds, _ = dr_best(tuple(sorted(rest)))
            notes = []
            if card == hint_card:
                notes.append("suggested")
            fed = _feeds(view, card)
            if fed:
                notes.append(fed)
                warnings.append(f"Discarding {format_card(card)} {fed}.")
            discards.append(
                DiscardOption(
                    card,
                    f"count {count} with {len(melds)} meld{'s' if len(melds) != 1 else ''}",
                    float(count),
                    "; ".join(notes),
                )
            )
        discards.sort(key=lambda option: option.value)
    return CoachReport(
        tips=tips,
        near_melds=near_melds(view, hand),
        discards=discards,
        warnings=warnings,
        hint=report_hint,
    )


def _feeds(view: DeclarationRummyView, card: int) -> str:
    """A note when ``card`` partners a card the next player was just seen taking."""
    players = view.rules.players
    position = view.order.index(view.seat)
    nxt = view.order[(position + 1) % players]
    for taken in recent_pickups(view).get(nxt, []):
        if touches(card, taken):
            return f"helps seat {nxt}, who just took {format_card(taken)}"
    return ""


__all__ = ["coach", "hint", "near_melds"]
