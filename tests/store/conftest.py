"""Fixtures for the storage tests: each backend, with a real PostgreSQL server."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from milligan.store import Database, open_database
from milligan.store.testing import TemporaryPostgres

_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def target(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a fresh, empty database of each backend lives (a path or a URL)."""
    if request.param == "sqlite":
        return str(tmp_path / "games.sqlite3")
    server: TemporaryPostgres = request.getfixturevalue("postgres")
    return server.create_schema(f"store_{next(_names)}")


@pytest.fixture
def opener(target: str) -> Iterator[Callable[[], Database]]:
    """Open the database at ``target`` (as often as a test likes); all closed at the end."""
    opened: list[Database] = []

    def open_it() -> Database:
        database = open_database(target)
        opened.append(database)
        return database

    yield open_it
    for database in opened:
        database.close()


@pytest.fixture
def database(opener: Callable[[], Database]) -> Database:
    return opener()
