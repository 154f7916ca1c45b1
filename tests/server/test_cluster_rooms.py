"""People's tables in a cluster, with server processes started by the test on PostgreSQL and
Redis: invites are looked at and joined through a process that does not own the table, and
every room message (sit, start, quick messages, actions with client ids, the rematch) sent
from a socket on another process acts exactly as on the owner, its answers and errors coming
back to that socket; a table is closed through a process that does not own it. When the owner
of a people's table with a turn timer is killed outright mid-hand, the process that takes it
over goes on with the turn's time left (not a full turn), an absent person's grace period, and
the client ids of the moves acknowledged before (a resent one is acknowledged, not applied
again). When the process relaying a person's socket dies, the owner counts that person absent
(their grace period starts) and has them back when their page connects again elsewhere."""

from __future__ import annotations

import itertools
import json
import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cardtable import storage
from cardtable.registry import get_engine
from cardtable.server.table.owner import replay_log

from .clusterkit import MESSAGE_SECONDS, Launcher, Person, Server


@pytest.fixture
def start_cluster(
    postgres_url: str, redis_url: str, tmp_path: Path
) -> Iterator[Callable[[int], list[Server]]]:
    """Start N server processes sharing the test database and Redis; stopped at the end
    (also when the test fails or is interrupted)."""
    launcher = Launcher(postgres_url, redis_url, tmp_path)
    try:
        yield launcher.start
    finally:
        launcher.stop()


class Member:
    """A person at a people's table, with a socket on one server; every message kept."""

    def __init__(self, person: Person, name: str) -> None:
        self.person = person
        self.name = name
        self.seat: int | None = None
        self.state: dict[str, Any] = {}
        self.messages: list[dict[str, Any]] = []
        self.ids = itertools.count(1)
        self.last_sent: dict[str, Any] = {}
        self.room: dict[str, Any] = {}
        self.room_at = 0.0

    def open(self, server: Server, table_id: str) -> dict[str, Any]:
        """Open the socket on ``server``: its first message."""
        from websockets.sync.client import connect

        from cardtable.server.routes.identity import COOKIE_NAME

        cookie = self.person.http.cookies.get(COOKIE_NAME)
        self.person.ws = connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}",
            additional_headers={"Cookie": f"{COOKIE_NAME}={cookie}", "Origin": server.url},
            open_timeout=10,
        )
        return self.next()

    def send(self, message: dict[str, Any]) -> None:
        assert self.person.ws is not None
        self.person.ws.send(json.dumps(message))

    def next(self, timeout: float = MESSAGE_SECONDS) -> dict[str, Any]:
        message = self.person.receive(timeout)
        self.messages.append(message)
        if isinstance(message.get("room"), dict):
            self.room, self.room_at = message["room"], time.monotonic()
        if message["type"] == "state" and message["version"] >= self.state.get("version", -1):
            self.state = message
        return message

    def until(self, match: Callable[[dict[str, Any]], bool]) -> dict[str, Any]:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                message = self.next()
            except TimeoutError:
                summary = [
                    (
                        m["type"],
                        m.get("version"),
                        m.get("code"),
                        m.get("client_id"),
                        m.get("to_move"),
                    )
                    for m in self.messages[-30:]
                ]
                raise AssertionError(f"{self.name}: nothing more after {summary}") from None
            if match(message):
                return message
        raise AssertionError(f"{self.name}: no matching message in {self.messages[-5:]}")

    def drain(self) -> None:
        while True:
            try:
                self.next(timeout=0.05)
            except TimeoutError:
                return


def _post(server: Server, person: Person, path: str, body: dict[str, Any]) -> httpx.Response:
    return person.http.post(f"{server.url}{path}", json=body, timeout=30)


def choose(state: dict[str, Any], drop_from: int) -> str:
    """Draws and discards until version ``drop_from``, then a drop when there is one (each
    person dropping ends an Indian Rummy deal soon)."""
    legal: list[str] = state["legal"]
    drops = [a for a in legal if a.startswith("drop")]
    if drops and state["version"] >= drop_from:
        return drops[0]
    calm = [a for a in legal if a.split()[0] in ("draw", "discard")]
    return (calm or legal)[0]


def acknowledging(client_id: str) -> Callable[[dict[str, Any]], bool]:
    """Whether a message answers the action sent with ``client_id``: the state it led to
    (naming it in ``last_action``), an ``ack`` or an error naming it."""

    def answers(message: dict[str, Any]) -> bool:
        if message["type"] == "state":
            return (message.get("last_action") or {}).get("client_id") == client_id
        return message.get("client_id") == client_id

    return answers


def move(member: Member, action: str) -> dict[str, Any]:
    """Send one action with a fresh client id; the state acknowledging it (the mover's own
    state after the move names its client id: no ``ack`` besides)."""
    client_id = f"{member.name}-{next(member.ids)}"
    sent = {
        "type": "action",
        "version": member.state["version"],
        "action": action,
        "client_id": client_id,
    }
    before = len(member.messages)
    member.send(sent)
    answer = member.until(acknowledging(client_id))
    assert answer["type"] == "state" and answer["version"] == sent["version"] + 1, answer
    member.drain()
    answers = [m for m in member.messages[before:] if acknowledging(client_id)(m)]
    assert all(m["type"] == "state" for m in answers), answers  # by its state alone
    member.last_sent = sent
    return answer


def play(members: list[Member], done: Callable[[dict[str, Any]], bool], drop_from: int) -> None:
    """The seated members play in turn, each move with a client id, until ``done`` holds for
    every view; every move is acknowledged to its sender (once), wherever it is connected."""
    deadline = time.monotonic() + 240
    while not all(done(m.state) for m in members):
        assert time.monotonic() < deadline, [m.state.get("version") for m in members]
        acted = False
        for member in members:
            member.drain()
            state = member.state
            if not done(state) and state["to_move"] == member.seat and state["legal"]:
                move(member, choose(state, drop_from))
                acted = True
        if not acted:
            time.sleep(0.02)


def game_over(state: dict[str, Any]) -> bool:
    return state.get("result") is not None


@pytest.mark.parametrize("workers", [2, 3])
def test_a_people_table_is_joined_and_played_through_processes_that_do_not_own_it(
    start_cluster: Callable[[int], list[Server]], workers: int
) -> None:
    servers = start_cluster(workers)
    owner_server, others = servers[0], servers[1:]
    host = Member(Person.at(owner_server), "Ann")
    made = host.person.http.post(
        "/api/tables",
        json={
            "game": "indian-rummy",
            "rules": {"deals": 1},
            "seats": [{"kind": "human"}] * workers,
            "shared": {"spectators": True},
        },
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["invite"]["token"]
    host.seat = made.json()["seat"]
    # Looking at the invite and joining go through processes that do not own the table.
    guests = []
    for number in range(1, workers):
        via = others[(number - 1) % len(others)]
        guest = Member(Person.at(via), f"Guest{number}")
        seen = _post(via, guest.person, "/api/invites/peek", {"token": token})
        assert seen.status_code == 200, seen.text
        assert seen.json()["table_id"] == table_id and seen.json()["phase"] == "waiting"
        joined = _post(
            via,
            guest.person,
            "/api/invites/join",
            {"token": token, "name": guest.name, "watch": True},
        )
        assert joined.status_code == 200, joined.text
        assert joined.json() == {"table_id": table_id, "seat": None, "role": "spectator"}
        guests.append(guest)
    wrong = _post(
        others[0], guests[0].person, "/api/invites/join", {"token": "x" * 22, "name": "Eve"}
    )
    assert wrong.status_code == 404 and "not valid" in wrong.json()["detail"]
    # Every socket on a process that does not own the table: all goes through the relay.
    members = [host, *guests]
    for number, member in enumerate(members):
        first = member.open(others[number % len(others)], table_id)
        assert first["type"] == "room" and first["room"]["phase"] == "waiting", first
    # Refusals come back to the socket that sent the message.
    guests[0].send({"type": "start"})
    refused = guests[0].until(lambda m: m["type"] == "error")
    assert refused["code"] == "not-host"
    for number, guest in enumerate(guests, start=1):
        guest.send({"type": "sit", "seat": number})
        guest.seat = number
        for member in members:
            member.until(
                # mypy cannot type a lambda with defaults; the defaults bind this seat's values.
                lambda m, n=number, g=guest.name: (  # type: ignore[misc]
                    m["type"] == "room" and m["room"]["seats"][n].get("name") == g
                )
            )
    host.send({"type": "start"})
    for member in members:
        started = member.until(lambda m: m["type"] == "state")
        assert started["seat"] == member.seat and started["room"]["phase"] == "playing"
    guests[-1].send({"type": "quick", "phrase": "good-game"})
    for member in members:
        quick = member.until(lambda m: m["type"] == "quick")
        assert quick["name"] == guests[-1].name and quick["text"] == "Good game"
    play(members, game_over, drop_from=8)
    assert len({m.state["version"] for m in members}) == 1, "every seat saw the same last move"
    for member in members:
        member.send({"type": "rematch", "accept": True})
    rematches = {member.until(lambda m: m["type"] == "rematch")["table_id"] for member in members}
    assert len(rematches) == 1 and table_id not in rematches
    rematch_id = rematches.pop()
    info = host.person.http.get(f"{others[-1].url}/api/tables/{rematch_id}", timeout=10)
    assert info.status_code == 200, info.text
    assert sorted(s["name"] for s in info.json()["seats"]) == sorted(m.name for m in members) or (
        {s.get("name") for s in info.json()["seats"]} >= {g.name for g in guests}
    )
    # The finished table is closed through a process that does not own it.
    closed = host.person.http.delete(f"{others[0].url}/api/tables/{table_id}", timeout=30)
    assert closed.status_code == 200, closed.text
    assert closed.json() == {"table_id": table_id, "status": "finished"}
    # A seat at a table that is not shared is taken through a process that does not own it.
    plain = host.person.http.post(
        "/api/tables", json={"game": "indecision", "seats": [{"kind": "human"}] * 2}
    )
    assert plain.status_code == 201, plain.text
    plain_id = plain.json()["table_id"]
    seated = _post(others[-1], guests[0].person, f"/api/tables/{plain_id}/join", {})
    assert seated.status_code == 200, seated.text
    assert seated.json() == {"table_id": plain_id, "seat": 1}
    for member in members:
        assert member.person.ws is not None
        member.person.ws.close()


def test_killing_the_owner_of_a_timed_people_table_keeps_its_clock_grace_and_client_ids(
    start_cluster: Callable[[int], list[Server]], postgres_url: str
) -> None:
    servers = start_cluster(3)
    owner_server = servers[0]
    host = Member(Person.at(owner_server), "Ann")
    made = host.person.http.post(
        "/api/tables",
        json={
            "game": "indian-rummy",
            "rules": {"deals": 1},
            "seats": [{"kind": "human"}] * 3,
            "shared": {"turn_seconds": 120, "bank_seconds": 60, "grace_seconds": 300},
        },
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["invite"]["token"]
    host.seat = made.json()["seat"]
    bea, cy = Member(Person.at(servers[1]), "Bea"), Member(Person.at(servers[2]), "Cy")
    for guest, via in ((bea, servers[1]), (cy, servers[2])):
        joined = _post(via, guest.person, "/api/invites/join", {"token": token, "name": guest.name})
        assert joined.status_code == 200, joined.text
        guest.seat = joined.json()["seat"]
    members = [host, bea, cy]
    host.open(servers[1], table_id)
    bea.open(servers[2], table_id)
    cy.open(owner_server, table_id)  # this socket dies with the owner
    host.send({"type": "start"})
    for member in members:
        member.until(lambda m: m["type"] == "state")
    # A few turns, until one starts for somebody other than Cy.
    play(
        members,
        lambda s: s["version"] >= 4 and s["version"] % 2 == 0 and s["to_move"] != cy.seat,
        drop_from=10**6,
    )
    # Cy goes away: the grace period starts on the owner.
    assert cy.person.ws is not None
    cy.person.ws.close()
    host.until(
        lambda m: (
            isinstance(m.get("room"), dict)
            and m["room"]["seats"][cy.seat]["reconnecting_ms"] is not None
        )
    )
    # The person to move draws: the same turn goes on, its client id is stored with the move.
    mover = next(m for m in (host, bea) if m.seat == host.state["to_move"])
    mover.drain()
    draw = next(a for a in mover.state["legal"] if a.startswith("draw"))
    move(mover, draw)
    acknowledged = mover.last_sent
    time.sleep(0.5)
    host.drain()
    before_room, before_at = host.room, host.room_at
    turn_before = before_room["turn"]
    grace_before = before_room["seats"][cy.seat]["reconnecting_ms"]
    assert turn_before["seat"] == mover.seat and grace_before is not None
    time.sleep(2.0)
    for member in (host, bea):
        member.drain()
    owner_server.process.send_signal(signal.SIGKILL)
    owner_server.process.wait(10)
    killed = time.monotonic()
    # Another process takes the table over; the pages on the living processes keep their
    # sockets and get the table again from the new owner.
    for member in (host, bea):
        member.until(lambda m: m["type"] == "state" and time.monotonic() > killed)
    logs = [server.log.read_text() for server in servers[1:]]
    assert sum(f"took table {table_id} over" in log for log in logs) == 1, logs
    turn_after, after_at = host.room["turn"], host.room_at
    waited_ms = (after_at - before_at) * 1000
    assert turn_after["seat"] == turn_before["seat"]
    # The turn's time went on while the table had no owner: not a fresh turn.
    assert turn_after["remaining_ms"] <= turn_before["remaining_ms"] - 2000, (
        turn_before,
        turn_after,
    )
    assert turn_after["remaining_ms"] >= turn_before["remaining_ms"] - waited_ms - 2000
    grace_after = host.room["seats"][cy.seat]["reconnecting_ms"]
    assert grace_after is not None and grace_after <= grace_before - 2000, (
        grace_before,
        grace_after,
    )
    assert grace_after >= grace_before - waited_ms - 2000
    # The draw acknowledged before the kill is acknowledged again, not applied twice.
    version = mover.state["version"]
    mover.send(acknowledged)
    again = mover.until(lambda m: m.get("client_id") == acknowledged["client_id"])
    assert again["type"] == "ack" and again["duplicate"] is True, again
    mover.drain()
    assert mover.state["version"] == version
    # Cy comes back through another process; the hand is played to its end.
    cy.open(servers[2], table_id)
    play(members, game_over, drop_from=0)
    final = host.state
    assert {m.state["version"] for m in members} == {final["version"]}
    stored = storage.load_table(storage.Database(postgres_url), table_id)
    assert stored is not None and len(stored.actions) == final["version"]
    ids = [client_id for _seat, client_id in stored.client_ids]
    assert acknowledged["client_id"] in ids and len(ids) == len(set(ids))
    engine = get_engine(stored.game)
    state, _ = replay_log(engine, engine.rules_from_json(stored.rules), stored.seed, stored.actions)
    for member in members:
        assert member.seat is not None
        assert engine.view(state, member.seat).to_json() == member.state["view"]
        versions = [m["version"] for m in member.messages if m["type"] == "state"]
        assert versions == sorted(versions)
    for member in members:
        assert member.person.ws is not None
        member.person.ws.close()


def test_a_person_whose_relaying_process_dies_is_absent_and_their_grace_starts(
    start_cluster: Callable[[int], list[Server]],
) -> None:
    servers = start_cluster(3)
    host = Member(Person.at(servers[0]), "Ann")
    made = host.person.http.post(
        "/api/tables",
        json={
            "game": "indecision",
            "seats": [{"kind": "human"}] * 2,
            "shared": {"grace_seconds": 300},
        },
    )
    assert made.status_code == 201, made.text
    table_id, token = made.json()["table_id"], made.json()["invite"]["token"]
    host.seat = made.json()["seat"]
    guest = Member(Person.at(servers[1]), "Bea")
    joined = _post(servers[1], guest.person, "/api/invites/join", {"token": token, "name": "Bea"})
    assert joined.status_code == 200, joined.text
    guest.seat = joined.json()["seat"]
    host.open(servers[0], table_id)  # on the owner
    guest.open(servers[2], table_id)  # through the relay, on the process about to die
    host.send({"type": "start"})
    for member in (host, guest):
        member.until(lambda m: m["type"] == "state")
    servers[2].process.send_signal(signal.SIGKILL)
    servers[2].process.wait(10)
    # The next message the owner relays to the dead process finds nobody listening: the
    # person's socket is gone, and their grace period starts.
    host.send({"type": "quick", "phrase": "one-moment"})
    away = host.until(
        lambda m: (
            isinstance(m.get("room"), dict)
            and not m["room"]["seats"][guest.seat]["connected"]
            and m["room"]["seats"][guest.seat]["reconnecting_ms"] is not None
        )
    )
    assert 0 < away["room"]["seats"][guest.seat]["reconnecting_ms"] <= 300_000
    # The page connects again, through another process: the person is back.
    assert guest.open(servers[1], table_id)["type"] == "state"
    host.until(
        lambda m: (
            isinstance(m.get("room"), dict)
            and m["room"]["seats"][guest.seat]["connected"]
            and m["room"]["seats"][guest.seat]["reconnecting_ms"] is None
        )
    )
    for member in (host, guest):
        assert member.person.ws is not None
        member.person.ws.close()
