"""What one Indecision seat may see: :class:`IndecisionView`, built by :func:`make_view`, and
:func:`determinize`, a full state consistent with a view (for search bots and leak tests).

Public: the pile's whole contents (every discard was face up), the deck's size, how many cards
each seat holds, the totals, whose turn it is, who has had a turn, the public events of the
current hand, the cuts for the first deal, the counting of the hand being scored (a hand is
shown when it is recorded) and the last finished hand's summary. Private to the seat: its own
hand, the card it just drew from the deck, and its own face-down stop card. Hidden from
everyone: the deck's order, the other hands, the game's seed.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, ClassVar, Final

from cardtable.cards import card_labels, format_card, rank_of
from cardtable.errors import RulesError
from cardtable.games.contract import PublicEvent, events_json
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.scoring import hand_scorer
from cardtable.games.indecision.state import Counting, HandSummary, Phase, SeatResult, State, Table


@dataclass(frozen=True, slots=True)
class IndecisionView:
    """One seat's view of an Indecision game.

    ``to_act`` is the seat on turn (``None`` during chance steps and once the game is over);
    ``had_turn[s]`` tells whether seat ``s`` completed a turn this hand (stop requirement 1);
    ``drawn`` is the card drawn on the current turn when this seat may know it (its own draw,
    or any draw from the pile) and ``drawn_from`` is ``"deck"`` or ``"pile"``; ``stopper`` and
    ``scoring`` describe the counting of a stopped hand, ``pending_declaration`` an announced
    but unrecorded number (manual declaration mode).
    """

    seat: int
    rules: Rules
    phase: Phase
    hand_number: int
    dealer: int
    starter: int
    to_act: int | None
    turns: int
    had_turn: tuple[bool, ...]
    hand: tuple[int, ...]
    hand_sizes: tuple[int, ...]
    pile: tuple[int, ...]
    deck_size: int
    drawn: int | None
    drawn_from: str | None
    stopper: int | None
    stop_card: int | None
    stop_problems: tuple[str, ...]
    scoring: tuple[SeatResult, ...]
    pending_declaration: int | None
    totals: tuple[int, ...]
    events: tuple[PublicEvent, ...]
    last_hand: HandSummary | None
    cut_rounds: tuple[tuple[tuple[int, int], ...], ...]
    winners: tuple[int, ...]
    end_reason: str

    @property
    def players(self) -> int:
        """Number of seats."""
        return self.rules.players

    @property
    def pile_top(self) -> int | None:
        """The card a draw from the pile would take."""
        return self.pile[-1] if self.pile else None

    @property
    def deal_number(self) -> int:
        """The contract's name for ``hand_number``: Indecision's deals are hands."""
        return self.hand_number

    @property
    def scores(self) -> tuple[int, ...]:
        """The contract's name for ``totals``: each seat's points won so far."""
        return self.totals

    @property
    def game_over(self) -> bool:
        """True once the game has ended."""
        return self.phase is Phase.GAME_OVER

    @property
    def my_turn(self) -> bool:
        """True when this seat is to act."""
        return self.to_act == self.seat

    def taken_cards(self) -> dict[int, set[int]]:
        """For each other seat, the cards it took from the pile this hand and has not discarded
        since: they are in its hand (or, for the stopper, possibly its face-down stop card)."""
        taken: dict[int, set[int]] = {s: set() for s in range(self.players) if s != self.seat}
        for event in self.events:
            if event.seat not in taken or not event.cards:
                continue
            if event.verb == "take-discard":
                taken[event.seat].add(event.cards[0])
            elif event.verb == "discard":
                taken[event.seat].discard(event.cards[0])
        return taken

    OWN_JSON: ClassVar[tuple[str, ...]] = ("seat", "hand", "drawn", "stop_card")
    """The keys of :meth:`to_json` whose values differ between the seats' views of one state
    (the rest is the same for every seat: a table sends it built once, see :meth:`own_json`)."""

    def own_json(self) -> dict[str, Any]:
        """:meth:`to_json`'s :data:`OWN_JSON` entries alone: ``to_json()`` is the JSON of any
        seat's view of the same state with these entries put in their places."""
        return {
            "seat": self.seat,
            "hand": card_labels(self.hand),
            "drawn": _label(self.drawn),
            "stop_card": _label(self.stop_card),
        }

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as labels)."""
        label = _label
        own = self.own_json()
        return {
            "game": "indecision",
            "seat": own["seat"],
            "players": self.players,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "starter": self.starter,
            "to_act": self.to_act,
            "turns": self.turns,
            "had_turn": list(self.had_turn),
            "hand": own["hand"],
            "hand_sizes": list(self.hand_sizes),
            "pile": card_labels(self.pile),
            "pile_top": label(self.pile_top),
            "deck_size": self.deck_size,
            "drawn": own["drawn"],
            "drawn_from": self.drawn_from,
            "stopper": self.stopper,
            "stop_card": own["stop_card"],
            "stop_problems": list(self.stop_problems),
            "scoring": [r.to_json() for r in self.scoring],
            "pending_declaration": self.pending_declaration,
            "totals": list(self.totals),
            "target_score": self.rules.target_score,
            "manual_declaration": self.rules.manual_declaration,
            "events": events_json(self.events),
            "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
            "cut_rounds": [
                [{"seat": seat, "card": format_card(card)} for seat, card in cut]
                for cut in self.cut_rounds
            ],
            "winners": list(self.winners),
            "game_over": self.game_over,
            "end_reason": self.end_reason,
        }


def _label(card: int | None) -> str | None:
    return None if card is None else format_card(card)


NOBODY_ACTS: Final = frozenset({Phase.CUT, Phase.DEAL, Phase.RESHUFFLE, Phase.GAME_OVER})
"""Phases in which no seat acts: chance steps and the end of the game (a view's ``to_act`` is
then ``None``)."""


def make_view(state: State, seat: int) -> IndecisionView:
    """What ``seat`` may see (see :mod:`cardtable.games.indecision.view`)."""
    table = state.table
    players = table.rules.players
    if not isinstance(seat, int) or not 0 <= seat < players:
        raise RulesError(f"seat {seat!r} does not exist: this game has seats 0 to {players - 1}")
    counting = state.counting
    to_act = -1 if state.phase in NOBODY_ACTS else state.to_act
    drawn: int | None = None
    drawn_from: str | None = None
    if state.drawn >= 0:
        drawn_from = "pile" if state.drawn_from_pile else "deck"
        if state.drawn_from_pile or state.to_act == seat:
            drawn = state.drawn
    stopper = None if counting is None or counting.stopper < 0 else counting.stopper
    return IndecisionView(
        seat=seat,
        rules=table.rules,
        phase=state.phase,
        hand_number=table.hand_number,
        dealer=table.dealer,
        starter=table.starter,
        to_act=to_act if to_act >= 0 else None,
        turns=state.turns,
        had_turn=tuple(bool(state.had_turn >> s & 1) for s in range(players)),
        hand=state.hands[seat],
        hand_sizes=tuple(len(hand) for hand in state.hands),
        pile=state.pile,
        deck_size=len(state.deck),
        drawn=drawn,
        drawn_from=drawn_from,
        stopper=stopper,
        stop_card=counting.stop_card if counting is not None and stopper == seat else None,
        stop_problems=() if counting is None else counting.stop_problems,
        scoring=() if counting is None else counting.results,
        pending_declaration=None if counting is None or counting.pending < 0 else counting.pending,
        totals=table.totals,
        events=state.events,
        last_hand=table.last_hand,
        cut_rounds=table.cut_rounds,
        winners=table.winners,
        end_reason=table.end_reason,
    )


def determinize(view: IndecisionView, rng: random.Random) -> State:
    """A full state consistent with ``view``: the cards this seat cannot see are dealt at
    random to the other hands, the face-down stop card and the deck, keeping every card
    known to be in another hand (taken from the pile, or shown in the counting) there."""
    rules = view.rules
    players = rules.players
    stopper = view.stopper
    in_box = view.hand_number == 0
    taken = view.taken_cards()
    revealed = {result.seat: result.cards for result in view.scoring}
    seen = set(view.hand) | set(view.pile)
    if view.stop_card is not None:
        seen.add(view.stop_card)
    for seat, cards in taken.items():
        seen |= cards
        seen |= set(revealed.get(seat, ()))
    unseen = [card for card in range(52) if card not in seen]
    rng.shuffle(unseen)
    hands: list[tuple[int, ...]] = []
    stop_card = -1 if view.stop_card is None else view.stop_card
    for seat in range(players):
        if seat == view.seat:
            hands.append(view.hand)
            continue
        if seat in revealed:
            hands.append(revealed[seat])
            spare = sorted(taken[seat] - set(revealed[seat]))
            if seat == stopper and spare:
                stop_card = spare[0]
            continue
        held = sorted(taken[seat])
        if seat == stopper and len(held) > view.hand_sizes[seat]:
            # One known card must be the face-down spare; any of them is consistent.
            stop_card = held.pop(rng.randrange(len(held)))
        need = view.hand_sizes[seat] - len(held)
        hands.append(tuple(held) + tuple(unseen[:need]))
        del unseen[:need]
    if stopper is not None and stop_card < 0 and not in_box:
        stop_card = unseen.pop()
    if len(unseen) != view.deck_size and not in_box:
        raise RulesError("the view is inconsistent: its card counts do not add up to 52")
    deck = () if in_box else tuple(unseen)
    counting = None
    if view.stopper is not None or view.scoring or view.phase in (Phase.DECLARE, Phase.CONFIRM):
        counting = _counting_from_view(view, stop_card)
    drawn = -1 if view.drawn is None else view.drawn
    if view.drawn_from == "deck" and drawn < 0 and view.to_act is not None:
        drawn = hands[view.to_act][-1]
    table = Table(
        rules=rules,
        seed=rng.randrange(2**63),
        dealer=view.dealer,
        hand_number=view.hand_number,
        totals=view.totals,
        cut_rounds=view.cut_rounds,
        cutters=() if view.dealer >= 0 else _cutters_from_view(view),
        last_hand=view.last_hand,
        winners=view.winners,
        end_reason=view.end_reason,
        scorer=hand_scorer(rules),
    )
    to_act = view.to_act
    if to_act is None and view.phase is Phase.RESHUFFLE:
        to_act = _reshuffling_seat(view)
    return State(
        table=table,
        phase=view.phase,
        chance_steps=rng.randrange(2**31),
        hands=tuple(hands),
        deck=deck,
        pile=view.pile,
        to_act=-1 if to_act is None else to_act,
        turns=view.turns,
        had_turn=sum(1 << s for s in range(players) if view.had_turn[s]),
        drawn=drawn,
        drawn_from_pile=view.drawn_from == "pile",
        events=view.events,
        counting=counting,
    )


def _counting_from_view(view: IndecisionView, stop_card: int) -> Counting:
    players = view.players
    last = view.events[-1] if view.events else None
    if view.stopper is not None:
        first, ending = view.stopper, "stop"
    elif view.scoring:
        first, ending = view.scoring[0].seat, "deck-exhausted"
    else:
        first = view.to_act if view.to_act is not None else (last.seat if last else 0)
        ending = "deck-exhausted"
    return Counting(
        ending=ending,
        stopper=-1 if view.stopper is None else view.stopper,
        stop_card=stop_card,
        stop_problems=view.stop_problems,
        order=tuple((first + i) % players for i in range(players)),
        results=view.scoring,
        pending=-1 if view.pending_declaration is None else view.pending_declaration,
    )


def _cutters_from_view(view: IndecisionView) -> tuple[int, ...]:
    if not view.cut_rounds:
        return tuple(range(view.players))
    last = view.cut_rounds[-1]
    lowest = min(rank_of(card) for _, card in last)
    return tuple(seat for seat, card in last if rank_of(card) == lowest)


def _reshuffling_seat(view: IndecisionView) -> int:
    last = view.events[-1] if view.events else None
    return 0 if last is None else (last.seat + 1) % view.players
