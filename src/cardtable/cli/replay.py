"""``cardtable replay FILE``: print a recorded game turn by turn from one seat's point of view,
or with ``--all`` every hand face up (only for a finished game: while a game is on, a seat sees
only its own cards)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from cardtable.cards import format_cards
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
        show_all: Annotated[
            bool,
            typer.Option("--all", help="every hand face up after each action (finished games)"),
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
            if show_all and engine.result(replay(record)) is None:
                fail("--all shows every hand face up, which is only for a finished game")
            seen_by = "every hand face up" if show_all else f"seen by seat {seat}"
            console.print(f"[bold]{engine.title}[/bold], seed {record.seed}, {seen_by}")
            last_summary: str | None = None
            for step in replay_steps(record):
                console.print(f"{step.index + 1:>4}. seat {step.seat}: {step.action}")
                view = engine.view(step.after, seat)
                summary = None if show_all else render_summary(view)
                if summary and summary != last_summary:
                    console.print(summary)
                    last_summary = summary
                if table:
                    console.print(render_view(view))
                if show_all:
                    for other in range(players):
                        hand = engine.view(step.after, other).hand
                        console.print(f"      seat {other}: {format_cards(hand) or '(no cards)'}")
            final = replay(record)
        except CardtableError as exc:
            fail(str(exc))
        result = engine.result(final)
        console.print(
            f"[bold]Game over.[/bold] {result.summary}" if result else "(the game is not finished)"
        )
