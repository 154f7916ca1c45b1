"""HTTP routes of the review features: commitments for provably fair deals, a finished game's
fairness data and record, its replay (for the people who sat at it, or anyone with its share
link), and the move-by-move analysis of any seat, computed in the background and stored once.

While a game is on, nothing here reveals its server seed or its hidden cards: the replay, the
record and the analysis open when the game is over, and the fairness data shows only the
commitment and the contributions until then.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.replay import GameRecord
from cardtable.server.analysis_jobs import Analyses
from cardtable.server.boundary import CheckedRoute
from cardtable.server.context import context_of
from cardtable.server.identity import current_profile
from cardtable.server.replays import replay_frames
from cardtable.server.table import TableOwner
from cardtable.storage import reviews

router = APIRouter(prefix="/api", route_class=CheckedRoute)
CurrentProfile = Annotated[storage.Profile, Depends(current_profile)]


def analyses_of(request: Request) -> Analyses:
    """The app's analysis jobs (made on first use)."""
    state = request.app.state
    if getattr(state, "review_analyses", None) is None:
        state.review_analyses = Analyses(context_of(request.app).db)
    jobs: Analyses = state.review_analyses
    return jobs


async def _table(request: Request, table_id: str) -> TableOwner:
    owner = await context_of(request.app).lobby.get(table_id)
    if owner is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return owner


async def _record(request: Request, owner: TableOwner) -> GameRecord:
    """The table's record, its server seed revealed only once the game is over."""
    fair = await asyncio.to_thread(
        reviews.load_fairness, context_of(request.app).db, owner.table_id
    )
    if fair is not None and not owner.finished:
        fair = fair.public()
    result = owner.engine.result(owner.state)
    return GameRecord(
        game=owner.game,
        rules=owner.engine.rules_to_json(owner.rules),
        seed=owner.seed,
        actions=tuple(owner.log),
        fairness=fair,
        result=None if result is None else result.to_json(),
    )


def _finished_and_seated(owner: TableOwner, profile: storage.Profile) -> None:
    if profile.id not in owner.seated.values():
        raise HTTPException(403, "you do not sit at this table")
    if not owner.finished:
        raise HTTPException(409, "the replay and the analysis open when the game is over")


@router.post("/commitments", status_code=201)
async def new_commitment(request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """A commitment to a fresh secret server seed, for the next table the caller starts."""
    return {"commitment": context_of(request.app).lobby.commitments.commit(profile.id)}


@router.get("/replays")
async def my_finished_games(request: Request, profile: CurrentProfile) -> list[dict[str, Any]]:
    """The caller's finished games (the latest 30), each with its result, for Your Record."""
    context = context_of(request.app)
    ids = await asyncio.to_thread(
        storage.tables_of, context.db, profile.id, status=storage.FINISHED
    )
    listed = []
    for table_id in ids[:30]:
        owner = await context.lobby.get(table_id)
        if owner is None or not owner.finished:
            continue
        result = owner.engine.result(owner.state)
        listed.append(
            {
                "table_id": table_id,
                "game": owner.game,
                "title": owner.engine.title,
                "summary": None if result is None else result.summary,
            }
        )
    return listed


@router.get("/tables/{table_id}/fairness")
async def table_fairness(table_id: str, request: Request) -> dict[str, Any]:
    """The table's commitment and contributions; after the game also its server seed and the
    game seed derived from them."""
    owner = await _table(request, table_id)
    record = await _record(request, owner)
    if record.fairness is None:
        raise HTTPException(404, "this table was not dealt from a fair deal's seed")
    data = record.fairness.to_json()
    data["finished"] = owner.finished
    data["game_seed"] = owner.seed if owner.finished else None
    return data


@router.get("/tables/{table_id}/record")
async def table_record(table_id: str, request: Request, profile: CurrentProfile) -> Any:
    """The finished game's record (what ``cardtable verify`` and ``cardtable review`` read)."""
    owner = await _table(request, table_id)
    _finished_and_seated(owner, profile)
    return (await _record(request, owner)).to_json()


@router.get("/tables/{table_id}/replay")
async def table_replay(table_id: str, request: Request, profile: CurrentProfile) -> Any:
    """The finished game's replay frames (every hand face up) for a person who sat at it."""
    owner = await _table(request, table_id)
    _finished_and_seated(owner, profile)
    return await _replay(request, owner)


async def _replay(request: Request, owner: TableOwner) -> dict[str, Any]:
    record = await _record(request, owner)
    try:
        data = await asyncio.to_thread(replay_frames, record)
    except CardtableError as exc:
        raise HTTPException(409, f"the game's record does not replay: {exc}") from None
    person_seat = next((seat for seat, _ in sorted(owner.seated.items())), None)
    fair = None if record.fairness is None else record.fairness.to_json()
    # The seed as text too: a browser's JSON numbers cannot hold 63-bit integers exactly.
    return {
        **data,
        "table_id": owner.table_id,
        "person_seat": person_seat,
        "fairness": fair,
        "seed_text": str(record.seed),
    }


@router.post("/tables/{table_id}/share")
async def share_replay(table_id: str, request: Request, profile: CurrentProfile) -> Any:
    """A read-only link to the finished game's replay: an unguessable token."""
    owner = await _table(request, table_id)
    _finished_and_seated(owner, profile)
    token = await asyncio.to_thread(reviews.share_token, context_of(request.app).db, table_id)
    return {"token": token, "url": f"/#/replay/{token}"}


async def _shared(request: Request, token: str) -> TableOwner:
    table_id = await asyncio.to_thread(reviews.table_of_token, context_of(request.app).db, token)
    if table_id is None:
        raise HTTPException(404, "there is no shared replay with this link")
    return await _table(request, table_id)


@router.get("/replays/{token}")
async def shared_replay(token: str, request: Request) -> Any:
    """A shared replay, for anyone with its link."""
    return await _replay(request, await _shared(request, token))


async def _analysis(request: Request, owner: TableOwner, seat: int) -> dict[str, Any]:
    if not 0 <= seat < owner.rules.players:
        raise HTTPException(400, f"seat must be 0-{owner.rules.players - 1}, not {seat}")
    record = await _record(request, owner)
    return await analyses_of(request).status(owner.table_id, seat, record)


@router.get("/tables/{table_id}/analysis")
async def table_analysis(
    table_id: str, request: Request, profile: CurrentProfile, seat: Annotated[int, Query()] = -1
) -> Any:
    """A seat's move-by-move analysis (default: the caller's): ``{status: done, analysis}`` or
    ``{status: running, done, total}`` (hands analysed so far) while it is computed."""
    owner = await _table(request, table_id)
    _finished_and_seated(owner, profile)
    if seat < 0:
        seat = next(s for s, p in owner.seated.items() if p == profile.id)
    return await _analysis(request, owner, seat)


@router.get("/replays/{token}/analysis")
async def shared_analysis(token: str, request: Request, seat: Annotated[int, Query()] = 0) -> Any:
    """A seat's analysis of a shared game."""
    return await _analysis(request, await _shared(request, token), seat)
