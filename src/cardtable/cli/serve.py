"""``cardtable serve``: run the web app with uvicorn on one process.

``--data-dir`` puts the SQLite database in another directory (``CARDTABLE_DATA_DIR`` does the
same); ``CARDTABLE_DATABASE_URL`` names any other database, such as PostgreSQL.

The app's settings (:class:`cardtable.server.settings.Settings`) are read from ``CARDTABLE_*``
variables; ``--allowed-origin`` and ``--secure-cookie`` set the two a deployment behind a
proxy most often needs, and a setting that cannot be read ends the command with one line.

A SQLite database serves one server at a time: a second ``cardtable serve`` on it refuses to
start (:mod:`cardtable.storage.lock`). That, a data directory that cannot be written and a
database that cannot be opened each end the command with one line and exit code 1.
"""

from __future__ import annotations

from contextlib import ExitStack
from pathlib import Path
from typing import Annotated, NoReturn

import typer


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path | None = None,
    *,
    allowed_origins: list[str] | None = None,
    secure_cookie: bool | None = None,
) -> None:
    """Run the web app until interrupted."""
    import uvicorn
    from pydantic import ValidationError

    from cardtable.server.app import create_app
    from cardtable.server.settings import Settings
    from cardtable.storage import StorageError
    from cardtable.storage.location import default_database_url, sqlite_url
    from cardtable.storage.lock import exclusive_database

    url = sqlite_url(data_dir) if data_dir is not None else default_database_url()
    try:
        settings = Settings()
        changes: dict[str, object] = {}
        if allowed_origins:
            changes["allowed_origins"] = (*settings.allowed_origins, *allowed_origins)
        if secure_cookie is not None:
            changes["cookie_secure"] = secure_cookie
        if changes:
            settings = Settings.model_validate({**settings.model_dump(), **changes})
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        fail(f"setting {where}: {problem['msg']}")
    with ExitStack() as held:
        try:
            held.enter_context(exclusive_database(url))
            app = create_app(url, settings=settings)
        except StorageError as exc:
            fail(str(exc))
        except OSError as exc:
            where = exc.filename or url
            fail(
                f"cannot write to {where} ({exc.strerror or exc}): give a writable --data-dir "
                "or CARDTABLE_DATA_DIR"
            )
        typer.echo(f"cardtable: http://{host}:{port}/  (database {url})")
        uvicorn.run(
            app, host=host, port=port, ws_max_size=settings.max_frame_bytes, log_level="info"
        )


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
        allowed_origin: Annotated[
            list[str] | None,
            typer.Option(
                "--allowed-origin",
                help="another origin whose pages may play here, such as "
                "https://cards.example.org (repeatable; CARDTABLE_ALLOWED_ORIGINS too)",
            ),
        ] = None,
        secure_cookie: Annotated[
            bool | None,
            typer.Option(
                "--secure-cookie/--no-secure-cookie",
                help="the profile cookie's Secure flag (default: set over HTTPS)",
            ),
        ] = None,
    ) -> None:
        """Start the web app: play in the browser at http://HOST:PORT/."""
        serve(
            host,
            port,
            data_dir,
            allowed_origins=allowed_origin,
            secure_cookie=secure_cookie,
        )
