"""The default backend: one SQLite file, in WAL mode with full sync.

Every committed write is on disk before the call returns
(``synchronous=FULL``), so a crash right after a reply loses nothing.
Writers are serialised by one lock in the process, so SQLite's busy
handler (which sleeps) never runs between the server's own threads.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from milligan.store.database import Database, StoreError


class SQLiteDatabase(Database):
    """Saved games in a SQLite file (created, with its folder, when missing)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self._write_lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.migrate()
        except (OSError, sqlite3.Error) as error:
            raise StoreError(f"cannot open the database {self.path}: {error}") from None

    @property
    def description(self) -> str:
        return str(self.path)

    def connect(self) -> Any:
        # isolation_level=None: transactions are begun explicitly, DDL included.
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.execute("PRAGMA journal_mode=WAL")
        connection.execute("PRAGMA synchronous=FULL")
        connection.execute("PRAGMA foreign_keys=ON")
        connection.execute("PRAGMA busy_timeout=10000")
        return connection

    def begin(self, cursor: Any) -> None:
        cursor.execute("BEGIN IMMEDIATE")

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._write_lock:
            yield
