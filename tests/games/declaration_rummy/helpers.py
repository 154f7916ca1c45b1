"""Shared helpers for the Declaration Rummy tests: cards by text, moves by notation, card
accounting, and computer players for random and meaningful playouts."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from typing import Any

import engine_moves
from cardtable.cards import format_card
from cardtable.games.contract import TERMINAL
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.hands import hand_count
from cardtable.games.declaration_rummy.state import DeclarationRummyState, Phase, pack_cards
from cardtable.games.declaration_rummy.view import DeclarationRummyView
from engine_moves import card as card
from engine_moves import cards as cards

State = DeclarationRummyState


def sorted_cards(text: str) -> tuple[int, ...]:
    """Card ids of a text hand, sorted as the engine keeps hands."""
    return tuple(sorted(cards(text)))


def advance(state: State) -> State:
    """Run every due chance step."""
    return engine_moves.advance(ENGINE, state)


def play(state: State, *moves: tuple[int, str]) -> State:
    """Apply ``(seat, notation)`` moves through the checked path, running chance steps between
    and after."""
    return advance(engine_moves.play(ENGINE, state, moves))


def legal_texts(state: State, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the one to act) as notation."""
    return engine_moves.legal_texts(
        ENGINE, state, ENGINE.current_player(state) if seat is None else seat
    )


def all_cards(state: State) -> Counter[int]:
    """Every card the state holds: hands (dropped ones too), stock, pile, removed cards."""
    held: Counter[int] = Counter()
    for hand in state.hands:
        held.update(hand)
    held.update(state.stock)
    held.update(state.pile)
    held.update(state.removed)
    return held


def assert_conserved(state: State) -> None:
    """Every card of the game's pack is in exactly one place."""
    assert all_cards(state) == Counter(pack_cards(state.rules)), "cards are not conserved"


def new_dealt(rules: Any, seed: int) -> State:
    """A new game with its chance steps run: the first player is about to draw."""
    return advance(ENGINE.new_game(rules, seed))


class WeightedRandomBot:
    """A random player that rarely ends the game early, so random games run long: it drops
    with probability ``drop``, proposes ties with ``tie``, declares or goes out with
    ``finish``, accepts proposed ties with probability one half, and otherwise picks uniformly."""

    name = "weighted-random"
    version = "1"

    def __init__(self, *, drop: float = 0.0, tie: float = 0.0, finish: float = 0.05) -> None:
        self.drop = drop
        self.tie = tie
        self.finish = finish

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        roll = rng.random()
        if act.DROP in legal and roll < self.drop:
            return act.DROP
        if act.ACCEPT_TIE in legal:
            return act.ACCEPT_TIE if rng.random() < 0.5 else act.REJECT_TIE
        if act.PROPOSE_TIE in legal and rng.random() < self.tie:
            return act.PROPOSE_TIE
        enders = [a for a in legal if isinstance(a, act.Declare | act.GoOut | act.FourSevens)]
        if enders and rng.random() < self.finish:
            return enders[rng.randrange(len(enders))]
        ordinary = [
            a
            for a in legal
            if not isinstance(
                a, act.Drop | act.ProposeTie | act.Declare | act.GoOut | act.FourSevens
            )
        ]
        if not ordinary:
            ordinary = list(legal)
        return ordinary[rng.randrange(len(ordinary))]


class CountingBot:
    """A simple sensible player: goes out (or lays down four sevens) when able, declares when
    its count is at most ``declare_at``, takes the top discard when it lowers its count, discards
    the card leaving the lowest count, rejects tie proposals and never drops."""

    name = "counting"
    version = "1"

    def __init__(self, declare_at: int = 4) -> None:
        self.declare_at = declare_at

    def choose(self, view: DeclarationRummyView, legal: Sequence[Any], rng: random.Random) -> Any:
        for winner in (act.GO_OUT, act.FOUR_SEVENS):
            if winner in legal:
                return winner
        if act.REJECT_TIE in legal:
            return act.REJECT_TIE
        hand = view.hand
        if view.phase is Phase.DRAW:
            if act.TAKE_DISCARD in legal and view.discard_top is not None:
                kept = _best_discard(tuple(sorted((*hand, view.discard_top))))[1]
                if kept < hand_count(hand):
                    return act.TAKE_DISCARD
            if act.DRAW_STOCK in legal:
                return act.DRAW_STOCK
            if act.TAKE_DISCARD in legal:
                return act.TAKE_DISCARD
            return act.DECLINE if act.DECLINE in legal else legal[0]
        if act.DECLARE in legal and hand_count(hand) <= self.declare_at:
            return act.DECLARE
        discards = [a for a in legal if isinstance(a, act.Discard)]
        if not discards:
            return legal[0]
        best, _ = _best_discard(hand, [a.card for a in discards])
        return act.DISCARDS[best]


def _best_discard(hand: tuple[int, ...], allowed: Sequence[int] | None = None) -> tuple[int, int]:
    """The card whose discard leaves the lowest count, and that count (ties: highest card)."""
    choices = sorted(set(allowed if allowed is not None else hand), reverse=True)
    best_card, best_count = choices[0], 10**9
    for candidate in choices:
        index = hand.index(candidate)
        rest = hand[:index] + hand[index + 1 :]
        count = hand_count(rest)
        if count < best_count:
            best_card, best_count = candidate, count
    return best_card, best_count


def run(
    rules: Any, seed: int, bots: Sequence[Any], *, checked: bool = False, limit: int = 100_000
) -> tuple[State, list[tuple[int, Any]]]:
    """Play a game to its end with ``bots``; return the final state and the seat actions."""
    rng = random.Random(seed)

    def choose(state: State, seat: int, legal: Sequence[Any]) -> Any:
        return bots[seat].choose(ENGINE.view(state, seat), legal, rng)

    start = ENGINE.new_game(rules, seed)
    made = list(engine_moves.decisions(ENGINE, start, choose, limit=limit, checked=checked))
    state = engine_moves.after(ENGINE, made[-1]) if made else advance(start)
    assert ENGINE.current_player(state) == TERMINAL, "the game did not end within the step limit"
    return state, [(met.seat, met.action) for met in made]


def labels(state_cards: Sequence[int]) -> str:
    """Card labels separated by spaces."""
    return " ".join(format_card(c) for c in state_cards)
