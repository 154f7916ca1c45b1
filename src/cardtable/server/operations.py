"""Routes for whoever runs the server: ``/healthz`` (the process answers), ``/readyz`` (it can
serve: the database and, in cluster mode, Redis answer) and ``/metrics`` (Prometheus).

A load balancer sends players only to processes whose ``/readyz`` answers 200, and restarts a
process whose ``/healthz`` stops answering. Neither says more than "ok" or which service failed,
so they may stay reachable without exposing anything.
"""

from __future__ import annotations

import asyncio
from typing import Any, Final

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from sqlalchemy import text

from cardtable.server import metrics
from cardtable.server.context import context_of

router = APIRouter(include_in_schema=False)

CHECK_SECONDS: Final = 2.0
"""How long a readiness check waits for each service."""


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    """The process is alive and its event loop answers."""
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> Response:
    """200 when the database (and Redis, in cluster mode) answer within a few seconds; 503
    naming the one that does not."""
    context = context_of(request.app)
    checks: dict[str, str] = {}

    def ping_database() -> None:
        with context.db.engine.connect() as connection:
            connection.execute(text("SELECT 1"))

    checks["database"] = await _check(asyncio.to_thread(ping_database))
    redis: Any = getattr(request.app.state, "redis", None)
    checks["redis"] = "not used" if redis is None else await _check(redis.ping())
    ready = all(value in ("ok", "not used") for value in checks.values())
    return JSONResponse(
        {"status": "ready" if ready else "not ready", **checks},
        status_code=200 if ready else 503,
    )


async def _check(probe: Any) -> str:
    try:
        await asyncio.wait_for(probe, CHECK_SECONDS)
    except TimeoutError:
        return "timed out"
    except Exception:
        return "unreachable"
    return "ok"


@router.get("/metrics")
async def prometheus_metrics() -> Response:
    """The Prometheus text exposition of :mod:`cardtable.server.metrics`."""
    body = await asyncio.to_thread(metrics.exposition)
    return Response(body, media_type=metrics.CONTENT_TYPE)
