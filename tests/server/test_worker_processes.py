"""The server's worker processes (computer players' search, hand analysis) end when the server
process is killed outright, instead of living on as orphans."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from cardtable.server.hosting.worker_processes import PARENT_CHECK_SECONDS, spawn_pool

SERVER_LIKE = textwrap.dedent(
    """
    import os, sys, time
    from cardtable.server.hosting.worker_processes import spawn_pool
    from cardtable.server.review.analysis_jobs import start_worker
    import multiprocessing

    thinkers = spawn_pool(2)
    analysis = spawn_pool(1, start_worker, (multiprocessing.get_context("spawn").Queue(),))
    pids = {thinkers.submit(os.getpid).result(timeout=60) for _ in range(8)}
    pids.add(analysis.submit(os.getpid).result(timeout=60))
    print(" ".join(map(str, sorted(pids))), flush=True)
    time.sleep(120)
    """
)


def _alive(pid: int) -> bool:
    """Running, not gone and not a zombie waiting for a parent that may never reap it."""
    try:
        state = Path(f"/proc/{pid}/status").read_text()
    except FileNotFoundError:
        return False
    return "\nState:\tZ" not in state


def _pool_pids(proc: subprocess.Popen[str]) -> list[int]:
    assert proc.stdout is not None
    line = proc.stdout.readline()
    assert line, "the server-like process printed no worker ids"
    return [int(pid) for pid in line.split()]


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads /proc (Linux)")
def test_workers_end_when_the_server_process_is_killed() -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    proc = subprocess.Popen(
        [sys.executable, "-c", SERVER_LIKE], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        workers = _pool_pids(proc)
        assert len(workers) >= 2 and proc.pid not in workers
        assert all(_alive(pid) for pid in workers)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        deadline = time.monotonic() + 10 * PARENT_CHECK_SECONDS + 10
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.2)
        left = [pid for pid in workers if _alive(pid)]
        assert not left, f"worker processes outlived the killed server: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_workers_run_their_initializer_and_answer(tmp_path: Path) -> None:
    pool = spawn_pool(1, os.chdir, (str(tmp_path),))
    try:
        assert pool.submit(os.getcwd).result(timeout=60) == str(tmp_path)
        assert pool.submit(os.getppid).result(timeout=60) == os.getpid()
    finally:
        pool.shutdown()
