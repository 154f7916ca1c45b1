"""The review features over HTTP: a fair deal's commitment published before the deal, the
person's contribution, the seed revealed only after the game; the replay, its share link and
the analysis of a finished game, computed in the background and stored once."""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from cardtable.fairness import FairDeal, commitment_of, derive_seed
from cardtable.replay import GameRecord, verify_record
from cardtable.server.settings import Settings

from .conftest import play_to_end, visitor

CONTRIBUTION = "0123456789abcdef0123456789abcdef"
SEATS = [{"kind": "human"}, {"kind": "bot", "level": "normal"}]


def _fair_client(make_client: Callable[..., TestClient]) -> TestClient:
    client = make_client(settings=Settings())
    assert client.get("/api/profile").status_code == 200
    return client


def _start(client: TestClient, **extra: Any) -> str:
    response = client.post(
        "/api/tables",
        json={"game": "indian-rummy", "rules": {"deals": 1}, "seats": SEATS, **extra},
    )
    assert response.status_code == 201, response.text
    table_id: str = response.json()["table_id"]
    return table_id


def _drop_at_once(client: TestClient, table_id: str) -> None:
    """End the one-deal game quickly: the person drops at the first chance."""

    def choose(state: dict[str, Any], rng: random.Random) -> str:
        legal: list[str] = state["legal"]
        return "drop" if "drop" in legal else rng.choice(legal)

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(1), choose=choose)
    assert final["result"] is not None


def test_fair_table_derives_its_seed_from_the_commitment_and_the_contribution(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    commitment = client.post("/api/commitments").json()["commitment"]
    # No drops: the computer player could otherwise end the one-deal game by dropping on its
    # first turn, before the checks made during play (the deal is the server's, not seeded).
    rules = {"deals": 1, "drops_allowed": False}
    table_id = _start(client, commitment=commitment, contribution=CONTRIBUTION, rules=rules)
    during = client.get(f"/api/tables/{table_id}/fairness").json()
    assert during["commitment"] == commitment
    assert during["contributions"] == [{"seat": 0, "value": CONTRIBUTION}]
    assert during["server_seed"] is None and during["game_seed"] is None
    assert client.get(f"/api/tables/{table_id}/record").status_code == 409
    assert client.get(f"/api/tables/{table_id}/replay").status_code == 409
    _drop_at_once(client, table_id)
    after = client.get(f"/api/tables/{table_id}/fairness").json()
    assert commitment_of(after["server_seed"]) == commitment
    assert after["game_seed"] == derive_seed(after["server_seed"], [(0, CONTRIBUTION)])
    record = GameRecord.from_json(client.get(f"/api/tables/{table_id}/record").json())
    assert verify_record(record).ok


def test_a_commitment_is_used_once_and_bad_values_are_refused(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    commitment = client.post("/api/commitments").json()["commitment"]
    _start(client, commitment=commitment, contribution=CONTRIBUTION)
    again = client.post(
        "/api/tables",
        json={
            "game": "indian-rummy",
            "seats": SEATS,
            "commitment": commitment,
            "contribution": CONTRIBUTION,
        },
    )
    assert again.status_code == 400 and "unknown or expired commitment" in again.text
    fresh = client.post("/api/commitments").json()["commitment"]
    bad = client.post(
        "/api/tables",
        json={"game": "indian-rummy", "seats": SEATS, "commitment": fresh, "contribution": "xyz"},
    )
    assert bad.status_code == 400 and "8 to 64 hex digits" in bad.text
    half = client.post(
        "/api/tables", json={"game": "indian-rummy", "seats": SEATS, "commitment": fresh}
    )
    assert half.status_code == 400 and "both the commitment and your contribution" in half.text
    seeded = client.post("/api/tables", json={"game": "indian-rummy", "seats": SEATS, "seed": 5})
    assert seeded.status_code == 400


def test_another_profile_cannot_use_my_commitment(
    make_client: Callable[..., TestClient],
) -> None:
    mine = _fair_client(make_client)
    commitment = mine.post("/api/commitments").json()["commitment"]
    theirs = visitor(mine)
    stolen = theirs.post(
        "/api/tables",
        json={
            "game": "indian-rummy",
            "seats": SEATS,
            "commitment": commitment,
            "contribution": CONTRIBUTION,
        },
    )
    assert stolen.status_code == 400


def test_replay_share_link_and_analysis_of_a_finished_game(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    commitment = client.post("/api/commitments").json()["commitment"]
    table_id = _start(client, commitment=commitment, contribution=CONTRIBUTION)
    _drop_at_once(client, table_id)
    replay = client.get(f"/api/tables/{table_id}/replay").json()
    assert replay["frames"][0]["action"] == "deal"
    assert len(replay["frames"]) == len(replay["record"]["actions"]) + 1
    assert all(len(hand) == 13 for hand in replay["frames"][0]["hands"])
    share = client.post(f"/api/tables/{table_id}/share").json()
    assert len(share["token"]) >= 20
    stranger = visitor(client)
    shared = stranger.get(f"/api/replays/{share['token']}").json()
    assert shared["frames"] == replay["frames"]
    assert stranger.get("/api/replays/not-a-token").status_code == 404
    assert stranger.get(f"/api/tables/{table_id}/replay").status_code == 403
    deadline = time.monotonic() + 120
    status = client.get(f"/api/tables/{table_id}/analysis").json()
    assert status["status"] in ("running", "done")
    while status["status"] == "running" and time.monotonic() < deadline:
        time.sleep(0.3)
        status = client.get(f"/api/tables/{table_id}/analysis").json()
    assert status["status"] == "done", status
    analysis = status["analysis"]
    assert analysis["seat"] == 0 and analysis["thresholds"]["unit"] == "points"
    # Stored once: the shared link reads the same analysis.
    assert stranger.get(f"/api/replays/{share['token']}/analysis?seat=0").json() == status
    assert client.get(f"/api/tables/{table_id}/analysis?seat=9").status_code == 400


def test_fair_deal_data_round_trips() -> None:
    fair = FairDeal.start("ab" * 32).with_contribution(0, CONTRIBUTION)
    assert FairDeal.from_json(fair.to_json()) == fair


def test_review_routes_answer_an_unknown_or_malformed_table_like_every_table_route(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    for route in ("fairness", "record", "replay", "analysis"):
        response = client.get(f"/api/tables/no-such-table/{route}")
        assert response.status_code == 404, route
        assert response.json() == {"detail": "there is no table 'no-such-table'"}
        too_long = client.get(f"/api/tables/{'x' * 65}/{route}")
        assert too_long.status_code == 400 and "64" in too_long.json()["detail"], route
    assert client.post("/api/tables/no-such-table/share", json={}).status_code == 404


def test_finished_games_list_names_the_seats_as_at_the_table(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    table_id = _start(client)
    _drop_at_once(client, table_id)
    names = client.get(f"/api/tables/{table_id}/replay").json()["names"]
    listed = client.get("/api/replays").json()
    (game,) = [row for row in listed if row["table_id"] == table_id]
    # The person dropped: the computer player wins, named as at the table, not "Seat 1".
    assert game["summary"] == f"{names[1]} won the game."
    assert "Seat" not in game["summary"]
    assert game["shared"] is False and game["assisted"] is False


def test_replay_calls_a_seat_yours_only_for_the_person_who_sat_in_it(
    make_client: Callable[..., TestClient],
) -> None:
    client = _fair_client(make_client)
    table_id = _start(client)
    _drop_at_once(client, table_id)
    own = client.get(f"/api/tables/{table_id}/replay").json()
    assert own["viewer_seat"] == 0
    token = client.post(f"/api/tables/{table_id}/share").json()["token"]
    stranger = visitor(client)
    # Twice: once made, once from the cache; neither tells a stranger the hand is theirs.
    for _ in range(2):
        shared = stranger.get(f"/api/replays/{token}").json()
        assert shared["viewer_seat"] is None
        assert shared["names"] == own["names"] and shared["frames"] == own["frames"]
