"""Shared helpers for the Indian Rummy engine tests: positions, moves by notation, simple bots."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

from cardtable.cards import parse_cards
from cardtable.games.contract import CHANCE
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.state import IndianRummyState, Phase


def cards(text: str) -> tuple[int, ...]:
    """Card ids of a text hand (any multiset)."""
    return parse_cards(text, deck=None)


def card(text: str) -> int:
    """The id of one card."""
    return cards(text)[0]


def play(state: IndianRummyState, *moves: tuple[int, str]) -> IndianRummyState:
    """Apply ``(seat, notation)`` moves through the checked path, running chance steps between."""
    for seat, text in moves:
        state = advance(state)
        state = ENGINE.apply(state, ENGINE.parse_action(text), seat)
    return state


def advance(state: IndianRummyState) -> IndianRummyState:
    """Run every due chance step."""
    while ENGINE.current_player(state) == CHANCE:
        state = ENGINE.chance_step(state)
    return state


def legal_texts(state: IndianRummyState, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the seat on turn) as notation."""
    return [str(a) for a in ENGINE.legal_actions(state, state.turn if seat is None else seat)]


class ScriptBot:
    """Plays a fixed rule: ``drop`` drops at every turn start, ``cycle`` draws from the stock and
    discards the drawn card (deals then run to the turn cap)."""

    version = "1"

    def __init__(self, style: str) -> None:
        self.name = style
        self.style = style

    def choose(self, view: Any, legal: Sequence[Any], rng: random.Random) -> Any:
        if view.phase is Phase.DRAW:
            if self.style == "drop" and act.DROP in legal:
                return act.DROP
            return act.DRAW_STOCK
        return act.DISCARDS[view.drawn]


def all_cards(state: IndianRummyState) -> Iterable[int]:
    """Every card in every place of the state."""
    yield from state.card_places().elements()
