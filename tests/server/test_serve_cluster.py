"""``cardtable serve`` in cluster mode: ``--workers N`` runs uvicorn's workers on the app
factory with the settings passed through the environment, the schema migrated once before;
it needs a shared database and Redis, and says so in one line otherwise; alone, nothing
changes (one process, SQLite, no Redis)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
import typer
from sqlalchemy import create_engine
from typer.testing import CliRunner

from cardtable.cli.serve import register
from cardtable.server.context import context_of
from cardtable.server.metrics import MULTIPROCESS_VARIABLE
from cardtable.server.settings import Settings
from cardtable.storage.migrate import current_revision, head_revision


def _serve_app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:  # a second command makes Typer keep the subcommand name
        """Nothing."""

    return app


@pytest.fixture
def uvicorn_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """uvicorn.run replaced by a recorder that notes the environment the workers would get."""
    calls: list[tuple[Any, dict[str, Any]]] = []

    def record(app: Any, **options: Any) -> None:
        calls.append((app, {**options, "environ": dict(os.environ)}))

    monkeypatch.setattr("uvicorn.run", record)
    for name in list(os.environ):
        if name.startswith("CARDTABLE_") or name == MULTIPROCESS_VARIABLE:
            monkeypatch.delenv(name)
    return calls


def test_workers_run_the_app_factory_with_the_settings_in_the_environment(
    postgres_url: str,
    redis_url: str,
    uvicorn_runs: list[tuple[Any, dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(os, "environ", dict(os.environ))  # the command's changes stay here
    arguments = ["serve", "--workers", "3", "--port", "8765", "--database-url", postgres_url]
    arguments += ["--redis-url", redis_url, "--allowed-origin", "https://b.example"]
    result = CliRunner().invoke(_serve_app(), [*arguments, "--log-format", "json"])
    assert result.exit_code == 0, result.output
    ((app, options),) = uvicorn_runs
    assert app == "cardtable.server.app:app_from_environment" and options["factory"] is True
    assert (options["workers"], options["port"]) == (3, 8765)
    assert "3 workers" in result.output and "Redis" in result.output
    environ = options["environ"]
    assert environ["CARDTABLE_DATABASE_URL"] == postgres_url
    assert environ["CARDTABLE_REDIS_URL"] == redis_url
    assert environ[MULTIPROCESS_VARIABLE]  # a metrics directory the workers share
    assert options["log_config"]["formatters"]["lines"]["()"].endswith("JsonFormatter")
    # What a worker reads back from that environment is the command's settings.
    monkeypatch.setattr(os, "environ", environ)
    settings = Settings()
    assert settings.allowed_origins == ("https://b.example",) and settings.log_format == "json"
    assert settings.redis_url == redis_url
    # The schema was brought up to date once, before any worker started.
    engine = create_engine(postgres_url)
    assert current_revision(engine) == head_revision()
    engine.dispose()


@pytest.mark.parametrize(
    ("arguments", "needs"),
    [
        (["--workers", "2"], "a database every worker shares"),
        (["--workers", "2", "--redis-url", "redis://127.0.0.1:6379/0"], "SQLite file"),
        (["--workers", "2", "--database-url", "postgresql+psycopg://db/cards"], "needs Redis"),
        (["--database-url", "sqlite://", "--data-dir", "."], "not both"),
        (["--redis-url", "http://cache"], "not a Redis URL"),
        (["--log-format", "xml"], "log_format"),
    ],
)
def test_what_a_cluster_needs_is_said_in_one_line(
    arguments: list[str],
    needs: str,
    tmp_path: Path,
    uvicorn_runs: list[tuple[Any, dict[str, Any]]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path))
    result = CliRunner().invoke(_serve_app(), ["serve", *arguments])
    assert result.exit_code == 1 and not uvicorn_runs
    (line,) = result.output.strip().splitlines()
    assert line.startswith("cardtable: ") and needs in line


def test_alone_nothing_changes_one_process_sqlite_no_redis(
    tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]]
) -> None:
    result = CliRunner().invoke(_serve_app(), ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    ((app, options),) = uvicorn_runs
    assert "workers" not in options and not isinstance(app, str)
    assert context_of(app).db.url.startswith("sqlite:")
    assert app.state.redis is None and context_of(app).settings.redis_url is None
