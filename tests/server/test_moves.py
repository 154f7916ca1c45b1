"""The state message's structured moves (cardtable.server.narration.moves): each legal action's
kind, cards, number, words and warning, read from the action objects and the game's own rules,
so that the page renders them without parsing notation."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from cardtable.cards import parse_card
from cardtable.games.contract import TERMINAL
from cardtable.games.indecision.actions import Stop
from cardtable.registry import game_names, get_engine
from cardtable.server.narration.moves import last_move, legal_moves, move_parts, move_words
from cardtable.server.protocol.messages import MoveJson


def _positions(game: str, rules: Any, seed: int, moves: int) -> Iterator[tuple[Any, int]]:
    """The states of a seeded game played by random legal moves, with the seat to act."""
    engine = get_engine(game)
    state = engine.new_game(rules, seed)
    rng = random.Random(seed)
    for _ in range(moves):
        while engine.current_player(state) == -1:
            state = engine.chance_step(state, rng)
        seat = engine.current_player(state)
        if seat == TERMINAL:
            return
        yield state, seat
        actions = engine.legal_actions(state, seat)
        # Play on rather than leave: a drop or a tie proposal would end the game at once.
        playing = [a for a in actions if str(a) not in ("drop", "propose tie")] or list(actions)
        state = engine.apply(state, playing[rng.randrange(len(playing))], seat)


@pytest.mark.parametrize("game", game_names())
def test_every_legal_move_is_its_notation_taken_apart(game: str) -> None:
    engine = get_engine(game)
    rules = next(iter(engine.presets().values()))
    seen_cards = False
    for state, seat in _positions(game, rules, seed=7, moves=120):
        actions = engine.legal_actions(state, seat)
        moves = legal_moves(game, engine.view(state, seat), actions)
        assert [move["notation"] for move in moves] == [str(action) for action in actions]
        for move, action in zip(moves, actions, strict=True):
            words = str(action).split()
            # The kind is the notation without its arguments; the cards are the action's own.
            assert move["kind"] == " ".join(w for w in words if w not in move.get("cards", []))
            card = getattr(action, "card", None)
            assert move.get("cards", []) == ([] if card is None else [words[-1]])
            seen_cards = seen_cards or card is not None
            assert "number" not in move or str(move["number"]) == words[-1]
            assert move["words"] and move["words"][0].isupper()
    assert seen_cards, "the seeded game reached a card move"


def test_a_numbered_move_carries_its_number_and_a_default_count_is_left_out() -> None:
    from cardtable.games.declaration_rummy.actions import TakeDiscard
    from cardtable.games.indecision.actions import Declare

    assert move_parts(Declare(15)) == ("declare", [], 15)
    assert move_parts(TakeDiscard(3)) == ("take discard", [], 3)
    # One card taken is written "take discard": its count is no argument of the notation.
    assert move_parts(TakeDiscard()) == ("take discard", [], None)


def test_a_card_move_names_the_card_in_its_words() -> None:
    assert (
        move_words("indecision", "stop", ["9S"], None) == "Stop, with the nine of spades face down"
    )
    assert move_words("indian-rummy", "declare", ["PJ"], None) == (
        "Declare, putting down the printed joker"
    )
    # A game's own words before the common ones.
    assert move_words("indian-rummy", "drop", [], None) == "Drop out of this deal"
    assert move_words("declaration-rummy", "drop", [], None) == "Drop out of the game"


def _stop_positions(rules: Any) -> Iterator[tuple[Any, list[MoveJson]]]:
    engine = get_engine("indecision")
    for seed in range(1, 40):
        for state, seat in _positions("indecision", rules, seed=seed, moves=40):
            actions = engine.legal_actions(state, seat)
            if any(isinstance(action, Stop) for action in actions):
                yield (
                    engine.view(state, seat),
                    legal_moves("indecision", engine.view(state, seat), actions),
                )


def test_an_invalid_stop_carries_the_engines_own_warning_and_a_valid_one_none() -> None:
    from cardtable.games.indecision.engine import ENGINE as engine

    rules = next(iter(engine.presets().values()))
    warned = clean = 0
    for view, moves in _stop_positions(rules):
        for move in moves:
            if move["kind"] != "stop":
                assert "warning" not in move
                continue
            _, problems = engine.stop_check(view, parse_card(move["cards"][0]))
            if problems:
                warned += 1
                # The warning says every problem the engine finds with the table's own rules.
                assert all(problem in move["warning"] for problem in problems), move
            else:
                clean += 1
                assert "warning" not in move
        if warned and clean:
            break
    assert warned and clean, "seeded games reached both an invalid and a valid stop"


def test_no_stop_is_warned_about_when_the_rules_turn_the_warning_off() -> None:
    engine = get_engine("indecision")
    rules = dataclasses.replace(next(iter(engine.presets().values())), warn_invalid_stop=False)
    stops = 0
    for _, moves in _stop_positions(rules):
        stops += sum(move["kind"] == "stop" for move in moves)
        assert not any("warning" in move for move in moves)
        if stops > 20:
            break
    assert stops


def test_the_last_move_is_said_in_the_readers_words_and_a_face_down_card_stays_hidden() -> None:
    engine = get_engine("indecision")
    own = last_move(
        "indecision", engine, actor=0, public="stop 9S", names=["You", "Ruby"], view=None
    )
    assert own == {
        "seat": 0,
        "action": "stop 9S",
        "kind": "stop",
        "cards": ["9S"],
        "said": "You stopped the hand.",
    }
    other = last_move("indecision", engine, actor=0, public="stop", names=["Max", "You"], view=None)
    assert other == {"seat": 0, "action": "stop", "kind": "stop", "said": "Max stopped the hand."}


def test_an_indian_rummy_drop_carries_its_cost_from_the_tables_rules() -> None:
    # Before the seat draws a drop costs the first drop, after it the middle drop; both are the
    # table's house rules (neither default here), and no other move carries a cost.
    engine = get_engine("indian-rummy")
    rules = dataclasses.replace(engine.presets()["default"], first_drop=15, middle_drop=35)
    costs: dict[bool, tuple[int, str]] = {}
    for state, seat in _positions("indian-rummy", rules, seed=11, moves=80):
        view = engine.view(state, seat)
        moves = legal_moves("indian-rummy", view, engine.legal_actions(state, seat))
        assert all("cost" not in move for move in moves if move["kind"] != "drop")
        for move in moves:
            if move["kind"] == "drop":
                costs[view.has_drawn[seat]] = (move["cost"], move["cost_words"])
    assert costs[False] == (
        15,
        "You score 15 points for this deal (after your first draw it would cost 35) and sit "
        "out until the next deal.",
    )
    assert costs[True] == (35, "You score 35 points for this deal and sit out until the next deal.")
