"""``cardtable replay FILE``: print a recorded game turn by turn from one seat's point of view."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.cli.common import fail, renderers
from cardtable.cli.records import load_record
from cardtable.errors import CardtableError
from cardtable.registry import get_engine
from cardtable.replay import replay, replay_steps


def register(app: typer.Typer) -> None:
    """Add the ``replay`` command to ``app``."""

    @app.command("replay")
    def replay_command(
        file: Annotated[Path, typer.Argument(help="a game record (JSON) saved by play --save")],
        seat: Annotated[int, typer.Option(help="whose point of view to show")] = 0,
        table: Annotated[
            bool, typer.Option(help="print that seat's table after every action")
        ] = False,
    ) -> None:
        """Replay a game record turn by turn."""
        console = Console(highlight=False)
        try:
            record = load_record(file)
            engine = get_engine(record.game)
            players = engine.rules_from_json(record.rules).players
            if not 0 <= seat < players:
                fail(f"seat must be 0-{players - 1}, not {seat}")
            render_view, render_summary = renderers(record.game)
            console.print(f"[bold]{engine.title}[/bold], seed {record.seed}, seen by seat {seat}")
            last_summary: str | None = None
            for step in replay_steps(record):
                console.print(f"{step.index + 1:>4}. seat {step.seat}: {step.action}")
                view = engine.view(step.after, seat)
                summary = render_summary(view)
                if summary and summary != last_summary:
                    console.print(summary)
                    last_summary = summary
                if table:
                    console.print(render_view(view))
            final = replay(record)
        except CardtableError as exc:
            fail(str(exc))
        result = engine.result(final)
        console.print(
            f"[bold]Game over.[/bold] {result.summary}" if result else "(the game is not finished)"
        )
