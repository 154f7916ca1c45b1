"""The lease table in Redis (:class:`~cardtable.server.cluster.lease.LeaseTable`), shared by
the processes of a cluster.

A lease is the key ``cardtable:lease:<table>`` holding ``<holder>:<token>``, set with
``SET NX PX`` so that only one process holds it, and expiring by itself when its holder stops
renewing it. The token comes from ``HINCRBY cardtable:fence:<table> issued 1``, so every new
holder of a table has a larger one. Acquiring, renewing, reissuing and releasing are Lua
scripts, so that each checks the holder and changes the key in one step; the renewals of one
process go in one pipeline.
"""

from __future__ import annotations

from typing import Any, Final

from redis.asyncio import Redis
from redis.exceptions import RedisError

from cardtable.server.cluster.lease import PREFIX, Lease, LeaseUnavailableError

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


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _unavailable(exc: RedisError) -> LeaseUnavailableError:
    return LeaseUnavailableError(f"Redis could not be reached: {exc}")


class RedisLeaseTable:
    """A :class:`~cardtable.server.cluster.lease.LeaseTable` in Redis (see the module
    docstring)."""

    def __init__(self, redis: Redis) -> None:
        self.redis = redis
        self._acquire = redis.register_script(_ACQUIRE)
        self._renew = redis.register_script(_RENEW)
        self._reissue = redis.register_script(_REISSUE)
        self._release = redis.register_script(_RELEASE)

    async def acquire(
        self, table_id: str, holder: str, ttl: float, floor: int
    ) -> tuple[int, bool] | None:
        """See :meth:`~cardtable.server.cluster.lease.LeaseTable.acquire`."""
        try:
            token, takeover = await self._acquire(
                keys=[lease_key(table_id), fence_key(table_id)], args=[holder, _ms(ttl), floor]
            )
        except RedisError as exc:
            raise _unavailable(exc) from exc
        return None if int(token) == 0 else (int(token), bool(takeover))

    async def renew(self, leases: list[Lease], ttl: float) -> list[bool]:
        """See :meth:`~cardtable.server.cluster.lease.LeaseTable.renew`."""
        try:
            async with self.redis.pipeline(transaction=False) as pipe:
                for lease in leases:
                    await self._renew(
                        keys=[lease_key(lease.table_id)],
                        args=[lease.value, _ms(ttl)],
                        client=pipe,
                    )
                results: list[Any] = await pipe.execute()
        except RedisError as exc:
            raise _unavailable(exc) from exc
        return [int(kept) == 1 for kept in results]

    async def reissue(self, lease: Lease, ttl: float, floor: int) -> int | None:
        """See :meth:`~cardtable.server.cluster.lease.LeaseTable.reissue`."""
        try:
            token = int(
                await self._reissue(
                    keys=[lease_key(lease.table_id), fence_key(lease.table_id)],
                    args=[lease.value, lease.holder, _ms(ttl), floor],
                )
            )
        except RedisError as exc:
            raise _unavailable(exc) from exc
        return None if token == 0 else token

    async def release(self, lease: Lease) -> None:
        """See :meth:`~cardtable.server.cluster.lease.LeaseTable.release`."""
        try:
            await self._release(
                keys=[lease_key(lease.table_id), fence_key(lease.table_id)],
                args=[lease.value, lease.token],
            )
        except RedisError as exc:
            raise _unavailable(exc) from exc

    async def holder_of(self, table_id: str) -> str | None:
        """See :meth:`~cardtable.server.cluster.lease.LeaseTable.holder_of`."""
        try:
            value: Any = await self.redis.get(lease_key(table_id))
        except RedisError as exc:
            raise _unavailable(exc) from exc
        if value is None:
            return None
        return value.decode() if isinstance(value, bytes) else str(value)
