"""``milligan play --daily`` (docs/RULES.md §10): the day's deal, the share text, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

from milligan import daily

from .test_play import play


def test_an_earlier_day_then_resign_prints_the_share_text(tmp_path: Path) -> None:
    number = daily.shipped()["spanish"]["2026-11-25"]
    done = play(
        "--daily",
        "--variant",
        "spanish",
        "--date",
        "2026-11-25",
        stdin="h\nresign\ny\n",
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    assert f"Daily deal of 2026-11-25 (spanish): deal {number}" in done.stdout
    share = done.stdout.strip().splitlines()[-2:]
    assert share[0].startswith("Milligan daily 2026-11-25 (spanish): lost in 0 moves, 0:0")
    assert share[0].endswith(", 1 hint")
    assert share[1] == "/daily?variant=spanish&date=2026-11-25"


def test_today_is_the_default(tmp_path: Path) -> None:
    today = daily.today()
    if daily.shipped()["classic"].get(today.isoformat()) is None:
        pytest.skip("today is outside the shipped daily deals")
    done = play("--daily", stdin="q\n", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert f"Daily deal of {today} (classic)" in done.stdout


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--daily", "--date", "2026-02-30"], "YYYY-MM-DD"),
        (["--daily", "--date", "2999-01-01"], "not out yet"),
        (["--daily", "--date", "2001-01-01"], "not shipped"),
        (["--daily", "--number", "4"], "drop --number"),
        (["--date", "2026-11-25"], "--date goes with --daily"),
        (["--daily", "--variant", '{"decks": 1, "columns": 5}'], "presets"),
        (["--daily", "--resume", "x.json"], "drop --daily"),
    ],
)
def test_bad_input_is_one_line_and_status_2(tmp_path: Path, args: list[str], needle: str) -> None:
    done = play(*args, stdin="", cwd=tmp_path)
    assert done.returncode == 2
    assert len(done.stderr.strip().splitlines()) == 1 and needle in done.stderr, done.stderr
