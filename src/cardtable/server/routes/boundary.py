"""The HTTP boundary: every request body read, checked and refused in one place, and every
error answered as ``{"detail": "one sentence naming the problem"}``.

:class:`CheckedRoute` runs before FastAPI reads a route's body: the Origin check for
state-changing requests (:mod:`cardtable.server.routes.security`), JSON only, the size limit, and a
strict reading of the JSON itself (no ``NaN``/``Infinity``, no numbers of more than
:data:`MAX_NUMBER_DIGITS` digits, no nesting deeper than :data:`MAX_DEPTH`, no text that is not
valid Unicode such as a lone surrogate). The pydantic models then check shapes and types, and
:func:`install_error_handlers` turns their errors, and anything unforeseen, into the sentence.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Final

from fastapi import FastAPI, HTTPException, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import APIRoute
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardtable.server.context import context_of
from cardtable.server.routes.openapi_refusals import allowed_methods
from cardtable.server.routes.security import STATE_CHANGING, WITH_BODY, is_json, origin_refusal

logger = logging.getLogger(__name__)

MAX_DEPTH: Final = 24
MAX_NUMBER_DIGITS: Final = 30
OFF_LOOP_BYTES: Final = 64 * 1024
"""Bodies bigger than this are checked in a worker thread."""


class BodyError(ValueError):
    """A request body that is not acceptable JSON; the message is the answer's sentence."""


def parse_json(body: bytes) -> Any:
    """A request body as JSON, read strictly, or :class:`BodyError` naming the problem.

    >>> parse_json(b'{"a": [1, 2.5, "x"]}')
    {'a': [1, 2.5, 'x']}
    >>> parse_json(b'[NaN]')
    Traceback (most recent call last):
    ...
    cardtable.server.routes.boundary.BodyError: NaN is not a number JSON allows
    >>> parse_json(b'"\\\\ud800"')
    Traceback (most recent call last):
    ...
    cardtable.server.routes.boundary.BodyError: the request body has text that is not valid \
Unicode (a lone surrogate)
    """
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        raise BodyError("the request body is not valid UTF-8 text") from None
    try:
        data = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_whole, parse_float=_decimal
        )
    except RecursionError:
        raise BodyError(f"the request body is nested more than {MAX_DEPTH} levels deep") from None
    except BodyError:
        raise
    except ValueError:
        raise BodyError("the request body is not valid JSON") from None
    _check_tree(data)
    return data


def _refuse_constant(name: str) -> Any:
    raise BodyError(f"{name} is not a number JSON allows")


def _whole(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise BodyError(f"numbers of more than {MAX_NUMBER_DIGITS} digits are not accepted")
    return int(digits)


def _decimal(text: str) -> float:
    if len(text) > 2 * MAX_NUMBER_DIGITS:
        raise BodyError(f"numbers of more than {MAX_NUMBER_DIGITS} digits are not accepted")
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise BodyError(f"the number {text[:20]} is too large")
    return value


def _check_tree(data: Any) -> None:
    """Depth and valid text, without recursion (a deep document must not exhaust the stack)."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        value, depth = stack.pop()
        if isinstance(value, str):
            _check_text(value)
            continue
        if not isinstance(value, dict | list):
            continue
        if depth >= MAX_DEPTH:
            raise BodyError(f"the request body is nested more than {MAX_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                _check_text(key)
                stack.append((item, depth + 1))
        else:
            stack.extend((item, depth + 1) for item in value)


def _check_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise BodyError(
            "the request body has text that is not valid Unicode (a lone surrogate)"
        ) from None


async def read_body(request: Request, limit: int) -> bytes:
    """The whole body, refused with 413 as soon as it passes ``limit`` bytes."""
    too_large = f"the request body is too large: the limit is {limit} bytes"
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > limit:
        raise HTTPException(413, too_large)
    body = bytearray()
    async for chunk in request.stream():
        body.extend(chunk)
        if len(body) > limit:
            raise HTTPException(413, too_large)
    return bytes(body)


class CheckedRoute(APIRoute):
    """A route whose request passes the boundary's checks before FastAPI reads it."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            await check_request(request)
            return await handler(request)

        return checked


async def check_request(request: Request) -> None:
    """Origin, content type, size and strict JSON of one request (``HTTPException`` if not)."""
    if request.method not in STATE_CHANGING:
        return
    settings = context_of(request.app).settings
    refusal = origin_refusal(request.scope, settings.allowed_origins)
    if refusal is not None:
        raise HTTPException(403, refusal)
    if request.method not in WITH_BODY:
        return
    body = await read_body(request, settings.max_body_bytes)
    # FastAPI reads the body again from this cache (the stream is spent).
    request._body = body
    if (body or "content-type" in request.headers) and not is_json(request.headers):
        raise HTTPException(415, "send the request body as JSON (Content-Type: application/json)")
    if body:
        try:
            if len(body) > OFF_LOOP_BYTES:
                # A big import takes a few hundred milliseconds to read: not on the event loop,
                # where every table's moves wait for it.
                await asyncio.to_thread(parse_json, body)
            else:
                parse_json(body)
        except BodyError as exc:
            raise HTTPException(400, str(exc)) from None


def sentence(errors: Sequence[Any]) -> str:
    """One sentence for pydantic's validation errors (the first one names the problem).

    >>> sentence([{"type": "bool_type", "loc": ("body", "options", "coach"), "msg": "x"}])
    'options.coach must be true or false'
    >>> sentence([{"type": "extra_forbidden", "loc": ("body", "seed"), "msg": "x"}])
    'unknown field seed'
    """
    if not errors:
        return "the request is not valid"
    error = errors[0]
    kind = str(error.get("type", ""))
    where = _location(error.get("loc", ()))
    context = error.get("ctx") or {}
    if kind == "json_invalid":
        return "the request body is not valid JSON"
    if kind in ("value_error", "assertion_error") and "error" in context:
        message = str(context["error"])
        parts = [part for part in error.get("loc", ()) if isinstance(part, str)]
        if parts and not message.startswith(parts[-1]):
            return f"{where}: {message}"
        return message
    if kind == "extra_forbidden":
        return f"unknown field {where}"
    if kind == "missing":
        return f"{where} is missing"
    templates = {
        "bool_type": "must be true or false",
        "int_type": "must be a whole number",
        "int_from_float": "must be a whole number",
        "int_parsing": "must be a whole number",
        "string_type": "must be text",
        "list_type": "must be a list",
        "dict_type": "must be a JSON object",
        "model_type": "must be a JSON object",
        "model_attributes_type": "must be a JSON object",
        "literal_error": "must be {expected}",
        "enum": "must be {expected}",
        "string_too_long": "must be at most {max_length} characters",
        "string_too_short": "must be at least {min_length} characters",
        "too_long": "must have at most {max_length} items",
        "too_short": "must have at least {min_length} items",
        "greater_than_equal": "must be at least {ge}",
        "less_than_equal": "must be at most {le}",
        "greater_than": "must be more than {gt}",
        "less_than": "must be less than {lt}",
        "string_pattern_mismatch": "is not in the expected form",
    }
    template = templates.get(kind)
    if template is None:
        return f"{where}: {error.get('msg', 'not valid')}"
    try:
        return f"{where} " + template.format(**context)
    except (KeyError, IndexError):
        return f"{where}: {error.get('msg', 'not valid')}"


def _location(loc: Sequence[Any]) -> str:
    parts = [part for part in loc if part not in ("body", "query", "path")]
    text = ""
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
        elif "[" in str(part) or "function-" in str(part):
            continue  # pydantic's names of union branches say nothing to a client
        else:
            text += f".{part}" if text else str(part)
    return text or "the request body"


def install_error_handlers(app: FastAPI) -> None:
    """Every refusal as ``{"detail": sentence}``; an unforeseen error as a JSON 500 too
    (:class:`UnforeseenErrors`)."""

    async def invalid(_request: Request, exc: Exception) -> Response:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": sentence(exc.errors())}, status_code=400)

    async def refused(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, StarletteHTTPException)
        detail = exc.detail if isinstance(exc.detail, str) else json.dumps(exc.detail)
        if exc.status_code == 404 and detail == "Not Found":
            detail = f"there is nothing at {request.url.path[:100]}"
        headers = dict(exc.headers or {})
        if exc.status_code == 405:
            # Every route at this path, not only the first one matched.
            headers["Allow"] = allowed_methods(request)
            if detail == "Method Not Allowed":
                detail = f"{request.method} is not accepted at {request.url.path[:100]}"
        return JSONResponse({"detail": detail}, status_code=exc.status_code, headers=headers)

    app.add_exception_handler(RequestValidationError, invalid)
    app.add_exception_handler(StarletteHTTPException, refused)
    # Not an exception handler for ``Exception``: Starlette re-raises the error after sending
    # such a handler's answer, and the HTTP server then closes the keep-alive connection.
    app.add_middleware(UnforeseenErrors)


class UnforeseenErrors:
    """Answers an error no route foresaw with a JSON 500, logged once with its traceback, and
    ends the request there, so the client's keep-alive connection stays open for its next
    request (an error after the answer began still ends the connection: the answer is cut)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def sending(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, receive, sending)
        except Exception as exc:
            if started:
                raise
            logger.error("%s %s failed", scope.get("method"), scope.get("path"), exc_info=exc)
            answer = JSONResponse(
                {"detail": "the server could not handle this request; please try again"},
                status_code=500,
            )
            await answer(scope, receive, send)
