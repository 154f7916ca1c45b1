"""HTTP routes of the review features: commitments for provably fair deals, a finished game's
fairness data and record, its replay (for the people who sat at it, or anyone with its share
link), and the move-by-move analysis: of each finished hand as soon as it ends (for the
person's own seat while the game goes on), and of a finished game for any seat; computed in the
background and stored once.

While a game is on, nothing here reveals its server seed or its hidden cards: the replay, the
record and the analysis open when the game is over, and the fairness data shows only the
commitment and the contributions until then.
"""

from __future__ import annotations

import asyncio
import json
from typing import Annotated, Any, Final

from fastapi import APIRouter, HTTPException, Query, Request, Response

from cardtable import storage
from cardtable.errors import CardtableError
from cardtable.replay import GameRecord
from cardtable.review import lens_of
from cardtable.server.context import context_of
from cardtable.server.narration import game_outcome
from cardtable.server.rate_limits import Action
from cardtable.server.review.analysis_jobs import Analyses, AnalysisRefused, Asker
from cardtable.server.review.replay_cache import ReplayCache
from cardtable.server.review.replays import replay_frames
from cardtable.server.routes.boundary import CheckedRoute
from cardtable.server.routes.dependencies import CurrentProfile, Table, TableId, table_or_404
from cardtable.server.routes.identity import client_address
from cardtable.server.routes.models import (
    NO_PROFILE,
    CommitmentAnswer,
    FinishedGame,
    ShareLink,
    refusals,
)
from cardtable.server.table.owner import TableOwner
from cardtable.storage import reviews

router = APIRouter(prefix="/api", route_class=CheckedRoute)
REPLAYS_LIMITED: Final = (429, "Too many replays: the detail says when to try again.")


def analyses_of(request: Request) -> Analyses:
    """The app's analyses (their queue, worker and stored results)."""
    analyses: Analyses = request.app.state.review_analyses
    return analyses


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
async def new_commitment(request: Request, profile: CurrentProfile) -> CommitmentAnswer:
    """A commitment to a fresh secret server seed, for the next table the caller starts."""
    commitment = await context_of(request.app).lobby.commitments.commit(profile.id)
    return CommitmentAnswer(commitment=commitment)


@router.get("/replays")
async def my_finished_games(request: Request, profile: CurrentProfile) -> list[FinishedGame]:
    """The caller's finished games (the latest 30), each with its result, for Your Record."""
    context = context_of(request.app)
    ids = await asyncio.to_thread(
        storage.tables_of, context.db, profile.id, status=storage.FINISHED
    )
    listed = []
    for table_id in ids[:30]:
        owner = await context.lobby.read(table_id)
        if owner is None or not owner.finished:
            continue
        seat = next((s for s, p in sorted(owner.seated.items()) if p == profile.id), None)
        listed.append(
            FinishedGame(
                table_id=table_id,
                game=owner.game,
                title=owner.engine.title,
                summary=_named_result(owner, seat),
                shared=owner.room is not None,
                assisted=owner.room is not None and seat in owner.room.assisted,
            )
        )
    return listed


def _named_result(owner: TableOwner, seat: int | None) -> str | None:
    """The game's result in one sentence with the names the caller knew the seats by at the
    table ("You won the game.", "Ana won the game."), not the engine's seat numbers."""
    if owner.engine.result(owner.state) is None:
        return None
    names = owner.names_for(-1 if seat is None else seat)
    headline: str = game_outcome(owner.engine, owner.state).describe(names)["headline"]
    return headline


@router.get(
    "/tables/{table_id}/fairness",
    responses=refusals(
        NO_PROFILE,
        (403, "Not a player or spectator of this table."),
        (404, "No such table, or not dealt from a fair deal's seed."),
    ),
)
async def table_fairness(
    table_id: TableId, request: Request, profile: CurrentProfile
) -> dict[str, Any]:
    """The table's commitment and contributions; after the game also its server seed and the
    game seed derived from them. For the table's players and spectators only; read from a
    copy of the table that moves nobody (a table out of memory stays asleep)."""
    owner = await context_of(request.app).lobby.snapshot(table_id)
    if owner is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    if not _member(owner, profile.id):
        raise HTTPException(403, "only the table's players and spectators see its fair deal")
    record = await _record(request, owner)
    if record.fairness is None:
        raise HTTPException(404, "this table was not dealt from a fair deal's seed")
    data = record.fairness.to_json()
    data["finished"] = owner.finished
    data["game_seed"] = owner.seed if owner.finished else None
    return data


def _member(owner: TableOwner, profile_id: int) -> bool:
    """Whether the profile sits at the table or, at a people's table, watches it."""
    if owner.room is not None and owner.room.member(profile_id) is not None:
        return True
    return profile_id in owner.seated.values()


@router.get("/tables/{table_id}/record")
async def table_record(owner: Table, request: Request, profile: CurrentProfile) -> dict[str, Any]:
    """The finished game's record (what ``cardtable verify`` and ``cardtable review`` read)."""
    _finished_and_seated(owner, profile)
    return (await _record(request, owner)).to_json()


@router.get(
    "/tables/{table_id}/replay",
    response_model=dict[str, Any],
    responses=refusals(REPLAYS_LIMITED),
)
async def table_replay(owner: Table, request: Request, profile: CurrentProfile) -> Response:
    """The finished game's replay frames (every hand face up) for a person who sat at it."""
    _finished_and_seated(owner, profile)
    _limit(request, "replay", f"profile:{profile.id}")
    seat = next(s for s, p in sorted(owner.seated.items()) if p == profile.id)
    return _for_viewer(await _replay(request, owner), seat)


def _for_viewer(answer: Response, seat: int | None) -> Response:
    """The cached replay with ``viewer_seat``, the caller's own seat (``null`` for someone
    with a share link): the page calls a seat "You" only for the person who sat in it. Added
    to the encoded object's end, so that a long game's replay is not decoded again."""
    body = bytes(answer.body)
    closing = body.rindex(b"}")
    extra = f',"viewer_seat":{"null" if seat is None else seat}'.encode()
    return Response(body[:closing] + extra + body[closing:], media_type="application/json")


def _limit(request: Request, action: Action, who: str) -> None:
    """429 when the caller's address or ``who`` (a profile, a share link) asked for
    ``action`` too often; otherwise the request is counted."""
    keys = (f"address:{client_address(request)}", who)
    refusal = context_of(request.app).limits.hit(action, *keys)
    if refusal is not None:
        raise HTTPException(429, refusal.message, {"Retry-After": str(refusal.retry_after)})


def replays_of(request: Request) -> ReplayCache:
    """The app's finished games' replays, made once."""
    cache: ReplayCache | None = getattr(request.app.state, "replays", None)
    if cache is None:
        cache = request.app.state.replays = ReplayCache()
    return cache


async def _replay(request: Request, owner: TableOwner) -> Response:
    async def make() -> bytes:
        record = await _record(request, owner)
        person_seat = next((seat for seat, _ in sorted(owner.seated.items())), None)
        try:
            names = [seat.name for seat in owner.seats]
            return await asyncio.to_thread(
                _replay_answer, record, owner.table_id, person_seat, names
            )
        except CardtableError as exc:
            raise HTTPException(409, f"the game's record does not replay: {exc}") from None

    body = await replays_of(request).get(owner.table_id, make)
    return Response(body, media_type="application/json")


def _replay_answer(
    record: GameRecord, table_id: str, person_seat: int | None, names: list[str]
) -> bytes:
    """The replay's answer, made and encoded in a worker thread; ``names`` are the seats'
    names as anyone sees them (the people's chosen names, the computer players')."""
    data = replay_frames(record)
    fair = None if record.fairness is None else record.fairness.to_json()
    # The seed as text too: a browser's JSON numbers cannot hold 63-bit integers exactly.
    answer = {
        **data,
        "table_id": table_id,
        "person_seat": person_seat,
        "names": names,
        "fairness": fair,
        "seed_text": str(record.seed),
    }
    return _encoded(answer)


@router.post("/tables/{table_id}/share")
async def share_replay(owner: Table, request: Request, profile: CurrentProfile) -> ShareLink:
    """A read-only link to the finished game's replay: an unguessable token."""
    _finished_and_seated(owner, profile)
    db = context_of(request.app).db
    token = await asyncio.to_thread(reviews.share_token, db, owner.table_id)
    return ShareLink(token=token, url=f"/#/replay/{token}")


async def _shared(request: Request, token: str) -> TableOwner:
    table_id = await asyncio.to_thread(reviews.table_of_token, context_of(request.app).db, token)
    if table_id is None:
        raise HTTPException(404, "there is no shared replay with this link")
    return await table_or_404(table_id, context_of(request.app).lobby)


@router.get(
    "/replays/{token}",
    response_model=dict[str, Any],
    responses=refusals(REPLAYS_LIMITED),
)
async def shared_replay(token: str, request: Request) -> Response:
    """A shared replay, for anyone with its link."""
    _limit(request, "replay", f"share:{token[:64]}")
    table_id = await asyncio.to_thread(reviews.table_of_token, context_of(request.app).db, token)
    cached = None if table_id is None else replays_of(request).peek(table_id)
    if cached is not None:  # no need to load the table
        return _for_viewer(Response(cached, media_type="application/json"), None)
    return _for_viewer(await _replay(request, await _shared(request, token)), None)


def _asker(request: Request, who: str) -> Asker:
    """The caller as an asker of analyses: its address and ``who`` (a profile, a link)."""
    keys = (f"address:{client_address(request)}", who)
    return Asker(keys=keys, limits=context_of(request.app).limits)


async def _analysis(
    request: Request, owner: TableOwner, seat: int, asker: Asker
) -> dict[str, Any] | Response:
    if not 0 <= seat < owner.rules.players:
        raise HTTPException(400, f"seat must be 0-{owner.rules.players - 1}, not {seat}")
    record = await _record(request, owner)
    try:
        status = await analyses_of(request).status(owner.table_id, seat, record, asker)
    except AnalysisRefused as exc:
        raise HTTPException(429, str(exc), {"Retry-After": str(exc.retry_after)}) from None
    if status["status"] != "done":
        return status
    # A long game's analysis is big: encoded in a worker thread, not on the event loop.
    body = await asyncio.to_thread(_encoded, status)
    return Response(body, media_type="application/json")


def _encoded(data: Any) -> bytes:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False).encode()


@router.get("/tables/{table_id}/analysis", response_model=dict[str, Any])
async def table_analysis(
    owner: Table, request: Request, profile: CurrentProfile, seat: Annotated[int, Query()] = -1
) -> dict[str, Any] | Response:
    """A seat's move-by-move analysis (default: the caller's): ``{status: done, analysis}`` or
    ``{status: running, done, total}`` (hands analysed so far) while it is computed."""
    _finished_and_seated(owner, profile)
    if seat < 0:
        seat = next(s for s, p in owner.seated.items() if p == profile.id)
    return await _analysis(request, owner, seat, _asker(request, f"profile:{profile.id}"))


@router.get("/replays/{token}/analysis", response_model=dict[str, Any])
async def shared_analysis(
    token: str, request: Request, seat: Annotated[int, Query()] = 0
) -> dict[str, Any] | Response:
    """A person's seat's analysis of a shared game (a computer player's seat is analysed
    only for the people who sat at the table)."""
    owner = await _shared(request, token)
    if 0 <= seat < owner.rules.players and seat not in owner.seated:
        raise HTTPException(
            403, f"seat {seat} is a computer player's: a shared link shows the people's analyses"
        )
    return await _analysis(request, owner, seat, _asker(request, f"share:{token[:64]}"))


def _own_seat(owner: TableOwner, profile: storage.Profile, seat: int) -> int:
    """The seat whose hands the caller may see analysed: its own (any seat once the game is
    over, as the replay shows every hand then)."""
    if profile.id not in owner.seated.values():
        raise HTTPException(403, "you do not sit at this table")
    mine = next(s for s, p in sorted(owner.seated.items()) if p == profile.id)
    if seat < 0 or seat == mine:
        return mine
    if not owner.finished:
        raise HTTPException(403, "while the game is on you can see only your own hands analysed")
    if not 0 <= seat < owner.rules.players:
        raise HTTPException(400, f"seat must be 0-{owner.rules.players - 1}, not {seat}")
    return seat


async def _finished_hands(
    request: Request, owner: TableOwner, record: GameRecord
) -> tuple[list[int], int | None]:
    """The hands of the record that are over, and the hand being played (``None`` once the
    game is over)."""
    hands = await analyses_of(request).hands(owner.table_id, record)
    current = None if owner.finished else lens_of(owner.game).hand_of(owner.state)
    return [hand for hand in hands if hand != current], current


@router.get("/tables/{table_id}/analysis/hands")
async def hand_analyses(
    owner: Table, request: Request, profile: CurrentProfile, seat: Annotated[int, Query()] = -1
) -> Any:
    """The finished hands of a seat (default: the caller's) and where each one's analysis
    stands: ``done`` (with its accuracy and marks), ``queued``, ``running``, ``failed`` or
    ``none`` (not asked for yet); ``current`` is the hand being played."""
    seat = _own_seat(owner, profile, seat)
    record = await _record(request, owner)
    finished, current = await _finished_hands(request, owner, record)
    listed = await analyses_of(request).hands_status(owner.table_id, seat, record, finished)
    return {"seat": seat, "current": current, "hands": listed}


@router.get("/tables/{table_id}/analysis/hands/{hand}")
async def hand_analysis(
    owner: Table,
    hand: int,
    request: Request,
    profile: CurrentProfile,
    seat: Annotated[int, Query()] = -1,
) -> Any:
    """One finished hand's analysis for a seat (default: the caller's), queued if it is not
    stored yet: ``{status: done, hand, analysis}``, or ``queued`` (with how many analyses are
    ahead), ``running`` (with decisions ``done`` of ``total``) or ``failed``."""
    seat = _own_seat(owner, profile, seat)
    analyses = analyses_of(request)
    known = await analyses.known_status(owner.table_id, seat, hand)
    if known is not None:  # stored or under way: no need to replay the record
        return known
    record = await _record(request, owner)
    finished, current = await _finished_hands(request, owner, record)
    if hand not in finished:
        if hand == current:
            raise HTTPException(
                409, f"hand {hand} is still being played: its analysis opens when it ends"
            )
        raise HTTPException(404, f"there is no finished hand {hand} at this table")
    try:
        return analyses.request(
            owner.table_id, seat, hand, record, _asker(request, f"profile:{profile.id}")
        )
    except AnalysisRefused as exc:
        raise HTTPException(429, str(exc), {"Retry-After": str(exc.retry_after)}) from None
