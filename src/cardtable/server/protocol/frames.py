"""The socket's edge that a socket served here and one served through the relay
(:mod:`cardtable.server.cluster.proxy`) share: the close codes, a refusal (one error message,
then the close), a received frame's text within the size limit, and whether an error raised
writing to a socket only says that its page went away.
"""

from __future__ import annotations

from fastapi import WebSocket, WebSocketDisconnect
from starlette.types import Message
from starlette.websockets import WebSocketState

from cardtable.server.protocol.messages import ErrorCode, dumps, error_message

CLOSE_BAD_ORIGIN = 1008
CLOSE_TOO_LARGE = 1009
CLOSE_NO_PROFILE = 4401
CLOSE_NOT_SEATED = 4403
CLOSE_NO_TABLE = 4404
CLOSE_TRY_AGAIN = 1013
MOVED = "this table moved to another server process: connect again"


def went_away(websocket: WebSocket, error: BaseException) -> bool:
    """Whether ``error``, raised writing to ``websocket``, only says that its page went away
    (the connection was lost under the write, or the socket was closed already): a normal end
    of a socket, not a failure."""
    if isinstance(error, WebSocketDisconnect):
        return True
    return isinstance(error, RuntimeError) and WebSocketState.DISCONNECTED in (
        websocket.application_state,
        websocket.client_state,
    )


async def refuse(websocket: WebSocket, code: int, error: ErrorCode, message: str) -> None:
    """Send one error message and close the socket with ``code``."""
    await websocket.send_text(dumps(error_message(error, message)))
    await websocket.close(code=code, reason=message[:120])


def frame_text(frame: Message, max_frame: int) -> str | bytes | None:
    """A received frame's text (or bytes); ``None`` when it is larger than ``max_frame``."""
    raw = frame.get("text")
    if raw is None:
        raw = frame.get("bytes") or b""
    size = len(raw.encode("utf-8", "surrogatepass")) if isinstance(raw, str) else len(raw)
    return None if size > max_frame else raw
