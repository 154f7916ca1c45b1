"""Analyses asked for by pages are bounded: a share link analyses the people's seats only;
at most so many asked-for analyses wait per table and per asker (address, profile, link); and
each request that queues one counts against the ``analysis`` rate limit (polling does not)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.review import analysis_jobs
from cardtable.server.settings import Settings

from .conftest import new_table, play_to_end

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def _settings(**extra: Any) -> Settings:
    return Settings(
        test_seed=7, limit_messages="1000/second", analyse_finished_hands=False, **extra
    )


def _finished_game(client: TestClient, deals: int) -> str:
    table_id = new_table(client, "indian-rummy", rules={"deals": deals}, seats=SEATS)

    def choose(state: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = state["legal"]
        return "drop" if "drop" in legal else rng.choice(legal)

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert play_to_end(ws, random.Random(1), choose=choose)["result"] is not None
    return table_id


@pytest.fixture
def idle_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """Queued analyses stay queued: the worker never takes one."""

    async def idle(_self: analysis_jobs.Analyses) -> None:
        return None

    monkeypatch.setattr(analysis_jobs.Analyses, "_serve", idle)


def _hands(client: TestClient, table_id: str) -> list[int]:
    listed = client.get(f"/api/tables/{table_id}/analysis/hands").json()["hands"]
    return [entry["hand"] for entry in listed]


def test_a_share_link_analyses_the_peoples_seats_only(
    make_client: Callable[..., TestClient], idle_worker: None
) -> None:
    client = make_client(settings=_settings())
    table_id = _finished_game(client, 1)
    token = client.post(f"/api/tables/{table_id}/share").json()["token"]
    anonymous = TestClient(client.app)
    refused = anonymous.get(f"/api/replays/{token}/analysis?seat=1")
    assert refused.status_code == 403
    assert "computer player's" in refused.json()["detail"]
    assert anonymous.get(f"/api/replays/{token}/analysis?seat=0").status_code == 200
    # The people who sat there may still ask for the computer player's seat.
    assert client.get(f"/api/tables/{table_id}/analysis?seat=1").status_code == 200


def test_asked_for_analyses_waiting_are_bounded_per_asker(
    make_client: Callable[..., TestClient], idle_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis_jobs, "MAX_ASKED_PER_ASKER", 2, raising=False)
    client = make_client(settings=_settings())
    table_id = _finished_game(client, 3)
    hands = _hands(client, table_id)
    assert len(hands) == 3
    url = f"/api/tables/{table_id}/analysis/hands"
    for hand in hands[:2]:
        assert client.get(f"{url}/{hand}").json()["status"] == "queued"
    refused = client.get(f"{url}/{hands[2]}")
    assert refused.status_code == 429, refused.text
    assert refused.json()["detail"].startswith("too many of your analyses are waiting: at most 2")
    # Asking where a queued one stands is still answered.
    assert client.get(f"{url}/{hands[0]}").json()["status"] == "queued"


def test_asked_for_analyses_waiting_are_bounded_per_table(
    make_client: Callable[..., TestClient], idle_worker: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analysis_jobs, "MAX_ASKED_PER_TABLE", 2, raising=False)
    client = make_client(settings=_settings())
    table_id = _finished_game(client, 3)
    token = client.post(f"/api/tables/{table_id}/share").json()["token"]
    # A whole game's analysis queues as many of its hands as the bound allows...
    running = client.get(f"/api/tables/{table_id}/analysis?seat=0").json()
    assert running == {"status": "running", "done": 0, "total": 3}
    queued = sum(
        1
        for entry in client.get(f"/api/tables/{table_id}/analysis/hands").json()["hands"]
        if entry["status"] == "queued"
    )
    assert queued == 2
    # ...and another seat's, through the link, finds the table's bound reached.
    same_seat = TestClient(client.app).get(f"/api/replays/{token}/analysis?seat=0")
    assert same_seat.status_code == 200  # the same seat's hands: already queued, nothing new
    other = client.get(f"/api/tables/{table_id}/analysis?seat=1")
    assert other.status_code == 429
    assert "too many analyses of this table are waiting: at most 2" in other.json()["detail"]


def test_queuing_analyses_is_rate_limited_and_polling_is_not(
    make_client: Callable[..., TestClient], idle_worker: None
) -> None:
    client = make_client(settings=_settings(limit_analyses="1/minute"))
    table_id = _finished_game(client, 2)
    first, second = _hands(client, table_id)
    url = f"/api/tables/{table_id}/analysis/hands"
    assert client.get(f"{url}/{first}").json()["status"] == "queued"
    for _ in range(5):
        assert client.get(f"{url}/{first}").status_code == 200
    refused = client.get(f"{url}/{second}")
    assert refused.status_code == 429
    assert "too many analyses asked for: at most 1 per minute" in refused.json()["detail"]
