"""Table leases, in a real Redis and in the in-process lease table alike (each test runs over
both): one holder at a time, tokens that only grow, renewal, expiry and takeover, giving back,
and a counter that the lease table forgot (Redis restarted without persistence, a lone server
started again) raised above the database's token. The in-process table's expiry follows a
clock of its own too."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

import pytest
from redis.asyncio import Redis

from cardtable.server.cluster.lease import InProcessLeaseTable, Leases, LeaseTable
from cardtable.server.cluster.redis_leases import RedisLeaseTable, fence_key, lease_key

from .conftest import run_async


def table_id() -> str:
    return f"lease-test-{secrets.token_hex(6)}"


@dataclass
class Kit:
    """One lease table, as two processes see it."""

    table: LeaseTable
    redis: Redis | None

    def leases(self, holder: str, ttl: float, autorenew: bool) -> Leases:
        return Leases(self.table, ttl=ttl, holder=holder, autorenew=autorenew)

    async def forget_counter(self, table: str) -> None:
        """The lease table forgets the table's counter (as after a restart)."""
        if self.redis is not None:
            await self.redis.delete(fence_key(table))
        else:
            assert isinstance(self.table, InProcessLeaseTable)
            self.table._records.pop(table, None)

    async def close(self, table: str) -> None:
        if self.redis is not None:
            await self.redis.delete(lease_key(table), fence_key(table))
            await self.redis.aclose()


KitMaker = Callable[[], Kit]


@pytest.fixture(params=["in-process", "redis"])
def kit(request: pytest.FixtureRequest) -> KitMaker:
    """Makes the lease table under test, on the running event loop."""
    if request.param == "in-process":
        return lambda: Kit(InProcessLeaseTable(), None)
    url: str = request.getfixturevalue("redis_url")

    def make() -> Kit:
        client = Redis.from_url(url)
        return Kit(RedisLeaseTable(client), client)

    return make


async def two_processes(
    kit: KitMaker, ttl: float = 5.0, autorenew: bool = True
) -> tuple[Kit, Leases, Leases]:
    made = kit()
    first = made.leases("first", ttl, autorenew)
    second = made.leases("second", ttl, autorenew)
    return made, first, second


def run(coroutine: Callable[[], Coroutine[Any, Any, None]]) -> None:
    run_async(coroutine())


def test_one_holder_at_a_time_and_tokens_only_grow(kit: KitMaker) -> None:
    async def scenario() -> None:
        made, first, second = await two_processes(kit)
        table = table_id()
        lease = await first.acquire(table)
        assert lease is not None and lease.token >= 1 and not lease.takeover
        assert await second.acquire(table) is None
        assert await first.holder_of(table) == f"first:{lease.token}"
        await first.release(table)
        again = await second.acquire(table)
        assert again is not None and again.token > lease.token
        assert not again.takeover  # the first holder gave it back
        await second.close()
        await first.close()
        await made.close(table)

    run(scenario)


def test_an_expired_lease_is_taken_over_and_its_holder_learns_it_is_lost(
    kit: KitMaker,
) -> None:
    async def scenario() -> None:
        made, first, second = await two_processes(kit, ttl=0.3, autorenew=False)
        lost: list[str] = []
        first.on_lost = lost.append
        table = table_id()
        stalled = await first.acquire(table)
        assert stalled is not None
        await asyncio.sleep(0.45)  # the first process stalls past its lease
        assert not stalled.valid() and first.lease_of(table) is None
        taken = await second.acquire(table)
        assert taken is not None and taken.token > stalled.token and taken.takeover
        assert await first.renew_all() == [table] and lost == [table]
        assert table not in first.held
        await first.release(table)  # giving back a lost lease leaves the new holder's alone
        assert await second.holder_of(table) == f"second:{taken.token}"
        await second.close()
        await made.close(table)

    run(scenario)


def test_renewal_keeps_a_lease_past_its_time_to_live(kit: KitMaker) -> None:
    async def scenario() -> None:
        # A lifetime long enough that a busy machine still renews in time (every third of it).
        made, first, second = await two_processes(kit, ttl=1.5)
        table = table_id()
        lease = await first.acquire(table)
        assert lease is not None
        await asyncio.sleep(4.5)  # three lifetimes
        assert lease.valid() and await second.acquire(table) is None
        await first.close()
        assert await second.acquire(table) is not None
        await second.close()
        await made.close(table)

    run(scenario)


def test_a_forgotten_counter_is_raised_above_the_floor(kit: KitMaker) -> None:
    async def scenario() -> None:
        made, first, _second = await two_processes(kit)
        table = table_id()
        await made.forget_counter(table)
        lease = await first.acquire(table)
        assert lease is not None and lease.token == 1
        raised = await first.reissue(lease, floor=41)
        assert raised is not None and raised.token == 42
        assert await first.holder_of(table) == "first:42"
        await first.release(table)
        later = await first.acquire(table, floor=0)
        assert later is not None and later.token == 43
        await first.close()
        await made.close(table)

    run(scenario)


@pytest.mark.parametrize("unreachable", ["redis://127.0.0.1:1/0"])
def test_an_unreachable_redis_is_a_clear_error(unreachable: str) -> None:
    from cardtable.server.cluster.lease import LeaseUnavailableError

    async def scenario() -> None:
        client = Redis.from_url(unreachable, socket_connect_timeout=0.5)
        leases = Leases(RedisLeaseTable(client), holder="alone")
        with pytest.raises(LeaseUnavailableError, match="Redis could not be reached"):
            await leases.acquire(table_id())
        await client.aclose()

    run(scenario)


def test_an_in_process_lease_expires_by_its_clock_and_is_taken_over() -> None:
    now = [100.0]

    def clock() -> float:
        return now[0]

    async def scenario() -> None:
        table = InProcessLeaseTable(clock)
        first = Leases(table, ttl=5.0, holder="first", autorenew=False, clock=clock)
        second = Leases(table, ttl=5.0, holder="second", autorenew=False, clock=clock)
        held = await first.acquire("t1")
        assert held is not None and await second.acquire("t1") is None
        now[0] += 4.0
        assert await first.renew_all() == []  # renewed in time: five seconds more from now
        now[0] += 4.0
        assert await second.acquire("t1") is None and first.lease_of("t1") is held
        now[0] += 1.5  # past the renewed lease
        assert first.lease_of("t1") is None
        taken = await second.acquire("t1")
        assert taken is not None and taken.takeover and taken.token == held.token + 1
        assert await table.holder_of("t1") == f"second:{taken.token}"
        assert await first.renew_all() == ["t1"]

    run(scenario)


def test_a_release_meant_for_an_earlier_taking_leaves_a_newer_one_alone(kit: KitMaker) -> None:
    async def scenario() -> None:
        made, first, second = await two_processes(kit, ttl=1.0, autorenew=False)
        table = table_id()
        # Taken again while still held (a table let go, asked for again before the release
        # ran): the same token, a newer taking.
        earlier = await first.acquire(table)
        assert earlier is not None
        letting_go = first.claim_of(table)
        again = await first.acquire(table)
        assert again is not None and again.token == earlier.token
        assert first.claim_of(table) != letting_go
        await first.release(table, letting_go)
        assert first.lease_of(table) is again
        assert await second.holder_of(table) == f"first:{again.token}"
        assert await second.acquire(table) is None
        # Taken again after it lapsed: a new token, a newer taking.
        await asyncio.sleep(1.3)
        letting_go = first.claim_of(table)
        renewed = await first.acquire(table)
        assert renewed is not None and renewed.token > again.token
        await first.release(table, letting_go)
        assert first.lease_of(table) is renewed
        assert await second.holder_of(table) == f"first:{renewed.token}"
        # The release meant for the taking that holds it gives it back.
        await first.release(table, first.claim_of(table))
        assert first.claim_of(table) is None and await second.holder_of(table) is None
        assert await second.acquire(table) is not None
        await second.close()
        await first.close()
        await made.close(table)

    run(scenario)
