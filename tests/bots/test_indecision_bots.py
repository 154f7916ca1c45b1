"""Indecision bots in named situations: stopping, drawing, keeping, and the race to the target."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.bots.indecision import race_value
from cardtable.cards import parse_card, parse_cards
from cardtable.games.indecision.actions import DRAW_DECK, DRAW_PILE, Declare, Discard, Stop
from cardtable.games.indecision.engine import ENGINE
from cardtable.games.indecision.rules import Rules
from cardtable.games.indecision.scoring import score_hand
from cardtable.games.indecision.state import Phase

from .positions import indecision

LEVELS = ("easy", "normal", "hard")


def choose(level: str, state, seat: int = 0, seed: int = 1):  # type: ignore[no-untyped-def]
    bot = make_bot("indecision", level)
    legal = ENGINE.legal_actions(state, seat)
    action = bot.choose(ENGINE.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


@pytest.mark.parametrize("level", LEVELS)
def test_easy_does_not_stop_an_indecision_hand_that_would_forfeit(level: str) -> None:
    # Three sevens score 12 but 2D, 9S and KD are never all used: every stop forfeits.
    state = indecision(["7S 7H 7D 2C 9S KD", "3H 4H 8C JC QS"], pile="5D")
    action = choose(level, state)
    assert isinstance(action, Discard)


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_stops_before_every_player_has_had_a_turn(level: str) -> None:
    # The starter's opening six hold a valid Run of 5, but the other seat has not played yet.
    state = indecision(
        ["5H 6H 7H 8C 9D 2S", "3H 4H 8S JC QS"], phase=Phase.OPENING, had_turn=(), pile=""
    )
    assert not isinstance(choose(level, state), Stop)


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_stops_when_the_stop_reaches_the_target_first(level: str) -> None:
    # 115 + a valid Run of 5 (9 points) reaches 121 before the other seat is counted.
    state = indecision(["5H 6H 7H 8C 9D 2S", "3H 4H 8S JC QS"], totals=(115, 100))
    action = choose(level, state)
    assert action == Stop(parse_card("2S"))


def test_easy_stops_a_valid_hand_worth_ten_or_more() -> None:
    state = indecision(["9S 9D 9C 3D 3C KH", "3H 4H 8S JC QS"])
    assert score_hand("9S 9D 9C 3D 3C").score == 14
    assert choose("easy", state) == Stop(parse_card("KH"))


def test_normal_does_not_stop_when_the_count_would_carry_the_opponent_past_the_target() -> None:
    # Seat 1 needs two points; stopping counts its hand too, and a pair is likely.
    state = indecision(["9S 9D 9C 3D 3C KH", "3H 4H 8S JC QS"], totals=(40, 119))
    assert not isinstance(choose("normal", state), Stop)


def test_normal_stops_a_strong_valid_hand() -> None:
    # Prile of 3 and a pair (14 points, all used) late in a hand is well above a typical hand.
    state = indecision(["9S 9D 9C 3D 3C KH", "3H 4H 8S JC QS"], had_turn=(0, 1))
    assert choose("normal", state) == Stop(parse_card("KH"))


@pytest.mark.parametrize("level", ("easy", "normal"))
def test_takes_the_pile_card_that_makes_a_prile(level: str) -> None:
    state = indecision(
        ["7S 7H 2C 9D KS", "3H 4H 8S JC QS"], pile="5C 7D", phase=Phase.DRAW, to_act=0
    )
    assert choose(level, state) == DRAW_PILE


def test_normal_draws_from_the_deck_when_the_pile_card_is_useless() -> None:
    state = indecision(
        ["7S 7H 7C 9D 9H", "3H 4H 8S JC QS"], pile="5C 2D", phase=Phase.DRAW, to_act=0
    )
    assert choose("normal", state) == DRAW_DECK


@pytest.mark.parametrize("level", LEVELS)
def test_discard_keeps_the_melds_and_throws_the_loose_card(level: str) -> None:
    # 5H 6H 7H 8H make a Run on a Bike of 4; KC touches nothing.
    state = indecision(["5H 6H 7H 8H KC 2D", "3D 4D 8S JC QS"], had_turn=(0,))
    action = choose(level, state)
    assert isinstance(action, Discard | Stop)
    assert action.card in parse_cards("KC 2D")


@pytest.mark.parametrize("level", LEVELS)
def test_manual_declaration_announces_the_true_score(level: str) -> None:
    rules = Rules(manual_declaration=True)
    # The counting phase comes from a real stop: seat 0 stops a valid hand.
    start = indecision(["9S 9D 9C 3D 3C KH", "3H 4H 8S JC QS"], rules=rules)
    counting = ENGINE.apply(start, Stop(parse_card("KH")), 0)
    while ENGINE.current_player(counting) < 0 and counting.phase is not Phase.DECLARE:
        counting = ENGINE.chance_step(counting)
    seat = ENGINE.current_player(counting)
    action = choose(level, counting, seat=seat)
    hand = counting.hands[seat]
    assert action == Declare(score_hand(hand).score)


def test_race_value_favours_the_leader_and_is_even_when_level() -> None:
    assert race_value((60, 60), 0, 121, 2) == pytest.approx(0.5)
    assert race_value((100, 60), 0, 121, 2) > 0.8
    assert race_value((60, 100), 0, 121, 2) < 0.2
