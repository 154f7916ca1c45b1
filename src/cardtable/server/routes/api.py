"""The HTTP API (JSON): games and rules, tables, profile and options, record, export/import.

Requests and answers are the pydantic models of :mod:`cardtable.server.routes.models`; every route
goes through :class:`~cardtable.server.routes.boundary.CheckedRoute` (Origin, JSON only, size,
strict JSON), and every refusal is a 4xx ``{"detail": "sentence naming the problem"}``.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Final, Literal

from fastapi import APIRouter, HTTPException, Query, Request, Response
from fastapi.responses import JSONResponse

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.registry import canonical_name, get_engine
from cardtable.server.hosting.lobby import (
    MAX_PAGE,
    TooManyTablesError,
)
from cardtable.server.hosting.owner_calls import at_owner
from cardtable.server.people.player_options import DEFAULT_OPTIONS, merge_options
from cardtable.server.people.room import invite_json
from cardtable.server.review.record import record_of
from cardtable.server.routes.boundary import CheckedRoute
from cardtable.server.routes.catalog import catalog
from cardtable.server.routes.dependencies import (
    Context,
    CurrentProfile,
    LobbyDep,
    Table,
    check_rate,
    count_rate,
)
from cardtable.server.routes.howto import how_to_play
from cardtable.server.routes.identity import profile_for_page
from cardtable.server.routes.models import (
    BAD_INPUT,
    NO_PROFILE,
    GameEntry,
    GameRecord,
    HowToPlay,
    ImportAnswer,
    Invite,
    LeftTable,
    ListedTable,
    NewTable,
    OptionEntry,
    ProfileAnswer,
    ProfileChange,
    ProfileDocument,
    SeatAnswer,
    SharedTableAnswer,
    TableInfo,
    refusals,
)
from cardtable.server.routes.rules_input import check_rule_types
from cardtable.server.routes.rules_schema import options_schema

router = APIRouter(prefix="/api", route_class=CheckedRoute)

REFUSALS = refusals(
    BAD_INPUT,
    NO_PROFILE,
    (429, "Too many requests: the detail says when to try again."),
)


@router.get("/games")
async def list_games(context: Context) -> list[GameEntry]:
    """Every game with its presets, rules schema, the bound on a table's moves, bot levels
    and notice."""
    entries = await asyncio.to_thread(catalog, context.settings.max_table_moves)
    return [GameEntry.model_validate(entry) for entry in entries]


@router.get("/rules/{game}", responses={404: {"description": "No such game."}})
async def rules_page(game: str) -> HowToPlay:
    """How to play ``game``."""
    try:
        name = canonical_name(game)
    except CardtableError as exc:
        raise HTTPException(404, str(exc)) from None
    return HowToPlay.model_validate(how_to_play(name))


@router.post("/tables", status_code=201, responses=REFUSALS)
async def create_table(
    new: NewTable, request: Request, profile: CurrentProfile, lobby: LobbyDep
) -> SeatAnswer | SharedTableAnswer:
    """Sit down at a new table. The server alone draws its seed; with a ``commitment`` (from
    ``POST /api/commitments``) and the page's ``contribution``, the deal's seed is derived from
    both (provably fair deals, :mod:`cardtable.fairness`). With ``shared``, a table for people
    (answered with its invite): nothing is dealt until its host starts the game."""
    check_rate(request, "table", profile)
    try:
        check_rule_types(get_engine(canonical_name(new.game)).rules_type, new.rules or {})
        table_id, seat = await lobby.create(
            profile,
            game=new.game,
            rules=new.rules,
            seats=new.seats,
            commitment=new.commitment,
            contribution=new.contribution,
            shared=new.shared,
        )
    except TooManyTablesError as exc:
        raise HTTPException(409, str(exc)) from None
    except storage.StorageError:
        raise  # the server's trouble (503), not bad input
    except (CardtableError, ValueError, TypeError) as exc:
        raise HTTPException(400, str(exc)) from None
    count_rate(request, "table", profile)
    room = lobby.tables[table_id].room if table_id in lobby.tables else None
    if room is not None:
        return SharedTableAnswer(
            table_id=table_id, seat=seat, invite=Invite.model_validate(invite_json(room.invite))
        )
    return SeatAnswer(table_id=table_id, seat=seat)


LISTED_STATUSES: Final = (storage.PLAYING, storage.FINISHED, storage.ABANDONED)


@router.get("/tables", responses=REFUSALS, response_model=list[ListedTable])
async def my_tables(
    request: Request,
    profile: CurrentProfile,
    lobby: LobbyDep,
    status: Literal["playing", "finished", "abandoned"] = "playing",
    limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = 50,
    offset: Annotated[int, Query(ge=0, le=10**9)] = 0,
) -> Response:
    """One page of the caller's tables, most recently played first: unfinished ones unless
    ``status`` says ``finished`` or ``abandoned``. ``limit`` (1-200, default 50) and ``offset``
    choose the page; the ``X-Total-Count`` header gives the number of such tables and a
    ``Link`` header (``rel="next"``) the next page, while there is one."""
    listed, total = await lobby.list_tables(profile.id, status=status, limit=limit, offset=offset)
    headers = {"X-Total-Count": str(total)}
    if offset + len(listed) < total:
        following = request.url.include_query_params(offset=offset + len(listed), limit=limit)
        headers["Link"] = f'<{following.path}?{following.query}>; rel="next"'
    # Plain JSON data already: skip FastAPI's generic encoder, slow on a page of 200 rows.
    return JSONResponse(listed, headers=headers)


@router.get("/tables/{table_id}", responses={**REFUSALS, 404: {"description": "No such table."}})
async def table_info(owner: Table, profile: CurrentProfile) -> TableInfo:
    """One table: game, rules, seats, version, the caller's seat, finished; a people's
    table's room too (to its members only: 403 for anyone else)."""
    if owner.room is not None and owner.room.member(profile.id) is None:
        raise HTTPException(403, "you are not at this table: open its invite link")
    return TableInfo.model_validate(owner.info(profile.id))


@router.post(
    "/tables/{table_id}/join",
    responses={**REFUSALS, 404: {"description": "No such table."}, 409: {"description": "Full."}},
)
async def join_table(
    owner: Table, profile: CurrentProfile, lobby: LobbyDep, request: Request
) -> SeatAnswer:
    """Take a free human seat at a table (or get one's own seat back); in a cluster the
    table's owner seats the caller, whichever process is asked."""
    relay = getattr(request.app.state, "relay", None)
    seated = await at_owner(
        lobby, relay, "seat", {"table_id": owner.table_id, "profile": profile.id}
    )
    return SeatAnswer.model_validate(seated)


@router.delete(
    "/tables/{table_id}",
    responses=REFUSALS
    | refusals(
        (403, "Not started by the caller."),
        (404, "No such table."),
        (409, "Others sit at the table."),
        (503, "The table's server process cannot be reached: try again in a moment."),
    ),
)
async def leave_table(
    owner: Table, profile: CurrentProfile, lobby: LobbyDep, request: Request
) -> LeftTable:
    """Close a table the caller started, while nobody else sits at it (403 for anyone else,
    409 while others sit there); its status is then ``abandoned`` (or ``finished`` if the
    game had ended). In a cluster the table's owner closes it, whichever process is asked."""
    relay = getattr(request.app.state, "relay", None)
    closed = await at_owner(
        lobby, relay, "close", {"table_id": owner.table_id, "profile": profile.id}
    )
    return LeftTable.model_validate(closed)


@router.get("/options", response_model_exclude_none=True)
async def list_options() -> list[OptionEntry]:
    """Every player option with its words, choices and default, as declared once on the
    server: the page builds its Options panel and its defaults from these."""
    return [OptionEntry.model_validate(entry) for entry in options_schema()]


def _profile_answer(profile: storage.Profile) -> ProfileAnswer:
    return ProfileAnswer.model_validate(
        {"name": profile.name, "options": {**DEFAULT_OPTIONS, **profile.options}}
    )


@router.post("/profile", responses=REFUSALS)
async def create_profile(request: Request, response: Response) -> ProfileAnswer:
    """The caller's profile, created with its cookie when the caller has none (201)."""
    profile, created = await profile_for_page(request, response)
    if created:
        response.status_code = 201
    return _profile_answer(profile)


@router.get("/profile", responses=REFUSALS)
async def get_profile(profile: CurrentProfile) -> ProfileAnswer:
    """The caller's name and options."""
    return _profile_answer(profile)


@router.put("/profile", responses=REFUSALS)
async def put_profile(
    change: ProfileChange, profile: CurrentProfile, context: Context
) -> ProfileAnswer:
    """Change the name and/or options (options are merged: send only what changes)."""
    options = None
    if change.options is not None:
        try:
            options = merge_options(profile.options, change.options.model_dump(exclude_unset=True))
        except CardtableError as exc:
            raise HTTPException(400, str(exc)) from None
    updated = await asyncio.to_thread(
        storage.update_profile, context.db, profile.id, name=change.name, options=options
    )
    context.lobby.remember_options(updated.id, {**DEFAULT_OPTIONS, **updated.options})
    return _profile_answer(updated)


@router.get("/record", responses=REFUSALS)
async def get_record(
    request: Request, profile: CurrentProfile, context: Context
) -> dict[str, GameRecord]:
    """Per game, the caller's record: results played here, and imported ones apart. It is
    made from running totals, so it costs the same however many deals were played."""
    check_rate(request, "record", profile)
    count_rate(request, "record", profile)
    return await asyncio.to_thread(_record_answer, context.db, profile.id)


def _record_answer(db: storage.Database, profile_id: int) -> dict[str, GameRecord]:
    totals = storage.totals_of_profile(db, profile_id)
    return {game: GameRecord.model_validate(entry) for game, entry in record_of(totals).items()}


@router.get("/profile/export", responses=REFUSALS, response_model=ProfileDocument)
async def export_profile(request: Request, profile: CurrentProfile, context: Context) -> Response:
    """The caller's profile and record as one JSON document (the events a profile keeps: its
    newest played here and its newest imported ones, never more than an import accepts)."""
    check_rate(request, "record", profile)
    count_rate(request, "record", profile)
    body = await asyncio.to_thread(_export_body, context.db, profile.id)
    return Response(body, media_type="application/json")


def _export_body(db: storage.Database, profile_id: int) -> bytes:
    # Built, checked and encoded in a worker thread: a full document is thousands of events.
    document = storage.export_profile(db, profile_id)
    return ProfileDocument.model_validate(document).model_dump_json().encode()


@router.post("/profile/import", responses=REFUSALS)
async def import_profile(
    document: ProfileDocument, request: Request, profile: CurrentProfile, context: Context
) -> ImportAnswer:
    """Replace the name and options and add the document's results to the record, marked as
    imported (kept apart from results played here). All or nothing: a refused document
    changes nothing."""
    check_rate(request, "import", profile)
    try:
        options = None
        if document.options is not None:
            options = merge_options({}, document.options.model_dump(exclude_unset=True))
        events = [
            storage.RecordEvent(
                key=event.key,
                game=canonical_name(event.game),
                kind=event.kind,
                won=event.won,
                points=event.points,
                details=dict(event.details),
                at=storage.parse_time(event.at),
                imported=True,
            )
            for event in document.record
        ]
        added = await asyncio.to_thread(
            storage.import_profile,
            context.db,
            profile.id,
            name=document.name,
            options=options,
            events=events,
        )
    except storage.StorageError:
        raise  # the server's trouble (503), not bad input
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    count_rate(request, "import", profile)
    updated = await asyncio.to_thread(storage.get_profile, context.db, profile.id)
    assert updated is not None
    context.lobby.remember_options(updated.id, {**DEFAULT_OPTIONS, **updated.options})
    answer = _profile_answer(updated)
    return ImportAnswer(name=answer.name, options=answer.options, record_events_added=added)
