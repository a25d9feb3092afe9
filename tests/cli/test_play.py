"""``milligan play`` as a person plays it: saving, quitting, resigning, what it prints."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
from pathlib import Path

import pytest

SUIT_SYMBOLS = "♣♦♥♠"


def milligan() -> list[str]:
    script = Path(sys.executable).with_name("milligan")
    return [str(script)] if script.exists() else [sys.executable, "-m", "milligan.cli"]


def play(*args: str, stdin: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The real command with typed lines on a pipe (input ends after them, as Ctrl-D)."""
    return subprocess.run(
        [*milligan(), "play", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=cwd,
    )


class Terminal:
    """The real command on a pseudo-terminal, so that Ctrl-C and Ctrl-D are keys."""

    def __init__(self, args: list[str], cwd: Path) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: becomes the game
            os.chdir(cwd)
            os.execvpe(milligan()[0], [*milligan(), *args], {**os.environ, "NO_COLOR": "1"})
        self.pid, self.fd = pid, fd
        self.seen = ""

    def expect(self, text: str, timeout: float = 60) -> str:
        """Read until ``text`` appears; everything read since the last match."""
        while text not in self.seen:
            ready, _, _ = select.select([self.fd], [], [], timeout)
            assert ready, f"waited for {text!r}; the screen shows:\n{self.seen[-2000:]}"
            try:
                chunk = os.read(self.fd, 4096).decode("utf-8", "replace")
            except OSError:  # the game ended
                chunk = ""
            assert chunk, f"the game ended before {text!r}:\n{self.seen[-2000:]}"
            self.seen += chunk
        before, _, self.seen = self.seen.partition(text)
        return before + text

    def type(self, keys: str) -> None:
        os.write(self.fd, keys.encode())

    def status(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


def record(tmp_path: Path, name: str = "game.json", **data: object) -> Path:
    path = tmp_path / name
    base = {"format": "milligan-record/1", "variant": "classic", "deal": 42, "moves": []}
    path.write_text(json.dumps({**base, **data}))
    return path


def test_quit_with_unsaved_moves_offers_to_save(tmp_path: Path) -> None:
    result = play("--number", "42", stdin="5>F\nq\nc\nu\nr\nq\nmine.json\n", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = result.stdout
    asks = "Save your moves before quitting? Type a file name, or press Enter not to save"
    assert out.count(asks) == 2  # c kept playing the first time
    assert "Undid move 1 (5>F)." in out and "Redid move 1 (5>F)." in out
    assert "Saved to mine.json." in out
    saved = json.loads((tmp_path / "mine.json").read_text())
    assert saved["moves"] == ["5>F"] and saved["deal"] == 42


def test_quit_without_moves_or_by_choice_saves_nothing(tmp_path: Path) -> None:
    untouched = play("--number", "42", stdin="q\n", cwd=tmp_path)
    assert "Save" not in untouched.stdout and untouched.returncode == 0
    declined = play("--number", "42", stdin="5>F\nq\n\n", cwd=tmp_path)
    assert "Not saved." in declined.stdout and declined.returncode == 0
    assert list(tmp_path.iterdir()) == []


def test_a_resumed_file_is_rewritten_only_when_the_game_changed(tmp_path: Path) -> None:
    path = record(tmp_path, note="keep me", moves=["5>F"], result="unknown", positions=12)
    before = path.read_bytes()
    os.utime(path, (1_000_000, 1_000_000))
    # Looking, an illegal move, an undo and its redo change nothing.
    result = play("--resume", str(path), stdin="?\nD\nu\nr\nsave\nq\n", cwd=tmp_path)
    assert result.returncode == 0
    assert "Nothing new to save" in result.stdout and "Save your moves" not in result.stdout
    assert path.read_bytes() == before and path.stat().st_mtime == 1_000_000
    # A move is saved at the end of input, and the file keeps its other keys in order.
    result = play("--resume", str(path), stdin="S\n", cwd=tmp_path)
    assert f"Save your moves to {path} before quitting? [Y/n, c to keep playing]" in result.stdout
    saved = json.loads(path.read_text())
    assert list(saved) == ["format", "variant", "deal", "moves", "note", "positions"]
    assert saved["moves"] == ["5>F", "S"] and saved["note"] == "keep me"
    # n leaves the file as it was.
    before = path.read_bytes()
    result = play("--resume", str(path), stdin="D\nq\nn\n", cwd=tmp_path)
    assert "Not saved." in result.stdout and path.read_bytes() == before


def test_resigning_asks_first_and_offers_to_save(tmp_path: Path) -> None:
    path = record(tmp_path, moves=["5>F"])
    result = play("--resume", str(path), stdin="resign\n\nresign\ny\ny\n", cwd=tmp_path)
    out = result.stdout
    assert result.returncode == 0
    assert out.count("Resign this game? It counts as a loss. [y/N]") == 2
    assert "Not resigned." in out and "You resigned deal 42." in out
    assert f"Save your moves to {path} with the resignation? [Y/n]" in out
    assert json.loads(path.read_text())["result"] == "resigned"


def test_ctrl_c_and_ctrl_d_ask_before_quitting(tmp_path: Path) -> None:
    game = Terminal(["play", "--number", "42"], tmp_path)
    game.expect("move> ")
    game.type("5>F\r")
    game.expect("move> ")
    game.type("\x03")  # Ctrl-C
    game.expect("Save your moves before quitting?")
    game.type("c\r")
    game.expect("move> ")
    game.type("\x04")  # Ctrl-D
    game.expect("Save your moves before quitting?")
    game.type("keys.json\r")
    game.expect("Saved to keys.json.")
    assert game.status() == 0
    assert json.loads((tmp_path / "keys.json").read_text())["moves"] == ["5>F"]


def test_ctrl_d_after_some_text_sends_it(tmp_path: Path) -> None:
    # As with input(): the first Ctrl-D hands over "?", the second ends the line.
    game = Terminal(["play", "--number", "42"], tmp_path)
    game.expect("move> ")
    game.type("?\x04")
    game.type("\x04")
    game.expect("Legal moves: ")
    game.expect("move> ")
    game.type("q\r")
    assert game.status() == 0


def test_ctrl_c_at_the_question_keeps_a_resumed_game(tmp_path: Path) -> None:
    path = record(tmp_path, moves=["5>F"])
    game = Terminal(["play", "--resume", str(path)], tmp_path)
    game.expect("move> ")
    game.type("S\r")
    game.expect("move> ")
    game.type("\x03")
    game.expect("[Y/n, c to keep playing]")
    game.type("\x03")  # no answer: the moves go back to the file they came from
    game.expect("Saved to")
    assert game.status() == 0
    assert json.loads(path.read_text())["moves"] == ["5>F", "S"]


def test_moves_are_numbered_from_1(tmp_path: Path) -> None:
    path = record(tmp_path, moves=["5>F", "D"])
    result = play("--resume", str(path), stdin="", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("milligan play: error: move 2 (D) is illegal")


@pytest.mark.parametrize("command", [["play", "--number", "42"], ["deal", "--number", "42"]])
def test_cards_are_written_one_way(tmp_path: Path, command: list[str]) -> None:
    typed = "4>6\n5>F\n3>6\n?\nq\n\n"
    result = subprocess.run(
        [*milligan(), *command],
        input=typed,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=tmp_path,
    )
    out = result.stdout
    assert not any(symbol in out for symbol in SUIT_SYMBOLS), out
    assert " QD    6C    9C    5H    AD    TD    8S    4H" in out
    if command[0] == "play":
        assert "5H cannot go on TD" in out  # the message writes 5H as the table does
        assert "Foundations: -- --   -- AD" in out


def test_face_down_cards_line_up_with_their_columns(tmp_path: Path) -> None:
    result = subprocess.run(
        [*milligan(), "deal", "--variant", "improved", "--number", "42"],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        check=True,
    )
    lines = result.stdout.splitlines()
    labels = next(line for line in lines if line.startswith(" 1 "))
    label_at = [m.start() for m in re.finditer(r"\d", labels)]
    rows = [line for line in lines if "##" in line]
    assert len(rows) == 2
    for row in [*rows, lines[lines.index(rows[-1]) + 1]]:
        starts = [m.start() for m in re.finditer(r"\S\S", row)]
        assert starts == label_at, (labels, row)


def test_h_asks_the_fair_player_for_a_hint(tmp_path: Path) -> None:
    # deal 42 of classic: the ace in column 5 is the only card that can go up
    result = play("--variant", "classic", "--number", "42", stdin="h\nq\n", cwd=tmp_path)
    hint = result.stdout[result.stdout.index("Hint: ") :].splitlines()[0]
    move = hint.split()[1]
    assert move in {"5>F", "3>6", "4>2", "D"}
    assert "estimated chance of winning" in hint and "sampled deals" in hint


def test_after_a_hint_the_next_one_is_made_while_the_player_looks(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Once the player has asked for a hint, a move starts the next one in a thread of
    its own; the hint asked for then waits for it instead of deciding again."""
    import functools
    import io
    import threading

    from milligan.game import Game
    from milligan.solver import fair
    from milligan.terminal import play as play_in

    made: list[str] = []
    real = fair.decide

    def spy(*args: object, **kwargs: object) -> fair.Plan:
        made.append(threading.current_thread().name)
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(fair, "decide", spy)
    monkeypatch.setattr(
        fair, "Advisor", functools.partial(fair.Advisor, samples=2, max_positions=30_000)
    )
    typed = iter(["D", "h", "D", "h", "q", ""])
    out = io.StringIO()
    assert play_in(Game.new("classic", 1), read=lambda _: next(typed), out=out) == 0
    # the move before the first hint starts nothing; the deal after it does
    assert made == ["MainThread", "hint-ahead_0"]
    assert out.getvalue().count("Hint: ") == 2
