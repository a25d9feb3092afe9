"""Worker processes (milligan.workers): spawned, dying with their parent, ignoring Ctrl-C."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import TYPE_CHECKING

import psutil
import pytest

import milligan
from milligan.solver import fair
from milligan.workers import (
    cpu_quota,
    kill_pool,
    memory_allowed_mb,
    process_pool,
    start_process,
    usable_cores,
)

if TYPE_CHECKING:
    from conftest import ControlGroups

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


def _groups(tmp_path: Path, membership: str, files: dict[str, str]) -> tuple[Path, Path]:
    """A made-up cgroup tree under ``tmp_path``: its root and the membership file."""
    root = tmp_path / "cgroup"
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    root.mkdir(exist_ok=True)
    (tmp_path / "cgroup-of-self").write_text(membership)
    return root, tmp_path / "cgroup-of-self"


@pytest.mark.parametrize(
    ("membership", "files", "quota"),
    [
        # cgroup v2: the group's own limit, and the smallest on the way up
        ("0::/box\n", {"box/cpu.max": "150000 100000\n"}, 1.5),
        ("0::/box/app\n", {"box/cpu.max": "300000 100000", "box/app/cpu.max": "max 100000"}, 3),
        ("0::/box/app\n", {"box/cpu.max": "400000 100000", "box/app/cpu.max": "50000 100000"}, 0.5),
        ("0::/\n", {}, None),
        ("0::/box\n", {"box/cpu.max": "max 100000\n"}, None),
        # cgroup v1, the controllers joined or apart; -1 is no quota
        (
            "4:cpu,cpuacct:/docker/c1\n2:memory:/docker/c1\n",
            {
                "cpu,cpuacct/docker/c1/cpu.cfs_quota_us": "200000",
                "cpu,cpuacct/docker/c1/cpu.cfs_period_us": "100000",
            },
            2,
        ),
        (
            "1:cpu:/x\n",
            {"cpu/x/cpu.cfs_quota_us": "-1", "cpu/x/cpu.cfs_period_us": "100000"},
            None,
        ),
        # inside a container the mount is the container's own group, and the
        # path it is named by from the host is not there
        (
            "1:cpu:/kubepods/pod7/abc\n",
            {"cpu/cpu.cfs_quota_us": "100000", "cpu/cpu.cfs_period_us": "100000"},
            1,
        ),
        # unreadable or odd lines are no quota
        ("garbage\n", {}, None),
        ("0::/box\n", {"box/cpu.max": "lots\n"}, None),
    ],
)
def test_the_cpu_quota_is_read_from_the_control_groups(
    tmp_path: Path, membership: str, files: dict[str, str], quota: float | None
) -> None:
    root, where = _groups(tmp_path, membership, files)
    assert cpu_quota(root, where) == quota
    cores = len(os.sched_getaffinity(0))
    expected = cores if quota is None else max(1, min(cores, int(quota)))
    assert usable_cores(root, where) == expected


def test_no_control_groups_is_no_quota(tmp_path: Path) -> None:
    assert cpu_quota(tmp_path / "none", tmp_path / "none") is None
    assert usable_cores(tmp_path / "none", tmp_path / "none") == len(os.sched_getaffinity(0))


JOIN = "import os, sys, pathlib; pathlib.Path(sys.argv[1]).write_text(str(os.getpid()))\n"


def _run_in(procs: Path, script: str) -> list[str]:
    """What ``script`` prints, run by a new interpreter that joins a control group
    first (its id written to ``procs``)."""
    command = [sys.executable, "-c", JOIN + script, str(procs)]
    run = subprocess.run(command, capture_output=True, text=True, check=True, timeout=60)
    return run.stdout.split()


COUNT = """
from milligan.solver import fair
from milligan.workers import cpu_quota, usable_cores
print(cpu_quota(), usable_cores(), fair.default_threads())
"""


@pytest.mark.parametrize("cores", [1, 1.5, 0.5, 64])
def test_a_process_in_a_real_control_group_counts_its_quota(
    control_groups: ControlGroups, cores: float
) -> None:
    # a real cgroup with a CPU quota, joined by a real process: what it
    # reads there is what the server's hint budget and the survey's pool use
    # (the group is made inside this process's own, whose quota, if any,
    # still counts: a test run in a container)
    outer = cpu_quota()
    quota = cores if outer is None else min(cores, outer)
    out = _run_in(control_groups.cpu_quota(cores), COUNT)
    usable = max(1, min(len(os.sched_getaffinity(0)), int(quota)))
    assert float(out[0]) == quota
    assert int(out[1]) == usable
    assert int(out[2]) == min(fair.MAX_THREADS, usable)


GIB = 1024**3


@pytest.mark.parametrize(
    ("membership", "files", "allowed"),
    [
        # cgroup v2: the limit less what is in use, the smallest on the way up
        ("0::/box\n", {"box/memory.max": f"{2 * GIB}", "box/memory.current": f"{GIB // 2}"}, 1536),
        (
            "0::/box/app\n",
            {
                "box/memory.max": f"{GIB}",
                "box/memory.current": f"{GIB // 4}",
                "box/app/memory.max": "max",
                "box/app/memory.current": "0",
            },
            768,
        ),
        ("0::/box\n", {"box/memory.max": "max\n", "box/memory.current": "5"}, None),
        # cgroup v1; "no limit" is a number near 2**63
        (
            "5:memory:/docker/c1\n",
            {
                "memory/docker/c1/memory.limit_in_bytes": f"{GIB}",
                "memory/docker/c1/memory.usage_in_bytes": f"{GIB // 2}",
            },
            512,
        ),
        (
            "5:memory:/\n",
            {
                "memory/memory.limit_in_bytes": "9223372036854771712",
                "memory/memory.usage_in_bytes": "1000",
            },
            None,
        ),
        # over the limit (the kernel reclaims): nothing left
        ("0::/box\n", {"box/memory.max": "1000", "box/memory.current": "2000"}, 0),
        ("4:cpu:/x\n", {"cpu/x/cpu.cfs_quota_us": "100000"}, None),
    ],
)
def test_the_memory_left_is_read_from_the_control_groups(
    tmp_path: Path, membership: str, files: dict[str, str], allowed: int | None
) -> None:
    root, where = _groups(tmp_path, membership, files)
    assert memory_allowed_mb(root, where) == allowed


MEASURE = """
from milligan.survey.runner import available_memory_mb
from milligan.workers import memory_allowed_mb
print(memory_allowed_mb(), available_memory_mb())
"""


def test_a_process_in_a_real_control_group_counts_its_memory_limit(
    control_groups: ControlGroups,
) -> None:
    # a real cgroup limited to 300 MB, joined by a real process: the survey's
    # local pool shares out what the limit leaves, not the host's free memory
    out = _run_in(control_groups.memory_limit(300), MEASURE)
    allowed, available = int(out[0]), int(out[1])
    assert 150 < allowed <= 300  # less what was charged to the group since joining
    assert available == allowed
