"""The analysis reads only the seat's view, is reproducible for a sampler seed, and is reported
per hand and game with accuracy, labels and the three costliest moves explained."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from cardtable.bots import make_bot
from cardtable.cli import app
from cardtable.cli.review import counted
from cardtable.driver import play
from cardtable.games.contract import CHANCE, TERMINAL
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.games.indian_rummy.state import Phase
from cardtable.registry import game_names, get_engine
from cardtable.replay import record_of, replay_steps
from cardtable.review import ReviewBudget, review_decision, review_record
from cardtable.review.explain import amount

from .records import fair_record

TINY = ReviewBudget(samples=3, screen=2, finalists=2, lookahead=2)


def _decisions(game: str) -> list[tuple[object, int, object]]:
    """Every decision with a real choice in the game's record: ``(state, seat, action)``."""
    engine = get_engine(game)
    out = []
    for step in replay_steps(fair_record(game)):
        if len({str(a) for a in engine.legal_actions(step.before, step.seat)}) > 1:
            out.append((step.before, step.seat, step.action))
    return out


@settings(max_examples=12, suppress_health_check=[HealthCheck.too_slow])
@given(
    game=st.sampled_from(game_names()),
    pick=st.integers(min_value=0, max_value=10_000),
    other_deal=st.integers(min_value=0, max_value=2**32),
)
def test_analysis_never_reads_hidden_cards(game: str, pick: int, other_deal: int) -> None:
    """Deal the other seats' hidden cards (and the stock) anew, consistently with the seat's
    view: the analysis of the decision is unchanged for the same sampler seed."""
    engine = get_engine(game)
    decisions = _decisions(game)
    state, seat, action = decisions[pick % len(decisions)]
    view = engine.view(state, seat)
    other = engine.determinize(view, random.Random(other_deal))
    assert engine.view(other, seat).to_json() == view.to_json()
    first = review_decision(game, state, seat, action, index=pick, budget=TINY)
    second = review_decision(game, other, seat, action, index=pick, budget=TINY)
    assert first == second


def test_same_seed_same_analysis_and_another_seed_samples_other_deals() -> None:
    state, seat, action = _decisions("indecision")[3]
    one = review_decision("indecision", state, seat, action, budget=TINY, sampler_seed=1)
    again = review_decision("indecision", state, seat, action, budget=TINY, sampler_seed=1)
    other = review_decision("indecision", state, seat, action, budget=TINY, sampler_seed=2)
    assert one == again
    assert [m.value for m in one.candidates] != [m.value for m in other.candidates]


def test_game_review_has_every_choice_of_the_seat_grouped_by_hand() -> None:
    record = fair_record("declaration-rummy")
    seen: list[tuple[int, int]] = []
    review = review_record(record, 1, budget=TINY, progress=lambda d, n: seen.append((d, n)))
    engine = get_engine("declaration-rummy")
    expected = [
        step.index
        for step in replay_steps(record)
        if step.seat == 1 and len({str(a) for a in engine.legal_actions(step.before, 1)}) > 1
    ]
    assert [d.index for d in review.decisions] == expected
    assert seen[-1] == (len(expected), len(expected))
    for decision in review.decisions:
        assert decision.cost >= 0
        assert 0 < decision.accuracy <= 100
        assert decision.played in {c.action for c in decision.candidates}
        assert (decision.cost == 0) == (decision.accuracy == 100)
    assert review.accuracy is not None and 0 < review.accuracy <= 100
    costly = sorted((d.cost for d in review.decisions if d.cost > 0), reverse=True)[:3]
    assert [d.cost for d in review.top] == costly
    assert all(d.explanation and d.best in d.explanation for d in review.top)


def test_review_command_prints_json_and_text(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(fair_record("indian-rummy").dumps(), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["review", str(path), "--seat", "0", "--json", "--samples", "3"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["seat"] == 0 and data["thresholds"]["unit"] == "points"
    assert data["budget"]["samples"] == 3
    text = runner.invoke(app, ["review", str(path), "--seat", "0", "--samples", "3"])
    assert text.exit_code == 0 and "accuracy" in text.output and "blunder from" in text.output
    assert data["thresholds"]["noise"] == 0.0 and data["thresholds"]["noise_p95"] == 3.8
    assert "a move's cost differs by about 0 (median), 3.8 or more for one in twenty" in (
        " ".join(text.output.split())
    )
    # Counts with their plurals, costs as a player reads them (never "37.833 points").
    said = " ".join(text.output.split())
    assert "(s)" not in said and "1 points" not in said and "1 inaccuracies" not in said
    counts = r"over \d+ decisions?; \d+ inaccurac(y|ies), \d+ mistakes?, \d+ blunders?"
    assert re.search(counts, said), said
    assert not re.search(r"cost \d+\.\d\d", said), said
    bad = runner.invoke(app, ["review", str(path), "--seat", "7"])
    assert bad.exit_code == 2 and "seat must be 0-1" in bad.output


def test_replay_all_shows_every_hand_face_up_only_after_the_game(tmp_path: Path) -> None:
    record = fair_record("indian-rummy")
    engine = get_engine("indian-rummy")
    path = tmp_path / "game.json"
    path.write_text(record.dumps(), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(app, ["replay", str(path), "--all"])
    assert result.exit_code == 0, result.output
    first = next(iter(replay_steps(record))).after
    for seat in range(2):
        hand = " ".join(engine.view(first, seat).to_json()["hand"])
        assert f"seat {seat}: {hand}" in result.output
    unfinished = tmp_path / "unfinished.json"
    cut = record.__class__(record.game, record.rules, record.seed, record.actions[:5])
    unfinished.write_text(cut.dumps(), encoding="utf-8")
    refused = runner.invoke(app, ["replay", str(unfinished), "--all"])
    assert refused.exit_code == 2 and "only for a finished game" in refused.output


def test_terminal_and_chance_states_are_not_decisions() -> None:
    engine = get_engine("indecision")
    for state, seat, _ in _decisions("indecision"):
        assert engine.current_player(state) not in (CHANCE, TERMINAL) or seat >= 0


def test_a_pool_rejoin_answer_is_a_choice_about_the_standing_not_a_judged_move() -> None:
    """RULES.md 2.13: a rejoin offer changes the totals and who plays on, which a deal's points
    cannot weigh: the analysis leaves it out and refuses to judge it, and still judges the
    deal's own moves."""
    engine = get_engine("indian-rummy")
    rules = dataclasses.replace(PRESETS["pool-101"], players=3)
    seed = 1  # seat 1 is out after deal 2 and is offered a rejoin
    played = play(engine, rules, seed, [make_bot("indian-rummy", "normal") for _ in range(3)])
    record = record_of("indian-rummy", rules, seed, played.actions)
    offers = [
        step
        for step in replay_steps(record)
        if step.seat >= 0 and step.before.phase is Phase.REJOIN
    ]
    assert offers, "the seeded game offers a rejoin"
    offer = offers[0]
    assert {str(a) for a in engine.legal_actions(offer.before, offer.seat)} == {
        "rejoin",
        "stay out",
    }
    cut = record_of("indian-rummy", rules, seed, played.actions[: offer.index + 1])
    hand = offer.before.deal_number
    review = review_record(cut, offer.seat, hands=[hand], budget=TINY)
    decisions = review.decisions
    assert decisions, "the deal's own moves are still judged"
    assert offer.index not in {decision.index for decision in decisions}
    assert {decision.kind for decision in decisions}.isdisjoint({"rejoin", "stay"})
    with pytest.raises(ValueError, match="choice about the game's standing"):
        review_decision("indian-rummy", offer.before, offer.seat, offer.action, budget=TINY)


def test_review_text_counts_each_label_with_its_plural() -> None:
    assert [counted(n, "inaccuracy") for n in (0, 1, 2)] == [
        "0 inaccuracies",
        "1 inaccuracy",
        "2 inaccuracies",
    ]
    assert counted(1, "decision") == "1 decision" and counted(3, "blunder") == "3 blunders"
    # Costs as a player reads them: one decimal under 10, whole from 10, "1 point".
    assert amount(37.833, "points") == "38 points"
    assert amount(4.125, "points") == "4.1 points"
    assert amount(1.0, "points") == "1 point"
    assert amount(26.6, "% chance to win") == "27% chance to win"
