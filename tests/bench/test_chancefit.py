"""``bench/chancefit.py`` fits the model that milligan.solver.estimate applies."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

import pytest

from milligan.solver.estimate import CORRECTIONS, Correction

from .conftest import load_bench

TRUE = Correction(intercept=-0.6, share=0.8, unsettled=0.9, played=0.3, late=0.5)


def decisions(count: int, seed: int) -> list[dict[str, object]]:
    """Decisions whose games are won with the chance ``TRUE`` gives them."""
    chance = random.Random(seed)
    found = []
    for index in range(count):
        wins = chance.randint(0, 16)
        unsettled = chance.randint(0, 16 - wins)
        left = chance.randint(1, 12)
        p = TRUE(wins, 16, unsettled, 1 - left / 12) if 0 < wins < 16 else wins / 16
        found.append(
            {
                "variant": "spanish",
                "deal": 1 + index // 5,
                "max_positions": 4_000_000,
                "rows_left": left,
                "rows": 12,
                "samples": 16,
                "wins": wins,
                "unsettled": unsettled,
                "won": chance.random() < p,
            }
        )
    return found


def test_the_fit_finds_the_model_the_games_were_drawn_from() -> None:
    chancefit = load_bench("chancefit")
    fields = chancefit.Decision._fields
    found = [chancefit.Decision(*(d[field] for field in fields)) for d in decisions(20_000, 1)]
    fitted = chancefit.fit(found)
    for field in Correction.__dataclass_fields__:
        assert getattr(fitted, field) == pytest.approx(getattr(TRUE, field), abs=0.2), field


def test_the_command_prints_a_held_out_test_and_the_coefficients(
    tmp_path: Path, run: Callable[..., str]
) -> None:
    out = run(tmp_path / "spanish.jsonl", decisions(2_000, 2), "--held-out", "201-400")
    assert "fitted on the 1000 decisions of deals not held out" in out
    held = next(line for line in out.splitlines() if line.startswith("| spanish.jsonl |"))
    cells = [cell.strip() for cell in held.strip("|").split("|")]
    assert cells[1] == "1000"
    share, corrected = float(cells[3]), float(cells[4])
    assert corrected < share  # the games were drawn from the model, not from the share
    assert "fitted on all 2000 decisions" in out and '"spanish": Correction(' in out


def test_a_chance_never_falls_as_more_samples_are_won_at_the_opening() -> None:
    # games drawn so that, at the opening, more samples won means fewer games won:
    # the fit keeps the share's weight there at 0 instead of following the noise
    chancefit = load_bench("chancefit")
    chance = random.Random(3)
    found = []
    for deal in range(5_000):
        wins = chance.randint(1, 15)
        left = chance.choice((12, 1))
        p = 0.6 - 0.02 * wins if left == 12 else wins / 16
        found.append(
            chancefit.Decision("spanish", deal, left, 12, 16, wins, 0, chance.random() < p)
        )
    fitted = chancefit.fit(found)
    assert fitted.share == 0.0
    assert fitted.share + fitted.late > 0.5


def test_the_shipped_correction_is_tested_on_every_decision_without_a_fit(
    tmp_path: Path, run: Callable[..., str]
) -> None:
    out = run(tmp_path / "spanish.jsonl", decisions(1_000, 4), "--shipped")
    assert f"spanish: the shipped correction, {CORRECTIONS['spanish']}" in out
    assert "| spanish.jsonl | 1000 |" in out and "fitted on" not in out


@pytest.fixture
def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Callable[..., str]:
    """Run ``bench/chancefit.py`` on ``found``, written to ``dump``; what it printed."""

    def command(dump: Path, found: list[dict[str, object]], *flags: str) -> str:
        chancefit = load_bench("chancefit")
        dump.write_text("".join(json.dumps(d) + "\n" for d in found))
        monkeypatch.setattr("sys.argv", ["chancefit.py", *flags, str(dump)])
        chancefit.main()
        return capsys.readouterr().out

    return command
