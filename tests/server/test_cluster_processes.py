"""Server processes of one cluster, started by the test on PostgreSQL and Redis: two people at
one table, connected to different processes, finish a hand of each game (the second person's
moves and views travel through the relay); and when the process that owns a table is killed
outright mid-hand, another takes the table over, the people's pages carry on (the one whose
socket died connects again), the hand finishes, and the stored log replays to the state the
people saw."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Callable, Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed

from cardtable import storage
from cardtable.registry import get_engine
from cardtable.server.routes.identity import COOKIE_NAME
from cardtable.server.table.owner import replay_log

from .clusterkit import Launcher, Server, hand_over, people_table, play_until


@pytest.fixture
def start_cluster(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Callable[[int], list[Server]]]:
    """Start N server processes sharing the test database and Redis; stopped at the end."""
    launcher = Launcher(postgres_url, redis_url, tmp_path)
    yield launcher.start
    launcher.stop()


GAMES = [
    ("indecision", {"target_score": 31}, 2),
    ("indian-rummy", {"deals": 1}, 2),
    ("declaration-rummy", {}, 3),
]


@pytest.mark.parametrize(("game", "rules", "seats"), GAMES, ids=[g for g, _r, _s in GAMES])
def test_people_connected_to_different_processes_finish_a_hand(
    start_cluster: Callable[[int], list[Server]], game: str, rules: dict[str, Any], seats: int
) -> None:
    servers = start_cluster(2)
    table_id, people = people_table(servers, game, rules, seats)
    for number, person in enumerate(people):
        person.connect(servers[number % 2], table_id)  # the others through the relay
    assert len({p.state["version"] for p in people}) == 1
    play_until(people, random.Random(5), hand_over)
    versions = {person.state["version"] for person in people}
    assert len(versions) == 1, "every seat saw the same last move"
    # The process that does not own the table describes it from the stored log.
    cookies = {COOKIE_NAME: people[1].http.cookies[COOKIE_NAME]}
    info = httpx.get(f"{servers[1].url}/api/tables/{table_id}", cookies=cookies, timeout=10)
    assert info.status_code == 200, info.text
    assert info.json()["version"] == versions.pop() and info.json()["your_seat"] == people[1].seat
    for person in people:
        assert person.ws is not None
        person.ws.close()


def test_killing_the_owner_mid_hand_hands_the_table_over_and_loses_nothing(
    start_cluster: Callable[[int], list[Server]], postgres_url: str
) -> None:
    servers = start_cluster(3)
    owner_server = servers[0]
    table_id, people = people_table(servers, "indian-rummy", {"deals": 1}, 3)
    people[0].connect(servers[0], table_id)  # on the owner: this socket will die
    people[1].connect(servers[1], table_id)
    people[2].connect(servers[2], table_id)
    rng = random.Random(8)
    play_until(people, rng, lambda state: state["version"] >= 6, calm=True)
    before = people[1].state["version"]
    owner_server.process.send_signal(signal.SIGKILL)
    owner_server.process.wait(10)
    killed = time.monotonic()
    # The person on the dead process connects again, to another one.
    with suppress(ConnectionClosed, TimeoutError):
        while True:
            people[0].receive(timeout=5)
    people[0].connect(servers[1], table_id)
    assert people[0].state["version"] >= before
    play_until(people, rng, hand_over)
    assert time.monotonic() - killed < 120
    logs = [server.log.read_text() for server in servers[1:]]
    assert sum(f"took table {table_id} over" in log for log in logs) == 1, logs
    final = people[1].state
    assert {p.state["version"] for p in people} == {final["version"]}
    stored = storage.load_table(storage.Database(postgres_url), table_id)
    assert stored is not None and len(stored.actions) == final["version"]
    engine = get_engine(stored.game)
    state, _ = replay_log(engine, engine.rules_from_json(stored.rules), stored.seed, stored.actions)
    for person in people:
        assert engine.view(state, person.seat).to_json() == person.state["view"]
    # Every version each person saw is a prefix of the stored log: nothing applied twice.
    for person in people:
        versions = [message["version"] for message in person.seen]
        assert versions == sorted(versions)
    for person in people:
        assert person.ws is not None
        person.ws.close()
