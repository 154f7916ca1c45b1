"""What the table says at the end of a deal, game or match reads as plain English for each seat:
every seat is named as that seat knows it, "You" is capitalised only where a sentence begins,
and a verb whose subject is "you" agrees with it ("You went out and win.", not "…and wins.").
Checked on the exact sentences a newcomer saw, and over whole seeded games of every game."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.bots.base import RandomBot
from cardtable.driver import advance
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.registry import get_engine
from cardtable.server.narration import finished_between, merge_summaries
from cardtable.server.narration.naming import name_seats

from .conftest import new_table, play_to_end

SEAT_NUMBER = re.compile(r"\b[Ss]eats? \d")
# A "You" anywhere but where a sentence (or a headline's "Game 2: " part) begins.
CAPITAL_MID_SENTENCE = re.compile(r"(?<!^)(?<![.!?:] )\bYou\b")
WRONG_VERB = re.compile(
    r"\b[Yy]ou (?:\w+ )?(?:(?:out|down|\w+) and )?(wins|takes|has|is|was|goes|reaches)\b"
)
# (game, rules, players): short games, so that many seeds end in a few seconds.
GAMES = [
    ("indecision", {"target_score": 31}, 2),
    ("indecision", {"target_score": 31}, 3),
    ("indian-rummy", {"deals": 2}, 2),
    ("indian-rummy", {"deals": 1}, 3),
    ("declaration-rummy", {"match": True}, 2),
    ("declaration-rummy", {}, 4),
]


def problems_in(text: str) -> list[str]:
    """What is wrong with one sentence as a seat reads it."""
    found = []
    if SEAT_NUMBER.search(text):
        found.append("a seat number")
    if CAPITAL_MID_SENTENCE.search(text):
        found.append('"You" capitalised mid-sentence')
    if WRONG_VERB.search(text):
        found.append('a verb not agreeing with "you"')
    return [f"{problem} in {text!r}" for problem in found]


def names_for(viewer: int, players: int) -> list[str]:
    others = iter(["Ruby", "Max", "Ivy", "Ole", "Sam"])
    return ["You" if seat == viewer else next(others) for seat in range(players)]


def test_the_reported_sentences_read_in_the_readers_words() -> None:
    names = ["You", "Ruby"]
    assert name_seats("Seat 0 went out and wins.", names) == "You went out and win."
    assert name_seats(
        "The stockpile was exhausted and seat 0 declined the discard pile; seat 0 wins with "
        "the lowest count, 4.",
        names,
    ) == (
        "The stockpile was exhausted and you declined the discard pile; you win with the "
        "lowest count, 4."
    )
    assert name_seats("Seat 1 went out and wins.", names) == "Ruby went out and wins."
    assert name_seats("Seat 0 wins the match with 2 game wins.", names) == (
        "You win the match with 2 game wins."
    )
    assert name_seats("seats 0 and 1 share the win", ["Ruby", "You"]) == (
        "Ruby and you share the win"
    )


def _play(game: str, rules: dict[str, Any], players: int, seed: int) -> list[str]:
    """Every sentence the narration and the result give each seat over one seeded game."""
    engine = get_engine(game)
    state, _ = advance(
        engine, engine.new_game(engine.rules_from_json(rules | {"players": players}), seed)
    )
    rng = random.Random(seed)
    bot = RandomBot()
    said: list[str] = []
    for _ in range(20000):
        seat = engine.current_player(state)
        if seat == TERMINAL:
            break
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        action = bot.choose(engine.view(state, seat), engine.legal_actions(state, seat), rng)
        before = state
        state, _ = advance(engine, engine.apply(state, action, seat))
        outcomes = finished_between(game, engine, before, state)
        for viewer in range(players):
            summary = merge_summaries(outcomes, names_for(viewer, players))
            if summary is not None:
                said.extend([summary["headline"], *summary["lines"]])
                if "lead" in summary:
                    said.append(summary["lead"])
    else:
        raise AssertionError(f"{game} seed {seed} did not end")
    result = engine.result(state)
    assert result is not None
    said.extend(name_seats(result.summary, names_for(v, players)) for v in range(players))
    return said


@pytest.mark.parametrize(("game", "rules", "players"), GAMES)
def test_every_end_of_play_sentence_reads_well_for_every_seat(
    game: str, rules: dict[str, Any], players: int
) -> None:
    problems: list[str] = []
    for seed in range(6):
        for text in _play(game, rules, players, seed):
            problems.extend(problems_in(text))
    assert not problems, problems[:10]


def test_the_state_message_carries_the_result_in_the_seats_own_words(
    client: TestClient,
) -> None:
    table_id = new_table(client, "declaration-rummy", seed=11)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(3))
    names = [seat["name"] for seat in client.get(f"/api/tables/{table_id}").json()["seats"]]
    names[0] = "You"
    result = final["result"]
    assert result["said"] == name_seats(result["summary"], names)
    assert not problems_in(result["said"]), result["said"]
    assert not SEAT_NUMBER.search(result["said"])


def test_a_drop_in_a_two_player_deal_is_told_from_the_droppers_side() -> None:
    engine = get_engine("indian-rummy")
    state, _ = advance(engine, engine.new_game(engine.rules_from_json({"deals": 2}), 5))
    dropper = engine.current_player(state)
    assert "drop" in [str(a) for a in engine.legal_actions(state, dropper)]
    after, _ = advance(engine, engine.apply(state, engine.parse_action("drop"), dropper))
    outcomes = finished_between("indian-rummy", engine, state, after)
    other = 1 - dropper
    mine = merge_summaries(outcomes, names_for(dropper, 2))
    theirs = merge_summaries(outcomes, names_for(other, 2))
    assert mine is not None and theirs is not None
    assert mine["headline"] == "Deal 1: you dropped, so Ruby won the deal."
    assert theirs["headline"] == "Deal 1: Ruby dropped, so you won the deal."
