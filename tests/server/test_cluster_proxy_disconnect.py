"""A page connected to a process that relays its table (owned by another process) may go away
at any moment, also while the relay is writing a view to it: that ends the relayed socket
quietly (nothing above debug level is logged, no traceback), the relay says goodbye to the
owner, and the process goes on serving its other pages. So does a page gone while the process
greets it with the table's state (as when it has just taken the table over): the connection is
not left attached. Every wait here is bounded."""

from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect, WebSocketState

from cardtable.server.cluster.proxy import serve_through_relay
from cardtable.server.cluster.relay import Proxy
from cardtable.server.protocol.websocket import _seat
from cardtable.server.rate_limits import RateLimits
from cardtable.server.settings import Settings

from .conftest import owner_of, portal_of, receive, run_async
from .online import shared_table

WAIT_SECONDS = 5.0
VIEW = {"type": "state", "version": 3}


class Page:
    """A page's websocket as the relaying process sees it: it reads nothing until the test
    ends; a page that ``gone`` raises the way a socket whose page went away does when it is
    written to."""

    def __init__(self, app: Any, gone: BaseException | None = None) -> None:
        self.app = app
        self.gone = gone
        self.sent: list[str] = []
        self.application_state = WebSocketState.CONNECTED
        self.client_state = WebSocketState.CONNECTED
        self.written = asyncio.Event()

    async def receive(self) -> dict[str, Any]:
        await asyncio.Event().wait()  # the page sends nothing (cancelled at the end)
        raise AssertionError("unreachable")

    async def send_text(self, text: str) -> None:
        if self.gone is not None:
            self.application_state = WebSocketState.DISCONNECTED
            raise self.gone
        self.sent.append(text)
        self.written.set()

    async def close(self, code: int = 1000, reason: str | None = None) -> None:
        await self.send_text("")


class Relay:
    """The relay's side the proxy loop uses: each socket's proxy gets one view from the owner."""

    def __init__(self) -> None:
        self.closed: list[str] = []
        self.leases = SimpleNamespace(holder_of=self._holder_of)
        self.count = 0

    async def _holder_of(self, table_id: str) -> str:
        return "the-owner"

    async def open_proxy(self, table_id: str, profile_id: int) -> Proxy:
        self.count += 1
        proxy = Proxy(f"here/{self.count}", table_id, profile_id)
        proxy.inbox.put_nowait({"conn": proxy.conn, "message": VIEW})
        return proxy

    async def hello(self, proxy: Proxy) -> None:
        return None

    async def forward(self, proxy: Proxy, raw: str) -> None:
        return None

    async def close_proxy(self, proxy: Proxy) -> None:
        self.closed.append(proxy.conn)


def _app() -> Any:
    settings = Settings()
    context = SimpleNamespace(settings=settings, limits=RateLimits(settings), lobby=None)
    return SimpleNamespace(state=SimpleNamespace(cardtable=context))


GONE = [
    WebSocketDisconnect(code=1006),  # the connection was lost under the write
    RuntimeError('Cannot call "send" once a close message has been sent.'),  # closed already
]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("gone", GONE, ids=["lost", "closed"])
def test_a_relayed_page_gone_while_a_view_is_written_ends_quietly_and_the_next_is_served(
    gone: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    async def scenario() -> tuple[Any, Relay, Page]:
        relay, app = Relay(), _app()
        page = Page(app, gone)
        ended = await asyncio.wait_for(
            serve_through_relay(page, relay, "t1", 7),  # type: ignore[arg-type]
            WAIT_SECONDS,
        )
        # The process goes on: the next page of the table gets its view through the relay.
        other = Page(app)
        serving = asyncio.create_task(serve_through_relay(other, relay, "t1", 8))  # type: ignore[arg-type]
        await asyncio.wait_for(other.written.wait(), WAIT_SECONDS)
        serving.cancel()
        await asyncio.gather(serving, return_exceptions=True)
        return ended, relay, other

    ended, relay, other = run_async(scenario())
    assert ended is None
    assert relay.closed[0] == "here/1"  # the owner is told the socket is gone
    assert other.sent == ['{"type":"state","version":3}']
    loud = [r for r in caplog.records if r.levelno > logging.DEBUG or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]


@pytest.mark.timeout(60)
@pytest.mark.parametrize("gone", GONE, ids=["lost", "closed"])
def test_a_page_gone_while_it_is_greeted_ends_quietly_and_is_not_left_attached(
    client: TestClient, gone: BaseException, caplog: pytest.LogCaptureFixture
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    table_id = shared_table(client, "indian-rummy", seats, rules={"deals": 1})["table_id"]
    owner = owner_of(client, table_id)
    host = owner.people.room.host if owner.people.room is not None else -1
    page = Page(client.app, gone)

    async def seat_the_page() -> None:
        await asyncio.wait_for(_seat(page, table_id, host), WAIT_SECONDS)  # type: ignore[arg-type]

    caplog.set_level(logging.DEBUG)
    caplog.clear()
    portal_of(client).call(seat_the_page)
    assert all(not listeners for listeners in owner.audience.connections.values()), (
        owner.audience.connections
    )
    assert not owner.connected(0)
    loud = [r for r in caplog.records if r.levelno > logging.DEBUG or r.exc_info]
    assert loud == [], [r.getMessage() for r in loud]
    # The process goes on serving the table: the host's next page is greeted as usual.
    with client.websocket_connect(f"/ws/tables/{table_id}") as ws:
        assert receive(ws)["type"] == "room"
        assert owner.connected(0)
