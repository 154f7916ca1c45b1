"""Shared helpers for the Indian Rummy engine tests: positions, moves by notation, simple bots."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from typing import Any

import engine_moves
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, scenario
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


def show_once_kd_is_down(rules: Any) -> IndianRummyState:
    """Seat 0 to discard with 14 cards that hold a valid show once KD is put down (wild rank
    7); putting down any other card would be a wrong show."""
    return scenario(
        rules,
        ["5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD", "AS 2H 3C 5D 6D 8C 9C 10C JC QC KC AC 3D"],
        pile="QH",
        wild_card="7C",
        phase=Phase.DISCARD,
        turn=0,
        drawn="KD",
    )
