"""Daily games in the store (docs/RULES.md §10): the schema-5 table and its migration."""

from __future__ import annotations

from collections.abc import Callable

from milligan.game import Game
from milligan.store import SCHEMA_VERSION, Database
from milligan.store.games import Games


def test_daily_games_are_kept_and_filtered(database: Database) -> None:
    games = Games(database)
    first = games.create("p1", Game.new("classic", 1).variant, 11)
    second = games.create("p1", Game.new("spanish", 1).variant, 12)
    other = games.create("p2", Game.new("classic", 1).variant, 11)
    database.add_daily_game(first.row.id, "p1", "2026-12-01", "classic")
    database.add_daily_game(second.row.id, "p1", "2026-12-02", "spanish")
    database.add_daily_game(other.row.id, "p2", "2026-12-01", "classic")
    found = database.daily_games("p1")
    assert [(day, variant, row.id) for day, variant, row in found] == [
        ("2026-12-01", "classic", first.row.id),
        ("2026-12-02", "spanish", second.row.id),
    ]
    assert [row.deal for _, _, row in database.daily_games("p1", day="2026-12-02")] == ["12"]
    assert database.daily_games("p1", variant="strict") == []
    assert len(database.daily_games("p2")) == 1


def test_the_day_of_one_daily_game(database: Database) -> None:
    games = Games(database)
    daily = games.create("p1", Game.new("classic", 1).variant, 11)
    plain = games.create("p1", Game.new("classic", 1).variant, 11)
    database.add_daily_game(daily.row.id, "p1", "2026-12-01", "classic")
    assert database.daily_day(daily.row.id, "p1") == "2026-12-01"
    assert database.daily_day(plain.row.id, "p1") is None
    assert database.daily_day(daily.row.id, "p2") is None  # only its player's daily game
    assert database.daily_day("no-such-game", "p1") is None


def test_a_schema_four_database_gains_the_daily_table(opener: Callable[[], Database]) -> None:
    database = opener()
    played = Games(database).create("p1", Game.new("classic", 1).variant, 7)
    database._write(
        [
            ("DROP TABLE daily_games", ()),
            ("UPDATE schema_version SET version = ?", (4,)),
        ]
    )
    database.close()
    again = opener()
    assert again.schema_version() == SCHEMA_VERSION == 5
    assert again.game(played.row.id) is not None  # nothing lost
    assert again.daily_games("p1") == []  # older games are not daily
    again.add_daily_game(played.row.id, "p1", "2026-12-01", "classic")
    assert len(again.daily_games("p1")) == 1
