"""The routes' typed dependencies: the app's context, lobby and relay, the caller's profile, and
a table named in the path (or 404), each declared once."""

from __future__ import annotations

from typing import Annotated, Final

from fastapi import Depends, HTTPException, Path, Request

from cardtable import storage
from cardtable.server.cluster.relay import Relay
from cardtable.server.context import AppContext, context_of
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.rate_limits import Action
from cardtable.server.routes.identity import client_address, current_profile
from cardtable.server.table.owner import TableOwner

MAX_TABLE_ID_LENGTH: Final = 64


def app_context(request: Request) -> AppContext:
    """The app's database, lobby, settings and limits."""
    return context_of(request.app)


def app_lobby(request: Request) -> Lobby:
    """The app's tables."""
    return context_of(request.app).lobby


def app_relay(request: Request) -> Relay:
    """The app's relay, for the requests a table's owner answers (owner calls)."""
    return context_of(request.app).relay


Context = Annotated[AppContext, Depends(app_context)]
LobbyDep = Annotated[Lobby, Depends(app_lobby)]
RelayDep = Annotated[Relay, Depends(app_relay)]
CurrentProfile = Annotated[storage.Profile, Depends(current_profile)]
TableId = Annotated[str, Path(min_length=1, max_length=MAX_TABLE_ID_LENGTH)]


async def table_or_404(table_id: TableId, lobby: LobbyDep) -> TableOwner:
    """The table named in the path, loaded if needed (a copy to read, when another process of
    a cluster owns it); 404 when there is none."""
    owner = await lobby.read(table_id)
    if owner is None:
        raise HTTPException(404, f"there is no table {table_id!r}")
    return owner


Table = Annotated[TableOwner, Depends(table_or_404)]


def _rate_keys(request: Request, profile: storage.Profile | None) -> list[str]:
    keys = [f"address:{client_address(request)}"]
    if profile is not None:
        keys.append(f"profile:{profile.id}")
    return keys


def check_rate(request: Request, action: Action, profile: storage.Profile | None) -> None:
    """429 when one more ``action`` by the caller's address (or profile) would be over a
    limit; nothing is counted (:func:`count_rate` does, once the action was done)."""
    refusal = context_of(request.app).limits.refusal(action, *_rate_keys(request, profile))
    if refusal is not None:
        raise HTTPException(429, refusal.message, {"Retry-After": str(refusal.retry_after)})


def count_rate(request: Request, action: Action, profile: storage.Profile | None) -> None:
    """Count one ``action`` done by the caller's address and profile."""
    context_of(request.app).limits.count(action, *_rate_keys(request, profile))
