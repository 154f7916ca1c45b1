"""The engine contract, checked the same way over every registered game (as OpenSpiel's
``random_sim_test``): seeded games under each of the game's presets, played by a mix of a
wandering random player, the uniform random player and the Easy level.

Along every game: each legal action of each seat passes the checked apply and gives the same
state as the fast path; each seat's view is JSON-serialisable, and re-dealing the cards it cannot
see (``determinize``) leaves that view unchanged, which is what proves a view leaks nothing
hidden (a leaked card would differ between the real and the re-dealt state); the record replays
to the identical state; and a game played by seats that never end a deal of their own accord
still ends, by the game's caps. One playthrough transcript per game, in one format for all
games, is kept in ``tests/golden/playthrough/`` (``CARDTABLE_REGEN_GOLDEN=1`` rewrites it).
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardtable.bots import RandomBot, make_bot
from cardtable.games.contract import CHANCE, TERMINAL, AnyEngine, View
from cardtable.games.spec import arena_rules_of
from cardtable.registry import game_names, get_engine, get_spec
from cardtable.replay import GameRecord, record_of, replay
from engine_moves import advance, after, decisions
from playthrough import Wanderer, check_golden, playthrough

GAMES = game_names()
CHECKED_STATES = 120
"""Seat-action states checked in full per game (the rest of a long game is only played)."""
SETTINGS = settings(max_examples=6, suppress_health_check=[HealthCheck.too_slow])
GOLDEN_DIR = Path(__file__).resolve().parent / "golden" / "playthrough"


def finite_rules(game: str, preset: str) -> Any:
    """A preset with the game's arena rules on top, so that a game has an end (Indian Rummy's
    free play deals forever; the arena plays one deal per game), except for a preset with an end
    of its own (Indian Rummy's Pool and Deals are played whole)."""
    engine = get_engine(game)
    return arena_rules_of(get_spec(game), engine.presets()[preset])


def seat_policies(game: str, players: int, rng: random.Random) -> list[Any]:
    """A seeded mix of players for the seats."""
    kinds = [Wanderer(), RandomBot(), make_bot(game, "easy")]
    return [kinds[rng.randrange(len(kinds))] for _ in range(players)]


def walk(engine: AnyEngine, rules: Any, seed: int) -> tuple[list[Any], Any, list[tuple[int, Any]]]:
    """Play a seeded game: the seat-action states met (in order), the last state and the log."""
    rng = random.Random(seed)
    start = engine.new_game(rules, seed)
    seats = seat_policies(engine.name, engine.rules_of(start).players, rng)

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        return seats[seat].choose(engine.view(state, seat), legal, rng)

    made = list(decisions(engine, start, choose, limit=25_000))
    last = after(engine, made[-1]) if made else advance(engine, start)
    return [d.state for d in made], last, [(d.seat, d.action) for d in made]


def checked_states(met: list[Any]) -> list[Any]:
    """At most :data:`CHECKED_STATES` of the states met, spread over the whole game."""
    step = max(1, len(met) // CHECKED_STATES)
    return met[::step][:CHECKED_STATES]


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), data=st.data())
def test_every_legal_action_passes_the_checked_apply(game: str, seed: int, data: Any) -> None:
    engine = get_engine(game)
    preset = data.draw(st.sampled_from(sorted(engine.presets())), label="preset")
    met, _, _ = walk(engine, finite_rules(game, preset), seed)
    assert met
    for state in checked_states(met):
        for seat in range(engine.players(state)):
            for action in engine.legal_actions(state, seat):
                assert engine.apply(state, action, seat) == engine.apply_unchecked(
                    state, action, seat
                ), f"{action} by seat {seat}"


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), data=st.data())
def test_views_are_json_and_redealing_the_hidden_cards_leaves_them_unchanged(
    game: str, seed: int, data: Any
) -> None:
    engine = get_engine(game)
    preset = data.draw(st.sampled_from(sorted(engine.presets())), label="preset")
    met, last, _ = walk(engine, finite_rules(game, preset), seed)
    redealt_differently = 0
    rng = random.Random(seed)
    for state in [*checked_states(met), last]:
        for seat in range(engine.players(state)):
            view = engine.view(state, seat)
            data_json = view.to_json()
            assert json.loads(json.dumps(data_json)) == data_json
            assert view.seat == seat
            redealt = engine.determinize(view, rng)
            assert engine.view(redealt, seat) == view
            assert engine.view(redealt, seat).to_json() == data_json
            redealt_differently += redealt != state
    # The check is not vacuous: the re-dealt states really differ from the real ones.
    assert redealt_differently > 0


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), data=st.data())
def test_every_view_answers_the_contracts_five_common_questions(
    game: str, seed: int, data: Any
) -> None:
    # The contract's View names the seat to act, the deal number, the scores, the pile's top
    # and the hand sizes alike in every game, so that listings and the review read them without
    # probing for each game's own words.
    engine = get_engine(game)
    preset = data.draw(st.sampled_from(sorted(engine.presets())), label="preset")
    rules = finite_rules(game, preset)
    met, last, _ = walk(engine, rules, seed)
    start = engine.new_game(rules, seed)
    assert engine.current_player(start) == CHANCE
    deal = 0
    for state in [start, *checked_states(met), last]:
        players = engine.players(state)
        acting = engine.current_player(state)
        for seat in range(players):
            view: View = engine.view(state, seat)
            assert view.to_act == (acting if acting >= 0 else None)
            assert len(view.hand_sizes) == players and len(view.scores) == players
            assert all(score is None or isinstance(score, int) for score in view.scores)
            events = view.events
            if acting >= 0 and events and events[-1].verb == "discard":
                assert view.pile_top == events[-1].cards[0], events[-1]
            if acting >= 0:
                assert view.deal_number >= max(1, deal)
        if acting >= 0:
            deal = engine.view(state, 0).deal_number


def shared_refusals(game: str) -> dict[str, str]:
    """The refusal of each check every game shares, by rule key, with what names the game or
    the table written as ``<a game>``, ``<n>`` (players) and ``<seat>`` (the seat to act)."""
    engine = get_engine(game)
    rules = finite_rules(game, "default")
    start = engine.new_game(rules, 3)
    playing = advance(engine, start)
    acting = engine.current_player(playing)
    players = engine.players(playing)
    action = engine.legal_actions(playing, acting)[0]
    _, finished, _ = walk(engine, rules, 3)
    assert engine.current_player(start) == CHANCE
    assert engine.current_player(finished) == TERMINAL
    assert action not in engine.legal_actions(playing, (acting + 1) % players)
    problems = {
        "unknown-action": engine.why_illegal(playing, "draw", acting),
        "no-such-seat": engine.why_illegal(playing, action, players),
        "game-over": engine.why_illegal(finished, action, acting),
        "chance-pending": engine.why_illegal(start, action, acting),
        "not-your-turn": engine.why_illegal(playing, action, (acting + 1) % players),
    }
    texts = {}
    for key, problem in problems.items():
        assert problem is not None and problem.rule == key, (key, problem)
        text = re.sub(rf"\ban? {re.escape(engine.title)}\b", "<a game>", str(problem))
        texts[key] = (
            text.replace(f"seat {acting} ", "seat <seat> ")
            .replace(f" {players}-player", " <n>-player")
            .replace(f"seat {players} ", "seat <n> ")
        )
    return texts


def test_the_checks_every_game_shares_refuse_in_one_sentence_per_rule_key() -> None:
    # The shared prologue of why_illegal is written once: every game says the same sentence
    # for the same broken rule.
    texts = {game: shared_refusals(game) for game in GAMES}
    first, *others = GAMES
    for game in others:
        assert texts[game] == texts[first], (game, texts[game], first, texts[first])


@pytest.mark.parametrize("game", GAMES)
def test_a_bool_is_no_seat_number(game: str) -> None:
    # True == 1 in Python, but a seat given as True is a caller's mistake, refused as such.
    engine = get_engine(game)
    met, _, _ = walk(engine, finite_rules(game, "default"), 3)
    state = next(state for state in met if engine.current_player(state) == 1)
    action = engine.legal_actions(state, 1)[0]
    assert engine.why_illegal(state, action, 1) is None
    problem = engine.why_illegal(state, action, True)
    assert problem is not None and problem.rule == "no-such-seat", problem


@pytest.mark.parametrize("game", GAMES)
@SETTINGS
@given(seed=st.integers(0, 10**6), data=st.data())
def test_the_record_replays_to_the_identical_state(game: str, seed: int, data: Any) -> None:
    engine = get_engine(game)
    preset = data.draw(st.sampled_from(sorted(engine.presets())), label="preset")
    rules = finite_rules(game, preset)
    _, last, log = walk(engine, rules, seed)
    record = GameRecord.loads(record_of(game, rules, seed, log).dumps())
    assert record.game == game
    assert replay(record) == last


PRESETS = [(game, preset) for game in GAMES for preset in sorted(get_engine(game).presets())]


@pytest.mark.parametrize(("game", "preset"), PRESETS, ids=[f"{g}:{p}" for g, p in PRESETS])
def test_every_preset_passes_the_contract_checks_once(game: str, preset: str) -> None:
    # The sampled tests above may miss a preset; each one is played once here, whole (Indian
    # Rummy's Pool and Deals to their final standing, with eliminations, rejoins and chips),
    # through the same three checks: checked apply = fast apply, views hide what re-dealing
    # changes, and the record replays.
    engine = get_engine(game)
    rules = finite_rules(game, preset)
    seed = 17
    met, last, log = walk(engine, rules, seed)
    assert engine.result(last) is not None, f"{game} {preset} did not finish"
    rng = random.Random(seed)
    for state in checked_states(met):
        for seat in range(engine.players(state)):
            for action in engine.legal_actions(state, seat):
                assert engine.apply(state, action, seat) == engine.apply_unchecked(
                    state, action, seat
                ), f"{action} by seat {seat}"
            view = engine.view(state, seat)
            assert json.loads(json.dumps(view.to_json())) == view.to_json()
            assert engine.view(engine.determinize(view, rng), seat) == view
    assert replay(record_of(game, rules, seed, log)) == last


@pytest.mark.parametrize("game", GAMES)
def test_every_game_ends_within_its_caps_even_when_nobody_ends_a_deal(game: str) -> None:
    # Seats that only ever draw, take and discard: no stop, show, declaration or drop. Every
    # game must still end, by its caps (RULES.md names them), made small here to keep it quick.
    engine = get_engine(game)
    base = finite_rules(game, "default")
    caps = {f.name: 12 for f in dataclasses.fields(base) if f.name.endswith("_cap")}
    assert caps, f"{game} declares no cap"
    rules = dataclasses.replace(base, **caps)
    stall = Wanderer(plain=1.0)
    rng = random.Random(5)
    state = engine.new_game(rules, 5)
    actions = 0
    while engine.current_player(state) != TERMINAL:
        assert actions < 50_000, f"{game} did not end within its caps"
        seat = engine.current_player(state)
        if seat == CHANCE:
            state = engine.chance_step(state)
            continue
        legal = engine.legal_actions(state, seat)
        state = engine.apply(state, stall.choose(engine.view(state, seat), legal, rng), seat)
        actions += 1
    result = engine.result(state)
    assert result is not None and result.reason


@pytest.mark.parametrize("game", GAMES)
def test_playthrough_transcript(game: str) -> None:
    engine = get_engine(game)
    rules = finite_rules(game, "default")
    rng = random.Random(2024)
    wanderer = Wanderer()

    def choose(state: Any, seat: int, legal: Sequence[Any]) -> Any:
        return wanderer.choose(engine.view(state, seat), legal, rng)

    lines, last, log = playthrough(engine, rules, 2024, choose, max_actions=400)
    text = "\n".join(lines) + "\n"
    check_golden(GOLDEN_DIR / f"{game}.txt", text)
    assert replay(record_of(game, rules, 2024, log)) == last
