"""The ``milligan`` command: deal, replay, play, and one-line errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from milligan.cli import main


def run(
    *args: str, stdin: str | None = None, cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """The real console script, as a user would run it."""
    env = {**os.environ, "NO_COLOR": "1"}
    return subprocess.run(
        [sys.executable, "-m", "milligan.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=cwd,
    )


def write(tmp_path: Path, data: object, name: str = "game.json") -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data) if not isinstance(data, str) else data)
    return str(path)


def test_deal_shows_the_opening_layout(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--number", "42"]) == 0
    out = capsys.readouterr().out
    assert "deal 42" in out and " QD " in out and "stock 96 cards (12 rows)" in out


def test_deal_json_has_the_position_and_the_order(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["deal", "--variant", "one-deck", "--number", "9", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["variant"] == "one-deck" and data["deal"] == 9
    assert data["order"][:4] == ["7S", "8S", "AD", "7C"] and len(data["order"]) == 52
    assert data["columns"] == [["7S"], ["8S"], ["AD"], ["7C"]] and data["stock"] == 48


def test_deal_accepts_settings_as_json(capsys: pytest.CaptureFixture[str]) -> None:
    settings = (
        '{"decks": 1, "columns": 6, "opening_rows": 2, "face_down_rows": 1, "reprieve": "strict"}'
    )
    assert main(["deal", "--variant", settings, "--number", "3", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert all(column[0] == "??" for column in data["columns"]) and data["stock"] == 40


@pytest.mark.parametrize(
    "args, message",
    [
        (["deal", "--variant", "freecell"], "unknown variant 'freecell'"),
        (["deal", "--number", "-1"], "out of range"),
        (["deal", "--number", str(2**64)], "out of range"),
        (["deal", "--number", "lots"], "not a deal number"),
        (["deal", "--variant", '{"decks": 3}'], "decks must be 1 or 2"),
        (["replay", "/nonexistent/game.json"], "cannot read"),
        (["frobnicate"], "invalid choice"),
    ],
)
def test_bad_input_is_one_line_and_status_2(args: list[str], message: str) -> None:
    result = run(*args)
    assert result.returncode == 2
    assert message in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "Traceback" not in result.stderr


def test_replay_prints_the_final_position(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        {"format": "milligan-record/1", "variant": "improved", "deal": 42, "moves": ["8>F"]},
    )
    result = run("replay", path, "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["columns"][7] == ["??", "QC"] and data["moves"] == 1
    assert data["foundations"]["D"] == [0, 1]
    text = run("replay", path)
    assert text.returncode == 0 and "## " in text.stdout and "1 move ·" in text.stdout


@pytest.mark.parametrize(
    "record, message",
    [
        (
            '{"format": "milligan-record/1", "variant": "classic", "deal": 42,'
            ' "moves": ["5>F", "D"]}',
            "move 2 (D) is illegal: no dealing while a reprieve is open",
        ),
        (
            '{"format": "milligan-record/1", "variant": "classic", "deal": 42, "moves": ["4>6"]}',
            "move 1 (4>6) is illegal: 5H cannot go on TD (needs a black 6)",
        ),
        ("{broken", "must be JSON"),
        ('{"format": "milligan-record/1", "variant": "classic", "moves": []}', '"deal" or "order"'),
        (
            '{"format": "milligan-record/1", "variant": "classic", "deal": 1, "moves": ["9>>2"]}',
            "move 1:",
        ),
    ],
)
def test_replay_errors(tmp_path: Path, record: str, message: str) -> None:
    result = run("replay", write(tmp_path, record))
    assert result.returncode == 2
    assert message in result.stderr, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1


def test_play_a_session_with_undo_redo_save_and_resume(tmp_path: Path) -> None:
    save = tmp_path / "saved.json"
    session = "\n".join(["?", "5>F", "D", "9>1", "nonsense", "S", "u", "r", f"save {save}", "q"])
    result = run("play", "--number", "42", stdin=session + "\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "Legal moves: 5>F 3>6 4>2 D" in out
    assert "Reprieve open: column 5 is empty" in out
    assert "D is illegal: no dealing while a reprieve is open" in out
    assert "there is no column 9" in out
    assert "'nonsense' is not a move" in out
    assert "Undid move 2 (S)." in out and "Redid move 2 (S)." in out and "Saved to" in out
    record = json.loads(save.read_text())
    assert record["moves"] == ["5>F", "S"] and record["deal"] == 42
    resumed = run("play", "--resume", str(save), stdin="D\nq\ny\n")
    assert resumed.returncode == 0
    assert json.loads(save.read_text())["moves"] == ["5>F", "S", "D"]


def test_play_ends_with_a_dead_end_message(tmp_path: Path) -> None:
    moves = ["D"] * 12
    save = write(
        tmp_path,
        {"format": "milligan-record/1", "variant": "one-deck", "deal": 4, "moves": moves[:11]},
    )
    result = run("play", "--resume", save, stdin="D\nq\n")
    assert result.returncode == 0
    assert "Dead end" in result.stdout and "u to undo" in result.stdout


def test_play_ends_with_a_win(tmp_path: Path) -> None:
    # One-deck, one column: a deck dealt in foundation order is won by going up card by card.
    order = [f"{r}{s}" for s in "CDHS" for r in "A23456789TJQK"]
    moves = []
    for _ in range(51):
        moves += ["1>F", "S", "D"]
    record = {
        "format": "milligan-record/1",
        "variant": {
            "decks": 1,
            "columns": 1,
            "opening_rows": 1,
            "face_down_rows": 0,
            "reprieve": "free",
        },
        "order": order,
        "moves": moves,
    }
    path = write(tmp_path, record)
    result = run("play", "--resume", path, stdin="1>F\n")
    assert result.returncode == 0, result.stderr
    assert "You won" in result.stdout and "Congratulations" in result.stdout
    replay = run("replay", path, "--json")
    assert replay.returncode == 0
