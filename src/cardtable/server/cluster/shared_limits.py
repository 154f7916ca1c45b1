"""The rate limits' counts that every process of a cluster shares, kept in Redis.

One process alone counts in its memory; a cluster counts what an address or a profile does
(new profiles, tables, joins, sockets opened...) in Redis, or each worker would allow the
whole budget again. Counts of one connection stay in the memory of the process holding it.

Two kinds of counts live here:

* the ``limits`` library's moving windows over its Redis storage, under a prefix of this
  cluster's own (a hash of the shared database's URL, which every worker of one cluster
  names, so two clusters or test runs on one Redis never count together);
* the websockets each profile holds open: a sorted set per profile whose members are this
  process's sockets, scored by when they expire. A live process renews its members every
  third of :data:`SOCKET_TTL_SECONDS`, so a process that dies outright stops counting after
  that at most.

These calls are synchronous, on a client of their own with short timeouts (a round trip on a
private network is well under a millisecond); when Redis does not answer, the caller counts in
its memory for :data:`OUTAGE_SECONDS` rather than wait on it again.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
import time
from collections import defaultdict
from typing import Final

from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from redis import ConnectionPool, Redis

logger = logging.getLogger(__name__)

SOCKET_TTL_SECONDS: Final = 60.0
"""How long a socket stays counted without its process renewing it."""
OUTAGE_SECONDS: Final = 5.0
"""How long a process counts alone after Redis failed to answer."""
TIMEOUT_SECONDS: Final = 0.5
"""The longest a count waits on Redis."""

# KEYS: the profile's set. ARGV: now, expiry, member, most, ttl ms. 1 if counted, else 0.
_OPEN: Final = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""


def cluster_prefix(database_url: str) -> str:
    """The key prefix of one cluster's counts: every worker of it names the same database.

    >>> cluster_prefix("postgresql://db/a") == cluster_prefix("postgresql://db/a")
    True
    >>> cluster_prefix("postgresql://db/a") == cluster_prefix("postgresql://db/b")
    False
    """
    digest = hashlib.sha256(database_url.encode()).hexdigest()[:16]
    return f"cardtable:limits:{digest}:"


class SharedCounts:
    """A cluster's shared counts (see the module docstring)."""

    def __init__(self, redis_url: str, database_url: str) -> None:
        pool = ConnectionPool.from_url(
            redis_url,
            socket_timeout=TIMEOUT_SECONDS,
            socket_connect_timeout=TIMEOUT_SECONDS,
            max_connections=8,
        )
        self.prefix = cluster_prefix(database_url)
        self.limiter = MovingWindowRateLimiter(
            RedisStorage("redis://", connection_pool=pool, key_prefix=self.prefix)
        )
        self._redis = Redis(connection_pool=pool)
        self._open = self._redis.register_script(_OPEN)
        self._holder = secrets.token_hex(6)
        self._serial = 0
        self._members: defaultdict[int, list[str]] = defaultdict(list)
        self._down_until = 0.0

    @property
    def available(self) -> bool:
        """Whether to ask Redis now (not within :data:`OUTAGE_SECONDS` of a failure)."""
        return time.monotonic() >= self._down_until

    def failed(self, exc: Exception) -> None:
        """Redis did not answer: count in memory for a while."""
        if self.available:
            logger.warning("rate limits counted in this process alone for now: %s", exc)
        self._down_until = time.monotonic() + OUTAGE_SECONDS

    def _key(self, profile_id: int) -> str:
        return f"{self.prefix}sockets:{profile_id}"

    def open_socket(self, profile_id: int, most: int) -> bool:
        """Count one more socket of ``profile_id`` unless it holds ``most`` across the cluster
        already (raises on a Redis failure)."""
        self._serial += 1
        member = f"{self._holder}:{self._serial}"
        now = time.time()
        counted = self._open(
            keys=[self._key(profile_id)],
            args=[now, now + SOCKET_TTL_SECONDS, member, most, int(SOCKET_TTL_SECONDS * 1000)],
        )
        if counted:
            self._members[profile_id].append(member)
        return bool(counted)

    def close_socket(self, profile_id: int) -> None:
        """One socket of ``profile_id`` that this process counted closed."""
        members = self._members.get(profile_id)
        if not members:
            return
        member = members.pop()
        if not members:
            del self._members[profile_id]
        try:
            self._redis.zrem(self._key(profile_id), member)
        except Exception as exc:  # it expires by itself
            self.failed(exc)

    def renew(self) -> None:
        """Renew this process's sockets (every third of :data:`SOCKET_TTL_SECONDS`)."""
        if not self._members:
            return
        expiry = time.time() + SOCKET_TTL_SECONDS
        pipe = self._redis.pipeline(transaction=False)
        # A copy: sockets open and close on the event loop while this runs in a thread.
        held = [(profile_id, list(members)) for profile_id, members in list(self._members.items())]
        for profile_id, members in held:
            if not members:
                continue
            key = self._key(profile_id)
            pipe.zadd(key, dict.fromkeys(members, expiry))
            pipe.pexpire(key, int(SOCKET_TTL_SECONDS * 1000))
        pipe.execute()

    def close(self) -> None:
        """Stop counting this process's sockets and close the connections."""
        try:
            for profile_id, members in self._members.items():
                self._redis.zrem(self._key(profile_id), *members)
        except Exception:  # they expire by themselves
            logger.debug("sockets left to expire in Redis")
        self._members.clear()
        self._redis.close()
