"""The web app: ``create_app`` builds the FastAPI application over one database.

It serves the single-page UI (``/`` and ``/static/...``), the JSON API (``/api/...``,
:mod:`cardtable.server.routes.api`) and the table websockets (``/ws/tables/{id}``,
:mod:`cardtable.server.protocol.websocket`), and the operations routes (``/healthz``, ``/readyz``,
``/metrics``, :mod:`cardtable.server.routes.operations`). Tables in progress are stored after every
move and are loaded again, lazily, by an app created over the same database after a restart.
Every app owns its tables under leases and serves others' through the relay
(:mod:`cardtable.server.cluster`): with a Redis URL in the settings it is one process of a
cluster, over Redis; without, its bus and lease table are in memory (a lone server, or the apps
of one test sharing them).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager, suppress
from pathlib import Path
from typing import Final

from fastapi import FastAPI, HTTPException, Request
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.middleware.trustedhost import TrustedHostMiddleware

from cardtable.server import metrics
from cardtable.server.cluster.bus import Bus
from cardtable.server.cluster.lease import LeaseTable
from cardtable.server.cluster.shared_limits import SharedCounts
from cardtable.server.cluster.wiring import Cluster
from cardtable.server.context import AppContext
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.hosting.owner_calls import CallRefused, Refusal
from cardtable.server.logs import quiet_expected_events
from cardtable.server.protocol import websocket
from cardtable.server.rate_limits import RateLimits
from cardtable.server.review.analysis_jobs import Analyses
from cardtable.server.routes import api, operations
from cardtable.server.routes import friends as friends_routes
from cardtable.server.routes import review as review_routes
from cardtable.server.routes.boundary import install_error_handlers
from cardtable.server.routes.identity import profile_for_page
from cardtable.server.routes.openapi_refusals import describe_refusals
from cardtable.server.routes.security import SecurityHeaders
from cardtable.server.settings import Settings
from cardtable.storage import Database, StorageError

REFUSAL_STATUS: Final[dict[Refusal, int]] = {
    Refusal.NOT_FOUND: 404,
    Refusal.NO_PROFILE: 401,
    Refusal.NOT_ALLOWED: 403,
    Refusal.CONFLICT: 409,
    Refusal.BAD_INPUT: 400,
    Refusal.FAILED: 500,
}
"""The HTTP status of each owner-call refusal (the web app's edge; owner calls speak no HTTP)."""

STATIC_DIR: Final = Path(__file__).parent / "static"


def create_app(
    database_url: str | None = None,
    *,
    settings: Settings | None = None,
    bot_delay_scale: float | None = None,
    bus: Bus | None = None,
    lease_table: LeaseTable | None = None,
) -> FastAPI:
    """The cardtable web app over ``database_url`` (default: the per-user SQLite file, or
    ``CARDTABLE_DATABASE_URL``), with ``settings`` (default: read from the environment).
    ``bot_delay_scale``, when given, overrides the settings' (0 makes computer players move
    at once, as tests want). Without a Redis URL, ``bus`` and ``lease_table`` are the
    in-process ones the app shares with others (default: its own)."""
    if settings is None:
        settings = Settings()
    if bot_delay_scale is not None:
        settings = settings.model_copy(update={"bot_delay_scale": bot_delay_scale})
    if settings.redis_url is not None and (bus is not None or lease_table is not None):
        raise ValueError("an in-process bus or lease table is for an app without a Redis URL")
    db = Database(database_url if database_url is not None else settings.database_url)
    if settings.redis_url is None:
        cluster = Cluster.in_process(db, settings, bus=bus, lease_table=lease_table)
    else:
        cluster = Cluster.over_redis(db, settings.redis_url, settings)
    lobby = Lobby(db, settings=settings, store=cluster.store)
    shared = None
    if settings.redis_url is not None:
        shared = SharedCounts(settings.redis_url, db.url)
    limits = RateLimits(settings, shared)
    cluster.attach(lobby, limits)
    analyses = Analyses(db, background=settings.analyse_finished_hands)
    lobby.on_outcomes = analyses.deal_finished

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        samplers = [
            asyncio.create_task(metrics.sample_loop_lag()),
            asyncio.create_task(metrics.track_open_tables(lambda: len(lobby.tables))),
            asyncio.create_task(limits.renew_shared()),
        ]
        yield
        for task in samplers:
            task.cancel()
        analyses.close()
        await lobby.shutdown()
        await cluster.close()
        if shared is not None:
            await asyncio.to_thread(shared.close)
        await asyncio.to_thread(db.close)

    app = FastAPI(
        title="cardtable",
        summary="Indecision, Indian Rummy and Declaration Rummy in the browser.",
        lifespan=lifespan,
        # No Swagger page: it loads its scripts from a CDN, which the app never does (and its
        # Content-Security-Policy forbids); any OpenAPI viewer reads the document.
        docs_url=None,
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.redis = cluster.redis
    app.state.cluster = cluster
    app.state.cardtable = AppContext(
        db=db, lobby=lobby, settings=settings, limits=limits, relay=cluster.relay
    )
    app.state.review_analyses = analyses
    install_error_handlers(app)
    quiet_expected_events()
    app.add_middleware(SecurityHeaders)
    if settings.allowed_hosts:
        # Outermost: a request naming another host is refused before anything else runs.
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))

    @app.exception_handler(StorageError)
    async def storage_unavailable(_request: Request, exc: StorageError) -> Response:
        """A database that cannot take a write (a full disk) is the server's trouble: 503 with
        the sentence, and the server keeps serving."""
        return JSONResponse({"detail": str(exc)}, status_code=503, headers={"Retry-After": "60"})

    @app.exception_handler(CallRefused)
    async def call_refused(_request: Request, exc: CallRefused) -> Response:
        """An owner call's refusal, as the status its reason stands for."""
        return JSONResponse({"detail": str(exc)}, status_code=REFUSAL_STATUS[exc.reason])

    app.include_router(operations.router)
    app.include_router(api.router)
    app.include_router(review_routes.router)
    app.include_router(friends_routes.router)
    app.include_router(websocket.router)
    app.mount("/static", StaticFiles(directory=STATIC_DIR, check_dir=False), name="static")
    describe_refusals(app)

    @app.get("/", include_in_schema=False)
    async def index(request: Request) -> Response:
        """The single-page app; gives a new visitor a profile cookie."""
        page = STATIC_DIR / "index.html"
        if not page.is_file():
            return Response("cardtable: the web UI is not installed", status_code=503)
        response = FileResponse(page, media_type="text/html")
        # Too many new profiles from this address: the page still loads, and says so when it
        # asks for its profile.
        with suppress(HTTPException):
            await profile_for_page(request, response)
        return response

    return app


def app_from_environment() -> FastAPI:
    """The app as each worker of ``cardtable serve --workers N`` builds it: everything from the
    ``CARDTABLE_*`` environment variables that the command set."""
    return create_app()
