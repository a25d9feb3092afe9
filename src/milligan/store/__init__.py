"""Saved games and statistics: SQLite by default, PostgreSQL on request.

>>> default_database_path().name
'milligan.sqlite3'
"""

from __future__ import annotations

from pathlib import Path

from milligan.store.database import SCHEMA_VERSION, Database, GameRow, StoreError

__all__ = [
    "SCHEMA_VERSION",
    "Database",
    "GameRow",
    "StoreError",
    "default_database_path",
    "open_database",
]


def default_database_path() -> Path:
    """The SQLite file in the user's data folder (platformdirs)."""
    import platformdirs

    return Path(platformdirs.user_data_dir("milligan", appauthor=False)) / "milligan.sqlite3"


def open_database(target: str | Path | None = None) -> Database:
    """Open (creating and migrating as needed) the database at ``target``.

    ``target`` is a ``postgresql://`` (or ``postgres://``) URL, a SQLite file
    path, or None for :func:`default_database_path`.
    """
    if isinstance(target, str) and target.startswith(("postgresql://", "postgres://")):
        from milligan.store.postgres import PostgresDatabase

        return PostgresDatabase(target)
    from milligan.store.sqlite import SQLiteDatabase

    return SQLiteDatabase(default_database_path() if target is None else target)
