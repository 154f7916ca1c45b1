"""Terminal rendering of views."""

from __future__ import annotations

from cardtable.games.declaration_rummy.engine import ENGINE
from cardtable.games.declaration_rummy.rules import Rules
from cardtable.games.declaration_rummy.state import scenario
from cardtable.games.declaration_rummy.text import render_hand_summary, render_view

from .helpers import new_dealt, play


def test_render_view_shows_the_table_from_one_seat() -> None:
    state = scenario(
        Rules(players=3, cards_dealt=3, spread_out_discard=True),
        ["AS 2S 9H", "KH KD 9C", "4H 4S 4C"],
        stock="5C 6C",
        pile="8D 7S",
    )
    text = render_view(ENGINE.view(state, 0))
    assert "A♠ 2♠ [red]9♥[/red]" in text
    assert "Stock: a few cards." in text
    assert "[red]8♦[/red] 7♠" in text  # the spread pile, every card
    assert "K♥" not in text
    assert "Spread-Out Discard-Pile" in text
    assert "Waiting for Seat 1." in text


def test_render_view_of_a_finished_game_lists_revealed_hands() -> None:
    state = scenario(
        Rules(players=3, cards_dealt=3),
        ["AS 2S 9H", "KH KD 9C", "4H 4S 4C"],
        stock="5C 6C",
        pile="7S",
    )
    state = play(state, (0, "drop"), (1, "draw stock"), (1, "declare"))
    text = render_view(ENGINE.view(state, 1))
    assert "Game 1 is over." in text
    assert "dropped (cards unseen)" in text
    assert "count 0" in text and "wins" in text
    assert "A♠" not in text


def test_hand_summary_counts_the_own_hand() -> None:
    view = ENGINE.view(new_dealt(Rules(players=2), 3), 0)
    summary = render_hand_summary(view)
    assert summary is not None and summary.startswith("Your count: ")


def test_hand_summary_is_none_without_cards() -> None:
    state = play(new_dealt(Rules(players=3), 3), (0, "drop"))
    assert render_hand_summary(ENGINE.view(state, 0)) is None


def test_render_view_between_games_of_a_match() -> None:
    state = scenario(
        Rules(players=3, cards_dealt=3, match=True),
        ["KS KD 9C", "AS 2S 9H", "2H 3H 4H"],
        stock="5C 8D",
        pile="7S",
        turn=2,
    )
    state = play(state, (2, "draw stock"), (2, "go out"))
    text = render_view(ENGINE.view(state, 0))
    assert "Game 1 is over." in text and "Seat 2 went out and wins." in text
    assert "Seat 2 plays first in the next game" in text
    assert "1 game win(s)" in text
