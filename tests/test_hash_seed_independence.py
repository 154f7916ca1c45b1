"""Seeded play is the same in every process: no choice may depend on Python's string hashing.

Python salts the hash of every ``str`` (and so of every enum member and every tuple holding one)
per process, unless ``PYTHONHASHSEED`` is fixed, so iterating over a set of them gives a new
order in each process. Each test here runs one seeded scenario in two fresh interpreters with
different hash seeds and asserts that both print the same moves and results.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import pytest

# Each scenario is played twice in fresh interpreters: the whole run of make test has them, the
# quick tier leaves them out.
pytestmark = pytest.mark.slow

HASH_SEEDS = ("1", "2")

# Two seeded games between bots of every level, printed move by move, under the arena's rules
# (one deal of Indian Rummy); Indecision is played to a low target so that its hard searcher
# stays within a few seconds.
BOT_GAMES = """
import dataclasses, random, sys
from cardtable.bots import make_bot
from cardtable.driver import play
from cardtable.registry import get_engine, get_spec

game, players, levels = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(",")
engine = get_engine(game)
short = {"target_score": 21} if game == "indecision" else {}
changes = {"players": players, **dict(get_spec(game).arena_rules), **short}
rules = dataclasses.replace(engine.presets()["default"], **changes)
seats = [make_bot(game, level) for level in levels]
for seed in (5, 6):
    played = play(engine, rules, seed, seats, rng=random.Random(seed))
    print(seed, [(seat, repr(action)) for seat, action in played.actions])
    print(engine.result(played.state))
"""

# The README's OpenSpiel scenario, smaller: information-set MCTS against a hard seat.
OPENSPIEL_GAME = """
import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts
from cardtable.envs.openspiel import CardtableBot, SeededResampler
from cardtable.envs.rollouts import PlayoutEvaluator

game = pyspiel.load_game("python_cardtable_indian_rummy(players=2,wrong_shows=false)")
search = ismcts.ISMCTSBot(game, PlayoutEvaluator(game, seed=1), uct_c=160.0,
                          max_simulations=20, random_state=np.random.RandomState(2))
search.set_resampler(SeededResampler(seed=4))
bots = [search, CardtableBot(game, player=1, level="hard")]
state, rng = game.new_initial_state(), np.random.default_rng(3)
while not state.is_terminal():
    if state.is_chance_node():
        cards, probabilities = zip(*state.chance_outcomes())
        state.apply_action(int(rng.choice(cards, p=probabilities)))
    else:
        state.apply_action(bots[state.current_player()].step(state))
print(state.history(), state.returns())
"""


def _run(script: str, hash_seed: str, *args: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(script), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def _same_in_two_processes(script: str, *args: str) -> None:
    first, second = (_run(script, seed, *args) for seed in HASH_SEEDS)
    assert first.strip(), "the scenario printed nothing"
    assert first == second


@pytest.mark.parametrize(
    ("game", "players", "levels"),
    [
        ("indecision", "2", "hard,normal"),
        ("indecision", "3", "easy,random,normal"),
        ("indian-rummy", "2", "hard,normal"),
        ("indian-rummy", "3", "easy,random,hard"),
        ("declaration-rummy", "3", "hard,normal,easy"),
        ("declaration-rummy", "2", "random,hard"),
    ],
)
def test_seeded_bot_games_do_not_depend_on_the_hash_seed(
    game: str, players: str, levels: str
) -> None:
    _same_in_two_processes(BOT_GAMES, game, players, levels)


def test_seeded_information_set_search_does_not_depend_on_the_process() -> None:
    _same_in_two_processes(OPENSPIEL_GAME)
