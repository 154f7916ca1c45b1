"""The ``serve`` command: registered on a Typer app, it runs uvicorn on the web app with the
host, port and database it was given."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from cardtable.cli.serve import register


def test_serve_runs_uvicorn_on_the_app_with_the_given_address_and_data_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[dict[str, Any]] = []

    def fake_run(app: Any, **options: Any) -> None:
        calls.append({"app": app, **options})

    monkeypatch.setattr("uvicorn.run", fake_run)
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:  # a second command makes Typer keep the subcommand name
        """Nothing."""

    result = CliRunner().invoke(
        app, ["serve", "--host", "0.0.0.0", "--port", "8123", "--data-dir", str(tmp_path)]
    )
    assert result.exit_code == 0, result.output
    (call,) = calls
    assert (call["host"], call["port"]) == ("0.0.0.0", 8123)
    assert (tmp_path / "cardtable.sqlite3").is_file()
    assert str(tmp_path) in result.output
    assert call["app"].state.cardtable.db.url.endswith(f"{tmp_path}/cardtable.sqlite3")


def test_serve_refuses_a_port_out_of_range() -> None:
    app = typer.Typer()
    register(app)

    @app.command("other")
    def other() -> None:
        """Nothing."""

    result = CliRunner().invoke(app, ["serve", "--port", "70000"])
    assert result.exit_code == 2
