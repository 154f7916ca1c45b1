"""The HTTP API (JSON): games and rules, tables, profile and options, record, export/import.

Bad requests get a 4xx answer ``{"detail": "sentence naming the problem"}``; nothing a client
sends can raise past these handlers.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Final

from fastapi import APIRouter, Depends, HTTPException, Request, Response
from fastapi.responses import JSONResponse

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.registry import canonical_name
from cardtable.server.catalog import catalog
from cardtable.server.context import context_of
from cardtable.server.howto import how_to_play
from cardtable.server.identity import current_profile
from cardtable.server.lobby import (
    MAX_PAGE,
    NotAllowedError,
    TableInUseError,
    TooManyTablesError,
)
from cardtable.server.options import DEFAULT_OPTIONS, check_name, merge_options
from cardtable.server.record import aggregate

MAX_BODY_BYTES: Final = 2 * 1024 * 1024

router = APIRouter(prefix="/api")
CurrentProfile = Annotated[storage.Profile, Depends(current_profile)]


async def read_json(request: Request) -> Any:
    """The request body as JSON (400 if it is not JSON, 413 if it is too large)."""
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise HTTPException(413, f"request body too large: the limit is {MAX_BODY_BYTES} bytes")
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > MAX_BODY_BYTES:
            raise HTTPException(413, f"request body too large: the limit is {MAX_BODY_BYTES} bytes")
    try:
        return json.loads(body or b"null")
    except (json.JSONDecodeError, UnicodeDecodeError):
        raise HTTPException(400, "the request body is not valid JSON") from None


def _object(payload: Any, what: str) -> dict[str, Any]:
    if not isinstance(payload, dict):
        raise HTTPException(400, f"{what} must be a JSON object")
    return payload


@router.get("/games")
async def list_games() -> list[dict[str, Any]]:
    """Every game with its presets, rules schema, bot levels and notice."""
    return await asyncio.to_thread(catalog)


@router.get("/rules/{game}")
async def rules_page(game: str) -> dict[str, Any]:
    """How to play ``game``."""
    try:
        name = canonical_name(game)
    except CardtableError as exc:
        raise HTTPException(404, str(exc)) from None
    return how_to_play(name)


@router.post("/tables", status_code=201)
async def create_table(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Sit down at a new table: ``{game, rules, seats, commitment?, contribution?}`` ->
    ``{table_id, seat}``. The server alone draws its seed; the deal's seed is derived from it
    and the page's contribution (provably fair deals, :mod:`cardtable.fairness`)."""
    payload = _object(await read_json(request), "a new table")
    unknown = sorted(set(payload) - {"game", "rules", "seats", "commitment", "contribution"})
    if unknown:
        raise HTTPException(400, f"unknown field(s) {', '.join(unknown)} for a new table")
    try:
        table_id, seat = await context_of(request.app).lobby.create(
            profile,
            game=payload.get("game"),
            rules=payload.get("rules"),
            seats=payload.get("seats"),
            commitment=payload.get("commitment"),
            contribution=payload.get("contribution"),
        )
    except TooManyTablesError as exc:
        raise HTTPException(409, str(exc)) from None
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    return {"table_id": table_id, "seat": seat}


LISTED_STATUSES: Final = (storage.PLAYING, storage.FINISHED, storage.ABANDONED)


def _whole_number(raw: str | None, name: str, default: int, low: int, high: int) -> int:
    if raw is None:
        return default
    if not raw.isdigit() or not low <= int(raw[:12]) <= high:
        raise HTTPException(400, f"{name} must be a whole number from {low} to {high}")
    return int(raw)


@router.get("/tables", response_model=list[dict[str, Any]])
async def my_tables(request: Request, response: Response, profile: CurrentProfile) -> Response:
    """One page of the caller's tables, most recently played first: unfinished ones unless
    ``status`` says ``finished`` or ``abandoned``. ``limit`` (1-200, default 50) and ``offset``
    choose the page; the ``X-Total-Count`` header gives the number of such tables and a
    ``Link`` header (``rel="next"``) the next page, while there is one."""
    query = request.query_params
    status = query.get("status", storage.PLAYING)
    if status not in LISTED_STATUSES:
        raise HTTPException(400, f"status must be one of {', '.join(LISTED_STATUSES)}")
    limit = _whole_number(query.get("limit"), "limit", 50, 1, MAX_PAGE)
    offset = _whole_number(query.get("offset"), "offset", 0, 0, 10**9)
    listed, total = await context_of(request.app).lobby.list_tables(
        profile.id, status=status, limit=limit, offset=offset
    )
    headers = {"X-Total-Count": str(total)}
    if offset + len(listed) < total:
        following = request.url.include_query_params(offset=offset + len(listed), limit=limit)
        headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
    # Plain JSON data already: skip FastAPI's generic encoder, slow on a page of 200 rows.
    answer = JSONResponse(listed, headers=headers)
    answer.raw_headers.extend(h for h in response.raw_headers if h[0] == b"set-cookie")
    return answer


@router.get("/tables/{table_id}")
async def table_info(table_id: str, request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """One table: game, rules, seats, version, the caller's seat, finished."""
    owner = await context_of(request.app).lobby.get(table_id)
    if owner is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return owner.info(profile.id)


@router.post("/tables/{table_id}/join")
async def join_table(table_id: str, request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Take a free human seat at a table (or get one's own seat back)."""
    try:
        seat = await context_of(request.app).lobby.join(table_id, profile)
    except CardtableError as exc:
        raise HTTPException(409, str(exc)) from None
    if seat is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return {"table_id": table_id, "seat": seat}


@router.delete("/tables/{table_id}")
async def leave_table(table_id: str, request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Close a table the caller started, while nobody else sits at it (403 for anyone else,
    409 while others sit there); its status is then ``abandoned`` (or ``finished`` if the
    game had ended)."""
    try:
        owner = await context_of(request.app).lobby.close(table_id, profile.id)
    except NotAllowedError as exc:
        raise HTTPException(403, str(exc)) from None
    except TableInUseError as exc:
        raise HTTPException(409, str(exc)) from None
    if owner is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return {"table_id": table_id, "status": owner.status}


@router.get("/profile")
async def get_profile(profile: CurrentProfile) -> dict[str, Any]:
    """The caller's name and options."""
    return {"name": profile.name, "options": {**DEFAULT_OPTIONS, **profile.options}}


@router.put("/profile")
async def put_profile(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Change the name and/or options (options are merged: send only what changes)."""
    payload = _object(await read_json(request), "a profile change")
    unknown = sorted(set(payload) - {"name", "options"})
    if unknown:
        raise HTTPException(400, f"unknown profile field(s): {', '.join(unknown)}")
    try:
        name = check_name(payload["name"]) if "name" in payload else None
        options = (
            merge_options(profile.options, payload["options"]) if "options" in payload else None
        )
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    context = context_of(request.app)
    updated = await asyncio.to_thread(
        storage.update_profile, context.db, profile.id, name=name, options=options
    )
    merged = {**DEFAULT_OPTIONS, **updated.options}
    context.lobby.remember_options(updated.id, merged)
    return {"name": updated.name, "options": merged}


@router.get("/record")
async def get_record(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Per game, the caller's record."""
    events = await asyncio.to_thread(storage.events_of, context_of(request.app).db, profile.id)
    return aggregate(events)


@router.get("/profile/export")
async def export_profile(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """The caller's profile and record as one JSON document."""
    return await asyncio.to_thread(storage.export_profile, context_of(request.app).db, profile.id)


@router.post("/profile/import")
async def import_profile(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """Replace the name and options and merge the record from an exported document."""
    document = await read_json(request)
    context = context_of(request.app)
    try:
        _name, raw_options, _events = storage.parse_document(document)
        options = None if raw_options is None else merge_options({}, raw_options)
        added = await asyncio.to_thread(
            storage.import_profile, context.db, profile.id, document, options=options
        )
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    updated = await asyncio.to_thread(storage.get_profile, context.db, profile.id)
    assert updated is not None
    merged = {**DEFAULT_OPTIONS, **updated.options}
    context.lobby.remember_options(updated.id, merged)
    return {"name": updated.name, "options": merged, "record_events_added": added}
