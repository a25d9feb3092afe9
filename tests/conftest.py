"""Fixtures shared by every test folder.

A real component that is missing skips its tests on a developer's machine, but
fails them under CI (``CI=true``), where ``./test.sh`` must have installed it.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterator
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


@pytest.fixture
def quota_group() -> Iterator[Callable[[float], Path]]:
    """A real control group with a CPU quota: ``quota_group(cores)`` makes one
    and gives its ``cgroup.procs``, where a process writes its id to join it.

    Needs root and a writable cgroup v1 ``cpu`` controller or a cgroup v2
    hierarchy with ``cpu`` enabled; skipped otherwise (the kernel provides
    this, not ``./test.sh``). The groups are removed at the end.
    """
    made: list[Path] = []

    def make(cores: float) -> Path:
        name = f"milligan-test-{os.getpid()}-{len(made)}"
        period = 100_000
        v1 = Path("/sys/fs/cgroup/cpu")
        v2 = Path("/sys/fs/cgroup")
        try:
            if (v1 / "cpu.cfs_quota_us").exists():
                group = v1 / name
                group.mkdir()
                made.append(group)
                (group / "cpu.cfs_period_us").write_text(str(period))
                (group / "cpu.cfs_quota_us").write_text(str(int(cores * period)))
            elif "cpu" in (v2 / "cgroup.subtree_control").read_text().split():
                group = v2 / name
                group.mkdir()
                made.append(group)
                (group / "cpu.max").write_text(f"{int(cores * period)} {period}")
            else:
                pytest.skip("no cgroup cpu controller to set a CPU quota with")
        except OSError as error:
            pytest.skip(f"cannot make a control group with a CPU quota: {error}")
        return group / "cgroup.procs"

    yield make
    for group in reversed(made):
        with contextlib.suppress(OSError):
            group.rmdir()
