"""A cluster's rate limits count what an address or a profile does across its workers, in
Redis: new profiles from one address, and the websockets one profile holds open, are bounded
for the whole cluster, not once per worker."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from cardtable.server.routes.identity import COOKIE_NAME

from .clusterkit import Launcher, Server

LIMITS = {
    "CARDTABLE_RATE_LIMITS": "true",
    "CARDTABLE_LIMIT_PROFILES": "4/minute",
    "CARDTABLE_MAX_SOCKETS_PER_PROFILE": "2",
}


@pytest.fixture
def start_cluster(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Callable[..., list[Server]]]:
    launcher = Launcher(postgres_url, redis_url, tmp_path)
    try:
        yield launcher.start
    finally:
        launcher.stop()


def test_new_profiles_from_one_address_are_counted_across_workers(
    start_cluster: Callable[..., list[Server]],
) -> None:
    servers = start_cluster(2, LIMITS)
    codes = []
    for n in range(8):
        server = servers[n % 2]
        answer = httpx.post(f"{server.url}/api/profile", headers={"Origin": server.url}, timeout=10)
        codes.append(answer.status_code)
    assert codes.count(201) == 4 and codes[4:] == [429] * 4, codes


def test_open_sockets_of_one_profile_are_counted_across_workers(
    start_cluster: Callable[..., list[Server]],
) -> None:
    first, second = start_cluster(2, LIMITS)
    with httpx.Client(base_url=first.url, headers={"Origin": first.url}, timeout=10) as http:
        assert http.post("/api/profile").status_code == 201
        seats = [{"kind": "human"}, {"kind": "bot", "level": "random"}]
        created = http.post("/api/tables", json={"game": "indecision", "seats": seats})
        assert created.status_code == 201, created.text
        table_id = created.json()["table_id"]
        cookie = http.cookies.get(COOKIE_NAME)

    def open_on(server: Server) -> ClientConnection:
        return connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
            additional_headers={"Cookie": f"{COOKIE_NAME}={cookie}", "Origin": server.url},
            open_timeout=10,
        )

    with ExitStack() as held:
        for server in (first, second):
            ws = held.enter_context(open_on(server))
            assert json.loads(ws.recv(timeout=15))["type"] == "state"
        third = held.enter_context(open_on(second))
        message = json.loads(third.recv(timeout=15))
        assert (message["type"], message["code"]) == ("error", "rate-limited"), message
        with pytest.raises(ConnectionClosed) as closed:
            third.recv(timeout=15)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


def test_a_commitment_asked_of_one_worker_starts_a_table_on_another_once(
    start_cluster: Callable[..., list[Server]],
) -> None:
    # Real fair deals: no test seed, so the commitment is what the deal is drawn from.
    first, second = start_cluster(2, {"CARDTABLE_TEST_SEED": None})
    contribution = "ab" * 16
    with httpx.Client(base_url=first.url, headers={"Origin": first.url}, timeout=10) as http:
        assert http.post("/api/profile").status_code == 201
        cookies = dict(http.cookies.items())
        body = {"game": "indecision", "seats": [{"kind": "human"}, {"kind": "bot"}]}
        created = []
        for n in range(3):
            commitment = http.post("/api/commitments").json()["commitment"]
            other = [second, first][n % 2]
            # The table is started on the worker that did not make the commitment (the
            # last one on the same worker, for comparison).
            answer = httpx.post(
                f"{(other if n < 2 else first).url}/api/tables",
                json={**body, "commitment": commitment, "contribution": contribution},
                headers={"Origin": first.url},
                cookies=cookies,
                timeout=10,
            )
            assert answer.status_code == 201, answer.text
            created.append((commitment, answer.json()["table_id"]))
        reused = httpx.post(
            f"{second.url}/api/tables",
            json={**body, "commitment": created[0][0], "contribution": contribution},
            headers={"Origin": second.url},
            cookies=cookies,
            timeout=10,
        )
        assert reused.status_code == 400 and "unknown or expired commitment" in reused.text
        for commitment, table_id in created:
            fairness = http.get(f"/api/tables/{table_id}/fairness").json()
            assert fairness["commitment"] == commitment, fairness
