"""Whole games over the websocket against computer players, one per game, each played to its
end: the result arrives, every finished deal or hand carries a summary, and the record counts
what was played."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable import storage
from cardtable.games.contract import rules_to_json
from cardtable.games.indian_rummy.rules import PRESETS
from cardtable.server.context import context_of
from cardtable.storage import DatabaseLogStore

from .conftest import new_table, owner_of, play_to_end, receive


def _collect(summaries: list[dict[str, Any]], versions: list[int]) -> Any:
    def on_state(state: dict[str, Any]) -> None:
        versions.append(state["version"])
        if state["summary"] is not None:
            summaries.append(state["summary"])

    return on_state


@pytest.mark.parametrize(
    ("game", "rules", "seats", "deal_word"),
    [
        (
            "indecision",
            {"target_score": 31},
            [
                {"kind": "human"},
                {"kind": "bot", "level": "normal"},
                {"kind": "bot", "level": "easy"},
            ],
            "hand",
        ),
        (
            "indian-rummy",
            {"deals": 2},
            [{"kind": "human"}, {"kind": "bot", "level": "easy"}],
            "deal",
        ),
        (
            "declaration-rummy",
            {"match": True},
            [
                {"kind": "human"},
                {"kind": "bot", "level": "normal"},
                {"kind": "bot", "level": "easy"},
            ],
            "game",
        ),
    ],
)
def test_whole_game_against_bots_ends_with_a_result_and_a_record(
    client: TestClient,
    game: str,
    rules: dict[str, Any],
    seats: list[dict[str, Any]],
    deal_word: str,
) -> None:
    table_id = new_table(client, game, rules=rules, seats=seats, seed=11)
    summaries: list[dict[str, Any]] = []
    versions: list[int] = []
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(3), on_state=_collect(summaries, versions))
    assert versions == sorted(versions), "versions only grow"
    assert final["legal"] == [] and final["to_move"] == -2
    assert final["announce"].endswith("The game is over.")
    result = final["result"]
    assert len(result["scores"]) == len(seats)
    owner = owner_of(client, table_id)
    assert final["version"] == owner.version == len(owner.log)
    assert summaries, "each finished deal, hand or game is summarised"
    assert summaries[-1]["kind"] in ("game", "match")
    assert all(summary["headline"] and summary["lines"] for summary in summaries)
    record = client.get("/api/record").json()[game]
    assert record["deal_word"] == deal_word
    won = 0 in result["winners"]
    if game == "declaration-rummy":
        assert record["matches_played"] == 1 and record["matches_won"] == int(won)
        assert record["games_played"] >= 2
    else:
        assert record["games_played"] == 1 and record["games_won"] == int(won)
        assert record["deals_played"] >= 1
    if game == "indian-rummy":
        assert [row["format"] for row in record["formats"]] == ["free-play"]
        assert record["formats"][0]["games_played"] == 1
    else:
        assert record["formats"] == []
    info = client.get(f"/api/tables/{table_id}").json()
    assert info["finished"] is True and info["status"] == "finished"
    assert client.get("/api/tables").json() == []


def test_indian_rummy_free_play_records_each_deal_and_never_finishes(
    client: TestClient,
) -> None:
    table_id = new_table(client, "indian-rummy", seed=5)
    deals_seen: set[int] = set()
    rng = random.Random(9)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = receive(ws)
        # Stop on our own turn: then nobody else moves while the record is read.
        while len(deals_seen) < 2 or state["to_move"] != 0:
            if state["summary"] is not None:
                assert state["summary"]["kind"] == "deal"
                deals_seen.add(state["summary"]["number"])
            assert state["result"] is None
            if state["to_move"] == 0 and state["legal"]:
                action = rng.choice(state["legal"])
                ws.send_json({"type": "action", "version": state["version"], "action": action})
            state = receive(ws)
        finished_deals = state["view"]["deal_points"]
        record = client.get("/api/record").json()["indian-rummy"]
    assert record["deals_played"] == len(finished_deals) >= 2
    assert record["total_points"] == sum(points[0] for points in finished_deals)
    assert record["total_points"] == state["view"]["totals"][0]
    assert record["games_played"] == 0
    assert [table["table_id"] for table in client.get("/api/tables").json()] == [table_id]


def test_the_move_ending_the_last_deal_summarises_deal_and_game_together(
    client: TestClient,
) -> None:
    table_id = new_table(client, "indian-rummy", rules={"deals": 1}, seed=3)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(1))
    summary = final["summary"]
    assert summary["kind"] == "game" and summary["parts"] == ["game", "deal"]
    deal = summary["details_by_kind"]["deal"]
    assert deal["number"] == 1
    assert len(deal["arrangements"]) == 2
    assert any(line.startswith("Deal 1: ") for line in summary["lines"])
    assert [score["total"] for score in summary["scores"]] == final["result"]["scores"]


@pytest.mark.parametrize(
    ("preset", "reason"), [("pool-101", "last-player"), ("deals-3", "most-chips")]
)
def test_indian_rummy_pool_and_deals_tables_play_to_their_final_standing(
    client: TestClient, preset: str, reason: str
) -> None:
    # RULES.md 2.13 at a table: the new phases and answers (rejoin, stay out) pass through the
    # server, each view carries the standing, and the result is the final standing.
    rules = {k: v for k, v in rules_to_json(PRESETS[preset]).items() if k != "players"}
    seats = [
        {"kind": "human"},
        {"kind": "bot", "level": "easy"},
        {"kind": "bot", "level": "normal"},
    ]
    table_id = new_table(client, "indian-rummy", rules=rules, seats=seats, seed=21)
    standings: list[dict[str, Any]] = []

    told: list[str] = []

    def on_state(state: dict[str, Any]) -> None:
        standings.append(state["view"]["standing"])
        if state["summary"] is not None:
            told.extend(state["summary"]["lines"])

    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(4), on_state=on_state)
    result = final["result"]
    assert result["reason"] == reason
    standing = final["view"]["standing"]
    assert standing["winners"] == result["winners"]
    scores, winners = result["scores"], result["winners"]
    # Issue 24: the scores are the final totals in Pool (the winner's under the limit) and the
    # chips in Deals (the winner's the most).
    if preset == "pool-101":
        assert all(scores[seat] < 101 for seat in winners)
    else:
        assert all(scores[seat] == max(scores) for seat in winners)
    if preset == "pool-101":
        assert result["scores"] == final["view"]["totals"]
        assert any(True in s["out"] for s in standings)
        assert any(line.endswith("reached 101 and is out.") for line in told)
    else:
        assert result["scores"] == standing["chips"]
        assert sum(standing["chips"]) == 3 * 240
        assert any(line.startswith("Chips: ") for line in told)
    assert client.get(f"/api/tables/{table_id}").json()["finished"] is True
    # Your Record keeps the game by its format: one game of this preset, with its deals.
    record = client.get("/api/record").json()["indian-rummy"]
    assert [row["format"] for row in record["formats"]] == [preset]
    by_format = record["formats"][0]
    assert by_format["title"] == ("Pool 101" if preset == "pool-101" else "Deals (best of 3)")
    assert (by_format["games_played"], by_format["games_won"]) == (1, int(0 in result["winners"]))
    assert by_format["deals_played"] == record["deals_played"] == final["view"]["deal_number"]


def test_the_move_ending_the_game_stores_it_finished_with_it(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A process that stops right after storing the final move (before anything else it
    would store) leaves the game finished with its result in the database: the listings
    never show a game that is over as still being played."""
    asked: list[str] = []

    async def died(_store: Any, table_id: str, *_args: Any, **_options: Any) -> None:
        asked.append(table_id)
        raise RuntimeError("the process stopped before this write")

    monkeypatch.setattr(DatabaseLogStore, "set_status", died)
    table_id = new_table(
        client,
        "indecision",
        rules={"target_score": 31},
        seats=[{"kind": "human"}, {"kind": "bot", "level": "easy"}],
        seed=5,
    )
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = play_to_end(ws, random.Random(4))
    db = context_of(client.app).db
    owner = owner_of(client, table_id)
    result = owner.setup.engine.result(owner.state)
    assert final["result"] is not None and result is not None
    stored = storage.load_table(db, table_id)
    assert stored is not None
    assert len(stored.actions) == final["version"]
    assert (stored.status, stored.result) == (storage.FINISHED, result.to_json())
    assert asked == [], "the finished status needs no write of its own"
    profile = next(iter(stored.seated.values()))
    playing, _ = storage.list_tables(db, profile, status=storage.PLAYING)
    finished, _ = storage.list_tables(db, profile, status=storage.FINISHED)
    assert [t.id for t in playing] == [] and [t.id for t in finished] == [table_id]
