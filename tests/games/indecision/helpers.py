"""Building Indecision positions for scenario tests, playing random legal moves, and the
invariants every state must keep."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import Any

import engine_moves
from cardtable.cards import parse_cards
from cardtable.games.contract import TERMINAL
from cardtable.games.indecision import ENGINE, Phase, Rules, State, Stop
from cardtable.games.indecision.state import scenario


def cards(text: str) -> tuple[int, ...]:
    return parse_cards(text)


def position(
    rules: Rules,
    hands: Sequence[str],
    *,
    pile: str = "",
    deck: str | None = None,
    **kwargs: Any,
) -> State:
    """A state in the middle of a hand with the given cards (the package's ``scenario``; the
    deck holds every other card, top last, unless given)."""
    state = scenario(rules, hands, pile=pile, deck=deck, **kwargs)
    used = {c for hand in state.hands for c in hand} | set(state.pile)
    assert len(used) + len(state.deck) == 52 or deck is not None
    return state


def dealt(rules: Rules, seed: int) -> State:
    """A new game advanced through its chance steps to the first seat decision."""
    return advance(ENGINE.new_game(rules, seed))


def advance(state: State) -> State:
    """Run every due chance step."""
    return engine_moves.advance(ENGINE, state)


def play_moves(state: State, moves: Sequence[tuple[int, str]]) -> State:
    """Apply ``(seat, notation)`` moves through the checked path, running chance steps."""
    return engine_moves.play(ENGINE, state, moves)


def card_places(state: State) -> list[int]:
    """Every card in the state's places (hands, deck, pile, stop area)."""
    places = [c for hand in state.hands for c in hand] + list(state.deck) + list(state.pile)
    if state.counting is not None and state.counting.stop_card >= 0:
        places.append(state.counting.stop_card)
    return places


def check_invariants(state: State) -> None:
    """Card conservation and hand sizes."""
    places = card_places(state)
    if state.table.hand_number == 0:
        assert places == []
        return
    assert sorted(places) == list(range(52)), "a card is missing or in two places"
    seat = ENGINE.current_player(state)
    if seat >= 0 and state.phase in (Phase.OPENING, Phase.DISCARD, Phase.DRAW):
        for other, hand in enumerate(state.hands):
            holding_six = other == seat and state.phase is not Phase.DRAW
            assert len(hand) == (6 if holding_six else 5)
    if seat == TERMINAL:
        assert ENGINE.result(state) is not None


def random_policy(stop_chance: float):  # type: ignore[no-untyped-def]
    """A move chooser: stops with probability ``stop_chance`` when it may, else a random
    non-stop action (so hands last and decks run out)."""

    def choose(legal: Sequence[object], rng: random.Random) -> object:
        stops = [a for a in legal if isinstance(a, Stop)]
        others = [a for a in legal if not isinstance(a, Stop)]
        if stops and (not others or rng.random() < stop_chance):
            return rng.choice(stops)
        return rng.choice(others)

    return choose


def with_rules(state: State, **changes: Any) -> State:
    table = state.table._replace(rules=dataclasses.replace(state.rules, **changes))
    return state._replace(table=table)
