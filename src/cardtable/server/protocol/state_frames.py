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

from collections.abc import Iterable, Mapping
from typing import Any, Final

from pydantic import JsonValue

from cardtable.server.protocol.messages import JsonObject, PatchMessage, RoomJson, StateMessage

PATCH_QUERY: Final = "patches"
"""The websocket URL's query parameter by which a page asks for patches (``?patches=1``)."""
UNSYNCED: Final = -1
"""A connection that takes patches but has not been sent a state by a broadcast yet."""


def state_patch(
    old: Mapping[str, Any],
    new: Mapping[str, Any],
    seen: ViewChanges | None = None,
    publics: tuple[Public | None, Public | None] = (None, None),
) -> PatchMessage | None:
    """The patch from the state message ``old`` to ``new`` (both for the same seat), or
    ``None`` when the two do not have the same fields (then the whole state is sent);
    ``publics``: the :data:`Public` parts the two messages' views were made of, if known, and
    ``seen`` the changes between public parts one broadcast worked out already.

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
            was_public, now_public = publics
            names: Iterable[str]
            public_changes: Mapping[str, Change]
            if seen is not None and was_public is not None and now_public is not None:
                # Only the seat's own entries and those the public part changed can differ
                # (and the views have their public parts' keys).
                between = seen.between(was_public, now_public)
                if between is None:
                    return None
                names, public_changes = between
            elif before.keys() != value.keys():
                return None
            else:
                names, public_changes = value, {}
            for name in names:
                change = public_changes.get(name)
                if change is None:
                    item, was = value[name], before[name]
                    if item is was:
                        continue
                    change = _view_change(was, item)
                kind, part = change
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


Public = tuple[Mapping[str, Any], frozenset[str]]
"""A view's public part and its own entries' keys: the view is the public part with the
seat's own entries put in their places, every other value the very same object (see
:class:`~cardtable.server.table.seat_view.SharedParts`)."""


class ViewChanges:
    """The changes between two views' public parts, worked out once per broadcast for every
    seat's patch (each value kept alive with its changes, so that its id names it meanwhile):
    a seat whose last view and new view were made of these public parts differs in its own
    entries and in these alone. For one broadcast only (views are never changed once sent)."""

    __slots__ = ("_between",)

    def __init__(self) -> None:
        self._between: dict[
            tuple[int, int], tuple[Public, Public, tuple[list[str], dict[str, Change]] | None]
        ] = {}

    def between(self, was: Public, now: Public) -> tuple[list[str], dict[str, Change]] | None:
        """The view keys to look at, in the view's order (the own keys and the public ones
        that changed), and the public ones' changes; ``None`` when the two do not have the
        same keys (then no patch leads from one to the other)."""
        key = (id(was), id(now))
        known = self._between.get(key)
        if known is not None and known[0] is was and known[1] is now:
            return known[2]
        (before, own), (after, own_now) = was, now
        if before.keys() != after.keys():
            self._between[key] = (was, now, None)
            return None
        names: list[str] = []
        changes: dict[str, Change] = {}
        for name, item in after.items():
            if name in own or name in own_now:
                names.append(name)
                continue
            previous = before[name]
            if item is previous:
                continue
            change = _view_change(previous, item)
            if change[0] != _SAME:
                names.append(name)
                changes[name] = change
        self._between[key] = (was, now, (names, changes))
        return names, changes


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

    __slots__ = ("_last", "_publics", "_sent")

    def __init__(self) -> None:
        self._last: dict[int, StateMessage] = {}
        self._publics: dict[int, Public | None] = {}
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

    def state_sent(
        self, seat: int, message: StateMessage, public: Public | None = None
    ) -> tuple[StateMessage | None, Public | None]:
        """Note the state ``message`` broadcast to ``seat`` (never to be changed), and the
        public part its view was made of if known; the state broadcast to the seat before it,
        if any, and its view's public part if known."""
        previous = self._last.get(seat), self._publics.get(seat)
        self._last[seat] = message
        self._publics[seat] = public
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
        self._publics.clear()
        for connection in self._sent:
            self._sent[connection] = UNSYNCED
