"""Lean state frames (docs/protocol.md, ``patch``): a page connected with ``?patches=1`` gets,
after its first whole state, patches that lead to exactly the whole states a page without
them gets; they are a fraction of the bytes; a page out of step connects again and gets a
whole state; spectators too."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from cardtable.server.protocol.state_frames import apply_patch, state_patch

from .conftest import receive
from .online import friend, join, shared_table

ENDING = ("drop", "declare", "go", "four", "propose", "accept", "reject")


class Page:
    """One socket, read as the page's socket reads it: patches merged, rooms kept."""

    def __init__(self, ws: WebSocketTestSession) -> None:
        self.ws = ws
        self.state: dict[str, Any] | None = None
        self.states: dict[int, dict[str, Any]] = {}
        self.kinds: list[str] = []
        self.bytes = {"state": 0, "patch": 0}

    def read_to(self, version: int) -> dict[str, Any]:
        """Read until the page holds a state at ``version`` or later; that state."""
        while self.state is None or self.state["version"] < version:
            message = receive(self.ws)
            kind = message["type"]
            self.kinds.append(kind)
            if kind in self.bytes:
                self.bytes[kind] += len(json.dumps(message, separators=(",", ":")))
            if kind == "patch":
                assert self.state is not None
                message = apply_patch(self.state, message)
            elif kind == "room" and self.state is not None:
                self.state = {**self.state, "room": message["room"]}
            if message["type"] == "state":
                self.state = message
                self.states[message["version"]] = message
        return self.state


@pytest.mark.parametrize(
    ("game", "rules"),
    [("declaration-rummy", {"players": 3}), ("indian-rummy", {"players": 3})],
)
def test_patches_lead_to_the_whole_states_for_seats_and_spectators(
    client: TestClient, game: str, rules: dict[str, Any]
) -> None:
    seats = [{"kind": "human"}] * 3
    table = shared_table(client, game, seats, rules=rules)
    table_id, token = table["table_id"], table["invite"]["token"]
    bob, cy, dee = friend(client), friend(client), friend(client)
    join(bob, token, "Bob")
    join(cy, token, "Cy")
    join(dee, token, "Dee", watch=True)
    url = f"/ws/tables/{table_id}"
    with (
        client.websocket_connect(url) as ann_whole,
        client.websocket_connect(url + "?patches=1") as ann_lean,
        bob.websocket_connect(url + "?patches=1") as bob_lean,
        cy.websocket_connect(url + "?patches=1") as cy_lean,
        dee.websocket_connect(url) as dee_whole,
        dee.websocket_connect(url + "?patches=1") as dee_lean,
    ):
        pages = {
            name: Page(ws)
            for name, ws in (
                ("ann_whole", ann_whole),
                ("ann_lean", ann_lean),
                ("bob", bob_lean),
                ("cy", cy_lean),
                ("dee_whole", dee_whole),
                ("dee_lean", dee_lean),
            )
        }
        ann_whole.send_json({"type": "start"})
        by_seat = {0: pages["ann_lean"], 1: pages["bob"], 2: pages["cy"]}
        rng = random.Random(3)
        version = 0
        for _ in range(45):
            states = {name: page.read_to(version) for name, page in pages.items()}
            state = states["ann_whole"]
            if state["result"] is not None:
                break
            mover = by_seat.get(state["to_move"])
            if mover is None:
                break
            legal = [a for a in mover.read_to(version)["legal"] if a.split(" ")[0] not in ENDING]
            if not legal:
                break
            mover.ws.send_json({"type": "action", "version": version, "action": rng.choice(legal)})
            version += 1
        for page in pages.values():
            page.read_to(version)
    assert version >= 30
    lean, whole = pages["ann_lean"], pages["ann_whole"]
    assert "patch" in lean.kinds and "patch" not in whole.kinds
    assert "patch" in pages["dee_lean"].kinds and "patch" not in pages["dee_whole"].kinds
    compared = 0
    for number, state in whole.states.items():
        if number in lean.states:
            assert lean.states[number] == state, number
            compared += 1
    for number, state in pages["dee_whole"].states.items():
        if number in pages["dee_lean"].states:
            assert pages["dee_lean"].states[number] == state, number
            compared += 1
    assert compared >= 2 * version
    # Every seat's lean frames are at most a third of the whole ones, byte for byte.
    assert sum(lean.bytes.values()) * 3 < sum(whole.bytes.values())


def test_a_page_out_of_step_gets_a_whole_state_on_connecting_again(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    table = shared_table(client, "indian-rummy", seats, rules={"players": 2})
    table_id, token = table["table_id"], table["invite"]["token"]
    bob = friend(client)
    join(bob, token, "Bob")
    url = f"/ws/tables/{table_id}?patches=1"
    with client.websocket_connect(url) as ann, bob.websocket_connect(url) as bob_ws:
        ann.send_json({"type": "start"})
        page, bob_page = Page(ann), Page(bob_ws)
        state = page.read_to(0)
        bob_page.read_to(0)
        mover, mover_page = (ann, page) if state["to_move"] == 0 else (bob_ws, bob_page)
        legal = [a for a in mover_page.read_to(0)["legal"] if a.split(" ")[0] not in ENDING]
        mover.send_json({"type": "action", "version": 0, "action": legal[0]})
        after = page.read_to(1)
        assert page.kinds.count("patch") >= 1
        # A page that lost that patch holds version 0: the next patch does not apply to it.
        with pytest.raises(ValueError, match="cannot apply"):
            apply_patch(
                page.states[0],
                {"type": "patch", "base": 1, "version": 2, "set": {}, "view": {}, "append": {}},
            )
    with client.websocket_connect(url) as again:
        first = receive(again)
        assert first["type"] == "state" and first["version"] == 1
        assert first["view"] == after["view"] and first["legal"] == after["legal"]


def test_a_patch_lists_only_what_changed_and_appends_grown_lists() -> None:
    old: dict[str, Any] = {
        "type": "state",
        "version": 7,
        "legal": ["draw stock"],
        "to_move": 1,
        "view": {"hand": ["2H"], "events": [{"seat": 0}], "rules": {"deals": 1}},
    }
    new: dict[str, Any] = {
        "type": "state",
        "version": 8,
        "legal": ["draw stock"],
        "to_move": 0,
        "view": {"hand": ["3H"], "events": [{"seat": 0}, {"seat": 1}], "rules": {"deals": 1}},
    }
    patch = state_patch(old, new)
    assert patch == {
        "type": "patch",
        "base": 7,
        "version": 8,
        "set": {"to_move": 0},
        "view": {"hand": ["3H"]},
        "append": {"events": [{"seat": 1}]},
    }
    assert apply_patch(old, patch) == new
    # A list that shrank or changed in its middle is replaced whole.
    shrunk = {**new, "view": {**new["view"], "events": [{"seat": 2}]}}
    again = state_patch(new, shrunk)
    assert again is not None and again["view"] == {"events": [{"seat": 2}]}
    assert apply_patch(new, again) == shrunk
    # Messages of other shapes get no patch: the whole state goes.
    assert state_patch(old, {**new, "room": None}) is None
