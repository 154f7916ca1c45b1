"""``cardtable serve``: run the web app with uvicorn, on one process or several.

``--data-dir`` puts the SQLite database in another directory (``CARDTABLE_DATA_DIR`` does the
same); ``--database-url`` (or ``CARDTABLE_DATABASE_URL``) names any other database, such as
PostgreSQL. ``--redis-url`` (or ``CARDTABLE_REDIS_URL``) makes the server one process of a
cluster (:mod:`cardtable.server.cluster`), and ``--workers N`` runs N such processes on one
port: that needs both a shared database and Redis. Without them nothing changes: one
process, SQLite, no Redis.

The app's settings (:class:`cardtable.server.settings.Settings`) are read from ``CARDTABLE_*``
variables; ``--allowed-origin``, ``--secure-cookie`` and ``--forwarded-allow-ips`` set the ones
a deployment behind a proxy most often needs, and a setting that cannot be read ends the
command with one line. The settings also give uvicorn its connection limits
(:func:`connection_options`): proxy headers are believed only from the proxies named, a
request's head has a deadline (:mod:`cardtable.server.slow_clients`), and so on.

A SQLite database serves one server at a time: a second ``cardtable serve`` on it refuses to
start (:mod:`cardtable.storage.lock`). That, a data directory that cannot be written and a
database that cannot be opened each end the command with one line and exit code 1.
"""

from __future__ import annotations

import os
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

if TYPE_CHECKING:
    from cardtable.server.settings import Settings


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    data_dir: Path | None = None,
    *,
    allowed_origins: list[str] | None = None,
    secure_cookie: bool | None = None,
    workers: int = 1,
    database_url: str | None = None,
    redis_url: str | None = None,
    log_format: str | None = None,
    forwarded_allow_ips: str | None = None,
) -> None:
    """Run the web app until interrupted."""
    import uvicorn
    from pydantic import ValidationError
    from sqlalchemy.engine import make_url

    from cardtable.server.app import create_app
    from cardtable.server.logs import log_config
    from cardtable.server.settings import Settings
    from cardtable.storage import StorageError
    from cardtable.storage.location import default_database_url, sqlite_url
    from cardtable.storage.lock import exclusive_database

    if data_dir is not None and database_url is not None:
        fail("give --data-dir (a SQLite database) or --database-url, not both")
    try:
        settings = Settings()
        changes: dict[str, object] = {}
        if allowed_origins:
            changes["allowed_origins"] = (*settings.allowed_origins, *allowed_origins)
        if secure_cookie is not None:
            changes["cookie_secure"] = secure_cookie
        if database_url is not None:
            changes["database_url"] = database_url
        if redis_url is not None:
            changes["redis_url"] = redis_url
        if log_format is not None:
            changes["log_format"] = log_format
        if forwarded_allow_ips is not None:
            changes["forwarded_allow_ips"] = forwarded_allow_ips
        if changes:
            settings = Settings.model_validate({**settings.model_dump(), **changes})
    except ValidationError as exc:
        problem = exc.errors()[0]
        where = ".".join(str(part) for part in problem["loc"])
        fail(f"setting {where}: {problem['msg']}")
    if data_dir is not None:
        url = sqlite_url(data_dir)
    else:
        url = settings.database_url or default_database_url()
    logging = log_config(settings.log_format)
    if workers > 1:
        if make_url(url).get_backend_name() == "sqlite":
            fail(
                f"--workers {workers} needs a database every worker shares, such as PostgreSQL "
                "(--database-url postgresql+psycopg://HOST/NAME): a SQLite file serves one process"
            )
        if settings.redis_url is None:
            fail(
                f"--workers {workers} needs Redis, through which the workers share their tables "
                "(--redis-url redis://HOST:6379/0)"
            )
        serve_workers(host, port, workers, settings.model_copy(update={"database_url": url}))
        return
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
        typer.echo(f"cardtable: http://{host}:{port}/  (database {_shown(url)})")
        uvicorn.run(
            app,
            host=host,
            port=port,
            log_level="info",
            log_config=logging,
            **connection_options(settings),
        )


WORKER_HEALTHCHECK_SECONDS = 30
"""How long uvicorn's supervisor waits for a worker to answer (starting, or alive)."""


def serve_workers(host: str, port: int, workers: int, settings: Settings) -> None:
    """Run ``workers`` processes of the app on one port (uvicorn's workers: the command binds
    the socket once and each worker accepts connections from it; a worker that dies is started
    again). The schema is brought up to date here, once, before any worker starts; each worker
    builds its app from the ``CARDTABLE_*`` variables set from ``settings``."""
    import uvicorn
    from redis import Redis
    from redis.exceptions import RedisError

    from cardtable.server.logs import log_config
    from cardtable.server.metrics import MULTIPROCESS_VARIABLE
    from cardtable.storage import Database, StorageError

    assert settings.database_url is not None and settings.redis_url is not None
    try:
        Database(settings.database_url).close()
    except StorageError as exc:
        fail(str(exc))
    try:
        with Redis.from_url(settings.redis_url, socket_connect_timeout=3) as redis:
            redis.ping()
    except RedisError as exc:
        fail(f"cannot reach Redis at {_shown(settings.redis_url)}: {exc}")
    os.environ.update(settings_environment(settings))
    with ExitStack() as held:
        if not os.environ.get(MULTIPROCESS_VARIABLE):
            # Each worker writes its metrics here; any of them serves the sum at /metrics.
            directory = held.enter_context(tempfile.TemporaryDirectory(prefix="cardtable-metrics-"))
            os.environ[MULTIPROCESS_VARIABLE] = directory
        typer.echo(
            f"cardtable: http://{host}:{port}/  ({workers} workers, database "
            f"{_shown(settings.database_url)}, Redis {_shown(settings.redis_url)})"
        )
        uvicorn.run(
            "cardtable.server.app:app_from_environment",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            # How long a worker may take to answer the supervisor's ping before it is killed
            # and started again: uvicorn's 5 s kills workers still importing on a busy host.
            timeout_worker_healthcheck=WORKER_HEALTHCHECK_SECONDS,
            log_level="info",
            log_config=log_config(settings.log_format),
            **connection_options(settings),
        )


def connection_options(settings: Settings) -> dict[str, Any]:
    """uvicorn's options for the connections: proxy headers believed only from the proxies
    the settings name (uvicorn's own default believes any local client), the deadlines for a
    request's head and for idle keep-alive connections, the bound on connections served at
    once, and the websockets' frame size and pings.

    >>> from cardtable.server.settings import Settings
    >>> options = connection_options(Settings())
    >>> options["proxy_headers"], options["forwarded_allow_ips"], options["limit_concurrency"]
    (False, None, 2000)
    >>> connection_options(Settings(forwarded_allow_ips=("10.0.0.5",)))["forwarded_allow_ips"]
    '10.0.0.5'
    """
    from cardtable.server import slow_clients

    slow_clients.configure(settings.header_timeout_seconds)
    proxies = settings.forwarded_allow_ips
    return {
        "proxy_headers": bool(proxies),
        "forwarded_allow_ips": ",".join(proxies) if proxies else None,
        "http": slow_clients.HeadDeadlineProtocol,
        "timeout_keep_alive": settings.keep_alive_seconds,
        "limit_concurrency": settings.max_connections,
        "ws_max_size": settings.max_frame_bytes,
        "ws_ping_interval": settings.ws_ping_seconds,
        "ws_ping_timeout": settings.ws_ping_seconds,
    }


def settings_environment(settings: Settings) -> dict[str, str]:
    """The ``CARDTABLE_*`` variables from which a worker process reads ``settings`` again.

    >>> from cardtable.server.settings import Settings
    >>> env = settings_environment(Settings(allowed_origins=("https://a.example",)))
    >>> env["CARDTABLE_ALLOWED_ORIGINS"], env["CARDTABLE_RATE_LIMITS"]
    ('https://a.example', 'true')
    >>> "CARDTABLE_TEST_SEED" in env
    False
    """
    env = {}
    for name, value in settings.model_dump().items():
        if value is None:
            continue
        if isinstance(value, bool):
            text = "true" if value else "false"
        elif isinstance(value, tuple | list):
            text = ",".join(str(part) for part in value)
        else:
            text = str(value)
        env[f"CARDTABLE_{name.upper()}"] = text
    return env


def _shown(url: str) -> str:
    """A URL with its password hidden, for printing.

    >>> _shown("postgresql://cards:secret@db/cards")
    'postgresql://cards:***@db/cards'
    """
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return url


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
        workers: Annotated[
            int,
            typer.Option(
                help="server processes sharing the port (above 1 needs --database-url of a "
                "shared database and --redis-url)",
                min=1,
                max=256,
            ),
        ] = 1,
        database_url: Annotated[
            str | None,
            typer.Option(
                "--database-url",
                help="the database, such as postgresql+psycopg://HOST/NAME "
                "(CARDTABLE_DATABASE_URL too; default: SQLite in the data directory)",
            ),
        ] = None,
        redis_url: Annotated[
            str | None,
            typer.Option(
                "--redis-url",
                help="Redis, such as redis://HOST:6379/0, for a cluster of servers "
                "(CARDTABLE_REDIS_URL too; default: none, one server alone)",
            ),
        ] = None,
        log_format: Annotated[
            str | None,
            typer.Option(
                "--log-format",
                help="text or json (one JSON object a line; CARDTABLE_LOG_FORMAT too)",
            ),
        ] = None,
        forwarded_allow_ips: Annotated[
            str | None,
            typer.Option(
                "--forwarded-allow-ips",
                help="comma-separated addresses or networks of the reverse proxies whose "
                "X-Forwarded-For and X-Forwarded-Proto to believe (CARDTABLE_FORWARDED_ALLOW_IPS "
                "too; default: none, the headers are ignored)",
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
            workers=workers,
            database_url=database_url,
            redis_url=redis_url,
            log_format=log_format,
            forwarded_allow_ips=forwarded_allow_ips,
        )
