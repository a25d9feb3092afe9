"""The daily deal (docs/RULES.md §10): candidates, the shipped data, the streak, the share text."""

from __future__ import annotations

import datetime
import random
import re

import pytest

from milligan import daily
from milligan.errors import MilliganError
from milligan.game import Game
from milligan.solver import compiled, solve

DAY = datetime.date(2026, 12, 1)


def test_candidates_depend_on_date_variant_and_counter() -> None:
    numbers = {
        daily.candidate(DAY, "classic", 0),
        daily.candidate(DAY, "classic", 1),
        daily.candidate(DAY, "spanish", 0),
        daily.candidate(DAY + datetime.timedelta(days=1), "classic", 0),
    }
    assert len(numbers) == 4
    assert daily.candidate(DAY, "classic", 0) == daily.candidate(DAY, "classic", 0)
    assert all(0 <= number < 2**64 for number in numbers)


def test_every_preset_is_shipped_for_today_and_the_documented_week() -> None:
    for variant_id in ("classic", "spanish", "improved", "strict", "one-deck"):
        first, last = daily.shipped_range(variant_id) or (None, None)
        assert first is not None and last is not None
        assert first <= datetime.date(2026, 11, 30) and datetime.date(2026, 12, 31) <= last
        deals = daily.shipped()[variant_id]
        # Every date of the range, none missing.
        assert len(deals) == (last - first).days + 1


def _sample() -> list[tuple[str, str]]:
    rng = random.Random(12)
    picks = []
    for variant_id, deals in daily.shipped().items():
        # One-deck days cost about a hundred candidates each: one of them is enough.
        count = 1 if variant_id == "one-deck" else 2
        picks += [(variant_id, day) for day in rng.sample(sorted(deals), count)]
    return picks


@pytest.mark.skipif(not compiled.AVAILABLE, reason="the data is built with the compiled core")
@pytest.mark.parametrize(("variant_id", "day"), _sample())
def test_the_shipped_data_is_reproducible(variant_id: str, day: str) -> None:
    k, number = daily.prove(datetime.date.fromisoformat(day), variant_id)
    assert daily.shipped()[variant_id][day] == number
    assert daily.candidate(datetime.date.fromisoformat(day), variant_id, k) == number


@pytest.mark.parametrize(("variant_id", "day"), _sample()[::3])
def test_shipped_numbers_are_won(variant_id: str, day: str) -> None:
    """Solve a few shipped deals and replay the win move by move through the engine."""
    number = daily.shipped()[variant_id][day]
    result = solve(Game.new(variant_id, number), max_positions=daily.BUDGET * 10)
    assert result.result == "won"
    game = Game.new(variant_id, number)
    for move in result.moves:
        game.play(str(move))
    assert game.status == "won"


def test_dates_beyond_the_shipped_range_are_refused_on_one_line() -> None:
    with pytest.raises(daily.DailyUnavailableError) as caught:
        daily.daily_deal(datetime.date(2099, 1, 1), "classic")
    assert "\n" not in str(caught.value) and "not shipped" in str(caught.value)
    assert isinstance(caught.value, MilliganError)


def test_computing_outside_the_range_finds_a_candidate() -> None:
    day = datetime.date(2099, 1, 1)
    number = daily.daily_deal(day, "classic", compute=True)
    assert number in {daily.candidate(day, "classic", k) for k in range(20)}


@pytest.mark.parametrize("text", ["2026-13-01", "2026-1-1", "tomorrow", "", "2026-12-01x"])
def test_bad_dates(text: str) -> None:
    with pytest.raises(daily.DailyDateError):
        daily.parse_date(text)


def test_bad_variant() -> None:
    with pytest.raises(MilliganError, match="no daily deal"):
        daily.daily_deal(DAY, "freecell")


def test_streaks() -> None:
    d = datetime.date
    assert daily.streaks([], d(2026, 12, 5)) == (0, 0)
    days = [d(2026, 12, 1), d(2026, 12, 2), d(2026, 12, 3), d(2026, 12, 5)]
    assert daily.streaks(days, d(2026, 12, 5)) == (1, 3)
    assert daily.streaks(days, d(2026, 12, 6)) == (1, 3)  # still current the next day
    assert daily.streaks(days, d(2026, 12, 7)) == (0, 3)  # a whole day without a win
    assert daily.streaks(days[:3] * 2, d(2026, 12, 3)) == (3, 3)  # several wins a day


def test_share_text_has_no_moves_or_cards() -> None:
    number = daily.shipped()["classic"][DAY.isoformat()]
    game = Game.new("classic", number)
    text = daily.share_text(
        DAY, "classic", won=True, moves=187, seconds=754.2, hints=1, base_url="https://example.org"
    )
    assert text == (
        "Milligan daily 2026-12-01 (classic): won in 187 moves, 12:34, 1 hint\n"
        "https://example.org/daily?variant=classic&date=2026-12-01"
    )
    moves = {str(move) for move in game.legal_moves()}
    assert not any(move in text.split() for move in moves)
    assert not re.search(r"\b[A2-9TJQK][CDHS]\b", text)
    assert "lost" in daily.share_text(DAY, "spanish", won=False, moves=3, seconds=5, hints=0)
