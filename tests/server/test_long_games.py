"""Long games and their replays: a table's moves in all are bounded (stated beside the rules'
bounds), a finished game's replay is made once and then served as it was, and replays are
rate-limited per address, per profile and per share link."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.review.replays import replay_frames
from cardtable.server.routes import review as review_routes
from cardtable.server.settings import Settings

from .conftest import new_table, play_to_end, receive, visitor

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "random"}]


def _settings(**extra: Any) -> Settings:
    return Settings(test_seed=7, limit_messages="1000/second", **extra)


def test_a_table_is_closed_when_it_reaches_the_most_moves_a_table_may_have(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(max_table_moves=40))
    # Free play: deal after deal, no end of its own.
    table_id = new_table(client, "indian-rummy", rules={"deals": None}, seats=SEATS)
    rng = random.Random(3)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        for _ in range(200):
            assert state["type"] == "state", state
            if state["version"] >= 40 and not state["legal"]:
                break
            if state["to_move"] == state["seat"] and state["legal"]:
                action = rng.choice(state["legal"])
                ws.send_json({"type": "action", "version": state["version"], "action": action})
            state = receive(ws)
        assert state["version"] == 40 and state["legal"] == []
        ws.send_json({"type": "action", "version": 40, "action": "draw stock"})
        refused = receive(ws)
        assert refused["type"] == "error" and refused["code"] == "finished", refused
    info = client.get(f"/api/tables/{table_id}").json()
    assert (info["status"], info["version"], info["finished"]) == ("abandoned", 40, True)


def test_the_games_list_states_the_most_moves_a_table_may_have(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(max_table_moves=1234))
    games = client.get("/api/games").json()
    assert games and all(game["max_table_moves"] == 1234 for game in games)
    assert make_client().get("/api/games").json()[0]["max_table_moves"] == 5_000


def _finished_game(client: TestClient) -> str:
    table_id = new_table(client, "indian-rummy", rules={"deals": 1}, seats=SEATS)

    def choose(state: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = state["legal"]
        return "drop" if "drop" in legal else rng.choice(legal)

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert play_to_end(ws, random.Random(1), choose=choose)["result"] is not None
    return table_id


def test_a_finished_games_replay_is_made_once(
    make_client: Callable[..., TestClient], monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[Any] = []
    original = replay_frames  # the routes call it by the name they imported

    def counted(record: Any) -> dict[str, Any]:
        made.append(record)
        return original(record)

    monkeypatch.setattr(review_routes, "replay_frames", counted)
    client = make_client(settings=_settings())
    table_id = _finished_game(client)
    first = client.get(f"/api/tables/{table_id}/replay")
    assert first.status_code == 200 and first.headers["content-type"] == "application/json"
    token = client.post(f"/api/tables/{table_id}/share").json()["token"]
    shared = visitor(client).get(f"/api/replays/{token}")
    again = client.get(f"/api/tables/{table_id}/replay")
    # One replay for everyone; only the seat called "You" differs (none through a link).
    mine, theirs = first.json(), shared.json()
    assert mine["viewer_seat"] == 0 and theirs["viewer_seat"] is None
    assert {**theirs, "viewer_seat": 0} == mine == again.json()
    assert first.json()["frames"][0]["action"] == "deal"
    assert len(made) == 1


def test_replays_are_rate_limited_per_address_and_per_share_link(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(limit_replays="3/minute"))
    table_id = _finished_game(client)
    token = client.post(f"/api/tables/{table_id}/share").json()["token"]
    anonymous = TestClient(client.app)
    for _ in range(3):
        assert anonymous.get(f"/api/replays/{token}").status_code == 200
    refused = anonymous.get(f"/api/replays/{token}")
    assert refused.status_code == 429
    assert "too many replays: at most 3 per minute" in refused.json()["detail"]
    assert int(refused.headers["Retry-After"]) >= 1
    # The player's own replay shares the address's budget.
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 429
