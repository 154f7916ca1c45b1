"""``cardtable serve``: run the web app with uvicorn on one process.

``--data-dir`` puts the SQLite database in another directory (``CARDTABLE_DATA_DIR`` does the
same); ``CARDTABLE_DATABASE_URL`` names any other database, such as PostgreSQL.

A SQLite database serves one server at a time: a second ``cardtable serve`` on it refuses to
start (:mod:`cardtable.storage.lock`). That, a data directory that cannot be written and a
database that cannot be opened each end the command with one line and exit code 1.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, Final, NoReturn

import typer

MAX_WEBSOCKET_FRAME: Final = 64 * 1024
"""uvicorn drops a connection sending a bigger frame before it is read into memory; the app
itself closes one sending a frame above its ``max_frame_bytes`` setting (64 KiB by default)
and answers anything above 4 KiB with a "too large" error."""


def serve(host: str = "127.0.0.1", port: int = 8000, data_dir: Path | None = None) -> None:
    """Run the web app until interrupted."""
    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.storage import StorageError
    from cardtable.storage.location import default_database_url, sqlite_url
    from cardtable.storage.lock import exclusive_database

    url = sqlite_url(data_dir) if data_dir is not None else default_database_url()
    with ExitStack() as held:
        try:
            held.enter_context(exclusive_database(url))
            app = create_app(url)
        except StorageError as exc:
            fail(str(exc))
        except OSError as exc:
            where = exc.filename or url
            fail(
                f"cannot write to {where} ({exc.strerror or exc}): give a writable --data-dir "
                "or CARDTABLE_DATA_DIR"
            )
        typer.echo(f"cardtable: http://{host}:{port}/  (database {url})")
        uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WEBSOCKET_FRAME, log_level="info")


def fail(message: str) -> NoReturn:
    """End the command with one line on standard error and exit code 1."""
    typer.echo(f"cardtable: {message}", err=True)
    raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    """Add the ``serve`` command to ``app``."""

    @app.command("serve")
    def serve_command(
        host: Annotated[str, typer.Option(help="interface to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(help="TCP port", min=1, max=65535)] = 8000,
        data_dir: Annotated[
            Path | None,
            typer.Option(
                "--data-dir",
                help="directory of the SQLite database (default: the per-user data directory)",
                file_okay=False,
            ),
        ] = None,
    ) -> None:
        """Start the web app: play in the browser at http://HOST:PORT/."""
        serve(host, port, data_dir)
