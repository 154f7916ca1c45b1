"""The refusals every route may answer, written into the OpenAPI document, and the ``Allow``
header of a 405.

A route documents its own refusals (a table that does not exist, a seat taken); the ones that
come from the boundary are the same for many routes and are added here, so that the document
names every status an answer can have: 400 for a malformed request (the app answers 400 where
FastAPI would document 422), 401 for a route that needs the profile cookie, 403 for a
state-changing request from a foreign origin, 404 for a path naming what does not exist, 413
and 415 for a body too large or not JSON, 429 for a rate limit, and 503 when the database
cannot be reached.

A path served by several routes (``GET`` and ``POST /api/tables``) answers a method none of
them takes with 405 and an ``Allow`` header naming what every one of them takes
(:func:`allowed_methods`), not only the first route's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Final

from fastapi import FastAPI, Request
from fastapi.dependencies.models import Dependant
from fastapi.routing import APIRoute
from starlette.routing import BaseRoute, Route

from cardtable.server.routes.identity import current_profile
from cardtable.server.routes.security import STATE_CHANGING, WITH_BODY

REFUSAL_SCHEMA: Final = {"$ref": "#/components/schemas/Refusal"}
MEANINGS: Final = {
    "400": "The request is malformed: a field missing, of the wrong type or out of bounds.",
    "401": "No profile cookie: load the page first (or POST /api/profile).",
    "403": "The request came from a page of another origin.",
    "404": "Nothing is there: no such table, game or hand.",
    "413": "The request body is too large.",
    "415": "The request body is not JSON.",
    "429": "Over a rate limit: try again after Retry-After seconds.",
    "503": "The server's database cannot be reached now: try again later.",
}


def _routes(routes: Iterable[BaseRoute]) -> Iterator[BaseRoute]:
    """Every route, those of included routers too (FastAPI keeps them behind a wrapper)."""
    for route in routes:
        inner = getattr(route, "original_router", None)
        if inner is not None:
            yield from _routes(inner.routes)
        else:
            yield route


def _needs_profile(dependant: Dependant) -> bool:
    return dependant.call is current_profile or any(
        _needs_profile(sub) for sub in dependant.dependencies
    )


def _has_path_params(dependant: Dependant) -> bool:
    return bool(dependant.path_params) or any(
        _has_path_params(sub) for sub in dependant.dependencies
    )


def _refusals_of(route: APIRoute, method: str) -> list[str]:
    codes = ["400", "429", "503"]
    if _needs_profile(route.dependant):
        codes.append("401")
    if _has_path_params(route.dependant):
        codes.append("404")
    if method in STATE_CHANGING:
        codes.append("403")
    if method in WITH_BODY and route.body_field is not None:
        codes += ["413", "415"]
    return codes


def describe_refusals(app: FastAPI) -> None:
    """Make ``app``'s OpenAPI document name the boundary's refusals (see the module
    docstring); the document is built once, on first request."""
    build: Callable[[], dict[str, Any]] = app.openapi

    def document() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = build()
        routes = {
            (route.path_format, method.lower()): route
            for route in _routes(app.routes)
            if isinstance(route, APIRoute) and route.include_in_schema
            for method in route.methods or ()
        }
        for path, operations in schema.get("paths", {}).items():
            for method, operation in operations.items():
                route = routes.get((path, method))
                if route is None:
                    continue
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                for code in _refusals_of(route, method.upper()):
                    responses.setdefault(
                        code,
                        {
                            "description": MEANINGS[code],
                            "content": {"application/json": {"schema": REFUSAL_SCHEMA}},
                        },
                    )
        schemas = schema.setdefault("components", {}).setdefault("schemas", {})
        schemas.setdefault(
            "Refusal",
            {
                "type": "object",
                "properties": {"detail": {"type": "string"}},
                "required": ["detail"],
            },
        )
        for unused in ("HTTPValidationError", "ValidationError"):
            schemas.pop(unused, None)
        app.openapi_schema = schema
        return schema

    app.openapi = document  # type: ignore[method-assign]


def allowed_methods(request: Request) -> str:
    """Every method some route at the request's path takes, for a 405's ``Allow``."""
    methods: set[str] = set()
    path = request.url.path
    for route in _routes(request.app.router.routes):
        pattern = getattr(route, "path_regex", None)
        if isinstance(route, Route) and pattern is not None and pattern.match(path):
            methods |= route.methods or set()
    methods.discard("HEAD")
    return ", ".join(sorted(methods))
