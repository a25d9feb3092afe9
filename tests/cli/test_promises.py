"""Promises of the command line that a new user meets first (#11)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

from milligan.survey.results import BUNDLED


def milligan(*args: str, env: dict[str, str]) -> list[str]:
    return [sys.executable, "-m", "milligan.cli", *args]


def test_survey_winnable_lists_the_shipped_deals_for_a_new_user(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path), "HOME": str(tmp_path)}
    done = subprocess.run(
        milligan("survey", "winnable", "--variant", "classic", env=env),
        capture_output=True, text=True, env=env, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    shipped = json.loads(BUNDLED.read_text())["classic"]
    assert [int(line) for line in done.stdout.split()] == sorted(shipped)
    assert len(shipped) > 500


def test_serve_open_says_where_to_go_when_no_browser_starts(tmp_path: Path) -> None:
    env = {**os.environ, "BROWSER": "/bin/false", "DISPLAY": "", "WAYLAND_DISPLAY": ""}
    server = subprocess.Popen(
        milligan("serve", "--open", "--port", "0", "--database", str(tmp_path / "g.sqlite3"),
                 env=env),
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
    )  # fmt: skip
    try:
        assert server.stdout is not None
        deadline = time.monotonic() + 60
        lines = []
        while time.monotonic() < deadline:
            line = server.stdout.readline()
            lines.append(line)
            if "in your browser" in line:
                break
        assert any("No browser could be started: open http://127.0.0.1:" in text for text in lines)
    finally:
        server.terminate()
        server.wait(10)


def test_report_plots_into_a_file_or_nowhere_is_one_line(tmp_path: Path) -> None:
    from milligan.survey.results import Limits, Result, ResultStore

    results = tmp_path / "survey.sqlite3"
    with ResultStore(results) as store:
        store.add(Result("classic", 1, Limits(max_positions=10), "unknown", 0.1, 10))
    (tmp_path / "taken").write_text("")
    for target in (tmp_path / "taken", tmp_path / "taken" / "below", Path("/proc/no/such")):
        done = subprocess.run(
            milligan("survey", "report", "--results", str(results), "--plots", str(target),
                     env=dict(os.environ)),
            capture_output=True, text=True, timeout=120,
        )  # fmt: skip
        assert done.returncode == 2, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert "cannot write" in done.stderr


def test_solving_a_won_record_adds_no_move(tmp_path: Path) -> None:
    from milligan.game import Game
    from milligan.record import Record
    from milligan.solver import solve

    game = Game.new("classic", 1)
    for move in solve(game, max_positions=1_000_000).moves:
        game.play(move)
    assert game.status == "won"
    path = tmp_path / "won.json"
    path.write_text(Record.of(game).to_json())
    done = subprocess.run(
        milligan("solve", str(path), "--json", env=dict(os.environ)),
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["result"] == "won" and out["moves"] == [str(move) for move in game.moves]
    assert Record.from_dict(out).replay().status == "won"
