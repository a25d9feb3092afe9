"""The storage interface, on SQLite and on a real PostgreSQL server."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from milligan.store import SCHEMA_VERSION, Database, GameRow, StoreError, open_database
from milligan.store.sqlite import SQLiteDatabase


def row(game_id: str = "g1", player: str = "p1", **changes: object) -> GameRow:
    base = GameRow(
        id=game_id,
        player=player,
        variant="classic",
        deal=str(2**64 - 1),
        order=None,
        secret=True,
        random=True,
        moves=("5>F", "S"),
        redo=("D",),
        revision=3,
        status="playing",
        assisted=False,
        hints=2,
        solutions=0,
        imported=False,
        seconds=12.5,
        created="2026-01-01T00:00:00.000+00:00",
        updated="2026-01-01T00:01:00.000+00:00",
        finished=None,
    )
    return base.replace(**changes)


def test_the_schema_is_created_once(opener: Callable[[], Database]) -> None:
    first = opener()
    assert first.schema_version() == SCHEMA_VERSION == 5
    first.insert_game(row())
    again = opener()  # opening an existing database migrates nothing and loses nothing
    assert again.schema_version() == SCHEMA_VERSION
    assert again.game("g1") == row()


def test_a_newer_schema_is_refused(database: Database, target: str) -> None:
    database._write([("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 1,))])
    with pytest.raises(StoreError, match="schema version"):
        open_database(target)


def test_rows_round_trip(database: Database) -> None:
    order = " ".join(["AS", "TH"] * 52)
    stored = [
        row(),
        row("g2", deal=None, order=order, secret=False, random=False, moves=(), redo=()),
        row(
            "g3",
            variant='{"columns": 4, "decks": 1}',
            status="won",
            assisted=True,
            imported=True,
            finished="2026-01-02T00:00:00.000+00:00",
        ),
    ]
    for game in stored:
        database.insert_game(game)
    for game in stored:
        assert database.game(game.id) == game
    assert database.game("nope") is None


def test_updates_happen_only_at_the_expected_revision(database: Database) -> None:
    database.insert_game(row())
    changed = row(moves=("5>F",), redo=("S", "D"), revision=4)
    assert not database.update_game(changed, revision=2)
    assert database.game("g1") == row()
    assert database.update_game(changed, revision=3)
    assert database.game("g1") == changed


def test_games_of_a_player(database: Database) -> None:
    database.insert_game(row("a", updated="2026-01-01T00:00:01.000+00:00"))
    database.insert_game(row("b", updated="2026-01-01T00:00:03.000+00:00"))
    database.insert_game(row("c", status="won", updated="2026-01-01T00:00:02.000+00:00"))
    database.insert_game(row("d", player="p2"))
    assert [game.id for game in database.games("p1")] == ["b", "c", "a"]
    assert [game.id for game in database.games("p1", "playing")] == ["b", "a"]
    assert [game.id for game in database.games("p1", limit=1)] == ["b"]
    assert [game.id for game in database.games("p2")] == ["d"]
    assert database.games("nobody") == []


def test_a_failed_write_changes_nothing(database: Database) -> None:
    database.insert_game(row())
    with pytest.raises(Exception):  # noqa: B017 - each driver has its own integrity error
        database.insert_game(row(player="p2"))  # same id
    assert database.game("g1") == row()
    assert database.games("p2") == []


def test_sqlite_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    database = SQLiteDatabase(tmp_path / "deep" / "folder" / "games.sqlite3")
    connection = database._connection()
    assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert connection.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    database.close()
    with sqlite3.connect(tmp_path / "deep" / "folder" / "games.sqlite3") as raw:
        tables = {name for (name,) in raw.execute("SELECT name FROM sqlite_master")}
    assert {"games", "players", "schema_version"} <= tables


def test_postgres_descriptions_hide_passwords() -> None:
    from milligan.store.postgres import PostgresDatabase

    url = "postgresql://milligan:s3cret@127.0.0.1:1/nothing"
    described = PostgresDatabase.description.fget(type("X", (), {"url": url})())  # type: ignore[attr-defined]
    assert "s3cret" not in described and "127.0.0.1:1/nothing" in described
    with pytest.raises(StoreError, match="cannot open"):
        open_database("postgresql://nobody@127.0.0.1:1/nothing?connect_timeout=2")


def test_postgres_reconnects_after_a_lost_connection(postgres: object) -> None:
    from milligan.store.testing import TemporaryPostgres

    assert isinstance(postgres, TemporaryPostgres)
    database = open_database(postgres.create_schema("reconnect"))
    database.insert_game(row())
    connection = database._connection()
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        pid = cursor.fetchone()[0]
    connection.rollback()
    import psycopg

    with psycopg.connect(postgres.url, autocommit=True) as killer:
        killer.execute("SELECT pg_terminate_backend(%s)", (pid,))
    with pytest.raises(psycopg.OperationalError):
        database.game("g1")  # this request fails with the connection...
    assert database.game("g1") == row()  # ...and the next one reconnects
    database.close()


def test_variants_stored_in_the_old_form_are_rewritten_as_keys(
    opener: Callable[[], Database],
) -> None:
    """A database from before ``Variant.key`` (schema 3): custom settings as spaced JSON."""
    from milligan.game import Game
    from milligan.store.games import Games
    from milligan.variants import Variant

    custom = Variant(decks=1, columns=6, opening_rows=2, face_down_rows=1, reprieve="strict")
    old_text = json.dumps(custom.to_json(), sort_keys=True)  # how the store wrote it
    assert old_text != custom.key
    database = opener()
    games = Games(database)
    played = games.create("p1", custom, 7)
    games.change("p1", played.row.id, Game.resign, lambda live: None)
    database._write(
        [
            ("UPDATE games SET variant = ?", (old_text,)),
            ("UPDATE schema_version SET version = ?", (3,)),
        ]
    )
    database.add_winnable(old_text, 11)
    database.add_winnable(old_text, 12)
    database.add_winnable(custom.key, 12)  # the same deal under both forms: kept once
    database.add_winnable("classic", 5)
    database.insert_game(row("broken", variant="not a variant"))
    expected = database.statistics("p1")
    assert database.game(played.row.id).variant == old_text  # type: ignore[union-attr]
    database.close()

    again = opener()
    assert again.schema_version() == SCHEMA_VERSION
    stored = again.game(played.row.id)
    assert stored is not None and stored.variant == custom.key
    assert again.game("broken").variant == "not a variant"  # type: ignore[union-attr]
    assert again.statistics("p1") == expected
    assert expected["custom"]["played"] == 1
    assert again.count_winnable(old_text) == 0
    assert again.count_winnable(custom.key) == 2
    assert sorted(again.take_winnable(custom.key) or 0 for _ in range(2)) == [11, 12]
    assert again.take_winnable("classic") == 5
    live = Games(again).read("p1", played.row.id, lambda live: live)
    assert live.game.variant == custom and live.game.status == "resigned"


def test_a_schema_one_database_gets_keys_and_the_rest(opener: Callable[[], Database]) -> None:
    from milligan.store.games import replay

    database = opener()
    old = row(variant='{"columns": 4, "decks": 1}', deal="3", moves=(), redo=())
    database.insert_game(old)
    database._write(
        [
            ("DROP TABLE player_stats", ()),
            ("DROP TABLE winnable", ()),
            ("UPDATE schema_version SET version = ?", (1,)),
        ]
    )
    database.close()
    again = opener()
    assert again.schema_version() == SCHEMA_VERSION
    stored = again.game(old.id)
    assert stored == old.replace(variant="one-deck")
    assert replay(stored).variant.name == "one-deck"
    assert again.count_winnable("one-deck") == 0
