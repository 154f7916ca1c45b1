"""Worker processes of the server (the computer players' search, the hand analysis) that end
with the server process that started them.

A :class:`~concurrent.futures.ProcessPoolExecutor`'s workers wait on a queue whose two ends they
both hold, so when the server process is killed outright (SIGKILL, the out-of-memory killer: no
shutdown runs) they never see it go and live on as orphans, a few more at every restart of a
worker. Each worker started here watches its parent from a daemon thread and exits once it has
gone (the process is then adopted by another, so its parent id changes).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

PARENT_CHECK_SECONDS: Final = 1.0
"""How often a worker looks whether the process that started it is still there."""


def spawn_pool(
    max_workers: int,
    initializer: Callable[..., None] | None = None,
    initargs: tuple[Any, ...] = (),
) -> ProcessPoolExecutor:
    """A pool of spawned worker processes (never forked: the server runs threads and an event
    loop) that end with this process; ``initializer(*initargs)`` runs in each as it starts."""
    return ProcessPoolExecutor(
        max_workers=max_workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_start_worker,
        initargs=(os.getpid(), initializer, initargs),
    )


def _start_worker(
    parent: int, initializer: Callable[..., None] | None, initargs: tuple[Any, ...]
) -> None:
    threading.Thread(target=_end_with, args=(parent,), name="end-with-parent", daemon=True).start()
    if initializer is not None:
        initializer(*initargs)


def _end_with(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(PARENT_CHECK_SECONDS)
    # The server is gone: nothing waits for this process's answers any more.
    os._exit(0)
