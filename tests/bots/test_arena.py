"""The arena: schedule, statistics, ladder, chart, a seeded smoke run and the CLI command."""

from __future__ import annotations

import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardtable.arena import ArenaConfig, ladder_svg, run_arena
from cardtable.arena.report import Rung
from cardtable.arena.schedule import deal_seed, deals_for, lineups, rotations, unique_labels
from cardtable.arena.stats import (
    anchor_ratings,
    bootstrap_ratings,
    bradley_terry,
    mean_ci,
    pair_wins,
    percentile,
)
from cardtable.cli.arena import register
from cardtable.errors import RulesError


def test_mean_interval_is_mean_plus_minus_1_96_standard_errors() -> None:
    estimate = mean_ci([0.0, 1.0] * 50)
    assert estimate.mean == pytest.approx(0.5)
    half = 1.959964 * math.sqrt(0.25 * 100 / 99 / 100)
    assert estimate.low == pytest.approx(0.5 - half)
    assert estimate.high == pytest.approx(0.5 + half)
    assert not estimate.excludes(0.5)
    assert mean_ci([1.0] * 10).excludes(0.5)


def test_percentiles_interpolate_between_order_statistics() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == pytest.approx(50.5)
    assert percentile(values, 95) == pytest.approx(95.05)
    assert math.isnan(percentile([], 50))


def test_bradley_terry_recovers_the_odds_of_a_three_player_ladder() -> None:
    # a beats b 2:1, b beats c 2:1, a beats c 4:1: a consistent ladder 120 Elo points a step.
    wins = {
        ("a", "b"): 200.0, ("b", "a"): 100.0,
        ("b", "c"): 200.0, ("c", "b"): 100.0,
        ("a", "c"): 400.0, ("c", "a"): 100.0,
    }  # fmt: skip
    ratings = anchor_ratings(bradley_terry(["a", "b", "c"], wins, prior_games=0), "c")
    step = 400 * math.log10(2)
    assert ratings["c"] == 0
    assert ratings["b"] == pytest.approx(step, abs=1)
    assert ratings["a"] == pytest.approx(2 * step, abs=1)


def test_bootstrap_interval_contains_the_point_rating() -> None:
    samples = {("a", "b"): [1.0, 0.5, 1.0, 0.0, 1.0, 0.5, 1.0, 1.0] * 5}
    point = anchor_ratings(bradley_terry(["a", "b"], pair_wins(samples, 2.0)), "b")
    low, high = bootstrap_ratings(["a", "b"], samples, games_per_unit=2.0, anchor="b")["a"]
    assert low <= point["a"] <= high
    assert low > 0


def test_schedule_rotates_every_lineup_over_the_same_deals() -> None:
    table = lineups(unique_labels(["hard", "normal", "easy", "random"]), 2)
    assert len(table) == 6
    assert rotations(("a", "b")) == [("a", "b"), ("b", "a")]
    assert deals_for(1000, 2) == 500 and deals_for(5, 2) == 3
    assert deal_seed(3, 7) == deal_seed(3, 7) != deal_seed(3, 8)
    assert lineups(("a", "b"), 4)[0].bots == ("a", "b", "a", "b")
    with pytest.raises(RulesError):
        lineups(("a",), 2)


def test_ladder_chart_is_a_well_formed_svg_naming_every_bot() -> None:
    svg = ladder_svg(
        [Rung("hard", 900.0, 850.0, 950.0, 10), Rung("random", 0.0, 0.0, 0.0, 10)],
        title="Indian Rummy: bot ladder",
    )
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    texts = [node.text for node in root.iter() if node.tag.endswith("text")]
    assert "hard" in texts and "random" in texts


def test_seeded_arena_shows_normal_far_ahead_of_random_and_repeats_exactly() -> None:
    config = ArenaConfig(
        game="indian-rummy", bots=("normal", "random"), games=12, seed=5, workers=1
    )
    report = run_arena(config)
    (pairing,) = report.pairings
    assert (pairing.a, pairing.b) == ("normal", "random")
    assert pairing.games == 12 and pairing.deals == 6
    assert pairing.score.mean > 0.9 and pairing.score.excludes(0.5)
    assert pairing.points_difference is not None and pairing.points_difference.high < 0
    assert [rung.bot for rung in report.ladder] == ["normal", "random"]
    times = {t.level: t for t in report.times}
    assert times["normal"].decisions > 0 and times["normal"].p95_ms >= times["normal"].p50_ms
    again = run_arena(config)
    assert again.to_json()["pairings"] == report.to_json()["pairings"]


def test_parallel_workers_give_the_same_games_as_one_process() -> None:
    config = ArenaConfig(game="declaration-rummy", bots=("easy", "random"), games=8, seed=2)
    one = run_arena(ArenaConfig(**{**_fields(config), "workers": 1}))
    two = run_arena(ArenaConfig(**{**_fields(config), "workers": 2}))
    assert one.to_json()["pairings"] == two.to_json()["pairings"]


def _fields(config: ArenaConfig) -> dict[str, Any]:
    return {name: getattr(config, name) for name in ArenaConfig.__slots__}


def test_arena_command_prints_json_and_writes_the_chart(tmp_path: Path) -> None:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:  # a second command keeps ``arena`` a named subcommand
        """Unused."""

    chart = tmp_path / "ladder.svg"
    result = CliRunner().invoke(
        app,
        [
            "arena", "indecision", "--bots", "easy,random", "--games", "4", "--seed", "1",
            "--workers", "1", "--json", "--chart", str(chart),
        ],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["game"] == "indecision" and data["games"] == 4
    assert {row["bot"] for row in data["ladder"]} == {"easy", "random"}
    assert {row["level"] for row in data["decision_times"]} == {"easy", "random"}
    assert chart.read_text(encoding="utf-8").startswith("<svg")


def test_arena_command_refuses_an_unknown_level_in_one_line() -> None:
    app = typer.Typer()
    register(app)

    @app.command()
    def other() -> None:
        """Unused."""

    result = CliRunner().invoke(app, ["arena", "indecision", "--bots", "easy,expert"])
    assert result.exit_code == 2
    assert "unknown bot level 'expert'" in result.output
