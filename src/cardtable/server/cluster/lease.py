"""Table leases: which process owns a table now, with a fencing token.

A process serves a table only while it holds the table's lease, kept in a
:class:`LeaseTable` that every process of the server shares: Redis's for a cluster
(:class:`~cardtable.server.cluster.redis_leases.RedisLeaseTable`), or
:class:`InProcessLeaseTable` for a lone server (and for tests playing several processes in
one). A lease expires by itself when its holder stops renewing it (a process killed outright
loses its tables after ``ttl`` at most). Every lease carries a fencing token, a number that
only grows per table, so every new holder of a table has a larger one; the database keeps the
largest token it has seen per table and refuses writes carrying an older one
(:func:`cardtable.storage.tables.claim_table`). A lease table may forget its counters (Redis
restarted without persistence; an in-process table at every start): :meth:`Leases.reissue`
then raises the token above the database's.

:class:`Leases` is one process's side, the same over any lease table: the leases it holds,
renewed in the background every third of ``ttl``. A renewal that does not reach the table in
time counts as lost: after ``ttl`` another process may hold the table, and the holder must stop
writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final, Protocol

from cardtable.errors import CardtableError

logger = logging.getLogger(__name__)

PREFIX: Final = "cardtable:"
"""The prefix of every channel and key the cluster parts share."""

STOP_SECONDS: Final = 2.0
"""How long stopping waits at most for a renewal under way."""

Clock = Callable[[], float]
"""Seconds from some fixed start (``time.monotonic`` unless a test plays the time)."""


class LeaseUnavailableError(CardtableError, RuntimeError):
    """The lease table (Redis) could not be reached to take or keep a lease."""


@dataclass(slots=True)
class Lease:
    """One table's lease as its holder knows it."""

    table_id: str
    token: int
    holder: str
    valid_until: float
    """The holder's clock past which the lease may be someone else's (no renewal reached the
    lease table in time)."""
    takeover: bool = False
    """The previous holder never gave the lease back (it stopped or lost the lease table):
    this process took the table over."""
    claim: int = 0
    """Which of its holder's takings of a lease this is (numbered across all its tables). A
    lease taken again while still held keeps its token until the database asks for a newer
    one, so a release meant for the earlier taking tells them apart by this."""

    @property
    def value(self) -> str:
        """What the lease table holds for this lease: ``holder:token``."""
        return f"{self.holder}:{self.token}"

    def valid(self, now: float | None = None) -> bool:
        """Whether the holder may still act on the table (``now`` on the holder's clock)."""
        return (time.monotonic() if now is None else now) < self.valid_until


class LeaseTable(Protocol):
    """Every table's lease and fencing counter, shared by the processes of one server. Each
    operation checks the holder and changes the lease in one step; each raises
    :class:`LeaseUnavailableError` when the table cannot be reached."""

    async def acquire(
        self, table_id: str, holder: str, ttl: float, floor: int
    ) -> tuple[int, bool] | None:
        """Give ``holder`` the table's lease for ``ttl`` seconds with a token above every one
        given before and above ``floor``: the token, and whether the previous holder never
        gave the lease back; ``None`` while another holds it."""
        ...

    async def renew(self, leases: list[Lease], ttl: float) -> list[bool]:
        """Extend each lease by ``ttl`` seconds if it is still held as it was: which were."""
        ...

    async def reissue(self, lease: Lease, ttl: float, floor: int) -> int | None:
        """Give a held lease a new token above ``floor``; ``None`` if it is no longer held."""
        ...

    async def release(self, lease: Lease) -> None:
        """Give a held lease back (another process may take it at once)."""
        ...

    async def holder_of(self, table_id: str) -> str | None:
        """Who holds the table's lease now (``holder:token``), or ``None``."""
        ...


@dataclass(slots=True)
class _Record:
    """One table's row in an :class:`InProcessLeaseTable`."""

    value: str | None = None
    expires: float = 0.0
    issued: int = 0
    released: int = 0


class InProcessLeaseTable:
    """A :class:`LeaseTable` in memory, shared by the apps of one Python process (each may run
    its own event loop in its own thread). Leases expire by ``clock``; it is never away."""

    def __init__(self, clock: Clock = time.monotonic) -> None:
        self.clock = clock
        self._lock = threading.Lock()
        self._records: dict[str, _Record] = {}

    def _held(self, record: _Record, now: float) -> str | None:
        if record.value is not None and now >= record.expires:
            record.value = None  # expired: nobody gave it back
        return record.value

    async def acquire(
        self, table_id: str, holder: str, ttl: float, floor: int
    ) -> tuple[int, bool] | None:
        """See :meth:`LeaseTable.acquire`."""
        with self._lock:
            now = self.clock()
            record = self._records.setdefault(table_id, _Record())
            if self._held(record, now) is not None:
                return None
            takeover = record.issued > 0 and record.released != record.issued
            record.issued = max(record.issued + 1, floor + 1)
            record.value = f"{holder}:{record.issued}"
            record.expires = now + ttl
            return record.issued, takeover

    async def renew(self, leases: list[Lease], ttl: float) -> list[bool]:
        """See :meth:`LeaseTable.renew`."""
        kept = []
        with self._lock:
            now = self.clock()
            for lease in leases:
                record = self._records.get(lease.table_id)
                held = record is not None and self._held(record, now) == lease.value
                if held and record is not None:
                    record.expires = now + ttl
                kept.append(held)
        return kept

    async def reissue(self, lease: Lease, ttl: float, floor: int) -> int | None:
        """See :meth:`LeaseTable.reissue`."""
        with self._lock:
            now = self.clock()
            record = self._records.get(lease.table_id)
            if record is None or self._held(record, now) != lease.value:
                return None
            record.issued = max(record.issued + 1, floor + 1)
            record.value = f"{lease.holder}:{record.issued}"
            record.expires = now + ttl
            return record.issued

    async def release(self, lease: Lease) -> None:
        """See :meth:`LeaseTable.release`."""
        with self._lock:
            record = self._records.get(lease.table_id)
            if record is not None and self._held(record, self.clock()) == lease.value:
                record.value = None
                record.released = lease.token

    async def holder_of(self, table_id: str) -> str | None:
        """See :meth:`LeaseTable.holder_of`."""
        with self._lock:
            record = self._records.get(table_id)
            return None if record is None else self._held(record, self.clock())


class Leases:
    """The leases one process holds in a :class:`LeaseTable`, renewed in the background every
    third of ``ttl``.

    ``on_lost`` is called with a table's id when its lease is gone (taken by another process
    after expiring, or no renewal reached the lease table before it would expire).
    """

    def __init__(
        self,
        table: LeaseTable,
        *,
        ttl: float = 5.0,
        holder: str | None = None,
        on_lost: Callable[[str], None] | None = None,
        autorenew: bool = True,
        clock: Clock = time.monotonic,
    ) -> None:
        self.table = table
        self.ttl = ttl
        self.holder = holder if holder is not None else secrets.token_hex(8)
        self.on_lost = on_lost
        self.clock = clock
        self.held: dict[str, Lease] = {}
        self._claims = itertools.count(1)
        self.autorenew = autorenew
        """Renew in the background (tests turn it off to play a process that stalls)."""
        self._renewer: asyncio.Task[None] | None = None

    async def acquire(self, table_id: str, floor: int = 0) -> Lease | None:
        """Take the table's lease, with a token above ``floor``; ``None`` if another process
        holds it. :class:`LeaseUnavailableError` if the lease table cannot be reached."""
        held = self.held.get(table_id)
        if held is not None and held.valid(self.clock()):
            held.claim = next(self._claims)  # a new taking: an earlier one's release is stale
            return held
        started = self.clock()
        got = await self.table.acquire(table_id, self.holder, self.ttl, floor)
        if got is None:
            return None
        token, takeover = got
        lease = Lease(
            table_id, token, self.holder, started + self.ttl, takeover, next(self._claims)
        )
        self.held[table_id] = lease
        self._start_renewer()
        return lease

    async def reissue(self, lease: Lease, floor: int) -> Lease | None:
        """The same lease with a new token above ``floor`` (when the database has seen a larger
        token than the lease table's counter, as after Redis lost its data); ``None`` if it is
        lost."""
        started = self.clock()
        token = await self.table.reissue(lease, self.ttl, floor)
        if token is None:
            self._lost(lease.table_id)
            return None
        lease.token = token
        lease.valid_until = started + self.ttl
        return lease

    async def renew_all(self) -> list[str]:
        """Extend every held lease; the ids of the tables whose lease is lost."""
        now = self.clock()
        leases = list(self.held.values())
        if not leases:
            return []
        lost: list[str] = []
        try:
            results = await self.table.renew(leases, self.ttl)
        except LeaseUnavailableError as exc:
            logger.warning("could not renew %d table leases: %s", len(leases), exc)
            lost = [lease.table_id for lease in leases if not lease.valid(self.clock())]
        else:
            for lease, kept in zip(leases, results, strict=True):
                if kept and self.held.get(lease.table_id) is lease:
                    lease.valid_until = now + self.ttl
                elif not kept:
                    lost.append(lease.table_id)
        for table_id in lost:
            self._lost(table_id)
        return lost

    def _lost(self, table_id: str) -> None:
        if self.held.pop(table_id, None) is None:
            return
        logger.warning("lost the lease of table %s", table_id, extra={"table_id": table_id})
        if self.on_lost is not None:
            self.on_lost(table_id)

    async def release(self, table_id: str, claim: int | None = None) -> None:
        """Give a table's lease back (another process may take it at once). ``claim``: only
        if the lease is still that taking of it (:attr:`Lease.claim`); a release that waited
        while the table was taken again (by this process, or after the lease lapsed) leaves
        the newer taking alone. ``None``: whatever this process holds (closing)."""
        lease = self.held.get(table_id)
        if lease is None or (claim is not None and lease.claim != claim):
            return
        del self.held[table_id]
        with contextlib.suppress(LeaseUnavailableError):
            await self.table.release(lease)

    def claim_of(self, table_id: str) -> int | None:
        """Which taking of the table's lease this process holds (:attr:`Lease.claim`), valid
        or not yet known lost; ``None`` if it holds none."""
        lease = self.held.get(table_id)
        return None if lease is None else lease.claim

    def lease_of(self, table_id: str) -> Lease | None:
        """The valid lease this process holds on a table, if any."""
        lease = self.held.get(table_id)
        return lease if lease is not None and lease.valid(self.clock()) else None

    async def holder_of(self, table_id: str) -> str | None:
        """Who holds a table's lease now (``holder:token``), or ``None``."""
        return await self.table.holder_of(table_id)

    def _start_renewer(self) -> None:
        if self.autorenew and (self._renewer is None or self._renewer.done()):
            self._renewer = asyncio.get_running_loop().create_task(self._renew_forever())

    async def _renew_forever(self) -> None:
        while self.autorenew:
            await asyncio.sleep(self.ttl / 3)
            if not self.autorenew:
                return
            try:
                await self.renew_all()
            except Exception:  # the renewer must outlive any one failure
                logger.exception("renewing table leases failed")

    async def stop_renewing(self) -> None:
        """Renew no more (at shutdown; tests use it to play a process that stalls)."""
        self.autorenew = False
        renewer, self._renewer = self._renewer, None
        if renewer is not None and not renewer.done():
            renewer.cancel()
            # A renewal under way may be inside the Redis client: wait for it a little only
            # (a lone server's leases live an hour: not that long).
            await asyncio.wait({renewer}, timeout=min(self.ttl, STOP_SECONDS))

    async def close(self) -> None:
        """Stop renewing and give every lease back."""
        await self.stop_renewing()
        for table_id in list(self.held):
            await self.release(table_id)
