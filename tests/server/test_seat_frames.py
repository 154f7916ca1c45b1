"""What a broadcast sends, over random seeded games of every game at several seat counts: each
seat's state message built with the parts all seats share (:class:`SharedParts`) is, byte for
byte, the message built for that seat alone; each view's JSON is its public part with its own
entries put in their places; and every patch a connection taking patches is sent leads from
the state it had to exactly the whole state a connection without patches is sent."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

import pytest

from cardtable.driver import advance
from cardtable.games.contract import TERMINAL
from cardtable.registry import get_engine
from cardtable.server.narration import Outcome, finished_between
from cardtable.server.protocol.messages import (
    LastAction,
    Outgoing,
    RoomJson,
    StateMessage,
    dumps,
)
from cardtable.server.protocol.state_frames import apply_patch
from cardtable.server.table.audience import SPECTATORS, Audience
from cardtable.server.table.seat_view import SharedParts, seat_state
from cardtable.server.table.seating import Seat
from cardtable.server.table.setup import TableSetup

from .conftest import run_async

ENDING = ("drop", "declare", "go", "four", "propose", "accept", "reject")
"""Verbs that end a deal or game: made now and then only, so that games last."""
CASES = [
    ("indian-rummy", 2),
    ("indian-rummy", 4),
    ("indecision", 2),
    ("indecision", 4),
    ("declaration-rummy", 3),
    ("declaration-rummy", 10),
]


@dataclass
class Table:
    """A table as :func:`seat_state` reads it (the owner's fields, moved by the test)."""

    setup: TableSetup
    seats: list[Seat]
    seated: dict[int, int]
    state: Any
    log: list[tuple[int, str]] = field(default_factory=list)
    status: str = "playing"
    last_outcomes: tuple[int, tuple[Outcome, ...]] = (-1, ())

    @property
    def version(self) -> int:
        return len(self.log)

    @property
    def finished(self) -> bool:
        over = self.setup.engine.current_player(self.state) == TERMINAL
        return self.status != "playing" or over

    def names_for(self, viewer: int) -> list[str]:
        return ["You" if seat == viewer else spec.name for seat, spec in enumerate(self.seats)]


class Socket:
    """A connection that keeps the text of every frame it is sent."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    async def send(self, message: Outgoing) -> None:
        self.texts.append(dumps(message))


def _room(seat: int, players: int) -> RoomJson:
    room: dict[str, Any] = {
        "phase": "playing",
        "seats": [{"seat": index} for index in range(players)],
        "you": {"seat": None if seat == SPECTATORS else seat},
    }
    return room  # type: ignore[return-value]  # the people's code's shape, as far as sent


async def _play(game: str, players: int, seed: int, moves: int) -> int:
    """Play a random game, broadcasting after each move and checking every message."""
    engine = get_engine(game)
    rules = engine.rules_from_json({"players": players})
    state, _ = advance(engine, engine.new_game(rules, seed))
    seats = [Seat("human", f"P{index}") for index in range(players)]
    setup = TableSetup("t", game, engine, rules, seed)
    table = Table(setup, seats, {index: index for index in range(players)}, state)
    audience = Audience()
    lean: dict[int, Socket] = {}
    whole: dict[int, Socket] = {}
    # Spectators first at every other table: the view the others' share may be made for them.
    order = [SPECTATORS, *range(players)] if seed % 2 else [*range(players), SPECTATORS]
    for seat in order:
        lean[seat], whole[seat] = Socket(), Socket()
        audience.frames.take_patches(lean[seat])
        audience.attach(seat, lean[seat])
        audience.attach(seat, whole[seat])
    rng = random.Random(seed)
    auto: list[str | None] = [None]
    with_room = seed % 2 == 1

    def note(last: LastAction) -> str:
        last["auto"] = auto[0]  # type: ignore[typeddict-item]  # the people's code's mark
        return "" if auto[0] is None else "A computer player moved. "

    def alone(seat: int) -> StateMessage:
        room = _room(seat, players) if with_room else None
        return seat_state(table, seat, room=room, note_auto=note)

    async def broadcast() -> None:
        shared = SharedParts()
        built: dict[int, str] = {}

        def make(seat: int) -> StateMessage:
            room = _room(seat, players) if with_room else None
            message = seat_state(table, seat, room=room, note_auto=note, shared=shared)
            built[seat] = dumps(message)
            return message

        await audience.broadcast("t", make, lambda _seat, _connection: None, shared.public_of)
        for seat, text in built.items():
            assert text == dumps(alone(seat)), (game, players, seed, table.version, seat)

    await broadcast()
    made = 0
    while made < moves and not table.finished:
        mover = engine.current_player(table.state)
        actions = list(engine.legal_actions(table.state, mover))
        lasting = [action for action in actions if str(action).split(" ")[0] not in ENDING]
        action = rng.choice(actions if not lasting or rng.random() < 0.03 else lasting)
        before = table.state
        table.state, _ = advance(engine, engine.apply(table.state, action, mover))
        table.log.append((mover, str(action)))
        outcomes = tuple(finished_between(game, engine, before, table.state))
        table.last_outcomes = (table.version, outcomes)
        auto[0] = "away" if rng.random() < 0.1 else None
        if table.finished:
            table.status = "finished"
        await broadcast()
        made += 1
        for seat in range(players):
            view = engine.view(table.state, seat)
            own = view.own_json()
            assert list(own) == list(type(view).OWN_JSON)
            public = engine.view(table.state, (seat + 1) % players).to_json()
            placed = public | own
            assert dumps(placed) == dumps(view.to_json()), (game, seat, table.version)
    for seat in lean:
        states = [json.loads(text) for text in whole[seat].texts]
        page: dict[str, Any] | None = None
        patches = 0
        for text, expected in zip(lean[seat].texts, states, strict=True):
            message = json.loads(text)
            if message["type"] == "patch":
                assert page is not None
                message = apply_patch(page, message)
                patches += 1
            assert message == expected
            page = message
        assert patches >= min(made, 1)
    return made


@pytest.mark.parametrize(("game", "players"), CASES)
def test_each_seat_is_sent_its_own_message_and_patches_lead_to_it(game: str, players: int) -> None:
    played = sum(run_async(_play(game, players, seed, 150)) for seed in range(3))
    assert played >= 150
