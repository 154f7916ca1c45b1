"""The ``cardtable`` command line: score, play, replay, review, verify, simulate, arena and serve.

Each command lives in a module of its own; this one only assembles them. Bad input ends with a
one-line error and exit code 2, never a traceback.
"""

from __future__ import annotations

import typer

app = typer.Typer(
    name="cardtable",
    help="Indecision, Indian Rummy and Declaration Rummy: score hands, play, replay, simulate.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _register_commands() -> None:
    """Attach every command module that is present."""
    from cardtable.cli import arena, play, replay, review, score, serve, simulate, verify

    for module in (score, play, replay, review, verify, simulate, arena, serve):
        module.register(app)


_register_commands()


def main() -> None:
    """Entry point of the ``cardtable`` script."""
    app()
