"""What each seat sees (views), the action notation, and the terminal text of both."""

from __future__ import annotations

import json

import pytest
from rich.text import Text

from cardtable.errors import ActionSyntaxError
from cardtable.games.indian_rummy import actions as act
from cardtable.games.indian_rummy.engine import ENGINE
from cardtable.games.indian_rummy.rules import Rules
from cardtable.games.indian_rummy.state import IndianRummyState, Phase, scenario
from cardtable.games.indian_rummy.text import render_hand_summary, render_view
from cardtable.games.indian_rummy.view import _view_of

from .helpers import advance, card, play
from .test_rules import FILLER_0, FILLER_1, FILLER_2, IR4_DECLARER, IR9_HAND, NO_SEQUENCE_100


def _plain(markup: str | None) -> str:
    assert markup is not None
    return Text.from_markup(markup).plain


def _three_seats() -> IndianRummyState:
    return scenario(
        Rules(players=3), [FILLER_0, FILLER_1, FILLER_2], pile="6C", wild_card="7D", dealer=0
    )


# ------------------------------------------------------------------ notation


@pytest.mark.parametrize(
    "text", ["draw stock", "draw pile", "discard 7H", "declare 8C", "drop", "discard PJ"]
)
def test_action_notation_reads_back_what_it_writes(text: str) -> None:
    action = act.parse_action(text)
    assert str(action) == text and act.parse_action(str(action)) == action


def test_action_notation_accepts_other_spellings() -> None:
    assert act.parse_action("  Discard   10♥ ") == act.DISCARDS[card("10H")]
    assert act.parse_action("take pile") is act.DRAW_PILE
    assert act.parse_action("STOCK") is act.DRAW_STOCK
    assert act.parse_action("declare jk") == act.DECLARES[52]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("", "empty action"),
        ("discard", "takes exactly one card"),
        ("discard 7H 8H", "takes exactly one card"),
        ("discard 1X", "unknown card"),
        ("declare W", "not in the Indian Rummy pack"),
        ("draw", "draw from 'stock' or 'pile'"),
        ("pass", "unknown action"),
    ],
)
def test_action_notation_names_the_problem(text: str, problem: str) -> None:
    with pytest.raises(ActionSyntaxError, match=problem):
        act.parse_action(text)


# ------------------------------------------------------------------ views


def test_view_shows_own_hand_and_the_public_table_only() -> None:
    state = _three_seats()
    view = ENGINE.view(state, 2)
    assert view.hand == state.hands[2]
    assert view.hand_sizes == (13, 13, 13) and view.stock_size == len(state.stock)
    assert view.pile_top == card("6C") and view.wild_card == card("7D") and view.wild_rank == 6
    assert view.turn == 1 and view.dealer == 0 and view.totals == (0, 0, 0)
    assert not hasattr(view, "stock") and not hasattr(view, "hands")
    data = view.to_json()
    json.dumps(data)
    assert data["rules"]["max_points"] == 80 and data["hand_sizes"] == [13, 13, 13]


def test_a_stock_draw_is_hidden_from_others_and_a_pile_draw_is_shown() -> None:
    state = play(_three_seats(), (1, "draw stock"))
    drawn = state.drawn
    assert ENGINE.view(state, 1).drawn == drawn and ENGINE.view(state, 1).taken is None
    other = ENGINE.view(state, 0)
    assert other.drawn is None and other.taken is None
    assert other.events[-1].verb == "draw-stock" and other.events[-1].cards == ()
    state = play(state, (1, "discard 5S"), (2, "draw pile"))
    other = ENGINE.view(state, 0)
    assert other.taken == card("5S") and other.events[-1].cards == (card("5S"),)
    assert ENGINE.view(state, 2).drawn == card("5S")


def test_view_lists_every_discard_seen_this_deal() -> None:
    state = play(
        _three_seats(),
        (1, "draw stock"),
        (1, "discard 5S"),
        (2, "draw pile"),
        (2, "discard 4S"),
    )
    view = ENGINE.view(state, 0)
    assert view.discards_seen == (card("6C"), card("5S"), card("4S"))
    assert view.pile == (card("6C"), card("4S"))


def test_last_deal_summary_reveals_every_hand_but_the_dropped_ones() -> None:
    state = scenario(
        Rules(players=3),
        [IR4_DECLARER + " 10C", IR9_HAND, NO_SEQUENCE_100],
        pile="6C",
        wild_card="4D",
        dealer=2,
        phase=Phase.DISCARD,
        drawn="10C",
        drops=(None, None, 40),
    )
    after = play(state, (0, "declare 10C"))
    for seat in range(3):
        summary = ENGINE.view(after, seat).last_deal
        assert summary is not None
        assert summary.outcome == "valid-show" and summary.declarer == 0
        assert summary.hands[1] == state.hands[1] and summary.hands[2] is None
        assert summary.points == (0, 30, 40)
        json.dumps(summary.to_json())


def test_view_before_the_first_deal_is_empty_but_valid() -> None:
    view = ENGINE.view(ENGINE.new_game(Rules(), 3), 0)
    assert view.hand == () and view.deal_number == 0 and view.last_deal is None
    assert "being dealt" in _plain(render_view(view))


# ------------------------------------------------------------------ terminal text


def test_render_view_shows_wild_joker_pile_top_stock_hand_totals_and_turn() -> None:
    state = _three_seats()
    text = _plain(render_view(ENGINE.view(state, 1)))
    assert "Wild joker: 7♦ (all sevens are jokers, and so are the printed jokers)" in text
    assert "Discard pile: 6♣" in text and f"Stock: {len(state.stock)} cards" in text
    assert "1:5♠" in text and "7♠*" in text  # the hand with indices, the joker marked
    assert "total 0" in text and "▶ you: 13 cards" in text
    assert "Your turn: draw stock (S); draw pile (D) for 6♣; drop for 20 points." in text
    other = _plain(render_view(ENGINE.view(state, 0)))
    assert "Seat 1 is to play." in other and "5♠" not in other.split("Your hand:")[0]


def test_render_view_says_a_joker_on_the_pile_cannot_be_taken() -> None:
    state = scenario(Rules(), [FILLER_0, FILLER_1], pile="6C PJ", wild_card="7D")
    text = _plain(render_view(ENGINE.view(state, 1)))
    assert "not the pile: PJ is a joker and cannot be taken" in text


def test_render_view_reminds_the_card_taken_from_the_pile_may_not_go() -> None:
    state = play(scenario(Rules(), [FILLER_0, FILLER_1], pile="6H 8D", wild_card="KD"),
                 (1, "draw pile"))  # fmt: skip
    text = _plain(render_view(ENGINE.view(state, 1)))
    assert "You may not discard or put down 8♦" in text


def test_hand_summary_is_none_before_any_deal_ends() -> None:
    assert render_hand_summary(ENGINE.view(advance(ENGINE.new_game(Rules(), 1)), 0)) is None


def test_hand_summary_explains_a_valid_show_the_cap_and_the_drops() -> None:
    state = scenario(
        Rules(players=4),
        [IR4_DECLARER + " 10C", IR9_HAND, NO_SEQUENCE_100, FILLER_2.replace("9D", "10H")],
        pile="6C",
        wild_card="4D",
        dealer=3,
        phase=Phase.DISCARD,
        drawn="10C",
        drops=(None, None, None, 20),
    )
    after = play(state, (0, "declare 10C"))
    text = _plain(render_hand_summary(ENGINE.view(after, 1)))
    assert "Seat 0 declared, putting down 10♣: a valid show, 0 points." in text
    assert "You showed" in text and "30 points" in text
    assert "capped at 80" in text
    assert "Seat 3 dropped (first drop): 20 points." in text
    assert "Deal points: seat 0 0 · you 30 · seat 2 80 · seat 3 20" in text


def test_hand_summary_explains_a_wrong_show() -> None:
    state = scenario(
        Rules(),
        ["5H 6H PJ 9S 7C JS 2C 2D 2S 4D 4C 4S 7D 10C", FILLER_1],
        pile="6C",
        wild_card="7S",
        dealer=1,
        phase=Phase.DISCARD,
        drawn="10C",
    )
    after = play(state, (0, "declare 10C"))
    text = _plain(render_hand_summary(ENGINE.view(after, 0), names=["Ruby", "Max"]))
    assert "Ruby declared, putting down 10♣: a wrong show, 80 points." in text
    assert "After a wrong show the other players score nothing." in text
    assert "Deal points: Ruby 80 · Max 0" in text


def test_hand_summary_explains_everyone_else_dropping() -> None:
    state = play(_three_seats(), (1, "drop"), (2, "drop"))
    text = _plain(render_hand_summary(ENGINE.view(state, 0)))
    assert "Everyone else dropped: you win the deal with 0 points." in text
    assert "Seat 1 dropped (first drop): 20 points." in text


def test_a_seat_asked_again_for_the_state_viewed_last_gets_the_same_view() -> None:
    state = _three_seats()
    first = [ENGINE.view(state, seat) for seat in range(3)]
    # The spectators' view is a seat's view again: the same object, as built the first time.
    assert [ENGINE.view(state, seat) for seat in range(3)] == first
    assert all(ENGINE.view(state, seat) is first[seat] for seat in range(3))
    assert first == [_view_of(state, seat) for seat in range(3)]
    assert first[0].hand != first[1].hand
    # Another state has views of its own (the one before is not remembered any more).
    after = advance(ENGINE.apply(state, act.parse_action("draw stock"), state.turn))
    moved = ENGINE.view(after, state.turn)
    assert moved == _view_of(after, state.turn) and moved != first[state.turn]
    assert ENGINE.view(state, 1) == first[1] and ENGINE.view(state, 1) is not first[1]
