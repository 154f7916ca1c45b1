"""Another process holding the SQLite file's write lock (a backup, the ``sqlite3`` shell) never
freezes the server: the move that cannot be stored in time is refused as ``unavailable``,
changing nothing, while the event loop keeps serving every other table; once the lock is free
the same move is stored."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from cardtable import storage
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.protocol.messages import ActionMessage, ProtocolError
from cardtable.server.settings import Settings
from cardtable.server.table.owner import TableOwner
from cardtable.server.table.seating import SeatRequest

from .conftest import run_async

LOCK_SECONDS = 6.0
STORE_SECONDS = 1.0
SEATS = [SeatRequest(kind="human"), SeatRequest(kind="bot", level="random")]


async def our_turn(owner: TableOwner) -> None:
    """Wait (a few seconds at most) for the computer player to hand the turn to seat 0."""
    for _ in range(200):
        if owner.setup.engine.current_player(owner.state) == 0:
            return
        await asyncio.sleep(0.02)
    raise AssertionError("seat 0 never got the turn")


def test_a_held_write_lock_refuses_the_move_in_time_and_leaves_the_loop_free(
    tmp_path: Path,
) -> None:
    path = tmp_path / "cardtable.sqlite3"
    db = storage.Database(f"sqlite:///{path}")
    settings = Settings(test_seed=7, bot_delay_scale=0.0, store_seconds=STORE_SECONDS)

    async def scenario() -> None:
        lobby = Lobby(db, settings=settings)
        alice, _ = await asyncio.to_thread(storage.create_profile, db)
        bob, _ = await asyncio.to_thread(storage.create_profile, db)
        table_a, _ = await lobby.create(alice, game="indecision", seats=SEATS)
        table_b, _ = await lobby.create(bob, game="indecision", seats=SEATS)
        owner_a, owner_b = await lobby.get(table_a), await lobby.get(table_b)
        assert owner_a is not None and owner_b is not None
        await our_turn(owner_a)
        version = owner_a.version
        action = str(owner_a.setup.engine.legal_actions(owner_a.state, 0)[0])
        move = ActionMessage(type="action", version=version, action=action)

        lateness: list[float] = []

        async def probe() -> None:  # how late the loop wakes from 10 ms sleeps
            while True:
                began = time.monotonic()
                await asyncio.sleep(0.01)
                lateness.append(time.monotonic() - began - 0.01)

        blocker = sqlite3.connect(path, timeout=0, check_same_thread=False)
        blocker.execute("BEGIN IMMEDIATE")  # the write lock, as another process takes it
        release = threading.Timer(LOCK_SECONDS, blocker.rollback)
        release.start()
        probing = asyncio.get_running_loop().create_task(probe())
        try:
            began = time.monotonic()
            with pytest.raises(ProtocolError) as refused:
                await owner_a.submit(0, move, time.perf_counter())
            waited = time.monotonic() - began
            # Another table is served meanwhile: its state is built on the free loop.
            assert owner_b.state_for(0)["version"] == owner_b.version
        finally:
            probing.cancel()
            await asyncio.to_thread(release.join)
            blocker.close()
        assert refused.value.code == "unavailable"
        assert "busy" in str(refused.value)
        assert waited < LOCK_SECONDS - 2, f"refused only after {waited:.1f} s"
        assert max(lateness) < 0.5, f"the event loop stalled {max(lateness):.1f} s"
        assert owner_a.version == version  # nothing applied
        # Nothing was stored either: the same move, for the same version, is stored now.
        submitted = await owner_a.submit(0, move, time.perf_counter())
        assert submitted.version == version + 1
        stored = await asyncio.to_thread(storage.load_table, db, table_a)
        assert stored is not None and len(stored.actions) >= version + 1
        assert stored.actions[version] == (0, action)
        await lobby.shutdown()

    try:
        run_async(scenario())
    finally:
        db.close()
