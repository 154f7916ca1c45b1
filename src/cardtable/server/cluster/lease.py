"""Table leases in Redis: which process owns a table now, with a fencing token.

A lease is the key ``cardtable:lease:<table>`` holding ``<holder>:<token>``, set with
``SET NX PX`` so that only one process holds it, and expiring by itself when its holder stops
renewing it (a process killed outright loses its tables after ``ttl`` at most). The token comes
from ``HINCRBY cardtable:fence:<table> issued 1``, so every new holder of a table has a larger
one; the
database keeps the largest token it has seen per table and refuses writes carrying an older one
(:func:`cardtable.storage.tables.claim_table`). Redis may forget its counters (a restart without
persistence): :meth:`Leases.reissue` then raises the counter above the database's token.

Acquiring, renewing, reissuing and releasing are Lua scripts, so that each checks the holder and
changes the key in one step. A renewal that does not reach Redis in time counts as lost: after
``ttl`` another process may hold the table, and the holder must stop writing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from redis.asyncio import Redis
from redis.exceptions import RedisError

from cardtable.errors import CardtableError

logger = logging.getLogger(__name__)

PREFIX: Final = "cardtable:"

# KEYS: lease, fence hash (fields ``issued``: the last token given, ``released``: the last
# token given back). ARGV: holder, ttl ms, floor. {token above floor, 1 if the previous holder
# never gave the lease back}, or {0, 0} when the lease is held.
_ACQUIRE: Final = """
if redis.call('EXISTS', KEYS[1]) == 1 then return {0, 0} end
local previous = tonumber(redis.call('HGET', KEYS[2], 'issued') or '0')
local released = tonumber(redis.call('HGET', KEYS[2], 'released') or '0')
local token = redis.call('HINCRBY', KEYS[2], 'issued', 1)
local floor = tonumber(ARGV[3])
if token <= floor then
  token = floor + 1
  redis.call('HSET', KEYS[2], 'issued', token)
end
redis.call('SET', KEYS[1], ARGV[1] .. ':' .. token, 'PX', ARGV[2])
local takeover = 0
if previous > 0 and released ~= previous then takeover = 1 end
return {token, takeover}
"""

# KEYS: lease. ARGV: holder:token, ttl ms. 1 if still held (and extended), else 0.
_RENEW: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0
"""

# KEYS: lease, fence hash. ARGV: holder:token, holder, ttl ms, floor. The new token, or 0.
_REISSUE: Final = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
local token = redis.call('HINCRBY', KEYS[2], 'issued', 1)
local floor = tonumber(ARGV[4])
if token <= floor then
  token = floor + 1
  redis.call('HSET', KEYS[2], 'issued', token)
end
redis.call('SET', KEYS[1], ARGV[2] .. ':' .. token, 'PX', ARGV[3])
return token
"""

# KEYS: lease, fence hash. ARGV: holder:token, token.
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('HSET', KEYS[2], 'released', ARGV[2])
  return redis.call('DEL', KEYS[1])
end
return 0
"""


def lease_key(table_id: str) -> str:
    """The Redis key of a table's lease.

    >>> lease_key("abc")
    'cardtable:lease:abc'
    """
    return f"{PREFIX}lease:{table_id}"


def fence_key(table_id: str) -> str:
    """The Redis key of a table's fencing tokens (the last issued, the last given back).

    >>> fence_key("abc")
    'cardtable:fence:abc'
    """
    return f"{PREFIX}fence:{table_id}"


class LeaseUnavailableError(CardtableError, RuntimeError):
    """Redis could not be reached to take or keep a lease."""


@dataclass(slots=True)
class Lease:
    """One table's lease as its holder knows it."""

    table_id: str
    token: int
    holder: str
    valid_until: float
    """``time.monotonic()`` past which the lease may be someone else's (no renewal reached
    Redis in time)."""
    takeover: bool = False
    """The previous holder never gave the lease back (it stopped or lost Redis): this process
    took the table over."""

    @property
    def value(self) -> str:
        """What the lease key holds."""
        return f"{self.holder}:{self.token}"

    def valid(self, now: float | None = None) -> bool:
        """Whether the holder may still act on the table."""
        return (time.monotonic() if now is None else now) < self.valid_until


class Leases:
    """The leases one process holds, renewed in the background every third of ``ttl``.

    ``on_lost`` is called with a table's id when its lease is gone (taken by another process
    after expiring, or no renewal reached Redis before it would expire).
    """

    def __init__(
        self,
        redis: Redis,
        *,
        ttl: float = 5.0,
        holder: str | None = None,
        on_lost: Callable[[str], None] | None = None,
        autorenew: bool = True,
    ) -> None:
        self.redis = redis
        self.ttl = ttl
        self.holder = holder if holder is not None else secrets.token_hex(8)
        self.on_lost = on_lost
        self.held: dict[str, Lease] = {}
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._reissue = redis.register_script(_REISSUE)
        self._release = redis.register_script(_RELEASE)
        self.autorenew = autorenew
        """Renew in the background (tests turn it off to play a process that stalls)."""
        self._renewer: asyncio.Task[None] | None = None

    @property
    def _ttl_ms(self) -> int:
        return max(1, round(self.ttl * 1000))

    async def acquire(self, table_id: str, floor: int = 0) -> Lease | None:
        """Take the table's lease, with a token above ``floor``; ``None`` if another process
        holds it. :class:`LeaseUnavailableError` if Redis cannot be reached."""
        held = self.held.get(table_id)
        if held is not None and held.valid():
            return held
        started = time.monotonic()
        try:
            token, takeover = await self._acquire(
                keys=[lease_key(table_id), fence_key(table_id)],
                args=[self.holder, self._ttl_ms, floor],
            )
        except RedisError as exc:
            raise LeaseUnavailableError(f"Redis could not be reached: {exc}") from exc
        if int(token) == 0:
            return None
        lease = Lease(table_id, int(token), self.holder, started + self.ttl, bool(takeover))
        self.held[table_id] = lease
        self._start_renewer()
        return lease

    async def reissue(self, lease: Lease, floor: int) -> Lease | None:
        """The same lease with a new token above ``floor`` (when the database has seen a larger
        token than Redis's counter, as after Redis lost its data); ``None`` if it is lost."""
        started = time.monotonic()
        try:
            token = int(
                await self._reissue(
                    keys=[lease_key(lease.table_id), fence_key(lease.table_id)],
                    args=[lease.value, self.holder, self._ttl_ms, floor],
                )
            )
        except RedisError as exc:
            raise LeaseUnavailableError(f"Redis could not be reached: {exc}") from exc
        if token == 0:
            self._lost(lease.table_id)
            return None
        lease.token = token
        lease.valid_until = started + self.ttl
        return lease

    async def renew_all(self) -> list[str]:
        """Extend every held lease; the ids of the tables whose lease is lost."""
        now = time.monotonic()
        leases = list(self.held.values())
        if not leases:
            return []
        lost: list[str] = []
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for lease in leases:
                    await self._renew(
                        keys=[lease_key(lease.table_id)],
                        args=[lease.value, self._ttl_ms],
                        client=pipe,
                    )
                results = await pipe.execute()
        except RedisError as exc:
            logger.warning("could not renew %d table leases: %s", len(leases), exc)
            lost = [lease.table_id for lease in leases if not lease.valid()]
        else:
            for lease, kept in zip(leases, results, strict=True):
                if int(kept) == 1 and self.held.get(lease.table_id) is lease:
                    lease.valid_until = now + self.ttl
                elif int(kept) != 1:
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

    async def release(self, table_id: str) -> None:
        """Give a table's lease back (another process may take it at once)."""
        lease = self.held.pop(table_id, None)
        if lease is None:
            return
        with contextlib.suppress(RedisError):
            await self._release(
                keys=[lease_key(table_id), fence_key(table_id)], args=[lease.value, lease.token]
            )

    def lease_of(self, table_id: str) -> Lease | None:
        """The valid lease this process holds on a table, if any."""
        lease = self.held.get(table_id)
        return lease if lease is not None and lease.valid() else None

    async def holder_of(self, table_id: str) -> str | None:
        """Who holds a table's lease now (``holder:token``), or ``None``."""
        try:
            value: Any = await self.redis.get(lease_key(table_id))
        except RedisError as exc:
            raise LeaseUnavailableError(f"Redis could not be reached: {exc}") from exc
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)

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
            # A renewal under way may be inside the Redis client: wait for it a little only.
            await asyncio.wait({renewer}, timeout=self.ttl)

    async def close(self) -> None:
        """Stop renewing and give every lease back."""
        await self.stop_renewing()
        for table_id in list(self.held):
            await self.release(table_id)
