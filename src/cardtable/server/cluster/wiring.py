"""One process's part in a cluster: its Redis client, its leases and its leased log store, and
how they are tied to the lobby (a table whose lease is lost is dropped; a table that leaves
memory gives its lease back)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets

from redis.asyncio import Redis

from cardtable.server.cluster.lease import Leases
from cardtable.server.cluster.store import LeasedLogStore
from cardtable.server.lobby import Lobby
from cardtable.server.settings import Settings
from cardtable.storage import Database, DatabaseLogStore

logger = logging.getLogger(__name__)


class Cluster:
    """The cluster side of one server process."""

    def __init__(self, db: Database, redis_url: str, settings: Settings) -> None:
        self.redis: Redis = Redis.from_url(
            redis_url, socket_timeout=2.0, socket_connect_timeout=2.0, health_check_interval=10
        )
        holder = f"{os.getpid()}-{secrets.token_hex(4)}"
        self.leases = Leases(self.redis, ttl=settings.lease_seconds, holder=holder)
        self.store = LeasedLogStore(DatabaseLogStore(db), self.leases)
        self._releases: set[asyncio.Task[None]] = set()

    def attach(self, lobby: Lobby) -> None:
        """Drop the lobby's tables whose lease is lost; give back the leases of the tables
        that leave its memory."""

        def lost(table_id: str) -> None:
            if lobby.drop(table_id) is not None:
                logger.warning(
                    "table %s passed to another process", table_id, extra={"table_id": table_id}
                )

        def let_go(table_id: str) -> None:
            task = asyncio.get_running_loop().create_task(self.store.release(table_id))
            self._releases.add(task)
            task.add_done_callback(self._releases.discard)

        self.store.on_lost = lost
        lobby.on_let_go = let_go

    async def close(self) -> None:
        """Give every lease back and close the Redis connections."""
        if self._releases:
            await asyncio.gather(*self._releases, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.leases.close()
        with contextlib.suppress(Exception):
            await self.redis.aclose()
