"""One named scenario per line of RULES.md 2.13 (Pool 101 / 201 and Deals), played on the engine
through the checked path, plus the checks of the two decisions between deals."""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from cardtable.errors import IllegalActionError, RuleKey, RulesError
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.formats import Standing
from cardtable.games.indian_rummy.rules import PRESETS, Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, pack_of

from .helpers import advance, deals, everyone_drops_but, legal_texts, play, pool, position


def standing_of(state: IndianRummyState) -> Standing:
    assert state.standing is not None
    return state.standing


# ------------------------------------------------------------------ presets and free play


def test_free_play_stays_the_default_with_no_standing() -> None:
    rules = Rules()
    assert rules.format == "free-play"
    state = ENGINE.new_game(rules, 3)
    assert state.standing is None
    assert "standing" not in ENGINE.view(advance(state), 0).to_json()


@pytest.mark.parametrize("name", ["pool-101", "pool-201", "deals-2", "deals-3", "deals-6"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_pool_and_deals_presets_seat_two_to_six_players_with_the_106_card_pack(
    name: str, players: int
) -> None:
    rules = dataclasses.replace(PRESETS[name], players=players)
    state = advance(ENGINE.new_game(rules, players))
    assert state.card_places() == Counter(pack_of(rules))
    assert sum(state.card_places().values()) == 106
    assert all(len(hand) == 13 for hand in state.hands)


def test_format_presets_refuse_seven_players() -> None:
    with pytest.raises(RulesError, match="2 to 6 players"):
        dataclasses.replace(PRESETS["pool-101"], players=7)


def test_deals_format_without_a_number_of_deals_plays_two() -> None:
    state = position(Rules(format="deals"), (0, 0), deal_number=2)
    state = play(state, (1, "drop"))
    result = ENGINE.result(state)
    assert result is not None and result.reason == "most-chips"


def test_pool_rejoin_limit_must_be_below_the_pool_limit() -> None:
    with pytest.raises(RulesError, match="rejoin_limit"):
        Rules(format="pool", pool_limit=101, rejoin_limit=101)


# ------------------------------------------------------------------ Pool: scoring and drops


def test_pool_deal_is_scored_as_in_2_8_and_the_totals_accumulate() -> None:
    state = position(pool(3), (30, 10, 0), dealer=2)
    # Seat 0 declares a wrong show (the fillers hold no show): 80, the others 0 (2.7).
    state = play(state, (0, "draw stock"))
    state = ENGINE.apply(state, act.DECLARES[state.hands[0][0]], 0)
    summary = state.last_deal
    assert summary is not None and summary.outcome == "wrong-show"
    assert summary.points == (80, 0, 0)
    assert state.totals == (110, 10, 0)


def test_pool_full_count_is_capped_at_80_in_both_pools() -> None:
    for preset in ("pool-101", "pool-201"):
        assert PRESETS[preset].max_points == 80
        assert PRESETS[preset].wrong_show_penalty == 80


@pytest.mark.parametrize(
    ("preset", "first", "middle"), [("pool-101", 20, 40), ("pool-201", 25, 50)]
)
def test_pool_drops_cost_20_and_40_in_pool_101_and_25_and_50_in_pool_201(
    preset: str, first: int, middle: int
) -> None:
    rules = pool(3, preset)
    state = position(rules, (0, 0, 0), dealer=2)
    state = play(state, (0, "drop"))
    assert state.drops[0] == first
    later = position(rules, (0, 0, 0), dealer=2, has_drawn=(True, True, True))
    later = play(later, (0, "drop"))
    assert later.drops[0] == middle


# ------------------------------------------------------------------ Pool: elimination


def test_pool_player_reaching_the_limit_is_eliminated_at_the_end_of_that_deal() -> None:
    state = position(pool(3), (85, 0, 90), dealer=2)
    state = play(state, (0, "drop"))  # 85 + 20 = 105, but the deal goes on
    assert not standing_of(state).out[0]
    state = everyone_drops_but(state, 1)  # seat 2 drops too: 110
    standing = standing_of(state)
    assert state.totals == (105, 0, 110)
    assert standing.out == (True, False, True)
    assert standing.eliminated == (0, 2)
    assert [e.seat for e in state.events if e.verb == "eliminated"] == [0, 2]


def test_pool_player_exactly_at_the_limit_is_eliminated() -> None:
    state = position(pool(4), (81, 0, 0, 0), dealer=3)
    state = everyone_drops_but(state, 1)  # seat 0 drops first: 81 + 20 = 101
    assert state.totals[0] == 101
    assert standing_of(state).out[0]


def test_pool_eliminated_player_sits_out_while_the_others_play_on() -> None:
    rules = pool(4, rejoins=0)
    state = position(rules, (95, 0, 0, 0), dealer=3)
    state = everyone_drops_but(state, 1)  # seat 0 out at 115; seats 2 and 3 at 20
    assert standing_of(state).out == (True, False, False, False)
    assert ENGINE.current_player(state) == CHANCE
    state = advance(state)
    assert state.hands[0] == ()
    assert all(len(state.hands[seat]) == 13 for seat in (1, 2, 3))
    assert legal_texts(state, 0) == []
    seen = set()
    while state.phase is not Phase.DEAL:
        seat = state.turn
        seen.add(seat)
        state = play(state, (seat, "draw stock"))
        state = ENGINE.apply(state, act.DISCARDS[state.drawn], seat)  # type: ignore[index]
        if len(seen) == 3 and state.turn == min(seen):
            break
    assert seen == {1, 2, 3}
    problem = ENGINE.why_illegal(state, act.DRAW_STOCK, 0)
    assert problem is not None and problem.rule is RuleKey.ELIMINATED


def test_pool_last_player_left_wins_and_the_scores_are_the_final_totals() -> None:
    state = position(pool(2), (95, 40), dealer=1)
    state = play(state, (0, "drop"))  # 115: seat 1 is the last player left
    assert ENGINE.current_player(state) == TERMINAL
    result = ENGINE.result(state)
    assert result is not None
    assert result.winners == (1,)
    assert result.reason == "last-player"
    assert result.scores == (115, 40)
    assert result.scores[1] < 101
    assert result.utilities == (0.0, 1.0)


def test_pool_with_everyone_still_in_reaching_the_limit_the_lowest_total_wins() -> None:
    rules = pool(2, wrong_show_others="counted")
    state = position(rules, (60, 95), dealer=1)
    state = play(state, (0, "draw stock"))
    state = ENGINE.apply(state, act.DECLARES[state.hands[0][0]], 0)  # wrong show: 140
    # Seat 1's cards count after the wrong show (no pure sequence: capped at 80).
    assert state.totals == (140, 175)
    result = ENGINE.result(state)
    assert result is not None and result.reason == "all-eliminated"
    assert result.winners == (0,)


# ------------------------------------------------------------------ Pool: rejoin


def test_pool_rejoin_is_offered_while_the_highest_total_still_in_is_at_most_79() -> None:
    state = position(pool(3), (90, 39, 59), dealer=2)
    state = everyone_drops_but(state, 2)  # seat 0 out at 110; seat 1 at 59; seat 2 at 59
    assert state.phase is Phase.REJOIN
    assert ENGINE.current_player(state) == 0
    assert legal_texts(state, 0) == ["rejoin", "stay out"]
    assert legal_texts(state, 1) == []


def test_pool_rejoin_comes_back_with_the_highest_total_plus_one() -> None:
    state = position(pool(3), (90, 39, 59), dealer=2)
    state = everyone_drops_but(state, 2)
    state = play(state, (0, "rejoin"))
    standing = standing_of(state)
    assert state.totals == (60, 59, 59)
    assert standing.out == (False, False, False)
    assert standing.rejoins_used == (1, 0, 0)
    assert state.phase is Phase.DEAL
    state = advance(state)
    assert len(state.hands[0]) == 13


def test_pool_rejoin_is_not_offered_once_the_highest_total_still_in_is_over_79() -> None:
    state = position(pool(3), (90, 60, 0), dealer=2)
    state = everyone_drops_but(state, 2)  # seat 1 at 80: the window is shut
    assert standing_of(state).out[0]
    assert state.phase is Phase.DEAL
    problem = ENGINE.why_illegal(state, act.REJOIN, 0)
    assert problem is not None  # the deal is due; no offer is open


def test_pool_rejoin_window_is_at_most_174_in_pool_201() -> None:
    open_state = position(pool(3, "pool-201"), (190, 149, 0), dealer=2)
    open_state = everyone_drops_but(open_state, 2)  # seat 0: 215; seat 1: 174
    assert open_state.phase is Phase.REJOIN
    shut = position(pool(3, "pool-201"), (190, 150, 0), dealer=2)
    shut = everyone_drops_but(shut, 2)  # seat 1: 175
    assert shut.phase is Phase.DEAL


def test_pool_rejoin_is_allowed_once_per_game() -> None:
    state = position(pool(3), (90, 0, 0), dealer=2, rejoins_used=(1, 0, 0))
    state = everyone_drops_but(state, 2)
    assert standing_of(state).out[0]
    assert state.phase is Phase.DEAL


def test_pool_staying_out_leaves_the_player_out_for_the_rest_of_the_game() -> None:
    state = position(pool(3), (90, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    state = play(state, (0, "stay out"))
    assert standing_of(state).out == (True, False, False)
    assert state.totals[0] == 110
    state = advance(state)
    assert state.hands[0] == ()


def test_pool_rejoin_switched_off_offers_nothing() -> None:
    state = position(pool(3, rejoins=0), (90, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    assert state.phase is Phase.DEAL


def test_pool_rejoin_offer_is_answered_only_by_the_player_offered() -> None:
    state = position(pool(3), (90, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    refused: list[tuple[int, act.IndianRummyAction, RuleKey]] = [
        (1, act.REJOIN, RuleKey.NOT_YOUR_TURN),
        (0, act.DRAW_STOCK, RuleKey.REJOIN_OFFER),
        (0, act.FINISH, RuleKey.REJOIN_OFFER),
    ]
    for seat, action, rule in refused:
        with pytest.raises(IllegalActionError) as caught:
            ENGINE.apply(state, action, seat)
        assert caught.value.rule is rule
    assert state.phase is Phase.REJOIN  # refused answers change nothing


def test_rejoin_outside_an_offer_is_refused_with_its_rule() -> None:
    state = position(pool(3), (0, 0, 0), dealer=2)
    problem = ENGINE.why_illegal(state, act.REJOIN, 0)
    assert problem is not None and problem.rule is RuleKey.NO_REJOIN_OFFER
    free = advance(ENGINE.new_game(Rules(), 1))
    problem = ENGINE.why_illegal(free, act.PLAY_ON, free.turn)
    assert problem is not None and problem.rule is RuleKey.NO_FINISH_VOTE


# ------------------------------------------------------------------ Pool: agreed finish


def test_pool_agreed_finish_is_off_by_default() -> None:
    assert PRESETS["pool-101"].agreed_finish is False
    state = position(pool(3), (10, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    assert state.phase is Phase.DEAL


def test_pool_agreed_finish_when_all_of_three_left_agree_they_share_the_win() -> None:
    state = position(pool(3, agreed_finish=True), (10, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    assert state.phase is Phase.AGREED_FINISH
    assert legal_texts(state) == ["finish", "play on"]
    assert state.turn == 0  # from the dealer's left
    state = play(state, (0, "finish"), (1, "finish"), (2, "finish"))
    result = ENGINE.result(state)
    assert result is not None and result.reason == "agreed-finish"
    assert result.winners == (0, 1, 2)
    assert result.scores == (30, 20, 0)
    assert result.utilities == pytest.approx((1 / 3, 1 / 3, 1 / 3))


def test_pool_agreed_finish_one_play_on_starts_the_next_deal() -> None:
    state = position(pool(3, agreed_finish=True), (10, 0, 0), dealer=2)
    state = everyone_drops_but(state, 2)
    state = play(state, (0, "finish"), (1, "play on"))
    assert state.phase is Phase.DEAL
    assert ENGINE.result(state) is None


def test_pool_agreed_finish_is_not_asked_with_four_players_left() -> None:
    state = position(pool(4, agreed_finish=True), (10, 0, 0, 0), dealer=3)
    state = everyone_drops_but(state, 3)
    assert state.phase is Phase.DEAL


# ------------------------------------------------------------------ Pool: the dealer


def test_pool_dealer_passes_clockwise_among_the_players_still_in() -> None:
    rules = pool(4)
    state = position(rules, (0, 110, 0, 0), out=(False, True, False, False), dealer=0)
    state = everyone_drops_but(state, 3)
    state = advance(state)
    assert state.dealer == 2  # seat 1, out, deals no more
    assert state.turn == 3
    assert state.hands[1] == ()


# ------------------------------------------------------------------ Deals


def test_deals_each_player_starts_with_80_chips_times_the_players() -> None:
    for players in (2, 3, 6):
        state = ENGINE.new_game(deals(players), 1)
        assert standing_of(state).chips == (80 * players,) * players


def test_deals_winner_takes_from_each_other_player_their_points_drops_included() -> None:
    rules = deals(3, "deals-3")
    state = position(rules, (0, 0, 0), dealer=2, has_drawn=(False, True, False))
    state = everyone_drops_but(state, 2)  # seat 0 first drop 20, seat 1 middle drop 40
    assert state.last_deal is not None and state.last_deal.points == (20, 40, 0)
    assert standing_of(state).chips == (220, 200, 300)


def test_deals_wrong_show_goes_to_the_fewest_points_first_from_the_dealers_left() -> None:
    rules = deals(3, "deals-3")
    state = position(rules, (0, 0, 0), dealer=1)  # seat 2 on turn
    state = play(state, (2, "draw stock"))
    state = ENGINE.apply(state, act.DECLARES[state.hands[2][0]], 2)
    assert state.last_deal is not None and state.last_deal.points == (0, 0, 80)
    # Seats 0 and 1 both score 0: seat 2 is the dealer's left, then seat 0 comes first.
    assert standing_of(state).chips == (320, 240, 160)


def test_deals_wrong_show_goes_to_the_fewest_points_when_the_others_are_counted() -> None:
    rules = deals(3, "deals-3", wrong_show_others="counted")
    state = position(rules, (0, 0, 0), dealer=1)
    state = play(state, (2, "draw stock"))
    state = ENGINE.apply(state, act.DECLARES[state.hands[2][0]], 2)
    points = state.last_deal.points  # type: ignore[union-attr]
    taker = 0 if points[0] <= points[1] else 1
    other = 1 - taker
    expected = [240, 240, 240]
    expected[taker] += points[other] + 80
    expected[other] -= points[other]
    expected[2] -= 80
    assert standing_of(state).chips == tuple(expected)


def test_deals_after_the_last_deal_the_most_chips_win_and_scores_are_the_chips() -> None:
    rules = deals(2)
    state = position(rules, (0, 0), dealer=1, deal_number=2, chips=(150, 170))
    state = play(state, (0, "drop"))  # seat 1 takes 20: 130 against 190
    result = ENGINE.result(state)
    assert result is not None and result.reason == "most-chips"
    assert result.winners == (1,)
    assert result.scores == (130, 190)


def test_deals_game_goes_on_until_its_last_deal() -> None:
    state = position(deals(2), (0, 0), dealer=1, deal_number=1)
    state = play(state, (0, "drop"))
    assert ENGINE.result(state) is None
    assert state.phase is Phase.DEAL


def test_deals_players_tied_at_the_top_play_a_tie_break_deal_among_themselves() -> None:
    rules = deals(3)
    state = position(rules, (0, 0, 0), dealer=0, deal_number=2, chips=(260, 320, 140))
    state = everyone_drops_but(state, 0)  # seats 1 and 2 pay 20 each: 300, 300, 120
    standing = standing_of(state)
    assert standing.chips == (300, 300, 120)
    assert standing.tie_break and standing.out == (False, False, True)
    assert ENGINE.result(state) is None
    state = advance(state)
    assert state.deal_number == 3
    assert state.hands[2] == () and len(state.hands[0]) == len(state.hands[1]) == 13
    assert state.dealer == 1 and state.turn == 0
    state = play(state, (0, "drop"))  # seat 1 takes 20 and is ahead
    result = ENGINE.result(state)
    assert result is not None and result.winners == (1,)
    assert result.scores == (280, 320, 120)


def test_deals_tie_break_deals_go_on_until_one_player_is_ahead() -> None:
    rules = deals(2, deal_turn_cap=2)
    # A tie-break deal abandoned at the turn cap moves no chips: still tied, one more deal.
    state = position(rules, (0, 0), dealer=0, deal_number=3, chips=(160, 160), tie_break=True)
    state = play(state, (1, "draw stock"))
    state = ENGINE.apply(state, act.DISCARDS[state.drawn], 1)  # type: ignore[index]
    state = play(state, (0, "draw stock"))
    state = ENGINE.apply(state, act.DISCARDS[state.drawn], 0)  # type: ignore[index]
    assert state.last_deal is not None and state.last_deal.outcome == "abandoned"
    assert state.phase is Phase.DEAL
    assert standing_of(state).tie_break


def test_format_game_ends_on_the_standing_at_its_deal_cap() -> None:
    state = position(pool(3, game_deal_cap=4), (50, 10, 30), dealer=2, deal_number=4)
    state = everyone_drops_but(state, 2)
    result = ENGINE.result(state)
    assert result is not None and result.reason == "deal-cap"
    assert result.winners == (1, 2)  # 30 and 30, the lowest totals still in


# ------------------------------------------------------------------ views


def test_view_shows_the_standing_totals_limit_who_is_out_and_chips() -> None:
    state = position(pool(3), (90, 39, 59), dealer=2)
    state = everyone_drops_but(state, 2)
    data = ENGINE.view(state, 1).to_json()["standing"]
    assert data["limit"] == 101
    assert data["out"] == [True, False, False]
    assert data["to_limit"] == [None, 42, 42]
    assert data["offers"] == [0] and data["rejoin_total"] == 60
    chips = ENGINE.view(position(deals(2), (0, 0)), 0).to_json()["standing"]
    assert chips["chips"] == [160, 160] and chips["starting_chips"] == 160
