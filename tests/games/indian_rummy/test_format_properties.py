"""Invariants of Pool and Deals games (RULES.md 2.13) over random legal play: the pack is whole,
players out of the game hold nothing and never act, the dealer is always a player still in,
chips are neither made nor lost, totals only grow (but for a rejoin, to the highest total plus
one), the result is the final standing, views leak nothing, and the record replays."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.formats import deals_to_play
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, pack_of
from cardtable.replay import record_of, replay

FORMATS = ["pool-101", "pool-201", "deals-2", "deals-3", "deals-6"]


def _check(state: IndianRummyState, before: IndianRummyState | None) -> None:
    rules = state.rules
    standing = state.standing
    assert standing is not None
    if state.deal_number > 0:
        assert state.card_places() == Counter(pack_of(rules))
    playing = state.phase in (Phase.DRAW, Phase.DISCARD, Phase.RESHUFFLE)
    for seat, out in enumerate(standing.out):
        if out and playing:
            assert state.hands[seat] == () and state.drops[seat] == 0
    if playing:
        assert not standing.out[state.dealer]
        assert not standing.out[state.turn]
    if rules.format == "deals":
        assert sum(standing.chips) == rules.chips_per_player * rules.players**2
        assert min(standing.chips) >= 0
    elif playing:
        assert all(state.totals[seat] < rules.pool_limit for seat in standing.seats_in)
    if before is not None and before.standing is not None:
        for seat in range(rules.players):
            grew = state.totals[seat] >= before.totals[seat]
            rejoined = state.phase is not Phase.GAME_OVER and (
                before.standing.out[seat] and not standing.out[seat]
            )
            if rejoined:
                assert state.totals[seat] == before.standing.rejoin_total
                assert state.totals[seat] <= rules.rejoin_limit + 1
            else:
                assert grew


@settings(max_examples=40, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    players=st.integers(2, 6),
    preset=st.sampled_from(FORMATS),
    agreed=st.booleans(),
)
def test_random_play_of_pool_and_deals_keeps_every_invariant(
    seed: int, players: int, preset: str, agreed: bool
) -> None:
    rules = dataclasses.replace(
        PRESETS[preset], players=players, deal_turn_cap=60, agreed_finish=agreed
    )
    rng = random.Random(seed)
    state = ENGINE.new_game(rules, seed)
    log: list[tuple[int, act.IndianRummyAction]] = []
    before: IndianRummyState | None = None
    while True:
        seat = ENGINE.current_player(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state = ENGINE.chance_step(state)
            continue
        _check(state, before)
        standing = state.standing
        assert standing is not None
        if state.phase is Phase.REJOIN:
            assert standing.out[seat]
        else:
            assert not standing.out[seat]
        if len(log) % 7 == 0:
            view = ENGINE.view(state, seat)
            assert ENGINE.view(ENGINE.determinize(view, rng), seat) == view
        legal = list(ENGINE.legal_actions(state, seat))
        for other in range(players):
            if other != seat:
                assert ENGINE.legal_actions(state, other) == ()
        action = legal[rng.randrange(len(legal))]
        assert ENGINE.parse_action(str(action)) == action
        checked = ENGINE.apply(state, action, seat)
        assert checked == ENGINE.apply_unchecked(state, action, seat)
        log.append((seat, action))
        before, state = state, checked
    result = ENGINE.result(state)
    assert result is not None
    standing = state.standing
    assert standing is not None and result.winners == standing.winners
    assert result.winners and set(result.winners) <= set(standing.seats_in)
    assert sum(result.utilities) == 1.0 or abs(sum(result.utilities) - 1.0) < 1e-9
    if rules.format == "pool":
        assert result.scores == state.totals
        if result.reason == "last-player":
            assert state.totals[result.winners[0]] < rules.pool_limit
            assert len(standing.seats_in) == 1
    else:
        assert result.scores == standing.chips
        best = max(standing.chips)
        assert all(standing.chips[seat] == best for seat in result.winners)
        if result.reason == "most-chips":
            assert standing.chips.count(best) == 1
        assert len(state.deal_points) >= deals_to_play(rules)
    assert replay(record_of("indian-rummy", rules, seed, log)) == state
