"""An unforeseen error answers a JSON 500 and leaves the client's keep-alive connection open
(the HTTP server closes a connection when the app raises)."""

from __future__ import annotations

import http.client
import json
from pathlib import Path

import pytest

from cardtable.server.app import create_app
from cardtable.server.routes import api
from cardtable.server.settings import Settings

from .live import serving


def test_a_500_keeps_the_keep_alive_connection_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def broken(*_arguments: object) -> None:
        raise RuntimeError("catalog on fire")

    monkeypatch.setattr(api, "catalog", broken)
    app = create_app(f"sqlite:///{tmp_path / 'cards.sqlite3'}", settings=Settings(test_seed=7))
    with serving(app) as port:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", "/api/games")
            failed = connection.getresponse()
            body = json.loads(failed.read())
            assert failed.status == 500
            assert body == {"detail": "the server could not handle this request; please try again"}
            assert (failed.getheader("connection") or "").lower() != "close"
            assert failed.getheader("content-security-policy")
            sock = connection.sock
            connection.request("GET", "/healthz")
            after = connection.getresponse()
            after.read()
            assert after.status == 200
            # The same TCP connection carried both requests.
            assert connection.sock is sock and sock is not None
        finally:
            connection.close()
