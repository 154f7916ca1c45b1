"""The profile cookie: every browser gets a profile on its first request, named by a random
token in the HttpOnly cookie ``cardtable_profile`` (only the token's hash is stored)."""

from __future__ import annotations

import asyncio
from typing import Final

from fastapi import Request, Response, WebSocket

from cardtable import storage
from cardtable.server.context import context_of
from cardtable.server.options import DEFAULT_OPTIONS

COOKIE_NAME: Final = "cardtable_profile"
COOKIE_MAX_AGE: Final = 10 * 365 * 24 * 3600


async def current_profile(request: Request, response: Response) -> storage.Profile:
    """The caller's profile (a FastAPI dependency); creates one and sets the cookie if needed."""
    profile, token = await profile_for_token(request, request.cookies.get(COOKIE_NAME))
    if token is not None:
        set_profile_cookie(response, token)
    return profile


async def profile_for_token(
    request: Request, token: str | None
) -> tuple[storage.Profile, str | None]:
    """The profile a token names, or a new one with its token (``None`` when it existed)."""
    context = context_of(request.app)
    profile = None
    if token:
        profile = await asyncio.to_thread(storage.profile_by_token, context.db, token)
    new_token = None
    if profile is None:
        profile, new_token = await asyncio.to_thread(
            storage.create_profile, context.db, options=dict(DEFAULT_OPTIONS)
        )
    assert profile is not None
    context.lobby.remember_options(profile.id, {**DEFAULT_OPTIONS, **profile.options})
    return profile, new_token


def set_profile_cookie(response: Response, token: str) -> None:
    """Attach the profile cookie to a response."""
    response.set_cookie(
        COOKIE_NAME,
        token,
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        path="/",
    )


async def websocket_profile(websocket: WebSocket) -> storage.Profile | None:
    """The profile of a websocket's cookie, or ``None`` (websockets never create profiles)."""
    token = websocket.cookies.get(COOKIE_NAME)
    if not token:
        return None
    context = context_of(websocket.app)
    profile = await asyncio.to_thread(storage.profile_by_token, context.db, token)
    if profile is not None:
        context.lobby.remember_options(profile.id, {**DEFAULT_OPTIONS, **profile.options})
    return profile
