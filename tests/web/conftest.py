"""Fixtures for the API tests: the app over SQLite and over a real PostgreSQL server."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from milligan.store import Database, open_database
from milligan.store.testing import TemporaryPostgres
from milligan.web.app import create_app
from milligan.web.deps import HelpBudget
from milligan.web.settings import ServerSettings

#: Small budgets, so that hint and solution tests stay quick.
TEST_BUDGET = HelpBudget(
    hint_samples=2, hint_positions=300, solution_seconds=5.0, solution_positions=5_000
)
#: No background work: the winnable pool is filled by the tests that want it.
TEST_SETTINGS = ServerSettings(fill_winnable=False, winnable_pool=1, winnable_positions=200_000)

_names = itertools.count()


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Database]:
    """A fresh, empty database of each backend."""
    if request.param == "sqlite":
        db = open_database(tmp_path / "games.sqlite3")
    else:
        server: TemporaryPostgres = request.getfixturevalue("postgres")
        db = open_database(server.create_schema(f"api_{next(_names)}"))
    yield db
    db.close()


@pytest.fixture
def app(database: Database):  # type: ignore[no-untyped-def]
    return create_app(database, budget=TEST_BUDGET, settings=TEST_SETTINGS)


@pytest.fixture
def new_client(app) -> Iterator[Callable[[], TestClient]]:  # type: ignore[no-untyped-def]
    """A factory of browsers: each client is a different player (its own cookie)."""
    clients: list[TestClient] = []

    def make() -> TestClient:
        client = TestClient(app, base_url="http://localhost")
        client.__enter__()
        clients.append(client)
        return client

    yield make
    for client in clients:
        client.__exit__(None, None, None)


@pytest.fixture
def client(new_client: Callable[[], TestClient]) -> TestClient:
    return new_client()
