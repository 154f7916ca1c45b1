"""Who may talk to the app: the Origin check for websockets and state-changing requests, and
the headers every answer carries (Content-Security-Policy, no framing, no sniffing).

A browser names the page that makes a request in ``Origin``; a page of another site (or of
another port of the same host) must not be able to play, read a hand or change a profile with
the player's cookie. So a websocket or a POST/PUT/PATCH/DELETE whose ``Origin`` is neither the
server's own origin nor one of the settings' ``allowed_origins`` is refused, and a POST, PUT or
PATCH must be ``application/json`` (which no HTML form can send, and which a page of another
origin can only send after a CORS preflight that this app never answers). Requests without
``Origin`` come from programs, not pages, and are let through.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

STATE_CHANGING: Final = frozenset({"POST", "PUT", "PATCH", "DELETE"})
WITH_BODY: Final = frozenset({"POST", "PUT", "PATCH"})
DEFAULT_PORTS: Final = {"http": 80, "https": 443, "ws": 80, "wss": 443}

# Scripts only from the app's own files; styles too, plus style attributes, which the trusted
# How-to-play HTML and the card drawings may carry. No plugin, no <base>, no framing.
CONTENT_SECURITY_POLICY: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS: Final = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
)


def own_origin(scope: Scope) -> str | None:
    """The origin the request was sent to (scheme, host and port, as the client named it).

    >>> own_origin({"type": "http", "scheme": "http", "headers": [(b"host", b"127.0.0.1:8000")]})
    'http://127.0.0.1:8000'
    """
    host = Headers(scope=scope).get("host")
    if not host:
        return None
    scheme = str(scope.get("scheme", "http"))
    scheme = {"ws": "http", "wss": "https"}.get(scheme, scheme)
    return normalise_origin(f"{scheme}://{host}")


def normalise_origin(origin: str) -> str:
    """An origin in lower case without its scheme's default port.

    >>> normalise_origin("HTTPS://Cards.Example.org:443")
    'https://cards.example.org'
    """
    scheme, _, rest = origin.strip().lower().rstrip("/").partition("://")
    if not rest.endswith("]"):  # "[::1]" alone has no port; "[::1]:8000" has one
        host, colon, port = rest.rpartition(":")
        if colon and port.isdigit() and int(port) == DEFAULT_PORTS.get(scheme):
            rest = host
    return f"{scheme}://{rest}"


def origin_refusal(scope: Scope, allowed: Iterable[str]) -> str | None:
    """Why a request's ``Origin`` is refused, or ``None`` when it may go on."""
    origin = Headers(scope=scope).get("origin")
    if origin is None:
        return None
    permitted = {normalise_origin(entry) for entry in allowed}
    mine = own_origin(scope)
    if mine is not None:
        permitted.add(mine)
    if origin.lower() == "null" or normalise_origin(origin) not in permitted:
        shown = origin[:80]
        return f"requests from the origin {shown!r} are not allowed: use the app's own page"
    return None


def is_json(headers: Mapping[str, str]) -> bool:
    """Whether a request's Content-Type is JSON (``application/json`` or ``+json``)."""
    value = headers.get("content-type", "").split(";", 1)[0].strip().lower()
    return value == "application/json" or (
        value.startswith("application/") and value.endswith("+json")
    )


class SecurityHeaders:
    """ASGI middleware: add the security headers to every HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _value in message.get("headers", [])}
                extra = [(n, v) for n, v in SECURITY_HEADERS if n not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, send_with_headers)
