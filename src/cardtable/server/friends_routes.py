"""HTTP routes of people's tables: looking at an invite, joining with it, and the lobby of
public tables.

The invite token is read from the request body only (the page takes it from the link's
fragment, which browsers never send): no path or query the server logs ever holds it. Opening
and joining invites count against the ``join`` rate limit, per profile and per address.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, HTTPException, Request

from cardtable.errors import CardtableError
from cardtable.server.boundary import CheckedRoute
from cardtable.server.dependencies import CurrentProfile, LobbyDep, check_rate, count_rate
from cardtable.server.models import InviteRequest, Joined, JoinRequest, Refusal
from cardtable.server.people_tables import (
    InviteError,
    JoinRefused,
    join,
    peek,
    public_tables,
    table_of_invite,
)

router = APIRouter(prefix="/api", route_class=CheckedRoute)

REFUSALS: dict[int | str, dict[str, Any]] = {
    status: {"description": text, "model": Refusal}
    for status, text in [
        (400, "Bad input: the detail names the problem."),
        (401, "No profile cookie: load the page (or POST /api/profile) first."),
        (403, "Not allowed: removed by the host, or no spectators at this table."),
        (404, "The invite link opens no table."),
        (409, "The seat or the name is taken, or the game has started."),
        (429, "Too many invites opened: the detail says when to try again."),
    ]
}


@router.post("/invites/peek", responses=REFUSALS)
async def peek_invite(
    body: InviteRequest, request: Request, profile: CurrentProfile, lobby: LobbyDep
) -> dict[str, Any]:
    """The table an invite opens, as seen before joining: game, rules, host, settings, seats
    (open, a person's name, or a computer player), and the caller's place if it has one."""
    check_rate(request, "join", profile)
    try:
        owner = await table_of_invite(lobby, body.token)
    except InviteError as exc:
        count_rate(request, "join", profile)  # guessing tokens costs as much as joining
        raise HTTPException(404, str(exc)) from None
    count_rate(request, "join", profile)
    return peek(owner, profile.id)


@router.post("/invites/join", responses=REFUSALS)
async def join_invite(
    body: JoinRequest, request: Request, profile: CurrentProfile, lobby: LobbyDep
) -> Joined:
    """Join the table an invite opens: sit at ``seat`` (the first free seat when left out) or
    watch; a profile already at the table gets its place back (another device, say)."""
    check_rate(request, "join", profile)
    try:
        owner = await table_of_invite(lobby, body.token)
        seat, role = await join(
            lobby,
            owner,
            profile,
            name=body.name,
            seat=body.seat,
            watch=body.watch,
            contribution=body.contribution,
        )
    except InviteError as exc:
        count_rate(request, "join", profile)
        raise HTTPException(404, str(exc)) from None
    except JoinRefused as exc:
        raise HTTPException(exc.status, str(exc)) from None
    except CardtableError as exc:
        raise HTTPException(400, str(exc)) from None
    count_rate(request, "join", profile)
    return Joined(table_id=owner.table_id, seat=seat, role=role)  # type: ignore[arg-type]


@router.get("/lobby", responses=REFUSALS)
async def lobby_tables(profile: CurrentProfile, lobby: LobbyDep) -> list[dict[str, Any]]:
    """Public people's tables: those waiting for people (with a seat free), and those playing
    that let people watch; the most recently changed first."""
    return await public_tables(lobby)
