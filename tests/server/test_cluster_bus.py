"""The in-process bus delivers as the relay needs Redis pub/sub to: each subscribe is confirmed,
a payload reaches every subscription listening on its channel when it is published, in order,
from any thread, and the publisher learns how many listened; an app whose event loop is gone
listens no more (its owner then forgets its proxied sockets, as when a process died). Every
wait is bounded."""

from __future__ import annotations

import asyncio
import threading

from cardtable.server.cluster.bus import Confirmed, Delivery, Event, InProcessBus, Subscription

from .conftest import run_async

WAIT_SECONDS = 5.0


async def events(subscription: Subscription, count: int) -> list[Event]:
    got: list[Event] = []
    while len(got) < count:
        event = await subscription.next_event(WAIT_SECONDS)
        assert event is not None, f"only {got} arrived"
        got.append(event)
    return got


def test_payloads_reach_the_listeners_of_their_channel_in_order_with_their_number() -> None:
    bus = InProcessBus()

    async def scenario() -> tuple[list[int], list[Event], list[Event]]:
        first, second = bus.subscription(), bus.subscription()
        await first.subscribe("a", "b")
        await second.subscribe("a")
        counts = [
            await bus.publish("a", b"1"),
            await bus.publish("b", b"2"),
            await bus.publish("a", b"3"),
            await bus.publish("nobody", b"4"),
        ]
        await second.unsubscribe("a")
        counts.append(await bus.publish("a", b"5"))
        return counts, await events(first, 6), await events(second, 3)

    counts, first, second = run_async(scenario())
    assert counts == [2, 1, 2, 0, 1]
    assert first == [
        Confirmed("a"),
        Confirmed("b"),
        Delivery("a", b"1"),
        Delivery("b", b"2"),
        Delivery("a", b"3"),
        Delivery("a", b"5"),
    ]
    assert second == [Confirmed("a"), Delivery("a", b"1"), Delivery("a", b"3")]


def test_a_subscription_on_another_loop_hears_it_and_a_gone_loop_listens_no_more() -> None:
    bus = InProcessBus()
    subscribed, heard = threading.Event(), []

    async def other_app() -> None:
        subscription = bus.subscription()
        await subscription.subscribe("proc:other")
        await subscription.next_event(WAIT_SECONDS)  # its confirmation
        subscribed.set()
        event = await subscription.next_event(WAIT_SECONDS)
        heard.append(event)

    thread = threading.Thread(target=lambda: asyncio.run(other_app()))
    thread.start()
    assert subscribed.wait(WAIT_SECONDS)

    async def publish() -> int:
        return await bus.publish("proc:other", b"hello")

    assert run_async(publish()) == 1
    thread.join(WAIT_SECONDS)
    assert heard == [Delivery("proc:other", b"hello")]
    # That app's loop has closed: nobody listens there now, and the bus forgot it.
    assert run_async(publish()) == 0
    assert run_async(publish()) == 0
