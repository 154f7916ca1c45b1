"""Full-length random playouts: the playout seat never drops, declares only valid shows (and
every valid one stays on offer), proposes no tie; the totals add up and replay from a seed."""

from __future__ import annotations

import random

import pytest

from cardtable.cards import parse_card
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.declaration_rummy import actions as dr_act
from cardtable.games.declaration_rummy.engine import ENGINE as DR_ENGINE
from cardtable.games.declaration_rummy.rules import Rules as DrRules
from cardtable.games.indecision.engine import ENGINE as INDECISION_ENGINE
from cardtable.games.indecision.rules import Rules as IndecisionRules
from cardtable.games.indian_rummy import actions as ir_act
from cardtable.games.indian_rummy.engine import ENGINE as IR_ENGINE
from cardtable.games.indian_rummy.rules import Rules as IrRules
from cardtable.games.indian_rummy.state import Phase
from cardtable.melds.indian import show_discards
from cardtable.playouts import gin_rummy_playouts, playing_actions, random_playouts
from games.indian_rummy.helpers import show_once_kd_is_down


def test_indian_rummy_playout_seat_never_drops_and_offers_exactly_the_valid_shows() -> None:
    choices = playing_actions(IR_ENGINE)
    rng = random.Random(3)
    for seed in range(6):
        rules = IrRules(players=2, deals=1, deal_turn_cap=120)
        state = IR_ENGINE.new_game(rules, seed)
        while (seat := IR_ENGINE.current_player(state)) != TERMINAL:
            if seat == CHANCE:
                state = IR_ENGINE.chance_step(state)
                continue
            legal = IR_ENGINE.legal_actions(state, seat)
            playing = choices(state, seat, legal)
            assert ir_act.DROP not in playing
            if state.phase is Phase.DISCARD:
                valid = set(show_discards(state.hands[seat], state.wild_rank))
                declares = {a.card for a in playing if isinstance(a, ir_act.Declare)}
                legal_declares = {a.card for a in legal if isinstance(a, ir_act.Declare)}
                assert declares == valid & legal_declares
                assert [a for a in playing if isinstance(a, ir_act.Discard)] == [
                    a for a in legal if isinstance(a, ir_act.Discard)
                ]
            state = IR_ENGINE.apply_unchecked(state, playing[rng.randrange(len(playing))], seat)
        assert state.last_deal is not None
        assert state.last_deal.outcome in ("valid-show", "abandoned")


def test_indian_rummy_playout_seat_may_declare_a_valid_show_but_not_a_wrong_one() -> None:
    # 14 cards holding a show once KD is put down (wild rank 7): declare KD is on offer, no
    # other declaration is, and every discard is.
    state = show_once_kd_is_down(IrRules(players=2))
    legal = IR_ENGINE.legal_actions(state, 0)
    playing = playing_actions(IR_ENGINE)(state, 0, legal)
    assert [a for a in playing if isinstance(a, ir_act.Declare)] == [
        ir_act.DECLARES[parse_card("KD")]
    ]
    assert [a for a in playing if isinstance(a, ir_act.Discard)] == [
        a for a in legal if isinstance(a, ir_act.Discard)
    ]


@pytest.mark.parametrize(
    ("rules", "seed"),
    [
        (DrRules(players=3), 9),
        (DrRules(players=2), 3),
        (DrRules(players=10), 5),
        (DrRules(players=4, four_sevens=True, three_card_draw=True), 6),
    ],
)
def test_declaration_rummy_playout_seat_never_drops_or_proposes_a_tie(
    rules: DrRules, seed: int
) -> None:
    choices = playing_actions(DR_ENGINE)
    rng = random.Random(4)
    state = DR_ENGINE.new_game(rules, seed)
    while (seat := DR_ENGINE.current_player(state)) != TERMINAL:
        if seat == CHANCE:
            state = DR_ENGINE.chance_step(state)
            continue
        legal = DR_ENGINE.legal_actions(state, seat)
        playing = choices(state, seat, legal)
        assert playing
        assert not any(isinstance(a, dr_act.Drop | dr_act.ProposeTie) for a in playing)
        assert set(playing) == {
            a for a in legal if not isinstance(a, dr_act.Drop | dr_act.ProposeTie)
        }
        state = DR_ENGINE.apply_unchecked(state, playing[rng.randrange(len(playing))], seat)


def test_random_playouts_count_the_games_and_replay_from_the_seed() -> None:
    rules = IrRules(players=3, deals=1, deal_turn_cap=60)
    first = random_playouts(IR_ENGINE, rules, 11, games=4)
    again = random_playouts(IR_ENGINE, rules, 11, games=4)
    assert first.games == 4 and sum(first.endings.values()) == 4
    assert (first.decisions, first.chance_steps) == (again.decisions, again.chance_steps)
    # A deal that no one shows runs to the cap: 60 turns of two decisions each.
    assert first.decisions <= 4 * 120 and first.decisions > 4 * 2
    assert first.microseconds_per_decision > 0
    indecision = random_playouts(INDECISION_ENGINE, IndecisionRules(), 5, games=2)
    assert indecision.games == 2 and indecision.decisions > 0


def test_gin_rummy_playouts_play_whole_games_until_the_cpu_budget_is_spent() -> None:
    pytest.importorskip("pyspiel")
    timed = gin_rummy_playouts(3, cpu_seconds=0.05)
    assert timed.cpu_seconds >= 0.05 and timed.games >= 1
    assert sum(timed.endings.values()) == timed.games and timed.decisions > timed.games
    with pytest.raises(ValueError, match="one of a number of games, seconds or CPU seconds"):
        gin_rummy_playouts(3, games=1, cpu_seconds=0.05)


def test_random_playouts_want_games_or_seconds() -> None:
    with pytest.raises(ValueError, match="either a number of games or a number of seconds"):
        random_playouts(IR_ENGINE, IrRules(), 1)
    with pytest.raises(ValueError, match="either a number of games or a number of seconds"):
        random_playouts(IR_ENGINE, IrRules(), 1, games=1, seconds=1.0)
