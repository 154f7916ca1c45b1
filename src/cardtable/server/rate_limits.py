"""Rate limits: how often one client address or one profile may create profiles and tables,
import or read a record, open replays, ask for analyses, send websocket messages, and how many
websockets a profile may hold open.

The counting is the ``limits`` library's moving window over memory for one server alone; in a
cluster, what an address or a profile does is counted in Redis, which every worker shares
(:mod:`cardtable.server.cluster.shared_limits`), and only one connection's counts stay in the
memory of the process holding it. The limits themselves are settings
(:class:`~cardtable.server.settings.Settings`), written as ``limits`` strings such as
``"10/minute;100/hour"``. A request over a limit gets 429 with a sentence and ``Retry-After``;
a websocket, an error message and then the close code :data:`CLOSE_RATE_LIMITED`.
"""

from __future__ import annotations

import asyncio
import math
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal

from limits import RateLimitItem, parse_many
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter

from cardtable.server.cluster.shared_limits import SOCKET_TTL_SECONDS
from cardtable.server.settings import Settings

if TYPE_CHECKING:
    from cardtable.server.cluster.shared_limits import SharedCounts

CLOSE_RATE_LIMITED: Final = 4429

Action = Literal[
    "profile",
    "table",
    "import",
    "message",
    "socket",
    "join",
    "quick",
    "record",
    "replay",
    "analysis",
]
WHAT: Final[dict[Action, str]] = {
    "profile": "new profiles",
    "table": "new tables",
    "import": "record imports",
    "message": "messages",
    "socket": "new connections",
    "join": "invite links opened",
    "quick": "quick messages",
    "record": "record reads",
    "replay": "replays",
    "analysis": "analyses asked for",
}


@dataclass(frozen=True, slots=True)
class Refusal:
    """A request over a limit: the sentence to send, and the seconds until it would pass."""

    message: str
    retry_after: int


class RateLimits:
    """The limits of one app (see the module docstring)."""

    def __init__(self, settings: Settings, shared: SharedCounts | None = None) -> None:
        self.enabled = settings.rate_limits
        self._rules: dict[Action, list[RateLimitItem]] = {
            "profile": parse_many(settings.limit_profiles),
            "table": parse_many(settings.limit_tables),
            "import": parse_many(settings.limit_imports),
            "message": parse_many(settings.limit_messages),
            "socket": parse_many(settings.limit_sockets),
            "join": parse_many(settings.limit_joins),
            "quick": parse_many(settings.limit_quick),
            "record": parse_many(settings.limit_records),
            "replay": parse_many(settings.limit_replays),
            "analysis": parse_many(settings.limit_analyses),
        }
        self.max_sockets_per_profile = settings.max_sockets_per_profile
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._open_sockets: Counter[int] = Counter()
        self.shared = shared
        # Sockets of each profile counted in Redis (the others, counted while it was out of
        # reach, are only in _open_sockets).
        self._shared_sockets: Counter[int] = Counter()

    def _limiter_for(self, key: str) -> MovingWindowRateLimiter:
        """Where ``key`` is counted: one connection's counts in this process, an address's
        or a profile's in Redis when the cluster shares them and Redis answers."""
        if self.shared is not None and not key.startswith("socket:") and self.shared.available:
            return self.shared.limiter
        return self._limiter

    def hit(self, action: Action, *keys: str) -> Refusal | None:
        """Count one ``action`` for each key (an address, a profile, a socket); a refusal (and
        nothing counted) when any key is over a limit."""
        refusal = self.refusal(action, *keys)
        if refusal is None:
            self.count(action, *keys)
        return refusal

    def refusal(self, action: Action, *keys: str) -> Refusal | None:
        """Why one more ``action`` would be over a limit for one of the keys (nothing counted)."""
        if not self.enabled:
            return None
        for key in keys:
            for item in self._rules[action]:
                limiter = self._limiter_for(key)
                try:
                    allowed = limiter.test(item, action, key)
                    stats = None if allowed else limiter.get_window_stats(item, action, key)
                except Exception as exc:  # Redis out of reach: count here for a while
                    self._shared_failed(exc)
                    allowed = self._limiter.test(item, action, key)
                    stats = None if allowed else self._limiter.get_window_stats(item, action, key)
                if stats is not None:
                    wait = max(1, math.ceil(stats.reset_time - time.time()))
                    return Refusal(
                        f"too many {WHAT[action]}: at most {item.amount} per "
                        f"{_period(item)}; try again in {wait} seconds",
                        wait,
                    )
        return None

    def count(self, action: Action, *keys: str) -> None:
        """Count one ``action`` for each key (after it was done: refused ones do not count)."""
        if not self.enabled:
            return
        for key in keys:
            for item in self._rules[action]:
                limiter = self._limiter_for(key)
                try:
                    limiter.hit(item, action, key)
                except Exception as exc:
                    self._shared_failed(exc)
                    self._limiter.hit(item, action, key)

    def _shared_failed(self, exc: Exception) -> None:
        assert self.shared is not None
        self.shared.failed(exc)

    def open_socket(self, profile_id: int) -> Refusal | None:
        """Count a websocket opened by ``profile_id``, or refuse it when the profile already
        holds :attr:`max_sockets_per_profile` (across the cluster, in one);
        :meth:`close_socket` when it closes."""
        refusal = Refusal(
            f"too many open connections: at most {self.max_sockets_per_profile} per player; "
            "close other tabs first",
            5,
        )
        if self.enabled and self._open_sockets[profile_id] >= self.max_sockets_per_profile:
            return refusal
        if self.enabled and self.shared is not None and self.shared.available:
            try:
                if not self.shared.open_socket(profile_id, self.max_sockets_per_profile):
                    return refusal
                self._shared_sockets[profile_id] += 1
            except Exception as exc:
                self._shared_failed(exc)
        self._open_sockets[profile_id] += 1
        return None

    def close_socket(self, profile_id: int) -> None:
        """A websocket of ``profile_id`` closed."""
        self._open_sockets[profile_id] -= 1
        if self._open_sockets[profile_id] <= 0:
            del self._open_sockets[profile_id]
        if self.shared is not None and self._shared_sockets[profile_id] > 0:
            self._shared_sockets[profile_id] -= 1
            if self._shared_sockets[profile_id] <= 0:
                del self._shared_sockets[profile_id]
            self.shared.close_socket(profile_id)

    async def renew_shared(self) -> None:
        """Keep this process's open sockets counted in Redis (runs for the app's lifetime in
        a cluster; returns at once otherwise)."""
        shared = self.shared
        if shared is None:
            return
        while True:
            await asyncio.sleep(SOCKET_TTL_SECONDS / 3)
            try:
                await asyncio.to_thread(shared.renew)
            except Exception as exc:
                shared.failed(exc)


def _period(item: RateLimitItem) -> str:
    """``"minute"``, ``"10 seconds"``…

    >>> [_period(item) for item in parse_many("5/minute;50/10 seconds")]
    ['minute', '10 seconds']
    """
    name = item.GRANULARITY.name
    return name if item.multiples == 1 else f"{item.multiples} {name}s"
