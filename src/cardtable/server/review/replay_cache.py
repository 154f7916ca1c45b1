"""Finished games' replays, made once: the encoded answer kept in a bounded cache per process.

A replay replays every move of the game and writes every hand of every frame, seconds of work
for a long game; a finished game never changes, so its answer is made once (in a worker
thread, encoded there too: a big answer never waits on the event loop) and kept, the least
recently used ones given up past :data:`MAX_CACHED_BYTES`. Requests for a replay being made
wait for that one instead of making their own.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Final

MAX_CACHED_BYTES: Final = 64 * 1024 * 1024


class ReplayCache:
    """Encoded replays by table id (see the module docstring)."""

    def __init__(self, max_bytes: int = MAX_CACHED_BYTES) -> None:
        self.max_bytes = max_bytes
        self._answers: OrderedDict[str, bytes] = OrderedDict()
        self._size = 0
        self._making: dict[str, asyncio.Future[bytes]] = {}
        self.made = 0
        """How many replays were made (not read from the cache): tests and metrics read it."""

    def peek(self, table_id: str) -> bytes | None:
        """The cached replay of ``table_id``, if there is one."""
        answer = self._answers.get(table_id)
        if answer is not None:
            self._answers.move_to_end(table_id)
        return answer

    async def get(self, table_id: str, make: Callable[[], Awaitable[bytes]]) -> bytes:
        """The replay of ``table_id``: the cached one, the one being made, or a new one that
        ``make`` makes (its error reaches every request waiting for it; nothing is kept)."""
        answer = self._answers.get(table_id)
        if answer is not None:
            self._answers.move_to_end(table_id)
            return answer
        making = self._making.get(table_id)
        if making is not None:
            return await asyncio.shield(making)
        making = asyncio.get_running_loop().create_future()
        self._making[table_id] = making
        try:
            answer = await make()
        except asyncio.CancelledError:
            making.cancel()
            raise
        except Exception as exc:
            making.set_exception(exc)
            making.exception()  # retrieved: whoever waits on it gets it raised
            raise
        finally:
            del self._making[table_id]
        self.made += 1
        making.set_result(answer)
        self._keep(table_id, answer)
        return answer

    def _keep(self, table_id: str, answer: bytes) -> None:
        if len(answer) > self.max_bytes:
            return
        self._answers[table_id] = answer
        self._size += len(answer)
        while self._size > self.max_bytes:
            _, dropped = self._answers.popitem(last=False)
            self._size -= len(dropped)
