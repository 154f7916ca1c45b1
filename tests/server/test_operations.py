"""The routes for operators: ``/healthz`` answers while the process lives, ``/readyz`` names the
service that does not answer (the database; Redis in cluster mode), ``/metrics`` counts moves,
their latency, sockets, tables and computer players' thinking; and log lines about a table
name it, as text or JSON."""

from __future__ import annotations

import io
import json
import logging
import logging.config
import os
import random
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

from fastapi.testclient import TestClient
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.multiprocess import MultiProcessCollector
from sqlalchemy import create_engine

from cardtable.server.context import context_of
from cardtable.server.logs import TableFilter, about_table, log_config
from cardtable.server.metrics import MULTIPROCESS_VARIABLE, forget_dead_workers
from cardtable.server.settings import Settings

from .conftest import new_table, play_to_end, receive


def metric(text: str, name: str) -> float:
    """The value of one sample line of the exposition (0 when absent)."""
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(match.group(1)) if match else 0.0


def test_healthz_and_readyz_answer_for_a_lone_server(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"status": "ok"}
    ready = client.get("/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"status": "ready", "database": "ok", "redis": "not used"}


def test_readyz_names_the_database_that_does_not_answer(client: TestClient) -> None:
    db = context_of(client.app).db
    working = db.engine
    db.engine = create_engine("postgresql+psycopg://nobody@127.0.0.1:1/none")
    try:
        ready = client.get("/readyz")
    finally:
        db.engine.dispose()
        db.engine = working
    assert ready.status_code == 503
    assert ready.json() == {"status": "not ready", "database": "unreachable", "redis": "not used"}
    assert client.get("/healthz").status_code == 200


def test_readyz_names_a_redis_that_does_not_answer(
    make_client: Callable[..., TestClient],
) -> None:
    settings = Settings(test_seed=7, redis_url="redis://127.0.0.1:1/0")
    client = make_client(settings=settings)
    ready = client.get("/readyz")
    assert ready.status_code == 503
    assert ready.json() == {"status": "not ready", "database": "ok", "redis": "unreachable"}


def test_readyz_in_cluster_mode_checks_redis(
    make_client: Callable[..., TestClient], postgres_url: str, redis_url: str
) -> None:
    client = make_client(url=postgres_url, settings=Settings(test_seed=7, redis_url=redis_url))
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json()["redis"] == "ok"


METRICS_TOKEN = "operator-token-0123456789"


def test_metrics_count_moves_latency_sockets_tables_and_thinking(
    make_client: Callable[..., TestClient],
) -> None:
    settings = Settings(test_seed=7, limit_messages="1000/second", metrics_token=METRICS_TOKEN)
    client = make_client(settings=settings)
    client.headers["Authorization"] = f"Bearer {METRICS_TOKEN}"
    before = client.get("/metrics").text
    table_id = new_table(client, "indecision")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        # The first state means the server has counted the socket (it counts after accepting).
        first = receive(ws)
        during = client.get("/metrics")
        assert during.headers["content-type"].startswith("text/plain")
        assert metric(during.text, "cardtable_connected_sockets") >= 1
        assert metric(during.text, "cardtable_open_tables") >= 0
        final = play_to_end(ws, random.Random(3), first=first)
    after = client.get("/metrics").text
    moves = final["version"]
    people = metric(after, 'cardtable_actions_total{kind="person"}') - metric(
        before, 'cardtable_actions_total{kind="person"}'
    )
    bots = metric(after, 'cardtable_actions_total{kind="bot"}') - metric(
        before, 'cardtable_actions_total{kind="bot"}'
    )
    assert people >= 1 and bots >= 1 and people + bots == moves
    latency = metric(after, "cardtable_action_to_view_seconds_count") - metric(
        before, "cardtable_action_to_view_seconds_count"
    )
    assert latency == people
    thinking = metric(after, 'cardtable_bot_thinking_seconds_count{level="random"}') - metric(
        before, 'cardtable_bot_thinking_seconds_count{level="random"}'
    )
    assert thinking == bots
    # The CPU time the choices took in their threads is counted too.
    thinking_cpu = metric(after, "cardtable_bot_thinking_cpu_seconds_total") - metric(
        before, "cardtable_bot_thinking_cpu_seconds_total"
    )
    assert thinking_cpu > 0
    for name in ("cardtable_lease_takeovers_total", "cardtable_event_loop_lag_seconds_count"):
        assert re.search(rf"^{name} ", after, re.MULTILINE), name


def test_metrics_answer_only_the_operators_token(make_client: Callable[..., TestClient]) -> None:
    closed = make_client()
    assert closed.get("/metrics").status_code == 404
    guarded = make_client(settings=Settings(test_seed=7, metrics_token=METRICS_TOKEN))
    assert guarded.get("/metrics").status_code == 401
    wrong = guarded.get("/metrics", headers={"Authorization": "Bearer not-the-token-at-all"})
    assert wrong.status_code == 401 and wrong.headers["www-authenticate"] == "Bearer"
    right = guarded.get("/metrics", headers={"Authorization": f"Bearer {METRICS_TOKEN}"})
    assert right.status_code == 200 and "cardtable_connected_sockets" in right.text


def test_log_lines_about_a_table_name_it_as_json() -> None:
    stream = io.StringIO()
    config = log_config("json")
    config["handlers"]["lines"]["stream"] = stream
    del config["loggers"]["uvicorn"], config["loggers"]["uvicorn.error"]
    del config["loggers"]["uvicorn.access"]
    logging.config.dictConfig(config)
    try:
        log = logging.getLogger("cardtable.server.table.owner")
        with about_table("t-123"):
            log.warning("a move could not be stored")
        log.warning("no table here")
        logging.getLogger("cardtable.x").error("given", extra={"table_id": "t-9"})
    finally:
        logging.getLogger("cardtable").handlers.clear()
        logging.getLogger("cardtable").propagate = True
    first, second, third = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first["table_id"] == "t-123" and first["message"] == "a move could not be stored"
    assert first["level"] == "warning" and first["logger"] == "cardtable.server.table.owner"
    assert "table_id" not in second and third["table_id"] == "t-9"


def test_text_lines_carry_the_table_too() -> None:
    record = logging.LogRecord("cardtable", logging.INFO, "", 0, "moved", None, None)
    with about_table("t-7"):
        TableFilter().filter(record)
    formatted = logging.Formatter(log_config("text")["formatters"]["lines"]["format"]).format(
        record
    )
    assert "table=t-7: moved" in formatted


def test_the_gauges_of_a_worker_that_died_are_dropped(tmp_path: Path) -> None:
    code = (
        "from cardtable.server import metrics\n"
        "metrics.CONNECTED_SOCKETS.inc(5)\n"
        "metrics.ACTIONS.labels('person').inc(2)\n"
    )
    environment = {**os.environ, MULTIPROCESS_VARIABLE: str(tmp_path)}
    worker = subprocess.run([sys.executable, "-c", code], env=environment, check=True)
    assert worker.returncode == 0 and list(tmp_path.glob("gauge_live*.db"))
    assert len(forget_dead_workers(tmp_path)) == 1
    assert not list(tmp_path.glob("gauge_live*.db"))
    registry = CollectorRegistry()
    MultiProcessCollector(registry, path=str(tmp_path))  # type: ignore[no-untyped-call]
    exposition = generate_latest(registry).decode()
    assert metric(exposition, 'cardtable_actions_total{kind="person"}') == 2  # counters stay
    assert metric(exposition, "cardtable_connected_sockets") == 0
