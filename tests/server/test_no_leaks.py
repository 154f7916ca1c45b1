"""Each seat sees only its own view: no message to a seat mentions a card another seat holds
unless that card was shown face up, and a card laid face down (Indecision's stop card) reaches
only its owner."""

from __future__ import annotations

import random
from typing import Any

import pytest
from fastapi.testclient import TestClient

from cardtable.cards import format_card
from cardtable.server.table.owner import replay_log

from .conftest import card_labels, new_table, owner_of, play_to_end

PRIVATE_VIEW_FIELDS = ("hand", "drawn", "stop_card")


def _public_labels(view_json: dict[str, Any]) -> set[str]:
    public = {key: value for key, value in view_json.items() if key not in PRIVATE_VIEW_FIELDS}
    return card_labels(public)


@pytest.mark.parametrize(
    ("game", "rules", "players"),
    [
        ("indecision", {"target_score": 40}, 3),
        ("declaration-rummy", {"players": 3}, 3),
    ],
)
def test_messages_never_show_cards_hidden_in_other_hands(
    client: TestClient, game: str, rules: dict[str, Any], players: int
) -> None:
    seats = [{"kind": "human"}] + [{"kind": "bot", "level": "random"}] * (players - 1)
    table_id = new_table(client, game, rules=rules, seats=seats, seed=13)
    messages: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        play_to_end(ws, random.Random(2), on_state=messages.append)
    owner = owner_of(client, table_id)
    checked = 0
    for message in messages:
        state, _ = replay_log(
            owner.setup.engine, owner.setup.rules, owner.setup.seed, owner.log[: message["version"]]
        )
        view_json = owner.setup.engine.view(state, 0).to_json()
        assert message["view"] == view_json
        public = _public_labels(view_json)
        # Seat 0's own last move names a card it knew (its own stop card, say), even if that
        # card has since been shuffled and dealt to someone else.
        own_move = message["last_action"] is not None and message["last_action"]["seat"] == 0
        mentioned = card_labels({**message, "last_action": None} if own_move else message)
        for seat in range(1, players):
            hidden = {format_card(card) for card in state.hands[seat]} - public
            leaked = hidden & mentioned
            assert not leaked, f"seat 0 was shown {leaked} from seat {seat}: {message}"
            checked += len(hidden)
    assert checked > 0


def test_a_stop_card_is_shown_only_to_the_player_who_laid_it(client: TestClient) -> None:
    table_id = new_table(
        client,
        "indecision",
        seats=[{"kind": "human"}, {"kind": "bot", "level": "random"}],
        rules={"target_score": 60},
        seed=17,
    )
    messages: list[dict[str, Any]] = []
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        play_to_end(ws, random.Random(1), on_state=messages.append)
    owner = owner_of(client, table_id)
    bot_stops = [
        (index, notation)
        for index, (seat, notation) in enumerate(owner.log)
        if seat == 1 and notation.startswith("stop ")
    ]
    assert bot_stops, "the random bot stops at least once in this game"
    for index, notation in bot_stops:
        seen = [m for m in messages if m["version"] == index + 1]
        for message in seen:
            last = message["last_action"]
            assert (last["seat"], last["action"], last["kind"]) == (1, "stop", "stop")
            assert "cards" not in last
            assert notation.split()[1] not in message["announce"]
            assert notation.split()[1] not in last["said"]
    own_stops = [n for seat, n in owner.log if seat == 0 and n.startswith("stop ")]
    shown = {m["last_action"]["action"] for m in messages if m["last_action"]}
    assert set(own_stops) <= shown
