"""CPU of one broadcast in a loop that does nothing else: every seat's state message after a
move built (``seat_state`` with the parts the seats share), patched against the one that seat
was sent before, and encoded, for sockets that take patches, with no network and no database.

Seeded random games (moves that end a deal are not made, as in ``bench_move_cpu``); each seat
and a spectator has one connection, and each seat is sent a small room of its own. The figure
is the thread's CPU time spent in the broadcasts divided by the moves made, the median of the
repeats. Beside ``bench_move_cpu --plain-frames`` (what the messages cost in the running server)
it shows how much dearer the same code is there. Reproduce::

    .venv/bin/python -m benchmarks.bench_broadcast
    .venv/bin/python -m benchmarks.bench_broadcast --games indian-rummy:2 --repeats 9
    .venv/bin/python -m benchmarks.bench_broadcast --games indian-rummy:2 --tables 10
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from cardtable.driver import advance
from cardtable.games.contract import TERMINAL
from cardtable.registry import get_engine
from cardtable.server.narration import Outcome, finished_between
from cardtable.server.protocol.messages import LastAction, Outgoing, RoomJson, dumps
from cardtable.server.table.audience import SPECTATORS, Audience
from cardtable.server.table.seat_view import SharedParts, seat_state
from cardtable.server.table.seating import Seat
from cardtable.server.table.setup import TableSetup

ENDING = ("drop", "declare", "go", "four", "propose", "accept", "reject")
"""Verbs that end a deal or a game: not made, so that the games last."""


@dataclass
class Table:
    """A table as :func:`seat_state` reads it (the owner's fields, moved by the benchmark)."""

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
    """A connection that encodes what it is sent, as a websocket's does."""

    def __init__(self) -> None:
        self.sent = 0

    async def send(self, message: Outgoing) -> None:
        self.sent += len(dumps(message))


def _room(seat: int, players: int) -> RoomJson:
    room: dict[str, Any] = {
        "phase": "playing",
        "seats": [{"seat": index} for index in range(players)],
        "you": {"seat": None if seat == SPECTATORS else seat},
    }
    return room  # type: ignore[return-value]  # the shape as far as a broadcast needs it


def _no_note(_last: LastAction) -> str:
    return ""


async def play(
    game: str, players: int, seed: int, moves: int, tables: int = 1
) -> tuple[float, int]:
    """CPU seconds spent broadcasting over ``tables`` seeded games played side by side, a move
    of each in turn (as a server's tables move), each of up to ``moves`` moves, and the moves
    made."""
    engine = get_engine(game)
    rules = engine.rules_from_json({"players": players})
    seats = [Seat("human", f"P{index}") for index in range(players)]
    rooms = {seat: _room(seat, players) for seat in [*range(players), SPECTATORS]}
    played: list[tuple[Table, Audience, random.Random]] = []
    for index in range(tables):
        state, _ = advance(engine, engine.new_game(rules, seed + index))
        setup = TableSetup(f"t{index}", game, engine, rules, seed + index)
        table = Table(setup, seats, {seat: seat for seat in range(players)}, state)
        audience = Audience()
        for seat in rooms:
            socket = Socket()
            audience.frames.take_patches(socket)
            audience.attach(seat, socket)
        played.append((table, audience, random.Random(seed + index)))

    async def broadcast(table: Table, audience: Audience) -> None:
        shared = SharedParts()

        def make(seat: int) -> Any:
            return seat_state(table, seat, room=rooms[seat], note_auto=_no_note, shared=shared)

        await audience.broadcast("t", make, lambda _seat, _connection: None, shared.public_of)

    for table, audience, _ in played:
        await broadcast(table, audience)
    spent = 0.0
    made = 0
    for _ in range(moves):
        for table, audience, rng in played:
            if table.finished:
                continue
            mover = engine.current_player(table.state)
            actions = list(engine.legal_actions(table.state, mover))
            lasting = [action for action in actions if str(action).split(" ")[0] not in ENDING]
            action = rng.choice(lasting or actions)
            before = table.state
            table.state, _ = advance(engine, engine.apply(table.state, action, mover))
            table.log.append((mover, str(action)))
            outcomes = tuple(finished_between(game, engine, before, table.state))
            table.last_outcomes = (table.version, outcomes)
            if table.finished:
                table.status = "finished"
            started = time.thread_time()
            await broadcast(table, audience)
            spent += time.thread_time() - started
            made += 1
    return spent, made


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", default="indian-rummy:2,declaration-rummy:10")
    parser.add_argument("--moves", type=int, default=400)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument(
        "--tables", type=int, default=1, help="tables played side by side, a move of each in turn"
    )
    args = parser.parse_args(argv)
    for case in args.games.split(","):
        game, players = case.split(":")
        per_move = []
        made = 0
        for _ in range(args.repeats):
            spent, made = asyncio.run(play(game, int(players), args.seed, args.moves, args.tables))
            per_move.append(spent / max(1, made) * 1000)
        print(
            f"{game} x{players}, {args.tables} table(s): broadcast CPU ms/move median"
            f" {statistics.median(per_move):.3f}"
            f" (min {min(per_move):.3f}) over {made} moves, {args.repeats} repeats"
        )


if __name__ == "__main__":
    main()
