"""Worker processes that share nothing with their parent and die with it.

The server's solver lanes (:mod:`milligan.web.worker`) and the survey's local
pool (:mod:`milligan.survey.runner`) start their workers here, the same way:

- with ``spawn``, never ``fork``: both parents run threads, and a forked
  child would inherit their locks in whatever state they were;
- each worker ignores Ctrl-C (stopping the workers is the parent's job), a
  single worker from :func:`start_process` ignores SIGTERM too, and every
  worker dies with its parent, even when the parent is killed with SIGKILL: through
  ``prctl(PR_SET_PDEATHSIG)`` on Linux, else a thread that watches the
  parent's id;
- optionally at a lower priority (``niceness``), so that background work
  gives way to the parent.

Each pool keeps its own policy: what to cancel, when to restart, what to
resubmit. :func:`usable_cores` says how many cores this process may use,
for the survey's default pool and the fair player's default threads, and
:func:`memory_allowed_mb` how much memory its control groups still allow. This
module imports only the standard library, and nothing of the server, the
survey or the solver.
"""

from __future__ import annotations

import concurrent.futures as cf
import contextlib
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from multiprocessing.context import SpawnContext, SpawnProcess
from pathlib import Path
from typing import Any, TypeVar

#: Every worker process starts with ``spawn``.
CONTEXT: SpawnContext = multiprocessing.get_context("spawn")

#: How often the fallback watch looks at the parent, in seconds.
WATCH_INTERVAL = 1.0

_PR_SET_PDEATHSIG = 1

#: Where the control groups are mounted, and where this process says which it is in.
CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")

#: A quota in cores, or bytes of memory.
_Number = TypeVar("_Number", int, float)


def usable_cores(root: Path = CGROUP_ROOT, membership: Path = PROC_CGROUP) -> int:
    """The cores this process may keep busy: its CPU affinity, within its CPU quota.

    A container is often shown every core of its host but given a quota of
    CPU time (``docker run --cpus 2``, a Kubernetes CPU limit), so counting
    cores is not enough. The quota is read from the control group this
    process is in, and from each group above it, the smallest counting
    (cgroup v2's ``cpu.max``, v1's ``cpu.cfs_quota_us`` and
    ``cpu.cfs_period_us``). A quota of 1.5 cores gives 1: a thread more than
    the quota runs only when another waits. At least 1.
    """
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    quota = cpu_quota(root, membership)
    if quota is not None:
        cores = min(cores, math.floor(quota))
    return max(1, cores)


def cpu_quota(root: Path = CGROUP_ROOT, membership: Path = PROC_CGROUP) -> float | None:
    """This process's CPU quota in cores, or None when it has none (or no control groups)."""
    return _smallest("cpu", _quota, root, membership)


def memory_allowed_mb(root: Path = CGROUP_ROOT, membership: Path = PROC_CGROUP) -> int | None:
    """What this process's memory limit still allows, in MB, or None when it has none.

    A container's memory limit is not what ``/proc/meminfo`` shows, which
    is its host's. Read from the control group this process is in and each
    group above it (cgroup v2's ``memory.max`` less ``memory.current``, v1's
    ``memory.limit_in_bytes`` less ``memory.usage_in_bytes``), the smallest
    counting.
    """
    room = _smallest("memory", _room, root, membership)
    return None if room is None else max(0, room) // (1024 * 1024)


def _smallest(
    controller: str, read: Callable[[Path, bool], _Number | None], root: Path, membership: Path
) -> _Number | None:
    """The smallest of what ``read`` finds in this process's groups for ``controller``
    (None from a group: no limit there), or None when none has a limit."""
    found = [read(group, v2) for v2, group in _control_groups(controller, root, membership)]
    known = [each for each in found if each is not None]
    return min(known) if known else None


def _control_groups(controller: str, root: Path, membership: Path) -> Iterator[tuple[bool, Path]]:
    """(whether cgroup v2, directory) of each group this process is in for ``controller``,
    its own and those above it."""
    try:
        lines = membership.read_text().splitlines()
    except OSError:
        return
    for line in lines:
        if line.count(":") < 2:
            continue
        _, controllers, group = line.split(":", 2)
        if controllers == "":  # cgroup v2: one hierarchy, mounted at the root
            yield from ((True, where) for where in _groups(root, group))
        elif controller in controllers.split(","):  # cgroup v1: a hierarchy per controller
            for mount in (root / controllers, root / controller):
                if mount.is_dir():
                    yield from ((False, where) for where in _groups(mount, group))
                    break


def _groups(mount: Path, group: str) -> Iterator[Path]:
    """The directories of ``group`` and of every group above it, under ``mount``.

    Inside a container the mount often is the container's own group, and the
    path the process reads names it from the host: levels that are not there
    are skipped, and the mount itself is always read.
    """
    parts = [part for part in group.strip("/").split("/") if part]
    for depth in range(len(parts), -1, -1):
        where = mount.joinpath(*parts[:depth])
        if where.is_dir():
            yield where


def _quota(group: Path, v2: bool) -> float | None:
    """The group's CPU quota in cores, or None without one."""
    try:
        if v2:
            limit, period = (group / "cpu.max").read_text().split()
            return None if limit == "max" else int(limit) / int(period)
        quota_us = int((group / "cpu.cfs_quota_us").read_text())
        period_us = int((group / "cpu.cfs_period_us").read_text())
    except (OSError, ValueError):
        return None
    return None if quota_us <= 0 or period_us <= 0 else quota_us / period_us


#: cgroup v1 writes "no limit" as a number near 2**63.
_NO_LIMIT = 2**60


def _room(group: Path, v2: bool) -> int | None:
    """Bytes the group's memory limit still leaves, or None without a limit."""
    limit_file, usage_file = (
        ("memory.max", "memory.current")
        if v2
        else ("memory.limit_in_bytes", "memory.usage_in_bytes")
    )
    try:
        limit = (group / limit_file).read_text().strip()
        if limit == "max" or int(limit) >= _NO_LIMIT:
            return None
        return int(limit) - int((group / usage_file).read_text())
    except (OSError, ValueError):
        return None


def die_with_parent_signal() -> bool:
    """Ask the kernel to kill this process when its parent ends; False where it cannot.

    Linux only (``prctl``). The signal comes when the *thread* that started
    this process ends, so a parent starts workers from a thread that lives
    as long as they should.
    """
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes

        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)) == 0
    except (OSError, AttributeError):
        return False


def restore_interrupts() -> None:
    """Make Ctrl-C raise KeyboardInterrupt here, whatever the starting process did.

    A background job of a script inherits SIGINT ignored, and a signal mask
    survives ``exec``: both would leave Ctrl-C and ``kill -INT`` without
    effect.  Only the main thread may set handlers; elsewhere this does nothing.
    """
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def watch_parent(parent: int, interval: float = WATCH_INTERVAL) -> threading.Thread:
    """A daemon thread that ends this process once ``parent`` is no longer its parent."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(interval)
        os._exit(1)

    thread = threading.Thread(target=watch, name="parent-watch", daemon=True)
    thread.start()
    return thread


def worker_init(
    parent: int, niceness: int = 0, use_prctl: bool = True, ignore_term: bool = False
) -> None:
    """Set up a worker process of ``parent``: Ctrl-C ignored, death with the parent, niceness.

    ``ignore_term`` ignores SIGTERM as well, for a worker its parent only
    ever ends with SIGKILL: a ``kill`` or ``timeout`` sent to the whole
    process group then reaches the parent alone, which shuts down in order
    instead of finding its worker dead under a job.  (A process pool's own
    shutdown may ``terminate()`` its workers, so pool workers keep SIGTERM.)
    ``use_prctl=False`` uses the watch thread even where ``prctl`` works (for tests).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if ignore_term:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if not (use_prctl and die_with_parent_signal()):
        watch_parent(parent)
    if os.getppid() != parent:  # the parent died while this worker was starting
        os._exit(1)
    if niceness:
        with contextlib.suppress(OSError):
            os.nice(niceness)


def _run(
    parent: int, niceness: int, use_prctl: bool, target: Callable[..., Any], args: tuple[Any, ...]
) -> None:
    worker_init(parent, niceness, use_prctl, ignore_term=True)
    target(*args)


def start_process(
    target: Callable[..., Any],
    *args: Any,
    name: str,
    niceness: int = 0,
    use_prctl: bool = True,
) -> SpawnProcess:
    """A started worker process that runs ``target(*args)``; ``target`` must pickle.

    It ignores SIGINT and SIGTERM: end it with ``kill()`` (SIGKILL).
    """
    process = CONTEXT.Process(
        target=_run,
        args=(os.getpid(), niceness, use_prctl, target, args),
        name=name,
        daemon=True,
    )
    process.start()
    return process


def process_pool(workers: int, niceness: int = 0) -> cf.ProcessPoolExecutor:
    """A pool of ``workers`` worker processes (started as tasks arrive)."""
    return cf.ProcessPoolExecutor(
        workers,
        mp_context=CONTEXT,
        initializer=worker_init,
        initargs=(os.getpid(), niceness),
    )


def kill_pool(pool: cf.ProcessPoolExecutor) -> None:
    """Kill every worker of ``pool``, tasks in flight included (the pool is broken after)."""
    # The pool has no public way to stop tasks in flight (before Python 3.14).
    processes = getattr(pool, "_processes", None) or {}
    for process in list(processes.values()):
        with contextlib.suppress(Exception):
            process.kill()
