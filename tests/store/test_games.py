"""Players' games over a database: replay, cache, revisions, time, reveal."""

from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest

from milligan.errors import IllegalMoveError
from milligan.game import Game
from milligan.store import Database
from milligan.store.games import (
    IDLE_LIMIT,
    GameNotFoundError,
    Games,
    Live,
    StaleGameError,
    replay,
)
from milligan.variants import Variant

CLASSIC = Variant.named("classic")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def revision(live: Live) -> int:
    return live.row.revision


def test_a_game_is_replayed_with_its_redo_list(database: Database) -> None:
    games = Games(database)
    live = games.create("p", CLASSIC, 42)
    for action in (
        lambda g: g.play("5>F"),
        lambda g: g.play("S"),
        lambda g: g.play("D"),
        Game.undo,
        Game.undo,
    ):
        games.change("p", live.row.id, action, revision)
    row = database.game(live.row.id)
    assert row is not None and row.moves == ("5>F",) and row.redo == ("S", "D")
    again = replay(row)
    assert again.revision == 5
    assert [str(m) for m in again.redo_moves] == ["S", "D"]
    assert again.position == Game.new("classic", 42).position.apply(again.moves[0])
    fresh = Games(database)  # another server process: nothing cached
    assert fresh.read("p", live.row.id, lambda live: str(live.game.redo())) == "S"


def test_failed_actions_change_nothing(database: Database) -> None:
    games = Games(database)
    live = games.create("p", CLASSIC, 42)
    games.change("p", live.row.id, lambda g: g.play("5>F"), revision)
    before = database.game(live.row.id)
    with pytest.raises(IllegalMoveError):
        games.change("p", live.row.id, lambda g: g.play("D"), revision)
    with pytest.raises(StaleGameError):
        games.change("p", live.row.id, lambda g: g.play("S"), revision, expect=0)

    def half_done(game: Game) -> None:
        game.play("S")
        raise RuntimeError("something broke after the move")

    with pytest.raises(RuntimeError):
        games.change("p", live.row.id, half_done, revision)
    assert database.game(live.row.id) == before
    assert games.read("p", live.row.id, lambda live: live.game.revision) == 1
    assert games.read("p", live.row.id, lambda live: str(live.game.moves[-1])) == "5>F"


def test_other_players_games_are_not_found(database: Database) -> None:
    games = Games(database)
    live = games.create("alice", CLASSIC, 1)
    with pytest.raises(GameNotFoundError):
        games.read("bob", live.row.id, revision)
    with pytest.raises(GameNotFoundError):
        games.change("bob", live.row.id, Game.resign, revision)
    with pytest.raises(GameNotFoundError):
        games.read("alice", "missing", revision)


def test_two_changes_at_one_revision_one_wins(database: Database) -> None:
    games = Games(database)
    live = games.create("p", CLASSIC, 42)
    outcomes: list[str] = []
    start = threading.Barrier(4)

    def play() -> None:
        start.wait()
        try:
            games.change("p", live.row.id, lambda g: g.play("5>F"), revision, expect=0)
            outcomes.append("played")
        except StaleGameError:
            outcomes.append("stale")

    threads = [threading.Thread(target=play) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["played", "stale", "stale", "stale"]
    assert database.game(live.row.id).revision == 1  # type: ignore[union-attr]


def test_a_second_server_on_the_same_database_is_noticed(database: Database) -> None:
    one, two = Games(database), Games(database)
    live = one.create("p", CLASSIC, 42)
    two.change("p", live.row.id, lambda g: g.play("5>F"), revision)
    # ``one`` still caches revision 0; it must replay, not use the stale game.
    assert one.read("p", live.row.id, lambda live: live.game.revision) == 1
    assert one.change("p", live.row.id, lambda g: g.play("S"), revision, expect=1) == 2


def test_playing_time_counts_pauses_up_to_a_limit(database: Database) -> None:
    clock = Clock()
    games = Games(database, clock=clock)
    live = games.create("p", CLASSIC, 42)
    clock.wait(10)
    games.change("p", live.row.id, lambda g: g.play("5>F"), revision)
    clock.wait(3600)  # away for an hour
    games.change("p", live.row.id, lambda g: g.play("S"), revision)
    clock.wait(5)
    row = games.change("p", live.row.id, Game.resign, lambda live: live.row)
    assert row.seconds == pytest.approx(10 + IDLE_LIMIT + 5)
    assert row.finished == row.updated and row.status == "resigned"
    clock.wait(100)
    with pytest.raises(IllegalMoveError):
        games.change("p", live.row.id, Game.undo, revision)
    assert database.game(live.row.id).seconds == pytest.approx(315)  # type: ignore[union-attr]


def test_random_numbers_are_secret_until_the_end(database: Database) -> None:
    games = Games(database)
    live = games.create("p", Variant.named("spanish"))
    assert live.row.random and live.row.secret and live.row.deal is not None
    row = games.change("p", live.row.id, Game.resign, lambda live: live.row)
    assert not row.secret and row.status == "resigned" and not row.assisted


def test_hints_and_solutions_are_counted(database: Database) -> None:
    games = Games(database)
    live = games.create("p", CLASSIC, 42)
    games.count_help("p", live.row.id, hint=True)
    games.count_help("p", live.row.id, hint=True)
    row = games.count_help("p", live.row.id, solution=True).row
    assert (row.hints, row.solutions, row.assisted, row.revision) == (2, 1, True, 0)
    assert database.game(live.row.id) == row


def test_the_cache_is_bounded(database: Database) -> None:
    games = Games(database, cache_size=3)
    ids = [games.create("p", CLASSIC, n).row.id for n in range(5)]
    assert list(games._cache) == ids[2:]
    assert games.read("p", ids[0], lambda live: live.game.deal) == 0
    assert len(games._cache) == 3


def test_a_game_stores_its_variant_as_the_survey_does(database: Database) -> None:
    from milligan.survey.results import canonical_key

    custom = Variant(decks=1, columns=6, opening_rows=2, face_down_rows=1, reprieve="strict")
    live = Games(database).create("p", custom, 3)
    assert live.row.variant == custom.key == canonical_key(custom.key)
    assert replay(live.row).variant == custom
