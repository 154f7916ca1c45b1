"""The lobby at scale: listings read one page of stored summaries (no replay, no table loaded),
idle tables leave memory and come back on demand, a profile's unfinished tables are capped,
only a table's creator may close it, and an out-of-turn hint gives no advice to drop."""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.server.context import context_of
from cardtable.server.hosting import lobby as lobby_module
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.settings import Settings

from .conftest import (
    new_table,
    owner_of,
    play_to_end,
    portal_of,
    receive,
    receive_type,
    visitor,
)

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]


def lobby_of(client: TestClient) -> Lobby:
    return context_of(client.app).lobby


def play_a_few_moves(client: TestClient, table_id: str, moves: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        made = 0
        while made < moves and state["result"] is None:
            if state["to_move"] == state["seat"] and state["legal"]:
                legal = [a for a in state["legal"] if a not in ("drop", "propose tie")]
                ws.send_json(
                    {"type": "action", "version": state["version"], "action": rng.choice(legal)}
                )
                made += 1
            state = receive(ws)


def wait_until_idle(client: TestClient, table_id: str) -> None:
    """Wait for the table's computer players to finish their moves (at most 20 s)."""
    owner = owner_of(client, table_id)
    deadline = time.monotonic() + 20
    while not owner.idle():
        assert time.monotonic() < deadline, "the table never became idle"
        time.sleep(0.01)


def test_listing_is_paginated_most_recent_first_with_a_total_and_a_next_link(
    client: TestClient,
) -> None:
    created = []
    for seed in range(5):
        created.append(new_table(client, "indecision", seed=seed))
        # A computer player to open moves at once: its move, stored after the next table was
        # made on a loaded machine, would make its table the more recent one.
        wait_until_idle(client, created[-1])
    first = client.get("/api/tables?limit=2")
    assert first.status_code == 200
    assert first.headers["X-Total-Count"] == "5"
    assert [t["table_id"] for t in first.json()] == [created[4], created[3]]
    pages = [first.json()]
    link = first.links["next"]["url"]
    while link:
        page = client.get(link)
        pages.append(page.json())
        link = page.links.get("next", {}).get("url")
    assert [t["table_id"] for page in pages for t in page] == created[::-1]
    assert [len(page) for page in pages] == [2, 2, 1]


@pytest.mark.parametrize(
    ("query", "words"),
    [
        ("limit=0", "limit must be at least 1"),
        ("limit=201", "limit must be at most 200"),
        ("limit=ten", "limit must be a whole number"),
        ("offset=-1", "offset must be at least 0"),
        ("status=lost", "status must be 'playing', 'finished' or 'abandoned'"),
    ],
)
def test_a_bad_listing_query_is_400_with_a_sentence(
    client: TestClient, query: str, words: str
) -> None:
    response = client.get(f"/api/tables?{query}")
    assert response.status_code == 400
    assert words in response.json()["detail"]


def test_listing_shows_each_tables_stored_summary_without_loading_or_replaying(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = new_table(client, "indian-rummy", seed=3)
    play_a_few_moves(client, table_id, 3)
    wait_until_idle(client, table_id)
    owner = owner_of(client, table_id)
    seen = owner.setup.engine.view(owner.state, 0)
    expected = (owner.version, seen.deal_number, list(seen.totals))
    lobby_of(client).tables.clear()

    def no_replay(*_args: Any) -> Any:
        raise AssertionError("a listing replayed a table")

    monkeypatch.setattr(lobby_module, "replay_log", no_replay)
    (listed,) = client.get("/api/tables").json()
    assert listed["table_id"] == table_id
    assert (listed["version"], listed["deal"], listed["scores"]) == expected
    assert listed["title"] == "Indian Rummy" and listed["finished"] is False
    assert listed["your_seat"] == 0 and listed["yours"] is True
    assert listed["seats"][0]["name"] == "Player"
    assert lobby_of(client).tables == {}


def test_finished_and_abandoned_tables_are_listed_by_status(client: TestClient) -> None:
    kept = new_table(client, "indecision")
    left = new_table(client, "indecision")
    assert client.delete(f"/api/tables/{left}").status_code == 200
    assert [t["table_id"] for t in client.get("/api/tables").json()] == [kept]
    abandoned = client.get("/api/tables?status=abandoned").json()
    assert [t["table_id"] for t in abandoned] == [left] and abandoned[0]["finished"] is True


def test_a_table_stored_before_summaries_were_kept_is_summarised_once_then_read(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    table_id = new_table(client, "indecision", seed=5)
    play_a_few_moves(client, table_id, 2)
    wait_until_idle(client, table_id)
    owner = owner_of(client, table_id)
    seen = owner.setup.engine.view(owner.state, 0)
    expected = (owner.version, seen.hand_number, list(seen.totals))
    db = context_of(client.app).db
    with db.session() as session:
        session.connection().exec_driver_sql(
            "update game_tables set deal = null, scores = null, to_move = null"
        )
    lobby_of(client).tables.clear()
    (listed,) = client.get("/api/tables").json()
    assert (listed["version"], listed["deal"], listed["scores"]) == expected
    monkeypatch.setattr(lobby_module, "replay_log", lambda *_: 1 / 0)
    assert client.get("/api/tables").json() == [listed]


def sweep(client: TestClient) -> list[str]:
    """Sweep the app's idle tables on its own loop, as its sweeper does (a table let go gives
    its lease back from a task there)."""
    return portal_of(client).call(lobby_of(client).sweep)


def test_an_idle_unfinished_table_leaves_memory_and_loads_again_on_demand(
    client: TestClient,
) -> None:
    lobby = lobby_of(client)
    table_id = new_table(client, "indian-rummy", seed=9)
    play_a_few_moves(client, table_id, 2)
    wait_until_idle(client, table_id)
    log = list(owner_of(client, table_id).log)
    assert sweep(client) == []
    lobby.idle_seconds = 0.0
    assert sweep(client) == [table_id]
    assert table_id not in lobby.tables and lobby.options == {}
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["version"] == len(log) and info["finished"] is False
    assert owner_of(client, table_id).log == log


def test_a_table_with_a_connection_does_not_leave_memory(client: TestClient) -> None:
    lobby = lobby_of(client)
    table_id = new_table(client, "indecision")
    lobby.idle_seconds = 0.0
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        receive(ws)
        assert sweep(client) == []
    assert sweep(client) == [table_id]


def test_a_profile_may_not_have_more_unfinished_tables_than_the_cap(client: TestClient) -> None:
    lobby_of(client).max_unfinished = 2
    first = new_table(client, "indecision")
    new_table(client, "indecision")
    response = client.post("/api/tables", json={"game": "indecision"})
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "you already have 2 unfinished tables, the most one player may have: "
        "finish or leave one of them before starting another"
    )
    assert client.delete(f"/api/tables/{first}").status_code == 200
    assert client.post("/api/tables", json={"game": "indecision"}).status_code == 201
    stranger = visitor(client)
    assert stranger.post("/api/tables", json={"game": "indecision"}).status_code == 201


def test_only_the_creator_may_close_a_table(client: TestClient) -> None:
    table_id = new_table(client, "indecision", seats=TWO_HUMANS)
    friend = visitor(client)
    assert friend.post(f"/api/tables/{table_id}/join").status_code == 200
    response = friend.delete(f"/api/tables/{table_id}")
    assert response.status_code == 403
    assert response.json()["detail"] == "only the player who started this table can close it"
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"


def test_the_creator_may_not_close_a_table_while_someone_else_sits_there(
    client: TestClient,
) -> None:
    friend = visitor(client)
    client.put("/api/profile", json={"name": "Ada"})
    friend.put("/api/profile", json={"name": "Bea"})
    table_id = new_table(client, "indecision", seats=TWO_HUMANS)
    assert friend.post(f"/api/tables/{table_id}/join").status_code == 200
    response = client.delete(f"/api/tables/{table_id}")
    assert response.status_code == 409
    assert response.json()["detail"] == (
        "other people sit at this table (Bea): it cannot be closed while they do"
    )
    assert client.get(f"/api/tables/{table_id}").json()["status"] == "playing"
    listed = friend.get("/api/tables").json()
    assert [seat["name"] for seat in listed[0]["seats"]] == ["Ada", "Bea"]


def test_a_finished_table_can_be_closed_by_its_creator_whoever_sat_there(
    client: TestClient,
) -> None:
    table_id = new_table(client, "indecision", rules={"target_score": 15}, seed=4)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        play_to_end(ws, random.Random(4))
    response = client.delete(f"/api/tables/{table_id}")
    assert response.status_code == 200 and response.json()["status"] == "finished"


def test_declaration_rummy_hint_out_of_turn_names_whose_turn_it_is_and_logs_nothing(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "human"}]
    table_id = new_table(client, "declaration-rummy", seats=seats, seed=2)
    owner = owner_of(client, table_id)
    to_move = owner.setup.engine.current_player(owner.state)
    waiting = next(seat for seat in range(3) if seat != to_move)
    assert "drop" in [str(a) for a in owner.setup.engine.legal_actions(owner.state, waiting)]
    if waiting != 0:
        friends = [visitor(client) for _ in range(2)]
        for friend in friends:
            friend.post(f"/api/tables/{table_id}/join")
        hinting = friends[waiting - 1]
    else:
        hinting = client
    caplog.set_level(logging.INFO)
    with hinting.websocket_connect(f"/ws/tables/{table_id}") as ws:
        receive(ws)
        ws.send_json({"type": "hint"})
        hint = receive_type(ws, "hint")
    assert hint["action"] is None
    assert hint["reason"] == f"It is not your turn: {owner.names_for(waiting)[to_move]} is to play."
    assert not [r for r in caplog.records if r.exc_info or r.levelno >= logging.WARNING]


def test_declaration_rummy_coach_explains_a_drop_when_only_a_drop_is_legal() -> None:
    from cardtable.coach import hint as coach_hint
    from cardtable.driver import advance
    from cardtable.games.declaration_rummy.actions import DROP
    from cardtable.registry import get_engine

    engine = get_engine("declaration-rummy")
    state, _ = advance(engine, engine.new_game(engine.rules_from_json({"players": 4}), 7))
    waiting = (engine.current_player(state) + 1) % 4
    assert DROP in engine.legal_actions(state, waiting)
    suggestion = coach_hint("declaration-rummy", engine.view(state, waiting), [DROP])
    assert suggestion.action == DROP and "drop" in suggestion.reason.lower()


def test_hard_computer_players_think_in_worker_processes(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=Settings(test_seed=7, bot_processes=1))
    client.get("/")
    seats = [{"kind": "human"}, {"kind": "bot", "level": "hard"}]
    table_id = new_table(client, "indecision", seats=seats)
    play_a_few_moves(client, table_id, 3)
    wait_until_idle(client, table_id)
    owner = owner_of(client, table_id)
    assert 1 in {seat for seat, _ in owner.log}, "the Hard player never moved"
    workers = lobby_of(client)._thinkers
    assert workers is not None
    assert workers.submit(os.getpid).result(timeout=30) != os.getpid()


def test_a_move_is_kept_even_when_its_summary_cannot_be_made(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from cardtable.server.table import summary as summary_module

    table_id = new_table(client, "indecision", seats=TWO_HUMANS)

    def broken(*_args: Any) -> Any:
        raise RuntimeError("no summary")

    monkeypatch.setattr(summary_module, "summarize", broken)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        assert state["to_move"] == 0
        ws.send_json({"type": "action", "version": state["version"], "action": state["legal"][0]})
        after = receive(ws)
    assert after["type"] == "state" and after["version"] == state["version"] + 1
    (listed,) = client.get("/api/tables").json()
    assert listed["version"] == after["version"]
    assert any("no summary after move" in r.getMessage() for r in caplog.records)
