"""HTTP routes of people's tables: looking at an invite, joining with it, and the lobby of
public tables.

Looking at an invite and joining are answered by the table's owner, whichever process of a
cluster received them (:mod:`cardtable.server.hosting.owner_calls`). The invite token is read from
the request body only (the page takes it from the link's
fragment, which browsers never send): no path or query the server logs ever holds it. Opening
and joining invites count against the ``join`` rate limit, per profile and per address.
"""

from __future__ import annotations

from fastapi import APIRouter, Request

from cardtable.server.cluster.relay import Relay
from cardtable.server.hosting.owner_calls import CallRefused, Refusal, at_owner
from cardtable.server.people.tables import public_tables
from cardtable.server.routes.boundary import CheckedRoute
from cardtable.server.routes.dependencies import CurrentProfile, LobbyDep, check_rate, count_rate
from cardtable.server.routes.models import (
    BAD_INPUT,
    NO_PROFILE,
    InvitePeek,
    InviteRequest,
    Joined,
    JoinRequest,
    PublicTable,
    refusals,
)

router = APIRouter(prefix="/api", route_class=CheckedRoute)

REFUSALS = refusals(
    BAD_INPUT,
    NO_PROFILE,
    (403, "Not allowed: removed by the host, or no spectators at this table."),
    (404, "The invite link opens no table."),
    (409, "The seat or the name is taken, or the game has started."),
    (429, "Too many invites opened: the detail says when to try again."),
    (503, "The table's server process cannot be reached: try again in a moment."),
)


# A seat is sent with the fields that apply to its kind only (a bot's level, a person's name).
@router.post("/invites/peek", responses=REFUSALS, response_model_exclude_unset=True)
async def peek_invite(
    body: InviteRequest, request: Request, profile: CurrentProfile, lobby: LobbyDep
) -> InvitePeek:
    """The table an invite opens, as seen before joining: game, rules, host, settings, seats
    (open, a person's name, or a computer player), and the caller's place if it has one."""
    check_rate(request, "join", profile)
    try:
        seen = await at_owner(
            lobby, _relay(request), "peek", {"token": body.token, "profile": profile.id}
        )
    finally:  # guessing tokens costs as much as joining
        count_rate(request, "join", profile)
    return InvitePeek.model_validate(seen)


@router.post("/invites/join", responses=REFUSALS)
async def join_invite(
    body: JoinRequest, request: Request, profile: CurrentProfile, lobby: LobbyDep
) -> Joined:
    """Join the table an invite opens: sit at ``seat`` (the first free seat when left out) or
    watch; a profile already at the table gets its place back (another device, say)."""
    check_rate(request, "join", profile)
    args = body.model_dump() | {"profile": profile.id}
    try:
        joined = await at_owner(lobby, _relay(request), "join", args)
    except CallRefused as exc:
        if exc.reason is Refusal.NOT_FOUND:  # guessing tokens costs as much as joining
            count_rate(request, "join", profile)
        raise
    count_rate(request, "join", profile)
    return Joined.model_validate(joined)


def _relay(request: Request) -> Relay | None:
    """The cluster's relay (``None`` for a lone server)."""
    relay: Relay | None = getattr(request.app.state, "relay", None)
    return relay


@router.get("/lobby", responses=REFUSALS)
async def lobby_tables(profile: CurrentProfile, lobby: LobbyDep) -> list[PublicTable]:
    """Public people's tables: those waiting for people (with a seat free), and those that let
    people watch; the most recently changed first. A table whose host removed the caller is
    not listed to them."""
    return [
        PublicTable.model_validate(table) for table in await public_tables(lobby, viewer=profile.id)
    ]
