"""Statistics per variant, from saved games."""

from __future__ import annotations

from milligan.store.database import GameRow
from milligan.store.stats import statistics


def game(n: int, status: str, variant: str = "classic", **changes: object) -> GameRow:
    return GameRow(
        id=f"g{n}", player="p", variant=variant, deal=str(n), order=None, secret=False,
        random=False, moves=("D",) * (50 + n), redo=(), revision=50 + n, status=status,
        assisted=False, hints=0, solutions=0, imported=False, seconds=100.0 + n,
        created=f"2026-01-01T00:00:{n:02}.000+00:00", updated=f"2026-01-01T00:00:{n:02}.000+00:00",
        finished=None if status == "playing" else f"2026-01-02T00:00:{n:02}.000+00:00",
    ).replace(**changes)


def test_streaks_follow_the_order_games_finished() -> None:
    rows = [game(1, "won"), game(2, "won"), game(3, "lost"), game(4, "won"), game(5, "won"),
            game(6, "won"), game(7, "resigned"), game(8, "won"), game(9, "playing")]
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
