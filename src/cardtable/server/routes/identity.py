"""The profile cookie: a browser gets a profile when it loads the page (or asks for one with
``POST /api/profile``), named by a random token in the HttpOnly cookie ``cardtable_profile``
(only the token's hash is stored). No other request creates a profile: an API call without a
known cookie is answered 401, and a websocket without one is closed.

The cookie's lifetime and ``Secure`` flag come from the settings; new profiles are counted
against the client address's rate limit.
"""

from __future__ import annotations

import asyncio
from typing import Final

from fastapi import HTTPException, Request, Response, WebSocket

from cardtable import storage
from cardtable.server.context import AppContext, context_of
from cardtable.server.people.player_options import DEFAULT_OPTIONS

COOKIE_NAME: Final = "cardtable_profile"
MAX_TOKEN_LENGTH: Final = 100
NO_PROFILE: Final = "no profile: load the page first (or create one with POST /api/profile)"


async def current_profile(request: Request) -> storage.Profile:
    """The caller's profile (a FastAPI dependency); 401 without a known cookie."""
    profile = await _known_profile(context_of(request.app), request.cookies.get(COOKIE_NAME))
    if profile is None:
        raise HTTPException(401, NO_PROFILE)
    return profile


async def profile_for_page(request: Request, response: Response) -> tuple[storage.Profile, bool]:
    """The caller's profile, created (with its cookie set on ``response``) when the caller has
    none; whether it was created. 429 when the address created too many."""
    context = context_of(request.app)
    profile = await _known_profile(context, request.cookies.get(COOKIE_NAME))
    if profile is not None:
        return profile, False
    refusal = context.limits.hit("profile", f"address:{client_address(request)}")
    if refusal is not None:
        raise HTTPException(429, refusal.message, {"Retry-After": str(refusal.retry_after)})
    created, token = await asyncio.to_thread(
        storage.create_profile, context.db, options=dict(DEFAULT_OPTIONS)
    )
    context.lobby.remember_options(created.id, {**DEFAULT_OPTIONS, **created.options})
    set_profile_cookie(request, response, token)
    return created, True


async def _known_profile(context: AppContext, token: str | None) -> storage.Profile | None:
    if not token or len(token) > MAX_TOKEN_LENGTH:
        return None
    profile = await asyncio.to_thread(storage.profile_by_token, context.db, token)
    if profile is not None:
        context.lobby.remember_options(profile.id, {**DEFAULT_OPTIONS, **profile.options})
    return profile


def set_profile_cookie(request: Request, response: Response, token: str) -> None:
    """Attach the profile cookie to a response (lifetime and ``Secure`` from the settings:
    by default ``Secure`` when the request came over HTTPS)."""
    settings = context_of(request.app).settings
    secure = settings.cookie_secure
    if secure is None:
        secure = request.url.scheme == "https"
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=settings.cookie_max_age,
        httponly=True,
        secure=secure,
        samesite="lax",
        path="/",
    )


def client_address(connection: Request | WebSocket) -> str:
    """The client's address as the server sees it (``unknown`` when the server does not say)."""
    return connection.client.host if connection.client is not None else "unknown"


async def websocket_profile(websocket: WebSocket) -> storage.Profile | None:
    """The profile of a websocket's cookie, or ``None`` (websockets never create profiles)."""
    return await _known_profile(context_of(websocket.app), websocket.cookies.get(COOKIE_NAME))
