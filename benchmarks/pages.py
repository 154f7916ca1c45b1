"""How the benchmarks' simulated pages follow a table's states, as the browser's page does.

A page asks for patches (``?patches=1``): after one whole state the server sends ``patch``
messages, which the page merges into the state it holds, and ``room`` messages, which replace
that state's room. :class:`StateFollower` does that merge for one socket; ``whole_states``
(the scripts' ``--whole-states``) makes the URL ask for whole states after every move instead.
"""

from __future__ import annotations

from typing import Any

from cardtable.server.protocol.state_frames import PATCH_QUERY, apply_patch


def table_socket_path(table_id: str, *, whole_states: bool = False) -> str:
    """The websocket path of a table as the page opens it (asking for patches, unless
    ``whole_states``)."""
    path = f"/ws/tables/{table_id}"
    return path if whole_states else f"{path}?{PATCH_QUERY}=1"


class StateFollower:
    """The state one socket's page holds: :meth:`follow` each message received."""

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None

    def follow(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """The whole state ``message`` leads to (a state, or a patch merged into the state
        held), or ``None`` for any other message (a room message updates the held state's
        room). ``ConnectionError`` for a patch out of step (the page would connect again)."""
        kind = message["type"]
        if kind == "state":
            self.state = message
            return message
        if kind == "patch":
            if self.state is None or self.state.get("version") != message["base"]:
                raise ConnectionError("a patch out of step with the state held")
            self.state = apply_patch(self.state, message)
            return self.state
        if kind == "room" and self.state is not None:
            self.state = {**self.state, "room": message["room"]}
        return None
