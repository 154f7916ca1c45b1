"""Provably fair deals at the server's tables (the formula is :mod:`cardtable.fairness`).

A page asks for a commitment (``POST /api/commitments``) before it starts a table: the server
draws a secret server seed, keeps it here for a few minutes, and answers only its SHA-256. The
page then starts the table with that commitment and its own random contribution; the game's
seed is derived from both, so the deal was fixed by neither alone. A table started without a
commitment (an older page, a script) gets a fresh server seed and no contribution: its record
still verifies, but the person did not take part in the deal.

The pending seeds are per profile and few (:data:`MAX_PENDING`), so no client can make the
server hold many; a commitment is used once and expires after :data:`PENDING_SECONDS`. One
server alone keeps them in memory (:class:`Commitments`); a cluster keeps them in Redis
(:class:`SharedCommitments`), since the commitment and the table may be asked of different
workers. Designed for several people: each seated person's contribution is added with
:meth:`FairDeal.with_contribution` before the deal.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from cardtable.errors import RulesError
from cardtable.fairness import FairDeal, check_contribution, new_server_seed

if TYPE_CHECKING:
    from redis.asyncio import Redis

MAX_PENDING: Final = 4
"""Commitments a profile may hold unused; asking for more forgets the oldest."""
PENDING_SECONDS: Final = 15 * 60
"""How long an unused commitment stays valid."""
UNKNOWN: Final = "unknown or expired commitment: ask for a new one (POST /api/commitments)"


@dataclass
class Commitments:
    """Server seeds committed to but not yet used, by profile, in this process's memory."""

    pending: dict[int, list[tuple[float, str]]] = field(default_factory=dict)

    async def commit(self, profile_id: int) -> str:
        """A new commitment for ``profile_id`` (its server seed stays pending)."""
        seed = new_server_seed()
        commitment = FairDeal.start(seed).commitment
        await self._keep(profile_id, commitment, seed)
        return commitment

    async def _keep(self, profile_id: int, commitment: str, seed: str) -> None:
        now = time.monotonic()
        kept = [(t, s) for t, s in self.pending.get(profile_id, []) if now - t < PENDING_SECONDS]
        self.pending[profile_id] = [*kept[-(MAX_PENDING - 1) :], (now, seed)]

    async def _take(self, profile_id: int, commitment: str) -> str | None:
        """The pending server seed behind ``commitment``, forgotten as it is returned."""
        now = time.monotonic()
        for index, (made, seed) in enumerate(self.pending.get(profile_id, [])):
            if now - made < PENDING_SECONDS and FairDeal.start(seed).commitment == commitment:
                del self.pending[profile_id][index]
                return seed
        return None

    async def deal_for_seat(
        self, profile_id: int, commitment: object, contribution: object, *, seat: int
    ) -> FairDeal:
        """The fair deal (server seed included) for a table whose person at ``seat`` sent
        ``contribution`` against ``commitment``; with neither, a fresh server seed and no
        contribution. ``RulesError`` naming a bad or unknown value (a commitment is used
        once: a second table with it is refused)."""
        if commitment is None and contribution is None:
            return fresh_deal()
        if commitment is None or contribution is None:
            raise RulesError("a fair deal needs both the commitment and your contribution")
        value = check_contribution(contribution)
        if not isinstance(commitment, str):
            raise RulesError(UNKNOWN)
        seed = await self._take(profile_id, commitment)
        if seed is None:
            raise RulesError(UNKNOWN)
        return FairDeal.start(seed).with_contribution(seat, value).revealed(seed)


def fresh_deal() -> FairDeal:
    """A deal from a fresh server seed, with no contribution yet."""
    seed = new_server_seed()
    return FairDeal.start(seed).revealed(seed)


# KEYS: the profile's hash (commitment -> "<expiry ms>:<seed>"). ARGV: commitment, seed, now
# ms, ttl ms, most. Expired entries go; past ``most`` the one expiring first goes.
_KEEP: Final = """
local entries = redis.call('HGETALL', KEYS[1])
local now = tonumber(ARGV[3])
local live = {}
for i = 1, #entries, 2 do
  local expiry = tonumber(string.match(entries[i + 1], '^(%d+):'))
  if expiry <= now then redis.call('HDEL', KEYS[1], entries[i])
  else table.insert(live, {expiry, entries[i]}) end
end
table.sort(live, function(a, b) return a[1] < b[1] end)
local extra = #live - tonumber(ARGV[5]) + 1
for i = 1, extra do redis.call('HDEL', KEYS[1], live[i][2]) end
redis.call('HSET', KEYS[1], ARGV[1], (now + tonumber(ARGV[4])) .. ':' .. ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

# KEYS: the profile's hash. ARGV: commitment, now ms. The seed (the entry removed), or false.
_TAKE: Final = """
local entry = redis.call('HGET', KEYS[1], ARGV[1])
if not entry then return false end
redis.call('HDEL', KEYS[1], ARGV[1])
local expiry, seed = string.match(entry, '^(%d+):(.*)$')
if tonumber(expiry) <= tonumber(ARGV[2]) then return false end
return seed
"""


class SharedCommitments(Commitments):
    """Pending commitments in Redis, shared by a cluster's workers: each profile's are a hash
    that expires with its newest, and taking one removes it in the same step, so a commitment
    serves one table whichever worker is asked (``prefix``: this cluster's keys)."""

    def __init__(self, redis: Redis, prefix: str) -> None:
        super().__init__()
        self._redis = redis
        self._prefix = prefix
        self._keep_script = redis.register_script(_KEEP)
        self._take_script = redis.register_script(_TAKE)

    def _key(self, profile_id: int) -> str:
        return f"{self._prefix}commitments:{profile_id}"

    async def _keep(self, profile_id: int, commitment: str, seed: str) -> None:
        now = int(time.time() * 1000)
        args: list[str | int] = [commitment, seed, now, PENDING_SECONDS * 1000, MAX_PENDING]
        await self._keep_script(keys=[self._key(profile_id)], args=args)

    async def _take(self, profile_id: int, commitment: str) -> str | None:
        now = int(time.time() * 1000)
        seed = await self._take_script(keys=[self._key(profile_id)], args=[commitment, now])
        if seed is None:
            return None
        return seed.decode() if isinstance(seed, bytes) else str(seed)
