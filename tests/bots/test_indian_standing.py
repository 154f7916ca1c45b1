"""The Pool drop forecast and the value of a standing (cardtable.bots.indian_standing)."""

from __future__ import annotations

import dataclasses

from cardtable.bots.indian_standing import drop_gain, forecast, outcome_value
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.formats import new_standing
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.games.indian_rummy.state import scenario
from cardtable.games.indian_rummy.view import IndianRummyView

HANDS = (
    "AS 4S 7S 10S KS 2H 5H 8H JH 3D 6D 9D QD",
    "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC",
    "AH 3H 4H 6H 7H 9H 10H QH KH 2S 3S 5S 6S",
    "2D 4D 5D 7D 8D 10D JD KD AD 8S 9S JS QS",
)


def _view(
    totals: tuple[int, ...],
    rejoins_used: int = 0,
    drops: tuple[int | None, ...] | None = None,
    *,
    first_drop: int = PRESETS["pool-101"].first_drop,
    rejoin_limit: int = PRESETS["pool-101"].rejoin_limit,
) -> IndianRummyView:
    players = len(totals)
    rules = dataclasses.replace(
        PRESETS["pool-101"],
        wild_joker_cut=False,
        players=players,
        first_drop=first_drop,
        rejoin_limit=rejoin_limit,
    )
    standing = new_standing(rules)
    assert standing is not None
    used = (rejoins_used,) + (0,) * (players - 1)
    state = scenario(
        rules,
        list(HANDS[:players]),
        pile="2C",
        dealer=players - 1,
        totals=totals,
        drops=drops,
        standing=dataclasses.replace(standing, rejoins_used=used),
    )
    return ENGINE.view(state, 0)


def test_the_chance_to_show_first_falls_with_missing_cards_rivals_and_time() -> None:
    assert forecast(2, 0, 1).win > forecast(4, 0, 1).win > forecast(6, 0, 1).win
    assert forecast(3, 0, 1).win > forecast(3, 0, 3).win
    assert forecast(3, 0, 1).win > forecast(3, 9, 1).win
    # Beyond the table's last row every hand is priced as the last row.
    assert forecast(11, 0, 1) == forecast(6, 0, 1)


def test_losing_counts_follow_the_points_held_within_the_cap() -> None:
    plain = forecast(4, 0, 1)
    high = forecast(4, 0, 1, points=100)
    low = forecast(4, 0, 1, points=10)
    assert all(h >= p for h, p in zip(high.counts, plain.counts, strict=True))
    assert sum(high.counts) > sum(plain.counts) > sum(low.counts)
    assert max(high.counts) <= 80


def test_an_elimination_is_worth_nothing_without_a_rejoin() -> None:
    view = _view((60, 0, 0, 0), rejoins_used=1)
    assert outcome_value(view, (101, 0, 0, 0)) == 0.0
    assert outcome_value(view, (100, 0, 0, 0)) > 0.0


def test_a_rejoin_brings_the_value_of_the_highest_total_in_plus_one() -> None:
    view = _view((60, 10, 30, 20))
    assert outcome_value(view, (105, 10, 30, 20)) == outcome_value(view, (31, 10, 30, 20))
    # The window is closed once a total still in is above 79.
    assert outcome_value(view, (105, 10, 80, 20)) == 0.0
    # Heads-up nobody is left to rejoin against.
    assert outcome_value(_view((60, 10)), (105, 10)) == 0.0


def test_the_race_favours_the_leader_beyond_its_share_of_headroom() -> None:
    view = _view((0, 0))
    assert outcome_value(view, (50, 50)) == 0.5
    assert outcome_value(view, (30, 50)) > 71 / (71 + 51)
    assert outcome_value(view, (70, 50)) < 31 / (31 + 51)


def test_a_drop_that_itself_eliminates_heads_up_never_pays() -> None:
    assert drop_gain(_view((81, 0)), 11) < 0.0
    assert drop_gain(_view((81, 0)), 11, points=80) < 0.0


def test_a_rival_who_dropped_this_deal_is_counted_with_its_penalty() -> None:
    # A first drop of 101 puts a seat out at once, and a rejoin brings it back at the highest
    # total still in plus one: at 0, 0, 0 a hopeless hand drops into a rejoin at 1. Once the
    # second seat has dropped this deal (it will stand at 101), the first's drop leaves only the
    # third in: the game ends with this seat out, so it must play on. The totals take the
    # rival's penalty only at the deal's end; counted before, both seats dropped and handed the
    # third the game.
    assert drop_gain(_view((0, 0, 0), first_drop=101, rejoin_limit=100), 11) > 0.0
    dropped = _view((0, 0, 0), drops=(None, 101, None), first_drop=101, rejoin_limit=100)
    assert drop_gain(dropped, 11) < 0.0
