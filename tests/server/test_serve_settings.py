"""``cardtable serve`` reads the app's settings from the environment and its options: allowed
origins and the cookie's Secure flag reach the app, the websocket frame cap reaches uvicorn,
and a setting that cannot be read ends the command with one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli.serve import register
from cardtable.server.context import context_of


def _serve_app() -> typer.Typer:
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:  # a second command makes Typer keep the subcommand name
        """Nothing."""

    return app


@pytest.fixture
def uvicorn_runs(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, dict[str, Any]]]:
    """uvicorn.run replaced by a recorder: the command returns as soon as it would serve."""
    calls: list[tuple[Any, dict[str, Any]]] = []
    monkeypatch.setattr("uvicorn.run", lambda app, **options: calls.append((app, options)))
    return calls


def test_serve_options_and_variables_reach_the_apps_settings(
    tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_ALLOWED_ORIGINS", "https://a.example")
    monkeypatch.setenv("CARDTABLE_MAX_FRAME_BYTES", "32768")
    arguments = ["serve", "--data-dir", str(tmp_path), "--allowed-origin", "https://b.example"]
    result = CliRunner().invoke(_serve_app(), [*arguments, "--secure-cookie"])
    assert result.exit_code == 0, result.output
    ((app, options),) = uvicorn_runs
    settings = context_of(app).settings
    assert settings.allowed_origins == ("https://a.example", "https://b.example")
    assert settings.cookie_secure is True
    assert options["ws_max_size"] == 32768


def test_a_setting_that_cannot_be_read_ends_serve_in_one_line(
    tmp_path: Path, uvicorn_runs: list[tuple[Any, dict[str, Any]]], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CARDTABLE_LIMIT_TABLES", "plenty")
    result = CliRunner().invoke(_serve_app(), ["serve", "--data-dir", str(tmp_path)])
    assert result.exit_code == 1 and not uvicorn_runs
    (line,) = result.output.strip().splitlines()
    assert line.startswith("cardtable: setting limit_tables:") and "rate limit" in line
