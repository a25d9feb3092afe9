"""Statistics per variant, from saved games."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from milligan.game import Game
from milligan.record import Record
from milligan.store.database import SCHEMA_VERSION, Database, GameRow
from milligan.store.games import Games
from milligan.store.stats import statistics
from milligan.variants import Variant

DATA = Path(__file__).parents[1] / "web" / "data"


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def game(n: int, status: str, variant: str = "classic", **changes: object) -> GameRow:
    return GameRow(
        id=f"g{n}",
        player="p",
        variant=variant,
        deal=str(n),
        order=None,
        secret=False,
        random=False,
        moves=("D",) * (50 + n),
        redo=(),
        revision=50 + n,
        status=status,
        assisted=False,
        hints=0,
        solutions=0,
        imported=False,
        seconds=100.0 + n,
        created=f"2026-01-01T00:00:{n:02}.000+00:00",
        updated=f"2026-01-01T00:00:{n:02}.000+00:00",
        finished=None if status == "playing" else f"2026-01-02T00:00:{n:02}.000+00:00",
    ).replace(**changes)


def test_streaks_follow_the_order_games_finished() -> None:
    rows = [
        game(1, "won"),
        game(2, "won"),
        game(3, "lost"),
        game(4, "won"),
        game(5, "won"),
        game(6, "won"),
        game(7, "resigned"),
        game(8, "won"),
        game(9, "playing"),
    ]
    figures = statistics(reversed(rows))["classic"]
    assert figures["played"] == 8 and figures["won"] == 6 and figures["win_percent"] == 75.0
    assert figures["best_streak"] == 3 and figures["current_streak"] == 1
    assert figures["best_time"] == 101.0 and figures["fewest_moves"] == 51


def test_assisted_wins_set_no_records_and_imports_count_for_nothing() -> None:
    rows = [
        game(1, "won", assisted=True, solutions=1, hints=3),
        game(2, "won", imported=True, hints=5),
        game(3, "won", seconds=500.0),
        game(4, "playing", hints=1),
    ]
    figures = statistics(rows)["classic"]
    assert figures["played"] == 2 and figures["won"] == 2
    assert figures["best_time"] == 500.0 and figures["fewest_moves"] == 53
    assert figures["hints"] == 4 and figures["solutions"] == 1


def test_variants_are_kept_apart() -> None:
    rows = [game(1, "won", "spanish"), game(2, "lost", '{"columns": 4}'), game(3, "lost")]
    stats = statistics(rows)
    assert stats["spanish"]["won"] == 1 and stats["classic"]["won"] == 0
    assert stats["custom"]["played"] == 1 and stats["classic"]["played"] == 1
    assert stats["strict"]["played"] == 0 and stats["strict"]["best_time"] is None


# -- the figures the database keeps, against counting every game ------------------------


def _won_line() -> tuple[Record, list[str]]:
    record = Record.from_json((DATA / "won-13-columns.json").read_text())
    return record, [str(move) for move in record.moves]


def check(database: Database, player: str = "p") -> dict[str, dict[str, Any]]:
    kept = database.statistics(player)
    counted = statistics(database.games(player, limit=10**9))
    assert kept == counted
    return kept


def test_kept_statistics_follow_every_change(database: Database) -> None:
    clock = Clock()
    games = Games(database, clock=clock)
    check(database)
    ids = []
    for n, variant in enumerate(["classic", "spanish", "classic", "strict", "classic"]):
        live = games.create("p", Variant.named(variant), 40 + n)
        ids.append(live.row.id)
        clock.wait(7)
    check(database)
    games.count_help("p", ids[0], hint=True)
    games.count_help("p", ids[0], solution=True)
    games.count_help("p", ids[1], hint=True)
    check(database)
    for game_id in (ids[2], ids[3]):
        games.change("p", game_id, Game.resign, lambda live: None)
        clock.wait(11)
        check(database)
    # A won game of custom settings: stored a few moves short, finished, undone, redone.
    record, moves = _won_line()
    short = Record(record.variant, record.deal, None, record.moves[:-3])
    live = games.import_record("someone", short)
    row = live.row.replace(id="custom-won-game", player="p", imported=False, secret=False)
    database.insert_game(row)  # as if it had been played here
    check(database)
    for text in moves[-3:]:
        games.change("p", row.id, lambda game, text=text: game.play(text), lambda live: None)
        clock.wait(5)
    assert check(database)["custom"]["won"] == 1
    games.change("p", row.id, Game.undo, lambda live: None)  # back in play
    figures = check(database)
    assert figures["custom"]["played"] == 0 and figures["custom"]["best_streak"] == 0
    games.change("p", row.id, Game.redo, lambda live: None)
    figures = check(database)["custom"]
    assert figures["won"] == 1 and figures["current_streak"] == 1
    assert figures["fewest_moves"] == len(moves)
    games.change("p", ids[4], Game.resign, lambda live: None)
    assert check(database)["classic"]["current_streak"] == 0
    assert database.statistics("someone else") == statistics([])


def test_stale_changes_leave_the_figures_alone(database: Database) -> None:
    games = Games(database)
    live = games.create("p", Variant.named("classic"), 1)
    row = live.row
    finished = row.replace(status="resigned", revision=1, finished=row.updated)
    assert database.update_game(finished, 5, row) is False  # not at revision 5
    assert check(database)["classic"]["played"] == 0


def test_an_older_database_gets_its_figures(opener: Callable[[], Database]) -> None:
    database = opener()
    clock = Clock()
    games = Games(database, clock=clock)
    for n, variant in enumerate(["classic", "spanish", "classic"]):
        live = games.create(f"p{n % 2}", Variant.named(variant), n)
        games.count_help(f"p{n % 2}", live.row.id, hint=True)
        games.change(f"p{n % 2}", live.row.id, Game.resign, lambda live: None)
        clock.wait(3)
    expected = {player: check(database, player) for player in ("p0", "p1")}
    database._write(
        [("DROP TABLE player_stats", ()), ("UPDATE schema_version SET version = ?", (2,))]
    )
    database.close()
    again = opener()
    assert again.schema_version() == SCHEMA_VERSION
    assert {player: again.statistics(player) for player in ("p0", "p1")} == expected
