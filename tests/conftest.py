"""Fixtures shared by every test folder.

A real component that is missing skips its tests on a developer's machine, but
fails them under CI (``CI=true``), where ``./test.sh`` must have installed it.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

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
