"""What one Indecision seat may see: :class:`IndecisionView`.

Public: the pile's whole contents (every discard was face up), the deck's size, how many cards
each seat holds, the totals, whose turn it is, who has had a turn, the public events of the
current hand, the cuts for the first deal, the counting of the hand being scored (a hand is
shown when it is recorded) and the last finished hand's summary. Private to the seat: its own
hand, the card it just drew from the deck, and its own face-down stop card. Hidden from
everyone: the deck's order, the other hands, the game's seed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from cardtable.cards import format_card
from cardtable.games.contract import PublicEvent
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.state import HandSummary, Phase, SeatResult


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

    def to_json(self) -> dict[str, Any]:
        """JSON-ready data (cards as labels)."""

        def label(card: int | None) -> str | None:
            return None if card is None else format_card(card)

        return {
            "game": "indecision",
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.value,
            "hand_number": self.hand_number,
            "dealer": self.dealer,
            "starter": self.starter,
            "to_act": self.to_act,
            "turns": self.turns,
            "had_turn": list(self.had_turn),
            "hand": [format_card(c) for c in self.hand],
            "hand_sizes": list(self.hand_sizes),
            "pile": [format_card(c) for c in self.pile],
            "pile_top": label(self.pile_top),
            "deck_size": self.deck_size,
            "drawn": label(self.drawn),
            "drawn_from": self.drawn_from,
            "stopper": self.stopper,
            "stop_card": label(self.stop_card),
            "stop_problems": list(self.stop_problems),
            "scoring": [r.to_json() for r in self.scoring],
            "pending_declaration": self.pending_declaration,
            "totals": list(self.totals),
            "target_score": self.rules.target_score,
            "manual_declaration": self.rules.manual_declaration,
            "events": [e.to_json() for e in self.events],
            "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
            "cut_rounds": [
                [{"seat": seat, "card": format_card(card)} for seat, card in cut]
                for cut in self.cut_rounds
            ],
            "winners": list(self.winners),
            "game_over": self.game_over,
            "end_reason": self.end_reason,
        }
