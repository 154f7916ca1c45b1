"""The paths a lone server and a cluster share, run both ways: two apps in this test play two
server processes, sharing one database and either the in-process bus and lease table (over one
SQLite file, no Redis anywhere) or Redis (over PostgreSQL). A socket on the app that does not
own a table plays through the relay; an invite is joined and a table closed through the app
that does not own it (owner calls); and when the owner's lease lapses (it stops renewing, as a
stalled or dead process), the relaying app takes the table over and the page plays on over the
same socket. Every wait is bounded."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from cardtable import storage
from cardtable.server.app import create_app
from cardtable.server.cluster.bus import InProcessBus
from cardtable.server.cluster.lease import InProcessLeaseTable
from cardtable.server.cluster.wiring import LONE_LEASE_SECONDS
from cardtable.server.context import context_of
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.settings import Settings
from cardtable.storage import Database

from .conftest import cluster_of, cookie_of, new_table, portal_of, run_async, wait_for_turn
from .online import join, shared_table
from .test_cluster_fencing import _forget

LEASE_SECONDS = 1.0
"""Short enough that a lapsed lease is taken over within a few seconds."""

Apps = Callable[[], tuple[TestClient, TestClient]]


class TwoProcesses:
    """Two apps over one database and one bus and lease table (see the module docstring)."""

    def __init__(self, kind: str, database_url: str, redis_url: str | None) -> None:
        self.kind = kind
        self.database_url = database_url
        self.redis_url = redis_url
        in_process = redis_url is None
        self.bus = InProcessBus() if in_process else None
        self.lease_table = InProcessLeaseTable() if in_process else None
        self.clients: list[TestClient] = []
        self.tables: list[str] = []

    def start(self) -> TestClient:
        """One more app ("process"), and a client of it with a new profile."""
        settings = Settings(
            test_seed=7,
            limit_messages="1000/second",
            lease_seconds=LEASE_SECONDS,
            redis_url=self.redis_url,
        )
        app = create_app(
            self.database_url,
            settings=settings,
            bot_delay_scale=0.0,
            bus=self.bus,
            lease_table=self.lease_table,
        )
        client = TestClient(app)
        client.__enter__()
        self.clients.append(client)
        assert client.post("/api/profile").status_code == 201
        return client

    def pair(self) -> tuple[TestClient, TestClient]:
        return self.start(), self.start()

    def close(self) -> None:
        for client in reversed(self.clients):
            client.__exit__(None, None, None)
        if self.redis_url is not None:
            for table_id in self.tables:
                run_async(_forget(self.redis_url, table_id))


@pytest.fixture(params=["in-process", "redis"])
def processes(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[TwoProcesses]:
    if request.param == "in-process":
        kit = TwoProcesses("in-process", f"sqlite:///{tmp_path / 'shared.sqlite3'}", None)
    else:
        postgres_url: str = request.getfixturevalue("postgres_url")
        redis_url: str = request.getfixturevalue("redis_url")
        kit = TwoProcesses("redis", postgres_url, redis_url)
    try:
        yield kit
    finally:
        kit.close()


def same_person(client: TestClient, on: TestClient) -> TestClient:
    """Another client of ``on``'s app with ``client``'s profile (one person, two processes)."""
    other = TestClient(on.app)
    other.portal = on.portal
    other.cookies.set(COOKIE_NAME, cookie_of(client))
    return other


def lease_token(client: TestClient, table_id: str) -> int | None:
    lease = cluster_of(client).leases.lease_of(table_id)
    return None if lease is None else lease.token


@pytest.mark.timeout(120)
def test_a_socket_on_the_other_process_plays_through_the_owner_and_then_takes_it_over(
    processes: TwoProcesses,
) -> None:
    owner_app, other_app = processes.pair()
    table_id = new_table(owner_app, "indian-rummy")
    processes.tables.append(table_id)
    owner_token = lease_token(owner_app, table_id)
    assert owner_token is not None
    person = same_person(owner_app, other_app)
    rng = random.Random(11)
    with person.websocket_connect(f"/ws/tables/{table_id}") as ws:
        # Relayed: the state comes from the owner, and the move is applied there.
        state = wait_for_turn(ws)
        assert table_id not in context_of(other_app.app).lobby.tables
        ws.send_json(
            {"type": "action", "version": state["version"], "action": rng.choice(state["legal"])}
        )
        state = wait_for_turn(ws)
        assert state["version"] >= 2  # the move, then the computer player's answer
        owner_lobby = context_of(owner_app.app).lobby
        assert owner_lobby.tables[table_id].version == state["version"]
        # The owner stalls: its lease lapses, and the relaying process takes the table over.
        portal_of(owner_app).call(cluster_of(owner_app).leases.stop_renewing)
        taken = wait_for_turn(ws)
        assert taken["version"] == state["version"]
        assert table_id in context_of(other_app.app).lobby.tables
        new_token = lease_token(other_app, table_id)
        assert new_token is not None and new_token > owner_token
        ws.send_json(
            {"type": "action", "version": taken["version"], "action": rng.choice(taken["legal"])}
        )
        after = wait_for_turn(ws)
        assert after["version"] > taken["version"]
    stored = storage.load_table(Database(processes.database_url), table_id)
    assert stored is not None and len(stored.actions) == after["version"]
    # The stalled owner can store nothing now: its token is old.
    assert owner_lobby.tables[table_id].version == state["version"]


@pytest.mark.timeout(120)
def test_an_invite_is_joined_and_a_table_closed_through_the_process_that_does_not_own_it(
    processes: TwoProcesses,
) -> None:
    owner_app, other_app = processes.pair()
    made = shared_table(owner_app, "indian-rummy", [{"kind": "human"}, {"kind": "human"}])
    table_id = str(made["table_id"])
    processes.tables.append(table_id)
    token = made["invite"]["token"]
    peek = other_app.post("/api/invites/peek", json={"token": token})
    assert peek.status_code == 200, peek.text
    joined = join(other_app, token, "Guest")
    assert joined["table_id"] == table_id and joined["seat"] == 1
    guest = storage.profile_by_token(Database(processes.database_url), cookie_of(other_app))
    room = context_of(owner_app.app).lobby.tables[table_id].people.room
    assert guest is not None and room is not None and room.member(guest.id) is not None
    assert table_id not in context_of(other_app.app).lobby.tables
    # The host closes it from the other process: only the owner may, and it does.
    host = same_person(owner_app, other_app)
    refused = other_app.delete(f"/api/tables/{table_id}")
    assert refused.status_code == 403, refused.text
    closed = host.delete(f"/api/tables/{table_id}")
    assert closed.status_code == 409, closed.text  # the guest sits there
    solo = new_table(owner_app, "indecision", rules={"target_score": 25})
    processes.tables.append(solo)
    left = same_person(owner_app, other_app).delete(f"/api/tables/{solo}")
    assert left.status_code == 200, left.text
    assert left.json()["status"] == "abandoned"
    assert solo not in context_of(owner_app.app).lobby.tables


def test_a_lone_server_has_in_process_parts_of_its_own_and_holds_its_tables_leases(
    make_client: Callable[..., TestClient],
) -> None:
    first, second = make_client(), make_client()
    assert cluster_of(first).redis is None
    # Nobody shares a lone server's lease table: its leases need not lapse soon.
    assert cluster_of(first).leases.ttl == LONE_LEASE_SECONDS
    assert cluster_of(first).bus is not cluster_of(second).bus
    assert context_of(first.app).relay is cluster_of(first).relay
    holder = cluster_of(first).leases.holder
    table_id = new_table(first, "indecision")
    assert run_async_holder(first, table_id) == f"{holder}:{lease_token(first, table_id)}"
    assert cluster_of(first).relay.holder == holder


class CountingBus(InProcessBus):
    """An in-process bus that counts what is published on it."""

    def __init__(self) -> None:
        super().__init__()
        self.published: list[str] = []

    async def publish(self, channel: str, data: bytes) -> int:
        self.published.append(channel)
        return await super().publish(channel, data)


@pytest.mark.timeout(60)
def test_a_lone_server_plays_its_own_tables_without_crossing_its_bus(tmp_path: Path) -> None:
    bus = CountingBus()
    settings = Settings(test_seed=7, limit_messages="1000/second")
    app = create_app(
        f"sqlite:///{tmp_path / 'lone.sqlite3'}", settings=settings, bot_delay_scale=0.0, bus=bus
    )
    rng = random.Random(5)
    with TestClient(app) as client:
        assert client.post("/api/profile").status_code == 201
        table_id = new_table(client, "indian-rummy")
        with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
            state = wait_for_turn(ws)
            for _ in range(5):
                action = rng.choice(state["legal"])
                ws.send_json({"type": "action", "version": state["version"], "action": action})
                state = wait_for_turn(ws)
        assert state["version"] >= 10  # five moves, each answered by the computer player
        solo = new_table(client, "indecision")
        assert client.delete(f"/api/tables/{solo}").status_code == 200  # an owner call, here
    assert bus.published == []


def run_async_holder(client: TestClient, table_id: str) -> str | None:
    async def holder() -> str | None:
        return await cluster_of(client).leases.holder_of(table_id)

    return portal_of(client).call(holder)
