"""Shared helpers for the Indian Rummy engine tests: positions, moves by notation, simple bots."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import engine_moves
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.state import IndianRummyState, Phase
from engine_moves import card as card
from engine_moves import cards as cards


def play(state: IndianRummyState, *moves: tuple[int, str]) -> IndianRummyState:
    """Apply ``(seat, notation)`` moves through the checked path, running chance steps between."""
    return engine_moves.play(ENGINE, state, moves)


def advance(state: IndianRummyState) -> IndianRummyState:
    """Run every due chance step."""
    return engine_moves.advance(ENGINE, state)


def legal_texts(state: IndianRummyState, seat: int | None = None) -> list[str]:
    """The legal actions of ``seat`` (default: the seat on turn) as notation."""
    return engine_moves.legal_texts(ENGINE, state, state.turn if seat is None else seat)


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
