"""Shared helpers for the Indian Rummy engine tests: positions, moves by notation, simple bots."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterable, Sequence
from typing import Any

import engine_moves
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.formats import Standing
from cardtable.games.indian_rummy.rules import PRESETS, Rules
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


# ---------------------------------------------------------------- Pool and Deals positions

FILLERS = (
    "2S 3S 9S 2H 4H 10H QH 3D 5D JD 4C 8C KC",
    "5S 7S JS AH 6H 8H KH 2D 6D 10D AC 3C 9C",
    "4S 8S QS 3H 7H 9H JH 4D 7D 9D 2C 5C QC",
    "2S 3S 9S 2H 4H 10H QH 3D 5D JD 4C 8C KC",
    "5S 7S JS AH 6H 8H KH 2D 6D 10D AC 3C 9C",
    "4S 8S QS 3H 7H 9H JH 4D 7D 9D 2C 5C QC",
)
WILD = "6C"  # sixes wild: the fillers hold no joker and no valid show


def pool(players: int = 3, preset: str = "pool-101", **changes: Any) -> Rules:
    return dataclasses.replace(PRESETS[preset], players=players, **changes)


def deals(players: int = 2, preset: str = "deals-2", **changes: Any) -> Rules:
    return dataclasses.replace(PRESETS[preset], players=players, **changes)


def position(
    rules: Rules,
    totals: tuple[int, ...],
    *,
    out: tuple[bool, ...] | None = None,
    dealer: int = 0,
    deal_number: int = 1,
    chips: tuple[int, ...] | None = None,
    rejoins_used: tuple[int, ...] | None = None,
    has_drawn: tuple[bool, ...] | None = None,
    tie_break: bool = False,
) -> IndianRummyState:
    """A Pool or Deals deal at its start, the seats out of the game holding nothing."""
    n = rules.players
    out = out or (False,) * n
    start = 80 * n if rules.format == "deals" else 0
    standing = Standing(
        out=out,
        rejoins_used=rejoins_used or (0,) * n,
        chips=chips or (start,) * n,
        tie_break=tie_break,
    )
    hands = ["" if out[seat] else FILLERS[seat] for seat in range(n)]
    return scenario(
        rules,
        hands,
        pile="KS",
        wild_card=WILD,
        dealer=dealer,
        totals=totals,
        deal_number=deal_number,
        standing=standing,
        has_drawn=has_drawn,
    )


def everyone_drops_but(state: IndianRummyState, winner: int) -> IndianRummyState:
    """Each seat in turn drops until only ``winner`` is left in the deal."""
    while state.phase is Phase.DRAW and state.turn != winner:
        state = ENGINE.apply(state, act.DROP, state.turn)
    if state.phase is Phase.DRAW:  # the winner is on turn: it draws and discards, play goes on
        state = ENGINE.apply(state, act.DRAW_STOCK, winner)
        state = ENGINE.apply(state, act.DISCARDS[state.drawn], winner)  # type: ignore[index]
        return everyone_drops_but(state, winner)
    return state
