"""A table's fair-deal data (commitment, contributions, and the seeds after the game) is for
its players and spectators only, and asking for it never wakes a table out of memory."""

from __future__ import annotations

from collections.abc import Callable

from fastapi.testclient import TestClient

from cardtable.server.context import context_of
from cardtable.server.settings import Settings

from .conftest import receive, visitor
from .online import friend, join, shared_table, until

CONTRIBUTION = "0123456789abcdef0123456789abcdef"


def _fair_table(client: TestClient) -> str:
    commitment = client.post("/api/commitments").json()["commitment"]
    response = client.post(
        "/api/tables",
        json={
            "game": "indian-rummy",
            "seats": [{"kind": "human"}, {"kind": "bot", "level": "random"}],
            "commitment": commitment,
            "contribution": CONTRIBUTION,
        },
    )
    assert response.status_code == 201, response.text
    table_id: str = response.json()["table_id"]
    return table_id


def test_fairness_is_for_the_tables_players_only(make_client: Callable[..., TestClient]) -> None:
    client = make_client(settings=Settings())
    table_id = _fair_table(client)
    assert client.get(f"/api/tables/{table_id}/fairness").status_code == 200
    stranger = visitor(client)
    refused = stranger.get(f"/api/tables/{table_id}/fairness")
    assert refused.status_code == 403
    assert refused.json()["detail"] == "only the table's players and spectators see its fair deal"
    anonymous = TestClient(client.app)
    assert anonymous.get(f"/api/tables/{table_id}/fairness").status_code == 401
    assert stranger.get("/api/tables/no-such-table/fairness").status_code == 404


def test_fairness_of_a_table_out_of_memory_does_not_load_or_wake_it(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=Settings())
    table_id = _fair_table(client)
    lobby = context_of(client.app).lobby
    lobby.tables.pop(table_id).stop_bots()
    answer = client.get(f"/api/tables/{table_id}/fairness")
    assert answer.status_code == 200
    assert answer.json()["contributions"] == [{"seat": 0, "value": CONTRIBUTION}]
    assert table_id not in lobby.tables
    # A stranger's request does not load it either.
    assert visitor(client).get(f"/api/tables/{table_id}/fairness").status_code == 403
    assert table_id not in lobby.tables


def test_spectators_of_a_peoples_table_see_its_fairness(
    make_client: Callable[..., TestClient],
) -> None:
    host = make_client(settings=Settings(limit_messages="1000/second"))
    made = shared_table(
        host,
        "indian-rummy",
        [{"kind": "human"}, {"kind": "bot", "level": "random"}],
        spectators=True,
    )
    watcher = friend(host, "Watcher")
    join(watcher, made["invite"]["token"], "Watcher", watch=True)
    with host.websocket_connect(f"/ws/tables/{made['table_id']}") as ws:
        assert receive(ws)["type"] == "room"
        ws.send_json({"type": "start"})
        until(ws, lambda message: message["type"] == "state")
    answer = watcher.get(f"/api/tables/{made['table_id']}/fairness")
    assert answer.status_code == 200, answer.text
    assert answer.json()["server_seed"] is None and answer.json()["commitment"]
    assert visitor(host).get(f"/api/tables/{made['table_id']}/fairness").status_code == 403
