"""A move whose handler is cancelled while the log store writes it (the page went away, the
server shuts its socket's task down) is still applied in memory once the write ends: the
write runs on in the writer thread whatever happens to its caller, so a table that dropped
the move would be one move behind its own log and refuse every next move as already stored."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

from cardtable.registry import get_engine
from cardtable.server.protocol.messages import parse_client_message
from cardtable.server.table.owner import TableOwner, replay_log
from cardtable.server.table.seating import Seat

from .conftest import run_async

WAIT_SECONDS = 10.0


class ThreadedStore:
    """Stands for the log store: each move is written in a thread, which waits for
    :attr:`go` first (a slow disk), and finishes whether or not its caller still waits."""

    def __init__(self) -> None:
        self.go = threading.Event()
        self.writing = threading.Event()
        self.moves: list[tuple[int, int, str]] = []

    def _write(self, index: int, seat: int, notation: str) -> None:
        self.writing.set()
        assert self.go.wait(WAIT_SECONDS), "the test never let the write finish"
        if index != len(self.moves):
            raise AssertionError(f"move {index} stored after {len(self.moves)} moves")
        self.moves.append((index, seat, notation))

    async def append(
        self, table_id: str, index: int, seat: int, notation: str, summary: Any, **_: Any
    ) -> None:
        await asyncio.to_thread(self._write, index, seat, notation)

    async def record(self, profile_id: int, events: list[Any]) -> None:
        return None

    async def set_status(self, table_id: str, status: str, result: Any) -> None:
        return None


def a_table(store: ThreadedStore) -> TableOwner:
    engine = get_engine("indecision")
    rules = engine.rules_from_json({})
    state, _before = replay_log(engine, rules, 7, [])
    return TableOwner(
        table_id="t-cancel",
        game="indecision",
        engine=engine,
        rules=rules,
        seed=7,
        seats=[Seat("human", "Ann"), Seat("human", "Bo")],
        seated={0: 1, 1: 2},
        state=state,
        log=[],
        store=store,  # type: ignore[arg-type]
        bot_delay=lambda: 0.0,
    )


def _move(owner: TableOwner) -> tuple[int, str]:
    seat = owner.engine.current_player(owner.state)
    action = owner.engine.legal_actions(owner.state, seat)[0]
    return seat, str(action)


def _message(owner: TableOwner, notation: str) -> Any:
    return parse_client_message(
        f'{{"type": "action", "version": {owner.version}, "action": "{notation}"}}'
    )


def test_a_move_cancelled_while_it_is_written_is_applied_once_the_write_ends() -> None:
    async def scenario() -> tuple[bool, list[tuple[int, int, str]], list[tuple[int, str]], int]:
        store = ThreadedStore()
        owner = a_table(store)
        seat, notation = _move(owner)
        submit = asyncio.get_running_loop().create_task(
            owner.submit(seat, _message(owner, notation), 0.0)
        )
        assert await asyncio.to_thread(store.writing.wait, WAIT_SECONDS), "no write began"
        submit.cancel()
        await asyncio.sleep(0.05)  # the cancellation reaches the handler mid-write
        store.go.set()
        try:
            await asyncio.wait_for(submit, WAIT_SECONDS)
            cancelled = False
        except asyncio.CancelledError:
            cancelled = True
        # The table goes on from the stored move: the next one is accepted and stored.
        seat, notation = _move(owner)
        after = await owner.submit(seat, _message(owner, notation), 0.0)
        return cancelled, store.moves, owner.log, after.version

    cancelled, stored, log, version = run_async(scenario())
    assert cancelled, "the cancellation still reaches the handler's caller"
    assert [(seat, notation) for _index, seat, notation in stored] == log
    assert [index for index, _seat, _notation in stored] == [0, 1]
    assert version == 2
