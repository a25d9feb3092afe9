"""The PostgreSQL backend (psycopg 3): ``--database postgresql://user@host/name``.

PostgreSQL commits durably by default (``synchronous_commit`` on), so an
acknowledged move survives a crash of the server or of the database.
"""

from __future__ import annotations

from typing import Any

import psycopg

from milligan.store.database import Database, StoreError


class PostgresDatabase(Database):
    """Saved games in a PostgreSQL database given by a connection URL."""

    placeholder = "%s"

    def __init__(self, url: str) -> None:
        super().__init__()
        self.url = url
        try:
            self.migrate()
        except psycopg.Error as error:
            raise StoreError(f"cannot open the database {self.description}: {error}") from None

    @property
    def description(self) -> str:
        info = psycopg.conninfo.conninfo_to_dict(self.url)
        info.pop("password", None)
        host = info.get("host", "localhost")
        port = info.get("port", 5432)
        return f"postgresql://{info.get('user', '')}@{host}:{port}/{info.get('dbname', '')}"

    def connect(self) -> Any:
        return psycopg.connect(self.url, autocommit=False)
