"""The ``groups`` message: a seat's own groups labelled by the server, cards not yet placed put
in a group, the solver's best arrangement beside them, and nothing about the table changed."""

from __future__ import annotations

from collections import Counter

import pytest
from fastapi.testclient import TestClient

from .conftest import new_table, owner_of, receive, receive_type, wait_for_turn

LABELS = {"pure sequence", "sequence", "set", "loose"}


def test_groups_label_the_seats_arrangement_and_place_the_rest(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy", seed=11)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        owner = owner_of(client, table_id)
        before = (owner.state, list(owner.log), owner.version)
        hand = state["view"]["hand"]
        # Two groups of the page's own and a card the hand does not hold (a stale page).
        mine = [hand[:3], hand[3:6], ["AS", "AS", "AS"]]
        ws.send_json({"type": "groups", "groups": mine, "seq": 4})
        answer = receive_type(ws, "groups")
        assert (answer["version"], answer["seq"]) == (state["version"], 4)
        placed = answer["placed"]
        # Every card of the hand is in exactly one group; the page's groups lead, in order.
        assert Counter(c for group in placed for c in group) == Counter(hand)
        assert placed[0] == hand[:3]
        assert [g["cards"] for g in answer["groups"]] == placed
        assert all(g["label"] in LABELS and g["points"] >= 0 for g in answer["groups"])
        assert answer["points"] == min(80, sum(g["points"] for g in answer["groups"]))
        best = answer["best"]
        assert Counter(c for group in best["partition"] for c in group) == Counter(hand)
        assert best["points"] <= answer["points"]
        assert answer["same_as_best"] is (
            Counter(tuple(sorted(g)) for g in placed)
            == Counter(tuple(sorted(g)) for g in best["partition"])
        )
        # Asking again with the best arrangement: the same as the best, and its points.
        ws.send_json({"type": "groups", "groups": best["partition"]})
        again = receive_type(ws, "groups")
        assert again["same_as_best"] and again["points"] == best["points"] and again["seq"] is None
        assert (owner.state, list(owner.log), owner.version) == before


def test_groups_with_a_put_down_count_the_thirteen_cards_shown(client: TestClient) -> None:
    table_id = new_table(client, "indian-rummy", seed=11)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        ws.send_json({"type": "action", "version": state["version"], "action": "draw stock"})
        state = wait_for_turn(ws)
        while state["view"]["phase"] != "discard":
            state = wait_for_turn(ws)
        hand = state["view"]["hand"]
        assert len(hand) == 14
        ws.send_json({"type": "groups", "groups": [hand], "put_down": hand[0]})
        answer = receive_type(ws, "groups")
        assert answer["put_down"] == hand[0]
        shown = Counter(c for g in answer["groups"] for c in g["cards"])
        assert shown == Counter(hand) - Counter([hand[0]])
        assert answer["best"]["put_down"] is None
        assert sum(map(len, answer["best"]["partition"])) == 13
        # Without a put-down, 14 cards: the best arrangement names the card it would put down.
        ws.send_json({"type": "groups", "groups": [hand]})
        full = receive_type(ws, "groups")
        ready = full["show_put_down"]
        if ready is not None:  # as grouped, the other 13 are a valid show
            rest = [list(g) for g in full["placed"]]
            next(g for g in rest if ready in g).remove(ready)
            ws.send_json({"type": "groups", "groups": [*rest, [ready]], "put_down": ready})
            assert receive_type(ws, "groups")["valid_show"]
        assert full["best"]["put_down"] in hand and full["best"]["partition"][-1] == [
            full["best"]["put_down"]
        ]


def test_declaration_rummy_groups_are_melds_or_loose(client: TestClient) -> None:
    table_id = new_table(client, "declaration-rummy", seed=5)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        hand = state["view"]["hand"]
        ws.send_json({"type": "groups", "groups": [hand[:2]]})
        answer = receive_type(ws, "groups")
        assert Counter(c for group in answer["placed"] for c in group) == Counter(hand)
        assert {g["label"] for g in answer["groups"]} <= {
            "group",
            "sequence",
            "count group",
            "loose",
        }
        assert answer["best"]["points"] <= answer["points"]


@pytest.mark.parametrize(
    ("send", "code", "words"),
    [
        ({"type": "groups", "groups": "5H 6H"}, "malformed", "list of lists"),
        ({"type": "groups", "groups": [["5H", 7]]}, "malformed", "a card is a label"),
        ({"type": "groups", "groups": [["5H", "XX"]]}, "malformed", "unknown card 'XX'"),
        ({"type": "groups", "groups": [["5H"]] * 21}, "malformed", "at most 20 groups"),
        ({"type": "groups", "groups": [], "put_down": "nope"}, "malformed", "unknown card"),
    ],
)
def test_bad_groups_are_refused_and_change_nothing(
    client: TestClient, send: dict[str, object], code: str, words: str
) -> None:
    table_id = new_table(client, "indian-rummy", seed=11)
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        state = wait_for_turn(ws)
        owner = owner_of(client, table_id)
        before = (owner.state, list(owner.log))
        ws.send_json(send)
        error = receive(ws)
        assert (error["type"], error["code"]) == ("error", code) and words in error["message"]
        assert (owner.state, list(owner.log), owner.version) == (*before, state["version"])
        ws.send_json({"type": "ping"})
        assert receive(ws) == {"type": "pong"}


def test_games_without_arranged_hands_refuse_groups(client: TestClient) -> None:
    table_id = new_table(client, "indecision")
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        wait_for_turn(ws)
        ws.send_json({"type": "groups", "groups": []})
        error = receive(ws)
        assert error["code"] == "unknown-type" and "not arranged in groups" in error["message"]
