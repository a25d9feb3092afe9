"""The default backend: one SQLite file, in WAL mode with full sync.

Every committed write is on disk before the call returns
(``synchronous=FULL``), so a crash right after a reply loses nothing.

Writes go through one writer thread, which commits them in groups: the
writes that arrive while a commit is being synced wait for the next one, and
that commit carries them all with a single sync (each write in its own
savepoint, so one failing write does not spoil the others). Under load this
turns one disk sync per move into one per batch of moves; alone, a write
costs what it would anyway. Reads use a connection per thread and never
wait for writers.
"""

from __future__ import annotations

import queue
import sqlite3
import threading
from collections.abc import Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import Any

from milligan.store.database import Database, StoreError

#: The most writes one commit carries.
BATCH_LIMIT = 256

_Write = tuple[Sequence[tuple[str, Sequence[Any]]], "Future[list[int]]"]


class SQLiteDatabase(Database):
    """Saved games in a SQLite file (created, with its folder, when missing)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__()
        self.path = Path(path)
        self._queue: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._writer_lock = threading.Lock()
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.migrate()
        except (OSError, sqlite3.Error) as error:
            self.close()
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

    # -- group commit -------------------------------------------------------------

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        with self._writer_lock:
            if self._writer is None:
                connection = self.connect()  # opened here, so that errors reach the caller
                self._writer = threading.Thread(
                    target=self._write_loop, args=(connection,), name="sqlite-writer", daemon=True
                )
                self._writer.start()
        done: Future[list[int]] = Future()
        self._queue.put((statements, done))
        return done.result()

    def _write_loop(self, connection: sqlite3.Connection) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                break
            batch = [first]
            stop = False
            while len(batch) < BATCH_LIMIT:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                batch.append(more)
            self._commit(connection, batch)
            if stop:
                break
        connection.close()

    @staticmethod
    def _commit(connection: sqlite3.Connection, batch: list[_Write]) -> None:
        outcomes: list[tuple[Future[list[int]], list[int] | None, BaseException | None]] = []
        cursor = connection.cursor()
        try:
            cursor.execute("BEGIN IMMEDIATE")
            for statements, done in batch:
                cursor.execute("SAVEPOINT write")
                try:
                    counts = []
                    for sql, params in statements:
                        cursor.execute(sql, tuple(params))
                        counts.append(cursor.rowcount)
                except Exception as error:  # this write fails alone
                    cursor.execute("ROLLBACK TO write")
                    outcomes.append((done, None, error))
                else:
                    outcomes.append((done, counts, None))
                cursor.execute("RELEASE write")
            cursor.execute("COMMIT")
        except Exception as error:  # the commit failed: nothing of the batch is saved
            if connection.in_transaction:
                connection.rollback()
            for _, done in batch:
                done.set_exception(error)
            return
        for done, result, failure in outcomes:
            if failure is not None:
                done.set_exception(failure)
            else:
                assert result is not None
                done.set_result(result)

    def close(self) -> None:
        with self._writer_lock:
            if self._writer is not None:
                self._queue.put(None)
                self._writer.join(timeout=30)
                self._writer = None
        super().close()
