"""``milligan solve`` and ``milligan hint`` end to end through the command's main()."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from milligan.cli import main
from milligan.record import Record


def test_solve_json_record_replays_to_a_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = tmp_path / "start.json"
    record.write_text(
        '{"format": "milligan-record/1", "variant": "classic", "deal": 1, "moves": ["2>4"]}'
    )
    assert main(["solve", str(record), "--json", "--max-positions", "200000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["result"] in ("won", "unknown")
    assert out["positions"] > 0 and out["seconds"] >= 0
    if out["result"] == "won":
        assert out["moves"][0] == "2>4"
        game = Record.from_dict(out).replay()
        assert game.status == "won"
        solved = tmp_path / "solved.json"
        solved.write_text(json.dumps(out))
        assert main(["replay", str(solved), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["status"] == "won"


def test_solve_needs_exactly_one_start(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve"]) == 2
    assert "give a deal" in capsys.readouterr().err


def test_solve_text_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--variant", "one-deck", "--number", "1"]) == 0
    assert capsys.readouterr().out.startswith("lost: ")


def test_hint_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record = tmp_path / "game.json"
    record.write_text(
        '{"format": "milligan-record/1", "variant": "improved", "deal": 42, "moves": []}'
    )
    args = ["hint", str(record), "--samples", "3", "--seed", "5", "--max-positions", "5000"]
    assert main([*args, "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main([*args, "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == first
    assert first["samples"] == 3
    assert first["win_chance"] == first["wins"] / 3
