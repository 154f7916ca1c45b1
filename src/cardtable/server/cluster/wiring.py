"""One server process's part in coordinating tables: its message bus, its leases, its leased
log store and its relay, and how they are tied to the lobby (a table whose lease is lost is
dropped; a table that leaves memory gives its lease back; a claimed table's inbox is listened
to, and what arrives there is answered as a local socket or request would be; a table taken
over from a process that died is announced once loaded).

Every app has one :class:`Cluster`, so a lone server and a cluster run the same relay, owner
call and takeover code: :meth:`Cluster.in_process` over an in-memory bus and lease table (a
lone server, or several apps of one test sharing them), :meth:`Cluster.over_redis` over Redis
(a cluster's processes, which keep pending fair-deal commitments in Redis too, for any worker
to use)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
from collections.abc import Coroutine
from typing import Any, Final

from redis.asyncio import BlockingConnectionPool, Redis

from cardtable.server.cluster.bus import Bus, InProcessBus
from cardtable.server.cluster.lease import InProcessLeaseTable, Leases, LeaseTable
from cardtable.server.cluster.redis_bus import RedisBus
from cardtable.server.cluster.redis_leases import RedisLeaseTable
from cardtable.server.cluster.relay import Relay
from cardtable.server.cluster.shared_limits import cluster_prefix
from cardtable.server.cluster.store import LeasedLogStore
from cardtable.server.hosting import owner_calls
from cardtable.server.hosting.lobby import Lobby
from cardtable.server.protocol.websocket import answer_frame, greet, outsider
from cardtable.server.rate_limits import RateLimits
from cardtable.server.settings import Settings
from cardtable.server.table.fair_deals import SharedCommitments
from cardtable.storage import Database, DatabaseLogStore

logger = logging.getLogger(__name__)

REDIS_CONNECTIONS: Final = 100
"""Connections to Redis one process opens at most."""
REDIS_WAIT_SECONDS: Final = 5.0
"""How long a command waits for a free connection before it fails."""
LONE_LEASE_SECONDS: Final = 3600.0
"""The life of a lone server's leases: no other process shares its lease table, so none can
take a table over, and a stalled event loop (a busy laptop) must not make it let tables go."""


class Cluster:
    """The coordinating side of one server process."""

    def __init__(
        self,
        db: Database,
        settings: Settings,
        bus: Bus,
        lease_table: LeaseTable,
        redis: Redis | None = None,
        lease_seconds: float | None = None,
    ) -> None:
        self.redis = redis
        """The Redis client of a cluster's process (``None`` in process)."""
        self.bus = bus
        holder = f"{os.getpid()}-{secrets.token_hex(4)}"
        ttl = settings.lease_seconds if lease_seconds is None else lease_seconds
        self.leases = Leases(lease_table, ttl=ttl, holder=holder)
        self.store = LeasedLogStore(
            DatabaseLogStore(db, write_seconds=settings.store_seconds), self.leases
        )
        self.relay = Relay(bus, self.leases)
        self.prefix = cluster_prefix(db.url)
        self._releases: set[asyncio.Task[None]] = set()

    @classmethod
    def over_redis(cls, db: Database, redis_url: str, settings: Settings) -> Cluster:
        """A cluster's process: the bus and the lease table in Redis."""
        # A command that finds every connection busy waits for one instead of failing: with
        # many sockets, views are published faster than the pool's connections turn over.
        pool = BlockingConnectionPool.from_url(
            redis_url,
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_SECONDS,
            socket_timeout=2.0,
            socket_connect_timeout=2.0,
            health_check_interval=10,
        )
        redis: Redis = Redis.from_pool(pool)
        return cls(db, settings, RedisBus(redis), RedisLeaseTable(redis), redis)

    @classmethod
    def in_process(
        cls,
        db: Database,
        settings: Settings,
        *,
        bus: Bus | None = None,
        lease_table: LeaseTable | None = None,
    ) -> Cluster:
        """A lone server (fresh in-memory parts, leases of :data:`LONE_LEASE_SECONDS`), or one
        of several apps in one Python process sharing ``bus`` and ``lease_table`` (leases of
        the settings' ``lease_seconds``, so that one takes over when another stalls)."""
        return cls(
            db,
            settings,
            InProcessBus() if bus is None else bus,
            InProcessLeaseTable() if lease_table is None else lease_table,
            lease_seconds=LONE_LEASE_SECONDS if lease_table is None else None,
        )

    def attach(self, lobby: Lobby, limits: RateLimits | None = None) -> None:
        """Drop the lobby's tables whose lease is lost; give back the leases of the tables
        that leave its memory; answer proxied sockets as local ones (``limits``: the quick
        messages' rate limit, counted where the table is)."""

        async def frame(
            owner: Any, connection: Any, seat: int, profile_id: int, raw: str, received: float
        ) -> int | None:
            return await answer_frame(
                owner,
                connection,
                seat,
                profile_id,
                raw,
                received,
                limits,
                f"socket:{connection.conn}",
            )

        def lost(table_id: str) -> None:
            if lobby.drop(table_id) is not None:
                logger.warning(
                    "table %s passed to another process", table_id, extra={"table_id": table_id}
                )
            self._later(self.relay.disown(table_id))

        async def release(table_id: str, claim: int | None) -> None:
            await self.relay.disown(table_id)
            if claim is not None:  # None: the lease was lost already, nothing to give back
                await self.store.release(table_id, claim)

        def loaded(table_id: str) -> None:
            # Only now, the table in memory: a proxy greeting this process sooner would be
            # told the table is not here and look again.
            if self.store.take_over_done(table_id):
                self._later(self.relay.announce_takeover(table_id))

        def let_go(table_id: str) -> None:
            # The claim the table leaves under, taken now: the release waits for the relay
            # (which may wait out a bus away), and the table may be claimed again meanwhile.
            self._later(release(table_id, self.store.claim_of(table_id)))

        self.store.on_lost = lost
        self.store.on_claimed = self.relay.own
        self.relay.lobby = lobby
        self.relay.handle_frame = frame
        self.relay.greet = greet
        self.relay.outsider = outsider

        async def call(name: str, args: dict[str, Any]) -> tuple[int, Any]:
            return await owner_calls.answer(lobby, name, args)

        self.relay.handle_call = call
        lobby.on_let_go = let_go
        lobby.on_loaded = loaded
        if self.redis is not None:  # a commitment asked of one worker may start a table on another
            lobby.commitments = SharedCommitments(self.redis, self.prefix)

    def _later(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._releases.add(task)
        task.add_done_callback(self._releases.discard)

    async def close(self) -> None:
        """Give every lease back and close the Redis connections (if any)."""
        if self._releases:
            await asyncio.gather(*self._releases, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.relay.close()
        with contextlib.suppress(Exception):
            await self.leases.close()
        if self.redis is not None:
            with contextlib.suppress(Exception):
                await self.redis.aclose()
