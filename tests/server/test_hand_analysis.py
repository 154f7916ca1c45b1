"""Each finished hand analysed in the background as it ends: Indian Rummy's free play (which
never ends a game) gets its deals analysed while it goes on; the person sees only their own
hands analysed until the game is over; a page's request goes ahead of the background queue; the
setting turns the background work off (an analysis is then computed when first asked for); and
a finished game's analysis is merged from its stored hands, computed once."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardtable import storage
from cardtable.replay import GameRecord
from cardtable.server.context import context_of
from cardtable.server.review import analysis_jobs
from cardtable.server.review.analysis_jobs import BACKGROUND, ON_REQUEST, Analyses
from cardtable.server.settings import Settings
from cardtable.storage import Database, reviews

from .conftest import new_table, receive, visitor

SEATS = [{"kind": "human"}, {"kind": "bot", "level": "easy"}]
WAIT = 120.0


def _settings(background: bool) -> Settings:
    return Settings(test_seed=7, limit_messages="1000/second", analyse_finished_hands=background)


def _play_deals(ws: WebSocketTestSession, deals: int) -> dict[str, Any]:
    """Play the person's moves (a drop at the first chance, else a random move) until
    ``deals`` deals have ended; the last state."""
    rng = random.Random(3)
    ended = 0
    state = receive(ws)
    for _ in range(3000):
        summary = state["summary"]
        if summary is not None and "deal" in summary["parts"]:
            ended += 1
            if ended == deals:
                return state
        if state["result"] is None and state["to_move"] == state["seat"] and state["legal"]:
            legal: list[str] = state["legal"]
            action = "drop" if "drop" in legal else rng.choice(legal)
            ws.send_json({"type": "action", "version": state["version"], "action": action})
        state = receive(ws)
    raise AssertionError(f"{deals} deals did not end")


def _until(client: TestClient, url: str, done: Callable[[Any], bool]) -> Any:
    deadline = time.monotonic() + WAIT
    while True:
        response = client.get(url)
        assert response.status_code == 200, response.text
        data = response.json()
        if done(data) or time.monotonic() > deadline:
            return data
        time.sleep(0.3)


def test_free_play_deals_are_analysed_in_the_background_as_they_end(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(True))
    table_id = new_table(client, "indian-rummy", rules={"deals": None}, seats=SEATS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        _play_deals(ws, 2)
    url = f"/api/tables/{table_id}/analysis/hands"
    first = client.get(url).json()
    assert first["seat"] == 0 and first["current"] == 3
    assert [item["hand"] for item in first["hands"]] == [1, 2]
    # Nobody asked for a hand: the listing queues nothing, so "done" is the background's work.
    assert all(item["status"] in ("queued", "running", "done") for item in first["hands"])
    listed = _until(client, url, lambda d: all(i["status"] == "done" for i in d["hands"]))
    assert [item["status"] for item in listed["hands"]] == ["done", "done"], listed
    assert all(isinstance(item["accuracy"], float) for item in listed["hands"])
    one = client.get(f"{url}/1").json()
    assert one["status"] == "done" and one["hand"] == 1
    analysis = one["analysis"]
    assert analysis["seat"] == 0 and [h["hand"] for h in analysis["hands"]] == [1]
    assert analysis["hands"][0]["decisions"], "the drop (or the draw) was a decision"
    assert client.get(f"{url}/3").status_code == 409
    assert "still being played" in client.get(f"{url}/3").json()["detail"]
    assert client.get(f"{url}/9").status_code == 404
    # Only one's own hands while the game goes on, and only at one's own table.
    assert client.get(f"{url}?seat=1").status_code == 403
    assert visitor(client).get(url).status_code == 403


def test_without_the_setting_a_hand_is_analysed_when_first_asked_for(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(False))
    table_id = new_table(client, "indian-rummy", rules={"deals": None}, seats=SEATS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        _play_deals(ws, 1)
    url = f"/api/tables/{table_id}/analysis/hands"
    assert client.get(url).json()["hands"] == [{"hand": 1, "status": "none"}]
    asked = client.get(f"{url}/1").json()
    assert asked["status"] in ("queued", "running", "done")
    found = _until(client, f"{url}/1", lambda d: d["status"] == "done")
    assert found["status"] == "done", found
    assert client.get(url).json()["hands"][0]["status"] == "done"


def test_a_finished_games_analysis_is_merged_from_its_stored_hands(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(True))
    table_id = new_table(client, "indian-rummy", rules={"deals": 2}, seats=SEATS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        final = _play_deals(ws, 2)
    assert final["result"] is not None
    hands_url = f"/api/tables/{table_id}/analysis/hands"
    listed = _until(client, hands_url, lambda d: all(i["status"] == "done" for i in d["hands"]))
    assert listed["current"] is None and len(listed["hands"]) == 2
    parts = [client.get(f"{hands_url}/{i['hand']}").json()["analysis"] for i in listed["hands"]]
    game = _until(client, f"/api/tables/{table_id}/analysis", lambda d: d["status"] != "running")
    assert game["status"] == "done", game
    merged = game["analysis"]
    assert merged["hands"] == [hand for part in parts for hand in part["hands"]]
    costs = sorted((d["cost"] for p in parts for d in p["top"]), reverse=True)[:3]
    assert [d["cost"] for d in merged["top"]] == costs
    # After the game any seat's hands may be seen (the replay shows every hand then).
    assert client.get(f"{hands_url}?seat=1").status_code == 200


class _RecordingExecutor(Executor):
    """Runs nothing: notes which hand was asked for and answers an empty analysis."""

    def __init__(self) -> None:
        self.order: list[analysis_jobs.HandKey] = []

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.order.append(args[3])
        future: Future[Any] = Future()
        future.set_result({"hands": [], "top": [], "accuracy": None, "counts": {}})
        return future


def test_a_request_goes_ahead_of_the_background_queue_which_is_capped(
    tmp_path: Path, monkeypatch: Any
) -> None:
    db = Database(f"sqlite:///{tmp_path / 'queue.sqlite3'}")
    profile, _ = storage.create_profile(db)
    storage.create_table(
        db,
        table_id="t",
        owner_id=profile.id,
        game="indian-rummy",
        rules={},
        seed=1,
        seats=[{"kind": "human"}, {"kind": "human"}],
        owner_seat=0,
    )
    record = GameRecord(game="indian-rummy", rules={}, seed=1)
    executor = _RecordingExecutor()
    analyses = Analyses(db, executor=executor)
    monkeypatch.setattr(analysis_jobs, "MAX_QUEUED", 3)

    async def scenario() -> dict[str, Any]:
        for hand in (1, 2, 3, 4):  # the fourth is beyond the cap: skipped
            analyses._enqueue(("t", 0, hand), record, BACKGROUND)
        analyses._enqueue(("t", 0, 3), record, ON_REQUEST)  # already queued: moved ahead
        analyses._enqueue(("t", 1, 1), record, ON_REQUEST)
        before = analyses._describe(("t", 0, 2))
        assert analyses._worker is not None
        await analyses._worker
        return before

    # A loop of its own in a thread: a browser test in the same worker may hold this thread's.
    with ThreadPoolExecutor(max_workers=1) as thread:
        before = thread.submit(asyncio.run, scenario()).result()
    assert before == {"hand": 2, "status": "queued", "ahead": 3}
    assert executor.order == [("t", 0, 3), ("t", 1, 1), ("t", 0, 1), ("t", 0, 2)]
    assert sorted(reviews.load_hand_analyses(db, "t", 0)) == [1, 2, 3]
    assert analyses.pending == {}
    db.close()


def test_a_failing_listener_of_finished_deals_costs_the_players_nothing(
    make_client: Callable[..., TestClient],
) -> None:
    client = make_client(settings=_settings(False))
    told: list[int] = []

    def failing(owner: Any, before: Any, outcomes: tuple[Any, ...]) -> None:
        told.append(len(outcomes))
        raise RuntimeError("a listener's own trouble")

    context_of(client.app).lobby.on_outcomes = failing
    table_id = new_table(client, "indian-rummy", rules={"deals": None}, seats=SEATS)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = _play_deals(ws, 1)  # the deal's summary still reaches the player
    assert told == [1]
    assert "deal" in state["summary"]["parts"]
