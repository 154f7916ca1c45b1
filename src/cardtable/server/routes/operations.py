"""Routes for whoever runs the server: ``/healthz`` (the process answers), ``/readyz`` (it can
serve: the database and, in cluster mode, Redis answer) and ``/metrics`` (Prometheus, only
with the operator's token: it tells memory, CPU, tables, sockets and rates).

A load balancer sends players only to processes whose ``/readyz`` answers 200, and restarts a
process whose ``/healthz`` stops answering. Neither says more than "ok" or which service failed,
so they may stay reachable without exposing anything.
"""

from __future__ import annotations

import asyncio
import hmac
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
async def prometheus_metrics(request: Request) -> Response:
    """The Prometheus text exposition of :mod:`cardtable.server.metrics`, to a request
    bearing the settings' ``metrics_token`` (404 without one set, 401 with another)."""
    token = context_of(request.app).settings.metrics_token
    if token is None:
        return JSONResponse({"detail": "Not Found"}, status_code=404)
    given = request.headers.get("authorization", "")
    if not hmac.compare_digest(given.encode(), f"Bearer {token}".encode()):
        return JSONResponse(
            {"detail": "metrics need the operator's token: Authorization: Bearer <token>"},
            status_code=401,
            headers={"WWW-Authenticate": "Bearer"},
        )
    body = await asyncio.to_thread(metrics.exposition)
    return Response(body, media_type=metrics.CONTENT_TYPE)
