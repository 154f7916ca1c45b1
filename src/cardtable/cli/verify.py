"""``cardtable verify FILE``: check that a finished game's deals were provably fair.

It recomputes the commitment from the revealed server seed, derives the game seed from the
server seed and the players' contributions (:mod:`cardtable.fairness`), and replays every deal
and action of the record from that seed. Exit code 0 when all holds, 1 naming the first check
that failed, 2 for a file that is not a record.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cardtable.cli.common import fail
from cardtable.cli.records import load_record
from cardtable.errors import CardtableError
from cardtable.replay import verify_record


def register(app: typer.Typer) -> None:
    """Add the ``verify`` command to ``app``."""

    @app.command("verify")
    def verify_command(
        file: Annotated[Path, typer.Argument(help="a finished game's record (JSON)")],
        as_json: Annotated[bool, typer.Option("--json", help="print one JSON object")] = False,
    ) -> None:
        """Verify a game's provably fair deal from its revealed seed."""
        try:
            record = load_record(file)
        except CardtableError as exc:
            fail(str(exc))
        outcome = verify_record(record)
        if as_json:
            typer.echo(json.dumps(outcome.to_json()))
        else:
            for check in outcome.checks:
                typer.echo(f"ok: {check}")
            typer.echo(
                "verified: the deals are the ones committed to before the game"
                if outcome.ok
                else f"FAILED: {outcome.problem}"
            )
        if not outcome.ok:
            raise typer.Exit(1)
