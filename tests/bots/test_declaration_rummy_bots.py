"""Declaration Rummy bots in named situations: going out, declaring, draws, ties, variations."""

from __future__ import annotations

import random

import pytest

from cardtable.bots import make_bot
from cardtable.bots.declaration_hand import count_of
from cardtable.bots.declaration_rivals import typical_count
from cardtable.cards import CANT_DECLARE_0, NO_MELD_2, format_card, parse_cards
from cardtable.games.declaration_rummy import actions as act
from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import Phase

from .positions import declaration

LEVELS = ("easy", "normal", "hard")


def choose(level: str, state, seat: int = 0, seed: int = 1):  # type: ignore[no-untyped-def]
    bot = make_bot("declaration-rummy", level)
    legal = ENGINE.legal_actions(state, seat)
    action = bot.choose(ENGINE.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


@pytest.mark.parametrize("level", LEVELS)
def test_normal_goes_out_when_able(level: str) -> None:
    # 2H-4H and three nines meld; KS is the one loose card allowed.
    state = declaration(["2H 3H 4H 9S 9D 9C KS", "5C 6D 7S 8H 10C JD"])
    assert choose(level, state) == act.GO_OUT


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_lays_down_four_natural_sevens(level: str) -> None:
    rules = Rules(players=2, four_sevens=True)
    state = declaration(["7S 7H 7D 7C KS QD JH", "5C 6D 8S 8H 10C JD"], rules=rules)
    assert choose(level, state) == act.FOUR_SEVENS


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_ever_drops(level: str) -> None:
    state = declaration(["KS QD JH 10C 8S 6D 4H", "5C 6H 7S 8H 10D JC"])
    assert choose(level, state) != act.DROP


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_declares_a_count_of_two_while_the_others_still_hold_high_cards(level: str) -> None:
    # Three turns in (a tall stock, a few discards): a count of 2 with the drawn card is far
    # below what a ten-card hand has come down to.
    hand = "2H 3H 4H 5H 9S 9D 9C JS JD JC AS AD"
    rival = "KC QH 10D 8C 6H 5S 7D 3C 4C 2S"
    pile = "KH QS KD"
    placed = set(parse_cards(f"{hand} {rival} {pile}"))
    stock = " ".join(format_card(c) for c in range(52) if c not in placed)
    state = declaration([hand, rival], stock=stock, pile=pile)
    legal = ENGINE.legal_actions(state, 0)
    assert act.GO_OUT not in legal
    assert count_of(parse_cards(hand)) == 2
    assert choose(level, state) == act.DECLARE


@pytest.mark.parametrize("level", LEVELS)
def test_does_not_declare_a_high_count_at_the_start(level: str) -> None:
    hand = "KS QD JH 10C 8S 6D 4H 2C AH 3S 5D"
    state = declaration([hand, "5C 6H 7S 8H 10D JC AS 2D 3D 9C"])
    assert choose(level, state) != act.DECLARE


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_takes_the_discard_that_completes_a_meld(level: str) -> None:
    state = declaration(
        ["5H 6H KS QD JC 9D 2S 4C 8S 10C", "5C 6D 7S 8H 10D AC 3D 4D KH QC"],
        pile="3C 7H",
        phase=Phase.DRAW,
    )
    assert choose(level, state) == act.TAKE_DISCARD


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_throws_cant_declare_0_which_blocks_declaring(level: str) -> None:
    rules = Rules(players=2, optional_cards=("CD0",))
    state = declaration(["2H 3H 4H 9S 9D KC CD0 QS", "5C 6D 7S 8H 10D JC AH"], rules=rules)
    assert act.DECLARE not in ENGINE.legal_actions(state, 0)
    assert choose(level, state) == act.DISCARDS[CANT_DECLARE_0]


@pytest.mark.parametrize("level", LEVELS)
def test_never_offers_to_discard_no_meld_2(level: str) -> None:
    rules = Rules(players=2, optional_cards=("NM2",))
    state = declaration(["NM2 KS QD JH 10C 8S 6D 4H", "5C 6H 7S 8H 10D JC AH"], rules=rules)
    action = choose(level, state)
    assert action != act.DISCARDS[NO_MELD_2]


def test_normal_rejects_a_tie_when_it_is_likely_winning_and_accepts_when_losing() -> None:
    winning = declaration(["2H 3H 4H 9S 9D 9C AS", "KC QH JS 10D 8C 6H 5S"], phase=Phase.DRAW)
    proposed = ENGINE.apply(winning, act.PROPOSE_TIE, 0)
    assert proposed.phase is Phase.TIE_VOTE
    # Seat 1 (a bad hand) is asked; then the same table seen with the hands swapped.
    assert choose("normal", proposed, seat=1) == act.ACCEPT_TIE
    losing = declaration(["KC QH JS 10D 8C 6H 5S", "2H 3H 4H 9S 9D 9C AS"], phase=Phase.DRAW)
    asked = ENGINE.apply(losing, act.PROPOSE_TIE, 0)
    assert choose("normal", asked, seat=1) == act.REJECT_TIE


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_spread_out_pickup_takes_the_cards_that_complete_melds(level: str) -> None:
    rules = Rules(players=2, spread_out_discard=True)
    # Under the top KD lie 8S (a third eight) and JH (which finishes 9H 10H JH).
    state = declaration(
        ["8D 8C 9H 10H KS QD 2S 4C 6C 3S", "5C 6D 7S 9D 10D JC AH 4S 2D 7C"],
        pile="3D JH 8S KD",
        phase=Phase.DRAW,
        rules=rules,
    )
    action = choose(level, state)
    assert isinstance(action, act.TakeDiscard) and action.count == 3


def test_typical_count_shrinks_as_the_game_goes_on() -> None:
    rules = Rules(players=2)
    assert typical_count(rules, 10, 0.0) > typical_count(rules, 10, 3.0) > 0
