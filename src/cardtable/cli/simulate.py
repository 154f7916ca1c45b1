"""``cardtable simulate GAME``: full-length random games, timed, with how they ended.

Every seat picks uniformly among its playing actions (:mod:`cardtable.playouts`: no Indian
Rummy drop or wrong show, no Declaration Rummy drop or tie proposal), through the engine's fast
path as a search bot drives it. Reports games, seat decisions (actions chosen by seats, not
chance steps) in all and per game, chance steps, seconds, decisions per second and microseconds
per seat decision: the engine's cost, counting all the work of the games (chance steps, legal
moves, the choice). Endings are the games' result reasons; for Indian Rummy, whose games all end
with the deals played, how the last deal ended (a valid show, or abandoned at the turn cap).
The timer starts after start-up (imports, argument parsing). With ``--beside-gin`` OpenSpiel's
``gin_rummy`` is played the same way in turns with ours: the games are split into rounds (ten,
or one a game for fewer games), and after each round of ours ``gin_rummy`` plays whole games
until it has used as much CPU time as that round did. The report adds ``gin_rummy``'s cost per
decision over all its games and the ratio ours / ``gin_rummy``'s per seat decision, the
median of the rounds' ratios (each round's pair ran side by side, so a stretch when the
machine is busier weighs on both sides of one ratio, not on one side of the total); the
rounds' own ratios are listed too (``cost_beside_gin_rummy_rounds``,
``cpu_cost_beside_gin_rummy_rounds``). Each figure is given in wall-clock time and in the
process's CPU time: on a shared machine the CPU-time ratio is the steadier (it leaves out the
time other processes held the processor).
"""

from __future__ import annotations

import dataclasses
import json
import statistics
from typing import Annotated, Any, Final

import typer
from rich.console import Console
from rich.table import Table

from cardtable.cli.common import fail
from cardtable.cli.play import rules_for_command
from cardtable.errors import CardtableError
from cardtable.playouts import PlayoutTotals, gin_rummy_playouts, random_playouts
from cardtable.registry import AnyEngine, game_names, get_engine

BESIDE_GIN_ROUNDS: Final = 10
"""``--beside-gin``: the rounds the games are split into (fewer when there are fewer games)."""


def simulate_games(
    engine: AnyEngine, rules: Any, games: int, seed: int, *, beside_gin: bool = False
) -> dict[str, Any]:
    """Play ``games`` random games from ``seed`` and return the report as data."""
    if getattr(rules, "deals", 0) is None:
        # Indian Rummy free play never ends by itself: a simulated game is one deal.
        rules = dataclasses.replace(rules, deals=1)
    rounds = min(BESIDE_GIN_ROUNDS, games) if beside_gin else 1
    ours = PlayoutTotals()
    gin = PlayoutTotals()
    wall_ratios: list[float] = []
    cpu_ratios: list[float] = []
    played = 0
    for index in range(rounds):
        batch = games * (index + 1) // rounds - played
        part = random_playouts(engine, rules, seed + played, games=batch)
        played += batch
        _add(ours, part)
        if beside_gin:
            gin_part = gin_rummy_playouts(seed + index, cpu_seconds=part.cpu_seconds)
            _add(gin, gin_part)
            if part.decisions and gin_part.seconds > 0 and gin_part.cpu_seconds > 0:
                wall_ratios.append(
                    part.microseconds_per_decision / gin_part.microseconds_per_decision
                )
                cpu_ratios.append(
                    part.cpu_microseconds_per_decision / gin_part.cpu_microseconds_per_decision
                )
    seconds = ours.seconds
    decisions = ours.decisions
    report: dict[str, Any] = {
        "game": engine.name,
        "players": rules.players,
        "games": games,
        "seed": seed,
        "seat_decisions": decisions,
        "decisions_per_game": round(decisions / ours.games, 1),
        "chance_steps": ours.chance_steps,
        "seconds": round(seconds, 4),
        "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
        "microseconds_per_decision": round(ours.microseconds_per_decision, 2)
        if decisions
        else None,
        "cpu_microseconds_per_decision": round(ours.cpu_microseconds_per_decision, 2)
        if decisions
        else None,
        "endings": dict(sorted(ours.endings.items())),
    }
    if beside_gin:
        gin_us = gin.microseconds_per_decision
        gin_cpu_us = gin.cpu_microseconds_per_decision
        report["gin_rummy_microseconds_per_decision"] = round(gin_us, 2)
        report["gin_rummy_cpu_microseconds_per_decision"] = round(gin_cpu_us, 2)
        report["cost_beside_gin_rummy"] = (
            round(statistics.median(wall_ratios), 3) if wall_ratios else None
        )
        report["cpu_cost_beside_gin_rummy"] = (
            round(statistics.median(cpu_ratios), 3) if cpu_ratios else None
        )
        report["cost_beside_gin_rummy_rounds"] = [round(r, 3) for r in wall_ratios]
        report["cpu_cost_beside_gin_rummy_rounds"] = [round(r, 3) for r in cpu_ratios]
    return report


def _add(total: PlayoutTotals, part: PlayoutTotals) -> None:
    total.games += part.games
    total.decisions += part.decisions
    total.chance_steps += part.chance_steps
    total.seconds += part.seconds
    total.cpu_seconds += part.cpu_seconds
    total.endings.update(part.endings)


def register(app: typer.Typer) -> None:
    """Add the ``simulate`` command to ``app``."""

    @app.command("simulate")
    def simulate(
        game: Annotated[str, typer.Argument(help=", ".join(game_names()))],
        games: Annotated[int, typer.Option(help="number of games")] = 100,
        seed: Annotated[int, typer.Option(help="seed of the first game")] = 1,
        players: Annotated[int | None, typer.Option(help="number of players")] = None,
        preset: Annotated[str | None, typer.Option(help="a named rule set")] = None,
        rule: Annotated[
            list[str] | None, typer.Option(help="rule option KEY=VALUE (repeatable)")
        ] = None,
        cards: Annotated[
            int | None, typer.Option(help="Declaration Rummy: cards dealt to each")
        ] = None,
        optional: Annotated[
            str | None, typer.Option(help="Declaration Rummy: optional cards")
        ] = None,
        variation: Annotated[str | None, typer.Option(help="Declaration Rummy: variations")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
        beside_gin: Annotated[
            bool,
            typer.Option(
                "--beside-gin", help="also time OpenSpiel's gin_rummy (needs the research extra)"
            ),
        ] = False,
    ) -> None:
        """Play N full-length random games and report the engine's speed and the endings."""
        if games < 1:
            fail(f"--games must be at least 1, not {games}")
        try:
            engine = get_engine(game)
            rules = rules_for_command(
                engine, preset, players, list(rule or ()), cards, optional, variation
            )
        except CardtableError as exc:
            fail(str(exc))
        try:
            report = simulate_games(engine, rules, games, seed, beside_gin=beside_gin)
        except ImportError:
            fail("--beside-gin needs OpenSpiel: pip install 'cardtable[research]'")
        if as_json:
            typer.echo(json.dumps(report))
            return
        table = Table(title=f"{engine.title}: {games} random games, {rules.players} players")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key in (
            "games",
            "seat_decisions",
            "decisions_per_game",
            "chance_steps",
            "seconds",
            "decisions_per_second",
            "microseconds_per_decision",
            "cpu_microseconds_per_decision",
            "gin_rummy_microseconds_per_decision",
            "gin_rummy_cpu_microseconds_per_decision",
            "cost_beside_gin_rummy",
            "cpu_cost_beside_gin_rummy",
        ):
            if key in report:
                table.add_row(key.replace("_", " "), str(report[key]))
        for key in ("cost_beside_gin_rummy_rounds", "cpu_cost_beside_gin_rummy_rounds"):
            if report.get(key):
                low, high = min(report[key]), max(report[key])
                table.add_row(f"{key.replace('_', ' ')} (range)", f"{low} to {high}")
        for reason, count in report["endings"].items():
            table.add_row(f"ended: {reason}", str(count))
        Console().print(table)
