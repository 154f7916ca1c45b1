"""The improving rollout seat of Indian Rummy (``cardtable.playouts.improving_actions``): it never
drops, declares only valid shows and always declares one when it can, takes the pile's card
only when it completes a group, keeps its groups and throws its least linked, highest card; its
hands count fewer points than the playing seat's, and its rollouts mostly reach a valid show."""

from __future__ import annotations

import random
import statistics
from collections.abc import Sequence
from typing import Any

from cardtable.cards import parse_card
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.declaration_rummy.engine import ENGINE as DR_ENGINE
from cardtable.games.indecision.engine import ENGINE as INDECISION_ENGINE
from cardtable.games.indian_rummy import actions as ir_act
from cardtable.games.indian_rummy.engine import ENGINE, hand_points
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, scenario
from cardtable.melds.indian import show_discards
from cardtable.playouts import Choices, improving_actions, playing_actions
from games.indian_rummy.helpers import everyone_drops_but, pool, position

IMPROVING = improving_actions(ENGINE)
PLAYING = playing_actions(ENGINE)


def _valid(state: IndianRummyState, seat: int) -> set[int]:
    rules = state.rules
    return set(
        show_discards(
            state.hands[seat],
            state.wild_rank,
            jokers_per_sequence=rules.jokers_per_sequence,
            all_joker_groups=rules.all_joker_groups,
        )
    )


def _step(state: IndianRummyState, choices: Choices, rng: random.Random) -> IndianRummyState:
    seat = ENGINE.current_player(state)
    playing = choices(state, seat, ENGINE.legal_actions(state, seat))
    return ENGINE.apply_unchecked(state, playing[rng.randrange(len(playing))], seat)


def _dealt(rules: Rules, seed: int) -> IndianRummyState:
    state = ENGINE.new_game(rules, seed)
    while ENGINE.current_player(state) == CHANCE:
        state = ENGINE.chance_step(state)
    return state


def test_the_improving_seat_never_drops_and_declares_exactly_when_a_show_is_valid() -> None:
    rng = random.Random(5)
    for players, seed in [(2, s) for s in range(8)] + [(3, 8), (4, 9)]:
        state = ENGINE.new_game(Rules(players=players, deals=1), seed)
        while (seat := ENGINE.current_player(state)) != TERMINAL:
            if seat == CHANCE:
                state = ENGINE.chance_step(state)
                continue
            legal = ENGINE.legal_actions(state, seat)
            playing = IMPROVING(state, seat, legal)
            assert playing and set(playing) <= set(legal)
            assert ir_act.DROP not in playing
            if state.phase is Phase.DRAW:
                assert len(playing) == 1
            else:
                shows = _valid(state, seat) & {
                    a.card for a in legal if isinstance(a, ir_act.Declare)
                }
                declares = {a.card for a in playing if isinstance(a, ir_act.Declare)}
                # Every valid show on offer and nothing else: a declaration is never wrong.
                assert declares == shows
                if shows:
                    assert len(declares) == len(playing)
            state = ENGINE.apply_unchecked(state, playing[rng.randrange(len(playing))], seat)
        assert state.last_deal is not None
        assert state.last_deal.outcome == "valid-show"


def _mean_points_after(choices: Choices, turns: int, deals: int) -> float:
    """Mean hand points (best arrangement, capped) of every seat at the start of turn
    ``turns``, over the seeded deals that last that long."""
    rng = random.Random(8)
    rules = Rules(players=2, deals=1)
    points: list[float] = []
    for seed in range(deals):
        state = _dealt(rules, 100 + seed)
        while ENGINE.current_player(state) != TERMINAL and (
            state.turns < turns or state.phase is not Phase.DRAW
        ):
            state = _step(state, choices, rng)
        if ENGINE.current_player(state) != TERMINAL:
            points.extend(hand_points(hand, state.wild_rank, rules) for hand in state.hands)
    assert len(points) >= deals  # at least half the deals last the turns
    return statistics.fmean(points)


def test_the_improving_seats_hands_count_fewer_points_than_the_playing_seats() -> None:
    improving = _mean_points_after(IMPROVING, 8, 40)
    playing = _mean_points_after(PLAYING, 8, 40)
    assert improving < playing - 15


def _show_share(choices: Choices, decisions: int, deals: int) -> float:
    """The share of seeded deals that a valid show ends within ``decisions`` seat decisions."""
    rng = random.Random(9)
    shown = 0
    for seed in range(deals):
        state = _dealt(Rules(players=2, deals=1), 200 + seed)
        for _ in range(decisions):
            if ENGINE.current_player(state) == TERMINAL:
                break
            state = _step(state, choices, rng)
            while ENGINE.current_player(state) == CHANCE:
                state = ENGINE.chance_step(state)
        shown += state.last_deal is not None and state.last_deal.outcome == "valid-show"
    return shown / deals


def test_rollouts_of_the_improving_seat_mostly_reach_a_valid_show() -> None:
    # Within a search rollout's 40 decisions: measured 85% of these 60 deals (82% of 300).
    improving = _show_share(IMPROVING, 40, 60)
    assert improving >= 0.5
    assert _show_share(PLAYING, 40, 60) < improving / 4


def _at_discard(hand: str, *, drawn: str, pile: str = "QH", taken: bool = False) -> Any:
    other = "AS 2H 3C 5D 6D 8C 9C 10C JC QC KC AC 3D"
    return scenario(
        Rules(players=2),
        [hand, other],
        pile=pile,
        wild_card="7C",
        phase=Phase.DISCARD,
        turn=0,
        drawn=drawn,
        drawn_from_pile=taken,
    )


def _cards(actions: Sequence[Any]) -> set[str]:
    return {str(a) for a in actions}


def test_the_improving_seat_keeps_its_groups_and_throws_its_least_linked_highest_card() -> None:
    # Sevens wild. In groups: the pure run 2S 3S 4S and the nines. Linked to one card: 5D 6D,
    # JD (9D), 4C (4S), 8H (9H). Linked to none and worth 10: KH, QC and AD, a tie left to the
    # caller's random pick.
    hand = "2S 3S 4S 9S 9H 9D 5D 6D KH QC 4C JD AD 8H"
    state = _at_discard(hand, drawn="8H")
    legal = ENGINE.legal_actions(state, 0)
    assert _cards(IMPROVING(state, 0, legal)) == {"discard KH", "discard QC", "discard AD"}


def test_the_improving_seat_never_puts_down_the_card_it_took_or_a_joker() -> None:
    # KH taken from the pile may not go back; 7S and the printed joker are jokers (sevens
    # wild). Every other card outside a group has one link; 8H is the highest of them.
    hand = "2S 3S 4S 9S 9H 9D 5D 6D KH 7S PJ 4C 3H 8H"
    state = _at_discard(hand, drawn="KH", taken=True)
    legal = ENGINE.legal_actions(state, 0)
    chosen = _cards(IMPROVING(state, 0, legal))
    assert chosen and not chosen & {"discard KH", "discard 7S", "discard PJ"}
    assert chosen == {"discard 8H"}


def test_the_improving_seat_takes_the_pile_card_only_when_it_completes_a_group() -> None:
    hand = "2S 3S 9S 9H 5D 6D KH QC 4C JD AD 8H 10C"
    for top, wanted in (
        ("4S", ir_act.DRAW_PILE),
        ("9D", ir_act.DRAW_PILE),
        ("KD", ir_act.DRAW_STOCK),
    ):
        state = scenario(
            Rules(players=2),
            [hand, "AS 2H 3C 5C 6C 8C 9C 10S JC QS KC AC 3D"],
            pile=top,
            wild_card="7C",
            turn=0,
        )
        legal = ENGINE.legal_actions(state, 0)
        assert ir_act.DRAW_PILE in legal and ir_act.DROP in legal
        assert list(IMPROVING(state, 0, legal)) == [wanted], top


def test_the_improving_seat_declares_a_valid_show() -> None:
    hand = "5H 6H 7H 9S 10S JS 2C 2D 2S 4H 4D 4C 4S KD"
    state = _at_discard(hand, drawn="KD")
    legal = ENGINE.legal_actions(state, 0)
    assert list(IMPROVING(state, 0, legal)) == [ir_act.DECLARES[parse_card("KD")]]


def test_the_other_games_improving_seat_is_their_playing_seat() -> None:
    assert improving_actions(DR_ENGINE) is playing_actions(DR_ENGINE)
    assert improving_actions(INDECISION_ENGINE) is playing_actions(INDECISION_ENGINE)


def test_the_improving_and_playing_seats_answer_a_pool_rejoin_offer() -> None:
    # RULES.md 2.13: between the deals of a Pool game the only moves are the two answers.
    state = everyone_drops_but(position(pool(3), (90, 39, 59), dealer=2), 2)
    legal = ENGINE.legal_actions(state, 0)
    assert state.phase is Phase.REJOIN
    assert list(IMPROVING(state, 0, legal)) == [ir_act.REJOIN, ir_act.STAY_OUT]
    assert list(PLAYING(state, 0, legal)) == [ir_act.REJOIN, ir_act.STAY_OUT]
