"""Indian Rummy bots in named situations: shows, drops, draws and what to keep."""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots import make_bot
from cardtable.cards import parse_card, parse_cards
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.formats import new_standing
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.scoring import show_discards
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, scenario
from games.indian_rummy.helpers import everyone_drops_but, pool, position

from .positions import decision_states, default_rules, indian

LEVELS = ("easy", "normal", "hard")
OTHER = "AD 2D 3D 4D 5D 6D 7D 8D 9D 10D JD QD KD"


def choose(level: str, state, seat: int = 0, seed: int = 1):  # type: ignore[no-untyped-def]
    bot = make_bot("indian-rummy", level)
    legal = ENGINE.legal_actions(state, seat)
    action = bot.choose(ENGINE.view(state, seat), legal, random.Random(seed))
    assert action in legal
    return action


@pytest.mark.parametrize("level", LEVELS)
def test_normal_declares_a_valid_show_when_it_has_one(level: str) -> None:
    # RULES.md IR5 with a spare king: 9S 10S JS is pure, 5H 6H 7H a second sequence.
    state = indian(["5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KC", OTHER], wild="7C", drawn="KC")
    action = choose(level, state)
    assert action == act.Declare(parse_card("KC"))
    after = ENGINE.apply(state, action, 0)
    assert after.last_deal is not None and after.last_deal.outcome == "valid-show"


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_declares_without_a_valid_show(level: str) -> None:
    # Two impure sequences and no pure one (IR6 with a spare card): any show would be wrong.
    state = indian(["5H 6H PJ 9S 7C JS 2C 2D 2S 4D 4C 4S 7D KH", OTHER], wild="7S")
    assert not isinstance(choose(level, state), act.Declare)


def test_normal_keeps_a_pure_sequence_rather_than_a_set_while_it_has_no_other_pure_sequence() -> (
    None
):
    # 7H can finish the only pure sequence 5H 6H 7H or the set 7H 7S 7D; a 7 of the set goes.
    state = indian(["5H 6H 7H 7S 7D 9C PJ JC KS KD KC 2S 2D 2C", OTHER], wild="8D", drawn="2C")
    action = choose("normal", state)
    assert isinstance(action, act.Discard)
    assert action.card in parse_cards("7S 7D")


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_normal_drops_a_hopeless_first_hand(level: str) -> None:
    rules = Rules(deals=1, wild_joker_cut=False)
    # Thirteen ranks, every same-suit gap three or more: nothing is near a meld.
    hand = "AS 4S 7S 10S KS 2H 5H 8H JH 3D 6D 9D QD"
    state = indian(
        [hand, "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"],
        wild=None,
        phase=Phase.DRAW,
        has_drawn=(False, False),
        rules=rules,
        turns=0,
    )
    assert choose(level, state) == act.DROP


def test_easy_never_drops() -> None:
    rules = Rules(deals=1, wild_joker_cut=False)
    state = indian(
        ["AS 4S 7S 10S KS 2H 5H 8H JH 3D 6D 9D QD", "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"],
        wild=None,
        phase=Phase.DRAW,
        has_drawn=(False, False),
        rules=rules,
        turns=0,
    )
    assert choose("easy", state) != act.DROP


@pytest.mark.parametrize("level", LEVELS)
def test_takes_the_pile_card_that_completes_a_pure_sequence(level: str) -> None:
    state = indian(
        ["5H 6H 9S 9D 9C KD KC 2S 4S 7C 8C JD QS", OTHER],
        wild="3C",
        pile="2D 7H",
        phase=Phase.DRAW,
    )
    assert choose(level, state) == act.DRAW_PILE


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_a_joker_is_never_discarded(level: str) -> None:
    state = indian(["PJ 5H 6H 9S 9D KC QS 2S 4S 7C 8C JD 3D KS", OTHER], wild="KH", drawn="KS")
    action = choose(level, state)
    assert isinstance(action, act.Discard)
    assert action.card not in parse_cards("PJ KC KS", deck=None)


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(seed=st.integers(0, 10**6), pick=st.integers(0, 10**6))
def test_hard_never_makes_a_wrong_show(seed: int, pick: int) -> None:
    guide = make_bot("indian-rummy", "easy")
    states = [
        s
        for s in decision_states(
            "indian-rummy", default_rules("indian-rummy"), seed, guide=guide, mix=0.8
        )
        if s.phase is Phase.DISCARD
    ]
    state = states[pick % len(states)]
    seat = state.turn
    for level in LEVELS:
        action = choose(level, state, seat=seat, seed=pick)
        if isinstance(action, act.Declare):
            rest = list(state.hands[seat])
            shown = show_discards(rest, state.wild_rank, state.rules)
            assert action.card in shown


# ------------------------------------------------------------------ Pool and Deals (RULES.md 2.13)

HOPELESS = "AS 4S 7S 10S KS 2H 5H 8H JH 3D 6D 9D QD"  # nothing near a meld, no joker


def _pool_first_turn(total: int) -> IndianRummyState:
    rules = dataclasses.replace(PRESETS["pool-101"], wild_joker_cut=False)
    return scenario(
        rules,
        [HOPELESS, "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"],
        pile="2C",
        dealer=1,
        totals=(total, 0),
    )


RIVALS = (
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    "AH 3H 4H 6H 7H 9H 10H QH KH 2S 3S 5S 6S",
    "2D 4D 5D 7D 8D 10D JD KD AD 8S 9S JS QS",
)


def _pool_turn(
    totals: tuple[int, ...], *, middle: bool = False, rejoins_used: int = 0
) -> IndianRummyState:
    """Seat 0 holds the hopeless hand at the start of its turn in a Pool 101 deal: its first
    turn, or (``middle``) a turn after six rounds of draws, with ``rejoins_used`` rejoins
    spent; the other seats hold the hands of :data:`RIVALS`."""
    players = len(totals)
    rules = dataclasses.replace(PRESETS["pool-101"], wild_joker_cut=False, players=players)
    standing = new_standing(rules)
    assert standing is not None
    standing = dataclasses.replace(standing, rejoins_used=(rejoins_used,) + (0,) * (players - 1))
    return scenario(
        rules,
        [HOPELESS, *RIVALS[: players - 1]],
        pile="2C",
        dealer=players - 1,
        totals=totals,
        has_drawn=(middle,) * players,
        turns=6 * players if middle else 0,
        standing=standing,
    )


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_pool_no_first_drop_that_itself_eliminates_heads_up(level: str) -> None:
    # Heads-up nobody is left to rejoin against: at 85 the drop (20) makes 105 and ends the
    # game, while playing on the hand may still show first.
    assert choose(level, _pool_first_turn(85)) != act.DROP
    assert choose(level, _pool_first_turn(95)) != act.DROP


def test_hard_middle_drops_a_hopeless_hand_that_the_penalty_keeps_in() -> None:
    # Four players, six rounds in, nothing near a meld and 80 points in hand: against three
    # rivals the hand will almost surely be counted, and counted high (Hard reads the points
    # it holds), while the 40 of a middle drop leaves it at 40 of 101.
    assert choose("hard", _pool_turn((0, 0, 0, 0), middle=True)) == act.DROP


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_pool_first_drop_of_a_hopeless_hand_while_the_drop_keeps_it_in(level: str) -> None:
    # The first drop's 20 keeps a hopeless hand in the game (90 of 101 at 70) where a count
    # would very likely eliminate it.
    assert choose(level, _pool_first_turn(70)) == act.DROP
    assert choose(level, _pool_turn((70, 0, 0, 0), rejoins_used=1)) == act.DROP


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_pool_first_drop_into_a_rejoin(level: str) -> None:
    # At 85 of a four-player pool the first drop's 20 eliminates, but with a rejoin left and
    # every other total at most 79 the player comes back at the highest total still in plus
    # one (11); with the rejoin spent the hand plays on.
    assert choose(level, _pool_turn((85, 10, 0, 0))) == act.DROP
    assert choose(level, _pool_turn((85, 10, 0, 0), rejoins_used=1)) != act.DROP


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_pool_no_middle_drop_that_eliminates_without_a_rejoin(level: str) -> None:
    # At 65 the middle drop (40) makes 105: with the rejoin spent that is the end, so the
    # hand plays on (it is out only if counted at 36 or more, and may still show first).
    state = _pool_turn((65, 0, 0, 0), middle=True, rejoins_used=1)
    assert choose(level, state) != act.DROP


@pytest.mark.parametrize("level", ("normal", "hard"))
def test_pool_middle_drop_when_a_rejoin_brings_the_player_back(level: str) -> None:
    # The same 65 with a rejoin left: every other total is at most 79, so after the 40 the
    # player comes back with the highest total still in plus one (1), better than a likely
    # count that eliminates it just the same.
    state = _pool_turn((65, 0, 0, 0), middle=True, rejoins_used=0)
    assert choose(level, state) == act.DROP


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_rejoins_and_only_a_sole_leader_plays_on(level: str) -> None:
    state = position(pool(3, agreed_finish=True), (90, 39, 59), dealer=2)
    state = everyone_drops_but(state, 2)
    assert state.phase is Phase.REJOIN
    assert choose(level, state, seat=0) == act.REJOIN
    state = ENGINE.apply(state, act.REJOIN, 0)  # totals 60, 59, 59: seats 1 and 2 lead
    assert state.phase is Phase.AGREED_FINISH and state.turn == 0
    assert choose(level, state, seat=0) == act.FINISH
    state = position(pool(3, agreed_finish=True), (30, 0, 10), dealer=2)
    state = everyone_drops_but(state, 1)  # totals 50, 0, 30: seat 1 alone leads
    state = ENGINE.apply(state, act.FINISH, 0)
    assert state.turn == 1 and choose(level, state, seat=1) == act.PLAY_ON
