"""``cardtable simulate GAME``: random legal-move games, timed, with how they ended.

Reports games, seat decisions (actions chosen by seats, not chance steps), chance steps,
seconds, and decisions per second. The timer starts after start-up (imports, argument parsing)
and counts all the work of the games: chance steps, views, legal moves and the bots' choices.
"""

from __future__ import annotations

import dataclasses
import json
import random
import time
from collections import Counter
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from cardtable.bots.base import RandomBot
from cardtable.cli.common import fail
from cardtable.cli.play import rules_for_command
from cardtable.driver import play
from cardtable.errors import CardtableError
from cardtable.registry import AnyEngine, game_names, get_engine


def simulate_games(engine: AnyEngine, rules: Any, games: int, seed: int) -> dict[str, Any]:
    """Play ``games`` random games from ``seed`` and return the report as data."""
    if getattr(rules, "deals", 0) is None:
        # Indian Rummy free play never ends by itself: a simulated game is one deal.
        rules = dataclasses.replace(rules, deals=1)
    seats = [RandomBot() for _ in range(rules.players)]
    endings: Counter[str] = Counter()
    decisions = chance = 0
    started = time.perf_counter()
    for index in range(games):
        game_seed = seed + index
        played = play(engine, rules, game_seed, seats, rng=random.Random(game_seed))
        decisions += len(played.actions)
        chance += played.chance_steps
        result = engine.result(played.state)
        endings[result.reason if result is not None else "unfinished"] += 1
    seconds = time.perf_counter() - started
    return {
        "game": engine.name,
        "players": rules.players,
        "games": games,
        "seed": seed,
        "seat_decisions": decisions,
        "chance_steps": chance,
        "seconds": round(seconds, 4),
        "decisions_per_second": round(decisions / seconds, 1) if seconds > 0 else None,
        "microseconds_per_decision": round(1e6 * seconds / decisions, 2) if decisions else None,
        "endings": dict(sorted(endings.items())),
    }


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
    ) -> None:
        """Play N games between random legal-move seats and report speed and endings."""
        if games < 1:
            fail(f"--games must be at least 1, not {games}")
        try:
            engine = get_engine(game)
            rules = rules_for_command(
                engine, preset, players, list(rule or ()), cards, optional, variation
            )
        except CardtableError as exc:
            fail(str(exc))
        report = simulate_games(engine, rules, games, seed)
        if as_json:
            typer.echo(json.dumps(report))
            return
        table = Table(title=f"{engine.title}: {games} random games, {rules.players} players")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key in (
            "games",
            "seat_decisions",
            "chance_steps",
            "seconds",
            "decisions_per_second",
            "microseconds_per_decision",
        ):
            table.add_row(key.replace("_", " "), str(report[key]))
        for reason, count in report["endings"].items():
            table.add_row(f"ended: {reason}", str(count))
        Console().print(table)
