"""Lean state frames: what changed since the state a page has, instead of the whole state.

A page that connects with ``?patches=1`` is sent, after its first whole state, ``patch``
messages: the state message's fields that changed since the state it was sent last (``set``),
the view's fields that changed (``view``), and for view lists that only grew, the items added
at their end (``append``: the deal's public events, Indian Rummy's pile). ``base`` names the
version of the state the patch applies to; a page whose state is at another version (a frame
lost on the way) connects again and is sent the whole state. Pages that do not ask, and
pages relayed from another process of a cluster, get whole states as before.

:class:`StateFrames` is the table owner's part of it: per seat the last state message
broadcast (and the room sent since), per connection that takes patches the version of the
last state it was sent. A patch is worked out once per seat and broadcast, and encoded once
however many connections take it (as a whole state is).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from pydantic import JsonValue

from cardtable.server.protocol.messages import JsonObject, PatchMessage, RoomJson, StateMessage

PATCH_QUERY: Final = "patches"
"""The websocket URL's query parameter by which a page asks for patches (``?patches=1``)."""
UNSYNCED: Final = -1
"""A connection that takes patches but has not been sent a state by a broadcast yet."""


def state_patch(
    old: Mapping[str, Any], new: Mapping[str, Any], seen: ViewChanges | None = None
) -> PatchMessage | None:
    """The patch from the state message ``old`` to ``new`` (both for the same seat), or
    ``None`` when the two do not have the same fields (then the whole state is sent);
    ``seen``: the view changes already worked out by one broadcast (:class:`ViewChanges`).

    >>> old = {"type": "state", "version": 3, "legal": ["a"], "to_move": 0,
    ...        "view": {"turn": 0, "events": [1, 2], "rules": {"x": 1}}}
    >>> new = {"type": "state", "version": 4, "legal": [], "to_move": 0,
    ...        "view": {"turn": 1, "events": [1, 2, 3], "rules": {"x": 1}}}
    >>> state_patch(old, new)
    {'type': 'patch', 'base': 3, 'version': 4, 'set': {'legal': []}, 'view': {'turn': 1}, \
'append': {'events': [3]}}
    """
    if old.keys() != new.keys():
        return None
    changed: JsonObject = {}
    view: JsonObject = {}
    append: dict[str, list[JsonValue]] = {}
    for key, value in new.items():
        if key == "type" or key == "version":
            continue
        before = old[key]
        if key == "view" and isinstance(value, dict) and isinstance(before, dict):
            if before.keys() != value.keys():
                return None
            change = _view_change if seen is None else seen.change
            for name, item in value.items():
                was = before[name]
                if item is was:
                    continue
                kind, part = change(was, item)
                if kind is _APPEND:
                    append[name] = part
                elif kind is _SET:
                    view[name] = part
        elif value is not before and value != before:
            changed[key] = value
    return PatchMessage(
        type="patch",
        base=old["version"],
        version=new["version"],
        set=changed,
        view=view,
        append=append,
    )


_SAME: Final = 0
_APPEND: Final = 1
_SET: Final = 2
Change = tuple[int, Any]
"""How a view entry changed: ``(_SAME, None)``, ``(_APPEND, the items added at its end)`` or
``(_SET, its new value)``."""


def _view_change(was: Any, item: Any) -> Change:
    if item == was:
        return _SAME, None
    if (
        isinstance(item, list)
        and isinstance(was, list)
        and len(item) > len(was)
        and item[: len(was)] == was
    ):
        return _APPEND, item[len(was) :]
    return _SET, item


class ViewChanges:
    """The view entries' changes one broadcast worked out, by the two values compared: the
    seats' views of one state share most of their values (built once for all of them, as were
    the views they were sent before), so each change is worked out once, not once per seat.
    Each value is kept alive with its change, so that its id names it for as long as the
    change is remembered. For one broadcast only (the values are never changed meanwhile)."""

    __slots__ = ("_changes",)

    def __init__(self) -> None:
        self._changes: dict[tuple[int, int], tuple[Any, Any, Change]] = {}

    def change(self, was: Any, item: Any) -> Change:
        """How the view entry ``was`` became ``item`` (:func:`state_patch`)."""
        key = (id(was), id(item))
        known = self._changes.get(key)
        if known is not None and known[0] is was and known[1] is item:
            return known[2]
        change = _view_change(was, item)
        self._changes[key] = (was, item, change)
        return change


def apply_patch(state: Mapping[str, Any], patch: Mapping[str, Any]) -> dict[str, Any]:
    """The state message a patch leads to from ``state`` (what the page does; the tests and
    the benchmarks' clients use this). Raises ``ValueError`` when ``state`` is not at the
    patch's base version.

    >>> state = {"type": "state", "version": 3, "legal": ["a"], "view": {"turn": 0, "e": [1]}}
    >>> apply_patch(state, {"type": "patch", "base": 3, "version": 4, "set": {"legal": []},
    ...                     "view": {"turn": 1}, "append": {"e": [2]}})
    {'type': 'state', 'version': 4, 'legal': [], 'view': {'turn': 1, 'e': [1, 2]}}
    """
    if state.get("version") != patch["base"]:
        raise ValueError(
            f"a patch for version {patch['base']} cannot apply to version {state.get('version')}"
        )
    view = dict(state["view"])
    view.update(patch["view"])
    for name, items in patch["append"].items():
        view[name] = [*view[name], *items]
    merged = dict(state)
    merged.update(patch["set"])
    merged["version"] = patch["version"]
    merged["view"] = view
    return merged


class StateFrames:
    """Per seat, the last state message broadcast to it; per connection taking patches, the
    version of the last state it was sent by a broadcast (see the module docstring)."""

    __slots__ = ("_last", "_sent")

    def __init__(self) -> None:
        self._last: dict[int, StateMessage] = {}
        self._sent: dict[Any, int] = {}

    def take_patches(self, connection: Any) -> None:
        """``connection`` asked for patches: its next broadcast state is whole, then patches."""
        self._sent[connection] = UNSYNCED

    def takes_patches(self, connection: Any) -> bool:
        """Whether ``connection`` asked for patches."""
        return connection in self._sent

    def unsync(self, connection: Any) -> None:
        """``connection`` was sent something outside a broadcast (a whole state, a room): its
        next broadcast state is whole again."""
        if connection in self._sent:
            self._sent[connection] = UNSYNCED

    def forget(self, connection: Any) -> None:
        """``connection`` is gone."""
        self._sent.pop(connection, None)

    def state_sent(self, seat: int, message: StateMessage) -> StateMessage | None:
        """Note the state ``message`` broadcast to ``seat`` (never to be changed); the state
        broadcast to the seat before it, if any."""
        previous = self._last.get(seat)
        self._last[seat] = message
        return previous

    def room_sent(self, seat: int, room: RoomJson) -> None:
        """Note the room broadcast to ``seat`` alone: the page's state carries it now."""
        previous = self._last.get(seat)
        if previous is not None and "room" in previous:
            updated = previous.copy()
            updated["room"] = room
            self._last[seat] = updated

    def in_step(self, connection: Any, base: int) -> bool:
        """Whether ``connection`` takes patches and was last sent the state at ``base``."""
        return self._sent.get(connection, UNSYNCED) == base

    def sent(self, connection: Any, version: int) -> None:
        """``connection`` (taking patches) was sent the state at ``version``."""
        if connection in self._sent:
            self._sent[connection] = version

    def reset(self) -> None:
        """Forget every seat's last state (the table was loaded again)."""
        self._last.clear()
        for connection in self._sent:
            self._sent[connection] = UNSYNCED
