"""The storage interface: saved games as rows, one SQL schema for every backend.

A game is stored as what it is made of (docs/RULES.md §7.4): the variant, the deal
(number or explicit order), the moves of the line of play and the moves that
can be redone, with its revision and a few flags. The position is never
stored; it is replayed through the engine.

:class:`Database` holds the SQL that every backend shares, written with ``?``
placeholders; a backend supplies connections and translates placeholders.
The schema is created and migrated by :meth:`Database.migrate`, which every
backend runs when it opens.
"""

from __future__ import annotations

import contextlib
import dataclasses
import threading
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from milligan.errors import MilliganError


class StoreError(MilliganError):
    """The database cannot be opened or is from a newer version of the program."""


@dataclass(frozen=True, slots=True)
class GameRow:
    """One saved game, as stored.

    ``moves`` and ``redo`` are move texts (``redo`` next first); ``variant``
    is the variant's ``Variant.key`` (a preset name or the settings as compact
    JSON); ``deal`` is the deal number as decimal text (numbers go up to
    2**64-1, beyond SQL's signed integers) or None for an explicit ``order``
    (card texts separated by spaces).
    ``random`` says the server chose the number; ``secret`` is true while
    that number must not be shown.
    Times are ISO 8601 texts in UTC; ``seconds`` is the playing time.
    """

    id: str
    player: str
    variant: str
    deal: str | None
    order: str | None
    secret: bool
    random: bool
    moves: tuple[str, ...]
    redo: tuple[str, ...]
    revision: int
    status: str
    assisted: bool
    hints: int
    solutions: int
    imported: bool
    seconds: float
    created: str
    updated: str
    finished: str | None

    def replace(self, **changes: Any) -> GameRow:
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)


#: Columns of the ``games`` table, in the order of :class:`GameRow`'s fields.
COLUMNS = (
    "id",
    "player",
    "variant",
    "deal",
    "deal_order",
    "secret",
    "random",
    "moves",
    "redo",
    "revision",
    "status",
    "assisted",
    "hints",
    "solutions",
    "imported",
    "seconds",
    "created",
    "updated",
    "finished",
)

#: Schema versions: each entry upgrades the database from the version before it.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE players (
            id TEXT PRIMARY KEY,
            created TEXT NOT NULL
        )""",
        """CREATE TABLE games (
            id TEXT PRIMARY KEY,
            player TEXT NOT NULL REFERENCES players (id),
            variant TEXT NOT NULL,
            deal TEXT,
            deal_order TEXT,
            secret INTEGER NOT NULL,
            random INTEGER NOT NULL,
            moves TEXT NOT NULL,
            redo TEXT NOT NULL,
            revision INTEGER NOT NULL,
            status TEXT NOT NULL,
            assisted INTEGER NOT NULL,
            hints INTEGER NOT NULL,
            solutions INTEGER NOT NULL,
            imported INTEGER NOT NULL,
            seconds DOUBLE PRECISION NOT NULL,
            created TEXT NOT NULL,
            updated TEXT NOT NULL,
            finished TEXT
        )""",
        "CREATE INDEX games_by_player ON games (player, status, updated)",
    ),
    (
        # Random deal numbers proven won, each dealt once (milligan.web.winnable).
        """CREATE TABLE winnable (
            variant TEXT NOT NULL,
            deal TEXT NOT NULL,
            PRIMARY KEY (variant, deal)
        )""",
    ),
    (
        # Each player's statistics per variant key, kept up to date as games change,
        # so that reading them does not read every game (filled from the games
        # by the migration, see Database.migrate).
        """CREATE TABLE player_stats (
            player TEXT NOT NULL,
            variant TEXT NOT NULL,
            played INTEGER NOT NULL,
            won INTEGER NOT NULL,
            current_streak INTEGER NOT NULL,
            best_streak INTEGER NOT NULL,
            best_time DOUBLE PRECISION,
            fewest_moves INTEGER,
            hints INTEGER NOT NULL,
            solutions INTEGER NOT NULL,
            PRIMARY KEY (player, variant)
        )""",
    ),
    # Every variant written as its Variant.key: custom settings were stored as JSON
    # with spaces before (the survey's results always used the key). The rows are
    # rewritten by the migration, see Database.migrate.
    (),
    (
        # The games started as a daily deal (milligan.daily, docs/RULES.md §10) and the
        # UTC date each belongs to, for the daily streak. Older games are not daily.
        # IF NOT EXISTS: an older version number over a newer schema migrates again.
        """CREATE TABLE IF NOT EXISTS daily_games (
            game_id TEXT PRIMARY KEY REFERENCES games (id),
            player TEXT NOT NULL,
            day TEXT NOT NULL,
            variant TEXT NOT NULL
        )""",
        "CREATE INDEX IF NOT EXISTS daily_games_by_player ON daily_games (player, day)",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
#: The version that brought the ``player_stats`` table.
STATS_VERSION = 3
#: The version from which every stored variant is its ``Variant.key``.
KEYS_VERSION = 4

_STATS = (
    "player",
    "variant",
    "played",
    "won",
    "current_streak",
    "best_streak",
    "best_time",
    "fewest_moves",
    "hints",
    "solutions",
)
#: Typed placeholders (PostgreSQL cannot guess the type of a NULL in a SELECT list).
_STATS_VALUES = (
    "CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS INTEGER), CAST(? AS INTEGER), "
    "CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS DOUBLE PRECISION), "
    "CAST(? AS INTEGER), CAST(? AS INTEGER), CAST(? AS INTEGER)"
)
#: Games' columns a statistic depends on: a change elsewhere leaves them alone.
_MARK = "EXISTS (SELECT 1 FROM games WHERE id = ? AND revision = ? AND updated = ? AND hints = ?)"


def _to_sql(row: GameRow) -> tuple[Any, ...]:
    values = []
    for field in dataclasses.fields(GameRow):
        value = getattr(row, field.name)
        if field.name in ("moves", "redo"):
            value = " ".join(value)
        elif isinstance(value, bool):
            value = int(value)
        values.append(value)
    return tuple(values)


def _from_sql(values: Sequence[Any]) -> GameRow:
    data = dict(zip((field.name for field in dataclasses.fields(GameRow)), values, strict=True))
    for name in ("moves", "redo"):
        data[name] = tuple(data[name].split())
    for name in ("secret", "random", "assisted", "imported"):
        data[name] = bool(data[name])
    data["seconds"] = float(data["seconds"])
    return GameRow(**data)


class Database(ABC):
    """Saved games and players in a SQL database (SQLite or PostgreSQL).

    Methods are safe to call from several threads. Each write is committed
    (durably, as far as the backend promises) before the method returns.
    """

    #: The placeholder the driver uses instead of ``?``.
    placeholder: ClassVar[str] = "?"

    def __init__(self) -> None:
        self._local = threading.local()
        self._connections: list[Any] = []
        self._connections_lock = threading.Lock()

    # -- what a backend provides ----------------------------------------

    @abstractmethod
    def connect(self) -> Any:
        """A new DB-API connection, ready for use (autocommit off)."""

    @property
    @abstractmethod
    def description(self) -> str:
        """Where the data lives, for people (never a password)."""

    # -- plumbing -----------------------------------------------------------

    def _connection(self) -> Any:
        connection = getattr(self._local, "connection", None)
        if connection is not None and (
            getattr(connection, "closed", False) or getattr(connection, "broken", False)
        ):
            # The server went away (psycopg marks such a connection): start afresh.
            with self._connections_lock, contextlib.suppress(ValueError):
                self._connections.remove(connection)
            connection = None
        if connection is None:
            connection = self.connect()
            self._local.connection = connection
            with self._connections_lock:
                self._connections.append(connection)
        return connection

    def _sql(self, sql: str) -> str:
        return sql if self.placeholder == "?" else sql.replace("?", self.placeholder)

    def _read(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        connection = self._connection()
        try:
            cursor = connection.cursor()
            cursor.execute(self._sql(sql), tuple(params))
            rows = cursor.fetchall()
        finally:
            connection.rollback()
        return list(rows)

    def _write(self, statements: Sequence[tuple[str, Sequence[Any]]]) -> list[int]:
        """Run statements in one transaction and commit; their row counts."""
        connection = self._connection()
        counts = []
        try:
            cursor = connection.cursor()
            for sql, params in statements:
                cursor.execute(self._sql(sql), tuple(params))
                counts.append(cursor.rowcount)
            connection.commit()
        except BaseException:
            connection.rollback()
            raise
        return counts

    def close(self) -> None:
        """Close every connection this object opened."""
        with self._connections_lock:
            for connection in self._connections:
                with contextlib.suppress(Exception):  # closing is best effort
                    connection.close()
            self._connections.clear()
        self._local = threading.local()

    # -- schema -------------------------------------------------------------

    def schema_version(self) -> int:
        """The schema version the database is at (0 for an empty database)."""
        connection = self._connection()
        cursor = connection.cursor()
        try:
            cursor.execute("SELECT version FROM schema_version")
            row = cursor.fetchone()
        except Exception:
            connection.rollback()
            return 0
        connection.rollback()
        return int(row[0]) if row else 0

    def migrate(self) -> None:
        """Create the schema, or bring an older one up to :data:`SCHEMA_VERSION`."""
        version = self.schema_version()
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the database {self.description} has schema version {version}; "
                f"this program knows only up to {SCHEMA_VERSION}"
            )
        statements: list[tuple[str, Sequence[Any]]] = []
        if version == 0:
            statements.append(("CREATE TABLE schema_version (version INTEGER NOT NULL)", ()))
            statements.append(("INSERT INTO schema_version (version) VALUES (0)", ()))
        for steps in MIGRATIONS[version:]:
            statements.extend((sql, ()) for sql in steps)
        if 0 < version < STATS_VERSION:
            statements.extend(self._stats_from_games())
        if 0 < version < KEYS_VERSION:
            statements.extend(self._canonical_keys(version))
        if version < SCHEMA_VERSION:
            statements.append(("UPDATE schema_version SET version = ?", (SCHEMA_VERSION,)))
            self._write(statements)

    # -- games --------------------------------------------------------------

    def insert_game(self, row: GameRow) -> None:
        """Save a new game (and its player, if new)."""
        marks = ", ".join("?" * len(COLUMNS))
        self._write(
            [
                (
                    "INSERT INTO players (id, created) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                    (row.player, row.created),
                ),
                (f"INSERT INTO games ({', '.join(COLUMNS)}) VALUES ({marks})", _to_sql(row)),
                *self._stats_changes(None, row),
            ]
        )

    def game(self, game_id: str) -> GameRow | None:
        """The game with this id, or None."""
        rows = self._read(f"SELECT {', '.join(COLUMNS)} FROM games WHERE id = ?", (game_id,))
        return _from_sql(rows[0]) if rows else None

    def update_game(self, row: GameRow, revision: int, before: GameRow | None = None) -> bool:
        """Replace a game if it is still at ``revision``; False (nothing done) if not.

        Given the game as it was (``before``), the player's statistics follow
        the change, in the same transaction.
        """
        names = [c for c in COLUMNS if c not in ("id", "player", "created")]
        values = dict(zip(COLUMNS, _to_sql(row), strict=True))
        sql = (
            f"UPDATE games SET {', '.join(f'{name} = ?' for name in names)} "
            "WHERE id = ? AND revision = ?"
        )
        params = [values[name] for name in names] + [row.id, revision]
        statements = self._stats_changes(before, row) if before is not None else []
        count = self._write([(sql, params), *statements])[0]
        return count == 1

    def games(self, player: str, status: str | None = None, limit: int = 1000) -> list[GameRow]:
        """A player's games, most recently changed first."""
        where = "player = ?" + (" AND status = ?" if status is not None else "")
        params: list[Any] = [player] + ([status] if status is not None else []) + [limit]
        rows = self._read(
            f"SELECT {', '.join(COLUMNS)} FROM games WHERE {where} "
            "ORDER BY updated DESC, id LIMIT ?",
            params,
        )
        return [_from_sql(values) for values in rows]

    # -- proven-won deals ------------------------------------------------------

    def add_winnable(self, variant: str, deal: int) -> None:
        """Keep a deal number proven won, to be dealt once."""
        self._write(
            [
                (
                    "INSERT INTO winnable (variant, deal) VALUES (?, ?) ON CONFLICT DO NOTHING",
                    (variant, str(deal)),
                )
            ]
        )

    def count_winnable(self, variant: str) -> int:
        """How many proven-won deals wait for ``variant``."""
        rows = self._read("SELECT COUNT(*) FROM winnable WHERE variant = ?", (variant,))
        return int(rows[0][0])

    def take_winnable(self, variant: str) -> int | None:
        """A proven-won deal of ``variant``, removed so that no one else gets it; or None."""
        for _ in range(8):  # another server may take the same one first
            rows = self._read("SELECT deal FROM winnable WHERE variant = ? LIMIT 1", (variant,))
            if not rows:
                return None
            (count,) = self._write(
                [("DELETE FROM winnable WHERE variant = ? AND deal = ?", (variant, rows[0][0]))]
            )
            if count == 1:
                return int(rows[0][0])
        return None

    # -- daily games -------------------------------------------------------------

    def add_daily_game(self, game_id: str, player: str, day: str, variant: str) -> None:
        """Mark a saved game as the daily deal of ``day`` (``YYYY-MM-DD``) for ``variant``."""
        self._write(
            [
                (
                    "INSERT INTO daily_games (game_id, player, day, variant) VALUES (?, ?, ?, ?)",
                    (game_id, player, day, variant),
                )
            ]
        )

    def daily_day(self, game_id: str, player: str) -> str | None:
        """The date (``YYYY-MM-DD``) of the daily deal this game of ``player`` is, or None."""
        rows = self._read(
            "SELECT day FROM daily_games WHERE game_id = ? AND player = ?", (game_id, player)
        )
        return str(rows[0][0]) if rows else None

    def daily_games(
        self, player: str, day: str | None = None, variant: str | None = None
    ) -> list[tuple[str, str, GameRow]]:
        """A player's daily games as (day, variant, game), oldest first; optionally filtered."""
        where, params = "d.player = ?", [player]
        if day is not None:
            where, params = where + " AND d.day = ?", [*params, day]
        if variant is not None:
            where, params = where + " AND d.variant = ?", [*params, variant]
        columns = ", ".join(f"g.{name}" for name in COLUMNS)
        rows = self._read(
            f"SELECT d.day, d.variant, {columns} FROM daily_games d "
            f"JOIN games g ON g.id = d.game_id WHERE {where} ORDER BY g.created, g.id",
            params,
        )
        return [(values[0], values[1], _from_sql(values[2:])) for values in rows]

    # -- variant keys ---------------------------------------------------------

    def _canonical_keys(self, version: int) -> list[tuple[str, Sequence[Any]]]:
        """Statements that rewrite every stored variant as its ``Variant.key`` (a migration).

        A text that is no variant at all is left as it is: reading that game
        fails as it did before.
        """
        from milligan.errors import InvalidVariantError
        from milligan.variants import Variant

        statements: list[tuple[str, Sequence[Any]]] = []
        for table in ("games", "winnable") if version >= 2 else ("games",):
            for (text,) in self._read(f"SELECT DISTINCT variant FROM {table}"):
                try:
                    key = Variant.from_key(text).key
                except InvalidVariantError:
                    continue
                if key == text:
                    continue
                if table == "games":
                    statements.append(
                        ("UPDATE games SET variant = ? WHERE variant = ?", (key, text))
                    )
                else:  # a deal may already wait under the key: keep one
                    statements.append(
                        (
                            "INSERT INTO winnable (variant, deal) SELECT ?, deal FROM winnable "
                            "WHERE variant = ? ON CONFLICT DO NOTHING",
                            (key, text),
                        )
                    )
                    statements.append(("DELETE FROM winnable WHERE variant = ?", (text,)))
        return statements

    # -- statistics -----------------------------------------------------------

    def _stats_from_games(self) -> list[tuple[str, Sequence[Any]]]:
        """Statements that fill ``player_stats`` from every saved game (a migration)."""
        from milligan.store.stats import statistics

        everything = self._read(f"SELECT {', '.join(COLUMNS)} FROM games")
        rows = [_from_sql(values) for values in everything]
        by_player: dict[str, list[GameRow]] = {}
        for row in rows:
            by_player.setdefault(row.player, []).append(row)
        statements: list[tuple[str, Sequence[Any]]] = []
        for player, games in by_player.items():
            for key, figures in statistics(games, rounded=False).items():
                statements.append(
                    (
                        f"INSERT INTO player_stats ({', '.join(_STATS)}) VALUES ({_STATS_VALUES})",
                        (player, key, *(figures[name] for name in _STATS[2:])),
                    )
                )
        return statements

    def _stats_changes(
        self, before: GameRow | None, after: GameRow
    ) -> list[tuple[str, Sequence[Any]]]:
        """Statements that bring the player's statistics from ``before`` to ``after``.

        Each runs only if the game was saved as ``after`` (the game's update, in
        the same transaction, may have found it changed meanwhile).
        """
        from milligan.store.stats import statistics, stats_key

        if after.imported:
            return []
        key = stats_key(after)
        ensure = (
            f"INSERT INTO player_stats ({', '.join(_STATS)}) "
            "VALUES (?, ?, 0, 0, 0, 0, NULL, NULL, 0, 0) ON CONFLICT DO NOTHING",
            (after.player, key),
        )
        mark = (after.id, after.revision, after.updated, after.hints)
        was_playing = before is None or before.status == "playing"
        if not was_playing and after.status == "playing":
            # Back in play (an undo of a finished game): its place in the streaks is
            # gone, so the figures are counted again from the player's games.
            games = [row for row in self.games(after.player, limit=10**9) if row.id != after.id]
            figures = statistics([*games, after], rounded=False)[key]
            values = (after.player, key, *(figures[name] for name in _STATS[2:]))
            return [
                (
                    "DELETE FROM player_stats WHERE player = ? AND variant = ? AND " + _MARK,
                    (after.player, key, *mark),
                ),
                (
                    f"INSERT INTO player_stats ({', '.join(_STATS)}) SELECT {_STATS_VALUES} "
                    "WHERE " + _MARK,
                    (*values, *mark),
                ),
            ]
        hints = after.hints - (before.hints if before else 0)
        solutions = after.solutions - (before.solutions if before else 0)
        finished = was_playing and after.status != "playing"
        if not finished and not hints and not solutions:
            return [ensure] if before is None else []  # a new game: its variant is shown
        won = int(finished and after.status == "won")
        record = int(won and not after.assisted)
        return [
            ensure,
            (
                "UPDATE player_stats SET played = played + ?, won = won + ?, "
                "current_streak = CASE WHEN ? = 1 THEN current_streak + 1 "
                "WHEN ? = 1 THEN 0 ELSE current_streak END, "
                "best_streak = CASE WHEN ? = 1 AND current_streak + 1 > best_streak "
                "THEN current_streak + 1 ELSE best_streak END, "
                "best_time = CASE WHEN ? = 1 AND (best_time IS NULL OR ? < best_time) "
                "THEN ? ELSE best_time END, "
                "fewest_moves = CASE WHEN ? = 1 AND (fewest_moves IS NULL OR ? < fewest_moves) "
                "THEN ? ELSE fewest_moves END, "
                "hints = hints + ?, solutions = solutions + ? "
                "WHERE player = ? AND variant = ? AND " + _MARK,
                (
                    int(finished),
                    won,
                    won,
                    int(finished),
                    won,
                    record,
                    after.seconds,
                    after.seconds,
                    record,
                    len(after.moves),
                    len(after.moves),
                    hints,
                    solutions,
                    after.player,
                    key,
                    *mark,
                ),
            ),
        ]

    def statistics(self, player: str) -> dict[str, dict[str, Any]]:
        """A player's statistics per variant key (every preset present); see stats.py."""
        from milligan.store.stats import empty_figures, finish_figures
        from milligan.variants import PRESETS

        out = {name: empty_figures() for name in PRESETS}
        rows = self._read(
            f"SELECT {', '.join(_STATS[1:])} FROM player_stats WHERE player = ?", (player,)
        )
        for values in rows:
            figures = dict(zip(_STATS[2:], values[1:], strict=True))
            out[values[0]] = finish_figures(figures)
        return out
