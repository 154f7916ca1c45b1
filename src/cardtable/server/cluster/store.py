"""The log store of every server process: the database's, with every table claimed under a
lease (in Redis for a cluster's processes, in memory for a lone server).

Before a process loads or creates a table it takes the table's lease
(:class:`~cardtable.server.cluster.lease.Leases`) and claims the table in the database with the
lease's token; the table's moves, its final status and every write of a people's table's room
(seats, phase, members, timers, client ids...) are then stored only with that token
(:func:`cardtable.storage.tables.append_action`, :func:`cardtable.storage.tables.check_fence`).
A write refused because another process has
claimed the table since, or attempted once the lease may have expired, raises
:class:`~cardtable.storage.FencedOutError` (a :class:`~cardtable.storage.StorageError`, so the
table owner refuses the move and the client keeps its last view) and tells ``on_lost``, so that
the lobby lets the table go.
"""

from __future__ import annotations

import builtins
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cardtable.errors import NotFoundError
from cardtable.server.cluster.lease import Lease, Leases, LeaseUnavailableError
from cardtable.server.metrics import LEASE_TAKEOVERS
from cardtable.storage import (
    DatabaseLogStore,
    FencedOutError,
    ListedTable,
    RecordEvent,
    StorageError,
    StoredTable,
    TableSummary,
)
from cardtable.storage.shared import StoredRoom

logger = logging.getLogger(__name__)

CLAIM_TRIES = 3
"""Claims of one table before giving up (each retry follows a token the database refused as
old, which happens once after Redis lost its counters)."""


class TableElsewhereError(StorageError):
    """Another process owns the table now."""

    def __init__(self, table_id: str) -> None:
        super().__init__(
            f"table {table_id} is served by another server process right now; try again"
        )
        self.table_id = table_id


class LeasedLogStore:
    """A :class:`~cardtable.storage.LogStore` whose tables are each owned under a lease."""

    def __init__(self, inner: DatabaseLogStore, leases: Leases) -> None:
        self.inner = inner
        self.db = inner.db
        self.leases = leases
        self.on_lost: Callable[[str], None] | None = None
        self.on_claimed: Callable[[str], Awaitable[None]] | None = None
        """Awaited once the table is this process's (the relay listens for its messages)."""
        self.taken_over: set[str] = set()
        """Tables claimed from an owner whose lease lapsed (it died), until the lobby has
        loaded them (:meth:`take_over_done`)."""
        previous = leases.on_lost

        def lost(table_id: str) -> None:
            if previous is not None:
                previous(table_id)
            if self.on_lost is not None:
                self.on_lost(table_id)

        leases.on_lost = lost

    async def claim(self, table_id: str) -> Lease:
        """Take the table's lease and claim the table with its token in the database.

        :class:`TableElsewhereError` if another process holds the lease, ``StorageError`` if
        Redis or the database cannot be reached, :class:`~cardtable.errors.NotFoundError` if
        there is no such table.
        """
        try:
            lease = await self.leases.acquire(table_id)
        except LeaseUnavailableError as exc:
            raise StorageError(
                "the server's coordination service could not be reached; try again in a moment"
            ) from exc
        if lease is None:
            raise TableElsewhereError(table_id)
        for _ in range(CLAIM_TRIES):
            try:
                stored = await self.inner.claim(table_id, lease.token)
            except BaseException:
                await self.leases.release(table_id, lease.claim)
                raise
            if stored is None:
                if self.on_claimed is not None:
                    await self.on_claimed(table_id)
                if lease.takeover:
                    self.taken_over.add(table_id)
                    LEASE_TAKEOVERS.inc()
                    logger.info(
                        "took table %s over (lease token %d)",
                        table_id,
                        lease.token,
                        extra={"table_id": table_id},
                    )
                return lease
            # Expected once per table after the lease table forgot its counters: Redis lost its
            # data, or a lone server started again (its lease table lives in its memory).
            logger.info(
                "table %s: lease token %d is not above the stored %d; asking for a newer one",
                table_id,
                lease.token,
                stored,
                extra={"table_id": table_id},
            )
            renewed = await self.leases.reissue(lease, floor=stored)
            if renewed is None:
                break
            lease = renewed
        await self.leases.release(table_id, lease.claim)
        raise TableElsewhereError(table_id)

    def take_over_done(self, table_id: str) -> bool:
        """Whether the table, now loaded, was taken over from an owner that died (once)."""
        if table_id in self.taken_over:
            self.taken_over.discard(table_id)
            return True
        return False

    def _token(self, table_id: str) -> int:
        lease = self.leases.lease_of(table_id)
        if lease is None:
            self._fenced_out(table_id)
            raise FencedOutError(
                f"this server process no longer owns table {table_id}; nothing was stored"
            )
        return lease.token

    def _fenced_out(self, table_id: str) -> None:
        """The table is no longer this process's: forget its lease and tell the lobby."""
        self.leases.held.pop(table_id, None)
        logger.warning(
            "table %s: fenced out, letting it go", table_id, extra={"table_id": table_id}
        )
        if self.on_lost is not None:
            self.on_lost(table_id)

    def claim_of(self, table_id: str) -> int | None:
        """Which claim of the table this process holds now (``None``: none), for
        :meth:`release`."""
        return self.leases.claim_of(table_id)

    async def release(self, table_id: str, claim: int | None = None) -> None:
        """Give the table's lease back (it left this process's memory). ``claim``: only that
        claim of the table (:meth:`claim_of` as it left: the letting go may wait, the relay
        telling proxied sockets with the bus away, and a table asked for meanwhile is claimed
        again, a newer claim whose lease and takeover mark stay); ``None``: whichever claim
        holds it now."""
        held = self.leases.claim_of(table_id)
        if claim is not None and held is not None and held != claim:
            return
        self.taken_over.discard(table_id)
        await self.leases.release(table_id, claim)

    # --- the LogStore interface ---------------------------------------------------------------

    async def create(
        self,
        *,
        table_id: str,
        owner_id: int,
        game: str,
        rules: dict[str, Any],
        seed: int,
        seats: list[dict[str, Any]],
        owner_seat: int,
    ) -> None:
        """Store a new table and claim it for this process."""
        await self.inner.create(
            table_id=table_id,
            owner_id=owner_id,
            game=game,
            rules=rules,
            seed=seed,
            seats=seats,
            owner_seat=owner_seat,
        )
        await self.claim(table_id)

    async def load(self, table_id: str) -> StoredTable | None:
        """Claim the table for this process and read it (``None`` if there is no such table)."""
        try:
            lease = await self.claim(table_id)
        except NotFoundError:
            return None
        try:
            return await self.inner.load(table_id)
        except BaseException:
            await self.leases.release(table_id, lease.claim)
            raise

    async def _fenced(self, table_id: str, write: Callable[[int], Awaitable[None]]) -> None:
        """Make a write of the table with this process's lease token, only while it owns the
        table; refused, the table is let go (:class:`FencedOutError` raised)."""
        token = self._token(table_id)
        try:
            await write(token)
        except FencedOutError:
            self._fenced_out(table_id)
            raise

    async def sit(self, table_id: str, seat: int, profile_id: int, name: str) -> None:
        """Seat a profile at a free human seat under ``name``."""
        await self._fenced(
            table_id, lambda token: self.inner.sit(table_id, seat, profile_id, name, fence=token)
        )

    async def append(
        self,
        table_id: str,
        index: int,
        seat: int,
        notation: str,
        summary: TableSummary | None,
        *,
        client_id: str | None = None,
        room: tuple[str, dict[str, Any]] | None = None,
        ending: tuple[str, dict[str, Any] | None] | None = None,
    ) -> None:
        """Store a move (with its client id, the room after it and the table's ending when it
        ends the game), only while this process still owns the table. The same as
        :meth:`_fenced` without its closure: this runs after every move."""
        token = self._token(table_id)
        try:
            await self.inner.append(
                table_id,
                index,
                seat,
                notation,
                summary,
                fence=token,
                client_id=client_id,
                room=room,
                ending=ending,
            )
        except FencedOutError:
            self._fenced_out(table_id)
            raise

    async def set_summary(self, table_id: str, summary: TableSummary) -> None:
        """Store the summary of a table stored before summaries were kept."""
        await self.inner.set_summary(table_id, summary)

    async def set_status(self, table_id: str, status: str, result: dict[str, Any] | None) -> None:
        """Store a finished or abandoned table, only while this process still owns it."""
        await self._fenced(
            table_id, lambda token: self.inner.set_status(table_id, status, result, fence=token)
        )

    async def record(self, profile_id: int, events: list[RecordEvent]) -> None:
        """Store record events (each at most once, by key, whichever process sends them)."""
        await self.inner.record(profile_id, events)

    async def list(
        self, profile_id: int, *, status: str, limit: int, offset: int
    ) -> tuple[list[ListedTable], int]:
        """One page of a profile's tables with ``status``, and their number in all."""
        return await self.inner.list(profile_id, status=status, limit=limit, offset=offset)

    async def count_created(self, profile_id: int, *, status: str) -> int:
        """How many tables with ``status`` a profile created."""
        return await self.inner.count_created(profile_id, status=status)

    async def create_room(self, room: StoredRoom) -> None:
        """Store the room of a people's table just created (claimed by this process)."""
        await self._fenced(room.table_id, lambda token: self.inner.create_room(room, fence=token))

    async def save_room(self, table_id: str, phase: str, room: dict[str, Any]) -> None:
        """Store a people's table's phase and room document, only while this process still
        owns the table (so for every write of the room below)."""
        await self._fenced(
            table_id, lambda token: self.inner.save_room(table_id, phase, room, fence=token)
        )

    async def load_room(self, table_id: str) -> StoredRoom | None:
        """A table's room, or ``None`` when it is not a people's table."""
        return await self.inner.load_room(table_id)

    async def table_of_invite(self, token: str) -> str | None:
        """The table an invite token opens."""
        return await self.inner.table_of_invite(token)

    async def public_rooms(self, phases: tuple[str, ...], limit: int) -> builtins.list[str]:
        """The public people's tables in one of ``phases``."""
        return await self.inner.public_rooms(phases, limit)

    async def unsit(self, table_id: str, seat: int) -> None:
        """Free a human seat."""
        await self._fenced(table_id, lambda token: self.inner.unsit(table_id, seat, fence=token))

    async def set_seats(self, table_id: str, seats: builtins.list[dict[str, Any]]) -> None:
        """Store a table's seats after a change in its waiting room."""
        await self._fenced(
            table_id, lambda token: self.inner.set_seats(table_id, seats, fence=token)
        )

    async def set_seed(self, table_id: str, seed: int) -> None:
        """Store the seed a people's table was dealt from when it started."""
        await self._fenced(table_id, lambda token: self.inner.set_seed(table_id, seed, fence=token))

    def close(self) -> None:
        """Finish the queued writes (the leases are given back by :meth:`Leases.close`)."""
        self.inner.close()
