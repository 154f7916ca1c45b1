"""The ``cardtable arena`` command: seeded duplicate games between bot levels, with a progress
bar, pairwise win rates with 95% intervals, a rating ladder, decision times, ``--json`` output
and an SVG picture of the ladder (``--chart``).
"""

from __future__ import annotations

import dataclasses
import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from cardtable.arena import ArenaConfig, ArenaReport, available_cores, ladder_svg, run_arena
from cardtable.cli.common import fail
from cardtable.errors import CardtableError, RulesError
from cardtable.games.spec import arena_changes
from cardtable.registry import game_names, get_engine, get_spec


def _interval(low: float, high: float, digits: int = 1, scale: float = 1.0) -> str:
    if not (math.isfinite(low) and math.isfinite(high)):
        return "—"
    return f"[{low * scale:.{digits}f}, {high * scale:.{digits}f}]"


def render(report: ArenaReport, console: Console) -> None:
    """Print the report as tables."""
    console.print(
        f"[bold]{report.game}[/bold]: {report.games} games, {report.players} players, "
        f"seed {report.seed}, {report.workers} worker(s), {report.elapsed_s:.1f} s"
    )
    pairs = Table(title="Pairings (duplicate deals; 95% intervals)")
    for column in ("A", "B", "games", "A won", "B won", "ties", "A score", "95% CI"):
        pairs.add_column(column, justify="right" if column not in ("A", "B") else "left")
    points = any(p.points_difference is not None for p in report.pairings)
    if points:
        pairs.add_column("A pts/deal", justify="right")
        pairs.add_column("B pts/deal", justify="right")
        pairs.add_column("A−B pts (95% CI)", justify="right")
    for p in report.pairings:
        row = [
            p.a,
            p.b,
            str(p.games),
            str(p.a_wins),
            str(p.b_wins),
            str(p.ties),
            f"{p.score.mean * 100:.1f}%",
            _interval(p.score.low, p.score.high, 1, 100.0),
        ]
        if points:
            assert p.a_points is not None and p.b_points is not None
            assert p.points_difference is not None
            d = p.points_difference
            row += [
                f"{p.a_points.mean:.1f}",
                f"{p.b_points.mean:.1f}",
                f"{d.mean:+.1f} {_interval(d.low, d.high)}",
            ]
        pairs.add_row(*row)
    console.print(pairs)
    ladder = Table(title="Ladder (Bradley-Terry, Elo scale, Random = 0)")
    for column in ("bot", "rating", "95% CI", "games"):
        ladder.add_column(column, justify="left" if column == "bot" else "right")
    for rung in report.ladder:
        ladder.add_row(
            rung.bot, f"{rung.rating:.0f}", _interval(rung.low, rung.high, 0), str(rung.games)
        )
    console.print(ladder)
    times = Table(title="Decision times (decisions with a real choice)")
    for column in ("level", "decisions", "p50 ms", "p95 ms", "max ms"):
        times.add_column(column, justify="left" if column == "level" else "right")
    for t in report.times:
        times.add_row(
            t.level, str(t.decisions), f"{t.p50_ms:.2f}", f"{t.p95_ms:.2f}", f"{t.max_ms:.1f}"
        )
    console.print(times)


def register(app: typer.Typer) -> None:
    """Add the ``arena`` command to ``app``."""

    @app.command()
    def arena(
        game: Annotated[str, typer.Argument(help=", ".join(game_names()))],
        bots: Annotated[
            str, typer.Option(help="Comma-separated bot levels (random, easy, normal, hard).")
        ] = "hard,normal,easy,random",
        games: Annotated[
            int, typer.Option(help="Games per pairing (rounded up to whole duplicate deals).")
        ] = 100,
        seed: Annotated[int, typer.Option(help="Master seed of the deals.")] = 0,
        players: Annotated[int, typer.Option(help="Seats at each table.")] = 2,
        preset: Annotated[str, typer.Option(help="Rules preset of the game.")] = "default",
        json_output: Annotated[
            bool, typer.Option("--json", help="Print machine-readable JSON.")
        ] = False,
        chart: Annotated[
            Path | None, typer.Option(help="Write the ladder as an SVG picture to this file.")
        ] = None,
        workers: Annotated[
            int | None, typer.Option(help="Worker processes (default: one per core).")
        ] = None,
    ) -> None:
        """Pit bots against each other in seeded duplicate games and measure their strength."""
        errors = Console(stderr=True)
        try:
            engine = get_engine(game)
            spec = get_spec(game)
            presets = engine.presets()
            if preset not in presets:
                raise RulesError(
                    f"unknown preset {preset!r} for {engine.name}: "
                    f"choose one of {', '.join(presets)}"
                )
            changes: dict[str, object] = {
                "players": players,
                **arena_changes(spec, presets[preset]),
            }
            config = ArenaConfig(
                game=engine.name,
                bots=tuple(b for b in bots.split(",") if b.strip()),
                games=games,
                seed=seed,
                players=players,
                workers=workers if workers is not None else available_cores(),
                rules=_replace(presets[preset], changes),
            )
            with Progress(
                TextColumn("[bold]{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=errors,
                transient=json_output,
            ) as progress:
                bar = progress.add_task(f"{engine.name} arena", total=None)

                def on_progress(done: int, total: int) -> None:
                    progress.update(bar, completed=done, total=total)

                report = run_arena(config, on_progress=on_progress)
        except (CardtableError, ValueError) as exc:
            fail(str(exc))
        if chart is not None:
            try:
                chart.write_text(
                    ladder_svg(report.ladder, title=f"{engine.title}: bot ladder"),
                    encoding="utf-8",
                )
            except OSError as exc:
                fail(f"cannot write {chart}: {exc.strerror}")
        if json_output:
            typer.echo(json.dumps(report.to_json(), indent=1))
        else:
            render(report, Console())


def _replace(rules: Any, changes: dict[str, object]) -> Any:
    try:
        return dataclasses.replace(rules, **changes)
    except TypeError as exc:
        raise RulesError(f"bad arena settings: {exc}") from None
