"""Indecision action notation, per-seat views, terminal rendering and the registry entry."""

from __future__ import annotations

import json

import pytest

from cardtable.errors import ActionSyntaxError
from cardtable.games.indecision import (
    CONFIRM,
    DRAW_DECK,
    DRAW_PILE,
    ENGINE,
    Correct,
    Declare,
    Discard,
    Phase,
    Rules,
    Stop,
    parse_action,
)
from cardtable.games.indecision.text import render_hand_summary, render_view
from cardtable.registry import get_engine

from .helpers import cards, dealt, play_moves, position

E1 = "5H 6H 7H 7C 7S"
E2 = "10C JD QC KC KH"


# -- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (DRAW_DECK, "draw deck"),
        (DRAW_PILE, "draw pile"),
        (Discard(cards("7H")[0]), "discard 7H"),
        (Stop(cards("10S")[0]), "stop 10S"),
        (Declare(15), "declare 15"),
        (Correct(12), "correct 12"),
        (CONFIRM, "confirm"),
    ],
)
def test_every_action_prints_its_notation_and_reads_back(action: object, text: str) -> None:
    assert str(action) == text
    assert parse_action(text) == action
    assert parse_action(f"  {text.upper()}  ") == action


def test_notation_accepts_other_spellings_of_cards_and_sources() -> None:
    assert parse_action("discard T♥") == Discard(cards("10H")[0])
    assert parse_action("draw stock") == DRAW_DECK
    assert parse_action("draw discard") == DRAW_PILE


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty action"),
        ("fold", "unknown action 'fold'"),
        ("draw", "'draw' needs a source"),
        ("draw hand", "'draw' needs a source"),
        ("discard", "'discard' needs one card"),
        ("stop 7H 8H", "'stop' needs one card"),
        ("discard ZZ", "unknown card 'ZZ'"),
        ("discard PJ", "PJ is not in the Indecision deck"),
        ("declare", "'declare' needs one number"),
        ("declare -3", "needs a whole number of points, not '-3'"),
        ("correct many", "needs a whole number of points, not 'many'"),
        ("declare 5000", "more than any hand can score"),
        ("confirm 12", "'confirm' takes nothing after it"),
    ],
)
def test_bad_notation_raises_an_error_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(ActionSyntaxError, match=message):
        parse_action(text)


# -- views ----------------------------------------------------------------------------------------


def test_view_shows_own_hand_public_pile_and_hides_other_hands() -> None:
    state = position(Rules(), [E1, f"{E2} 2C"], phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C"), (0, "draw deck")])
    drawn = state.drawn
    mine, theirs = ENGINE.view(state, 0), ENGINE.view(state, 1)
    assert mine.hand == state.hands[0] and mine.drawn == drawn and mine.drawn_from == "deck"
    assert theirs.hand == state.hands[1] and theirs.drawn is None
    assert theirs.hand_sizes == (6, 5) and theirs.deck_size == len(state.deck)
    assert mine.pile == theirs.pile == cards("2C")
    text = json.dumps(theirs.to_json())
    assert all(f'"{label}"' not in text for label in E1.split())


def test_pile_draws_are_public() -> None:
    state = position(Rules(), [E1, f"{E2} 2C"], phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C"), (0, "draw pile")])
    theirs = ENGINE.view(state, 1)
    assert theirs.drawn == cards("2C")[0] and theirs.drawn_from == "pile"
    assert [(e.seat, e.verb) for e in theirs.events] == [
        (0, "deal"),
        (1, "discard"),
        (0, "take-discard"),
    ]
    assert theirs.taken_cards() == {0: set(cards("2C"))}


def test_view_reports_turns_totals_and_whose_turn() -> None:
    state = dealt(Rules(players=3, target_score=61), 4)
    view = ENGINE.view(state, 0)
    assert view.to_act == state.table.starter and view.hand_number == 1
    assert view.totals == (0, 0, 0) and view.rules.target_score == 61
    assert view.turns == 0 and view.had_turn == (False, False, False)
    assert view.my_turn is (view.seat == view.to_act)


def test_last_hand_summary_is_public_with_every_hand_revealed() -> None:
    state = position(Rules(), [E1, f"{E2} 2C"], phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C"), (0, "draw pile"), (0, "stop 2C")])
    summary = ENGINE.hand_summary(state)
    assert summary is not None
    assert ENGINE.view(state, 1).last_hand == summary == ENGINE.hand_summary(ENGINE.view(state, 0))
    data = summary.to_json()
    assert [r["seat"] for r in data["results"]] == [0, 1]
    assert data["results"][0]["score"] == 23 and data["results"][1]["score"] == 17
    assert {m["name"] for m in data["results"][1]["melds"]} == {"Run of 4", "Pair", "Flush of 3"}
    assert data["stop_valid"] is True


def test_stop_check_explains_what_a_stop_would_score() -> None:
    state = position(Rules(), [E1, f"{E2} 2C"], phase=Phase.OPENING, dealer=0)
    state = play_moves(state, [(1, "discard 2C"), (0, "draw pile")])
    view = ENGINE.view(state, 0)
    kept, problems = ENGINE.stop_check(view, cards("2C")[0])
    assert kept.score == 23 and problems == ()
    kept, problems = ENGINE.stop_check(view, cards("5H")[0])
    assert kept.score == 12 and len(problems) == 1 and "not all five" in problems[0]


# -- text -----------------------------------------------------------------------------------------


def test_render_view_shows_table_hand_with_indices_and_turn() -> None:
    state = position(Rules(), [E1, f"{E2} 2C"], phase=Phase.OPENING, dealer=0)
    text = render_view(ENGINE.view(state, 1))
    assert "Your hand" in text and "1:" in text and "6:" in text
    assert "Your turn" in text and "opening discard" in text
    other = render_view(ENGINE.view(state, 0))
    assert "Seat 1 is to make the opening discard" in other and "counts 23" in other


def test_render_hand_summary_explains_the_count() -> None:
    state = position(Rules(), [E1, "3S 3H 3D 3C 9S 2H"], phase=Phase.OPENING, dealer=0)
    assert render_hand_summary(ENGINE.view(state, 0)) is None
    state = play_moves(state, [(1, "stop 2H")])
    text = render_hand_summary(ENGINE.view(state, 0))
    assert text is not None
    assert "the stop is invalid (not every player has had a turn)" in text
    assert "Prile of 4 3S 3H 3D 3C = 24" in text
    assert "Prile of 3 7S 7H 7C = 12" in text and "scores 23, total 23" in text


# -- registry and result ----------------------------------------------------------------------


def test_registry_finds_the_engine() -> None:
    engine = get_engine("indecision")
    assert engine is ENGINE and engine.title == "Indecision"
    assert set(engine.presets()) >= {"default", "manual-declaration"}
    rules = Rules(players=3, meld_values=Rules().meld_values)
    assert engine.rules_from_json(engine.rules_to_json(rules)) == rules


def test_result_is_none_until_the_game_ends() -> None:
    assert ENGINE.result(dealt(Rules(), 1)) is None
