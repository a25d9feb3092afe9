"""Worker processes (milligan.workers): spawned, dying with their parent, ignoring Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import psutil
import pytest

import milligan
from milligan.workers import kill_pool, process_pool, start_process

pytestmark = pytest.mark.timeout(120)

PARENT = """
import sys, time
from milligan.workers import start_process
worker = start_process(time.sleep, 600, name="sleeper", use_prctl=sys.argv[1] == "prctl")
print(worker.pid, flush=True)
time.sleep(600)
"""


def _gone(pid: int, timeout: float) -> bool:
    """True once ``pid`` has ended (a zombie waiting for its new parent counts as ended)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        time.sleep(0.1)
    return False


@pytest.mark.parametrize("how", ["prctl", "watch"])
def test_a_worker_dies_with_its_parent_even_after_a_kill(how: str) -> None:
    if how == "prctl" and not sys.platform.startswith("linux"):
        pytest.skip("prctl is Linux only")
    source = str(Path(milligan.__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": source}
    parent = subprocess.Popen(
        [sys.executable, "-c", PARENT, how], stdout=subprocess.PIPE, text=True, env=env
    )
    try:
        assert parent.stdout is not None
        worker = int(parent.stdout.readline())
        assert psutil.Process(worker).ppid() == parent.pid
        assert not _gone(worker, 1.5)  # it lives while its parent does
        parent.kill()  # SIGKILL: the parent cleans nothing up
        parent.wait(timeout=30)
        assert _gone(worker, 20), f"the worker outlived its parent ({how})"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_pool_workers_ignore_ctrl_c_and_run_niced() -> None:
    pool = process_pool(1, niceness=3)
    try:
        assert pool.submit(signal.getsignal, signal.SIGINT).result(timeout=60) == signal.SIG_IGN
        assert pool.submit(os.nice, 0).result(timeout=60) == min(19, os.nice(0) + 3)
        assert pool.submit(os.getppid).result(timeout=60) == os.getpid()
    finally:
        pool.shutdown()


def test_a_single_worker_ignores_sigterm_and_ends_with_kill() -> None:
    """A SIGTERM to the whole process group (``timeout``, ``kill -- -PGID``) is the
    parent's to handle: its single workers live on until it kills them."""
    worker = start_process(time.sleep, 600, name="sleeper")
    try:
        assert worker.pid is not None
        deadline = time.monotonic() + 60
        # wait until the worker has set up its signals (it sleeps from then on)
        while time.monotonic() < deadline:
            if signal.SIGTERM in _ignored_signals(worker.pid):
                break
            time.sleep(0.05)
        assert {signal.SIGINT, signal.SIGTERM} <= _ignored_signals(worker.pid)
        os.kill(worker.pid, signal.SIGTERM)
        assert not _gone(worker.pid, 1.0)
        worker.kill()
        assert _gone(worker.pid, 20)
    finally:
        worker.kill()
        worker.join(timeout=30)


def _ignored_signals(pid: int) -> set[int]:
    """The signals ``pid`` ignores, from ``SigIgn`` in /proc (Linux)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("SigIgn:"):
            mask = int(line.split()[1], 16)
            return {number for number in range(1, 64) if mask & (1 << (number - 1))}
    return set()


def test_killing_a_pool_ends_its_tasks_in_flight() -> None:
    pool = process_pool(1)
    try:
        running = pool.submit(time.sleep, 60)
        time.sleep(1.0)  # let the worker start the task
        started = time.monotonic()
        kill_pool(pool)
        with pytest.raises(BrokenProcessPool):
            running.result(timeout=30)
        assert time.monotonic() - started < 30
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def test_the_module_imports_only_the_standard_library() -> None:
    import ast
    import inspect

    import milligan.workers as workers

    tree = ast.parse(inspect.getsource(workers))
    imported = {
        (node.module or "" if isinstance(node, ast.ImportFrom) else alias.name).split(".")[0]
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }
    assert imported - {"__future__"} <= set(sys.stdlib_module_names)
