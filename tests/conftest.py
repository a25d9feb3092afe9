"""Fixtures shared by every test folder.

A real component that is missing skips its tests on a developer's machine, but
fails them under CI (``CI=true``), where ``./test.sh`` must have installed it.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from milligan.store.testing import TemporaryPostgres, postgres_bin


def missing(what: str) -> None:
    """Skip (or, under CI, fail) because ``what`` is not installed."""
    if os.environ.get("CI"):
        pytest.fail(f"{what} is missing under CI: ./test.sh should have installed it")
    pytest.skip(f"{what} is not installed; ./test.sh installs it")


@pytest.fixture(scope="session")
def postgres() -> Iterator[TemporaryPostgres]:
    """One real PostgreSQL server for the whole session (run as the postgres user)."""
    if postgres_bin() is None:
        missing("PostgreSQL")
    with TemporaryPostgres() as server:
        yield server


class ControlGroups:
    """Real control groups made for a test, removed at its end.

    Needs root and a writable cgroup v1 controller, or a cgroup v2 hierarchy
    with the controller enabled; the test is skipped otherwise (the kernel
    provides these, not ``./test.sh``).
    """

    def __init__(self) -> None:
        self.made: list[Path] = []

    def make(self, controller: str, v1: dict[str, str], v2: dict[str, str]) -> Path:
        """A new group with these settings; its ``cgroup.procs``, where a process
        writes its id to join it."""
        name = f"milligan-test-{os.getpid()}-{len(self.made)}"
        mount = Path("/sys/fs/cgroup") / controller
        unified = Path("/sys/fs/cgroup")
        try:
            if (mount / "cgroup.procs").exists():
                group, settings = mount / name, v1
            elif controller in (unified / "cgroup.subtree_control").read_text().split():
                group, settings = unified / name, v2
            else:
                pytest.skip(f"no cgroup {controller} controller to use")
            group.mkdir()
            self.made.append(group)
            for file, value in settings.items():
                (group / file).write_text(value)
        except OSError as error:
            pytest.skip(f"cannot make a {controller} control group: {error}")
        return group / "cgroup.procs"

    def cpu_quota(self, cores: float) -> Path:
        """A group with a CPU quota of ``cores``."""
        quota, period = int(cores * 100_000), 100_000
        return self.make(
            "cpu",
            {"cpu.cfs_period_us": str(period), "cpu.cfs_quota_us": str(quota)},
            {"cpu.max": f"{quota} {period}"},
        )

    def memory_limit(self, mb: int) -> Path:
        """A group limited to ``mb`` MB of memory."""
        limit = str(mb * 1024 * 1024)
        return self.make("memory", {"memory.limit_in_bytes": limit}, {"memory.max": limit})

    def remove(self) -> None:
        """Remove the groups, waiting a little for processes still leaving them."""
        for group in reversed(self.made):
            for _ in range(50):
                try:
                    group.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:  # busy: a process in it has not ended yet
                    time.sleep(0.1)


@pytest.fixture
def control_groups() -> Iterator[ControlGroups]:
    """Real control groups (:class:`ControlGroups`), removed at the end of the test."""
    groups = ControlGroups()
    yield groups
    groups.remove()
