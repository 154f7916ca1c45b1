"""``cardtable serve``: run the web app with uvicorn on one process.

``--data-dir`` puts the SQLite database in another directory (``CARDTABLE_DATA_DIR`` does the
same); ``CARDTABLE_DATABASE_URL`` names any other database, such as PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Final

import typer

MAX_WEBSOCKET_FRAME: Final = 64 * 1024
"""uvicorn drops a connection sending a bigger frame; the app answers anything above 4 KiB with
a "too large" error, so this only stops abuse."""


def serve(host: str = "127.0.0.1", port: int = 8000, data_dir: Path | None = None) -> None:
    """Run the web app until interrupted."""
    import uvicorn

    from cardtable.server.app import create_app
    from cardtable.storage.location import default_database_url, sqlite_url

    url = sqlite_url(data_dir) if data_dir is not None else default_database_url()
    app = create_app(url)
    typer.echo(f"cardtable: http://{host}:{port}/  (database {url})")
    uvicorn.run(app, host=host, port=port, ws_max_size=MAX_WEBSOCKET_FRAME, log_level="info")


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
