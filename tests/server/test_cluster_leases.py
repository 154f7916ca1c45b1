"""Table leases in a real Redis: one holder at a time, tokens that only grow, renewal, expiry
and takeover, giving back, and a counter that Redis forgot (as after a restart without
persistence) raised above the database's token."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Callable, Coroutine
from typing import Any

import pytest
from redis.asyncio import Redis

from cardtable.server.cluster.lease import Leases, fence_key, lease_key

from .conftest import run_async


def table_id() -> str:
    return f"lease-test-{secrets.token_hex(6)}"


async def two_processes(
    redis_url: str, ttl: float = 5.0, autorenew: bool = True
) -> tuple[Redis, Leases, Leases]:
    client = Redis.from_url(redis_url)
    first = Leases(client, ttl=ttl, holder="first", autorenew=autorenew)
    second = Leases(client, ttl=ttl, holder="second", autorenew=autorenew)
    return client, first, second


def run(coroutine: Callable[[], Coroutine[Any, Any, None]]) -> None:
    run_async(coroutine())


def test_one_holder_at_a_time_and_tokens_only_grow(redis_url: str) -> None:
    async def scenario() -> None:
        client, first, second = await two_processes(redis_url)
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
        await client.delete(lease_key(table), fence_key(table))
        await client.aclose()

    run(scenario)


def test_an_expired_lease_is_taken_over_and_its_holder_learns_it_is_lost(
    redis_url: str,
) -> None:
    async def scenario() -> None:
        client, first, second = await two_processes(redis_url, ttl=0.3, autorenew=False)
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
        await client.delete(lease_key(table), fence_key(table))
        await client.aclose()

    run(scenario)


def test_renewal_keeps_a_lease_past_its_time_to_live(redis_url: str) -> None:
    async def scenario() -> None:
        # A lifetime long enough that a busy machine still renews in time (every third of it).
        client, first, second = await two_processes(redis_url, ttl=1.5)
        table = table_id()
        lease = await first.acquire(table)
        assert lease is not None
        await asyncio.sleep(4.5)  # three lifetimes
        assert lease.valid() and await second.acquire(table) is None
        await first.close()
        assert await second.acquire(table) is not None
        await second.close()
        await client.delete(lease_key(table), fence_key(table))
        await client.aclose()

    run(scenario)


def test_a_forgotten_counter_is_raised_above_the_floor(redis_url: str) -> None:
    async def scenario() -> None:
        client, first, _second = await two_processes(redis_url)
        table = table_id()
        await client.delete(fence_key(table))  # Redis restarted and lost its counters
        lease = await first.acquire(table)
        assert lease is not None and lease.token == 1
        raised = await first.reissue(lease, floor=41)
        assert raised is not None and raised.token == 42
        assert await first.holder_of(table) == "first:42"
        await first.release(table)
        later = await first.acquire(table, floor=0)
        assert later is not None and later.token == 43
        await first.close()
        await client.delete(lease_key(table), fence_key(table))
        await client.aclose()

    run(scenario)


@pytest.mark.parametrize("unreachable", ["redis://127.0.0.1:1/0"])
def test_an_unreachable_redis_is_a_clear_error(unreachable: str) -> None:
    from cardtable.server.cluster.lease import LeaseUnavailableError

    async def scenario() -> None:
        client = Redis.from_url(unreachable, socket_connect_timeout=0.5)
        leases = Leases(client, holder="alone")
        with pytest.raises(LeaseUnavailableError, match="Redis could not be reached"):
            await leases.acquire(table_id())
        await client.aclose()

    run(scenario)
