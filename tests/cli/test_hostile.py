"""Hostile input to the real `milligan` command: one line on stderr, status 2, no traceback."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

RECORD = {"format": "milligan-record/1", "variant": "classic", "deal": 1, "moves": []}
DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 20_000 + "1" + "}" * 20_000  # fits in one argument (< 128 KiB)


def milligan() -> list[str]:
    """The installed console script, as a user runs it (``python -m`` if it is missing)."""
    script = Path(sys.executable).with_name("milligan")
    if script.exists():
        return [str(script)]
    found = shutil.which("milligan")
    return [found] if found else [sys.executable, "-m", "milligan.cli"]


def run(*args: str, cwd: Path, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*milligan(), *args],
        input=stdin,
        capture_output=True,
        text=True,
        errors="replace",
        timeout=120,
        env={**os.environ, "NO_COLOR": "1"},
        cwd=cwd,
    )


def record_text(**changes: object) -> str:
    return json.dumps({**RECORD, **changes})


#: Files that every record-reading command gets, by name.
FILES: dict[str, str | bytes] = {
    "deep-array.json": DEEP_ARRAY,
    "deep-object.json": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "deep-variant.json": record_text(variant="@").replace('"@"', DEEP_ARRAY),
    "deep-order.json": json.dumps({**RECORD, "deal": None, "order": "@"}).replace(
        '"@"', DEEP_ARRAY
    ),
    "long-number.json": record_text(deal=0).replace('"deal": 0', '"deal": ' + "9" * 5000),
    "long-float.json": record_text(deal=0).replace('"deal": 0', '"deal": 1e400'),
    "nan.json": record_text(deal=0).replace('"deal": 0', '"deal": NaN'),
    "huge.json": record_text(moves=["D"] * 300_000),
    "not-utf8.json": b"\xff\xfe\x00{",
    "binary.json": bytes(range(256)) * 4,
    "empty.json": "",
    "array.json": "[1, 2]",
    "look-alike-move.json": record_text(moves=["ſ"]),
    "digit-look-alike.json": record_text(moves=["5>F", "٥>F"]),
    "moves-object.json": record_text(moves={"a": 1}),
    "long-move.json": record_text(moves=["9" * 5000 + ">F"]),
    "huge-variant.json": record_text(
        variant={"decks": 2, "columns": 13, "opening_rows": 10**30, "face_down_rows": 0}
    ),
    "bad-order.json": json.dumps({**RECORD, "deal": None, "order": ["AS"] * 104}),
    "illegal.json": record_text(moves=["D", "D", "9>F"]),
    "said-won.json": record_text(result="won"),
}
READERS = [
    ("replay",),
    ("solve", "--max-positions", "100"),
    ("hint", "--samples", "1", "--max-positions", "100"),
    ("play", "--resume"),
]


def hostile_inputs() -> Iterator[object]:
    for name in [*FILES, "missing.json", "a-folder", "/dev/zero"]:
        for reader in READERS:
            yield pytest.param([*reader, name], id=f"{reader[0]}-{name}")
    numbers = [
        "",
        "-1",
        str(2**64),
        "lots",
        "0x",
        "1e3",
        "9" * 5000,
        "0x" + "f" * 5000,
        "５",
        "٤٢",
        "1_000",
        "0b1",
    ]
    for number in numbers:
        yield pytest.param(["deal", "--number", number], id=f"deal-number-{number[:12]}")
    variants = [
        "",
        "freecell",
        "ſtrict",
        "{",
        DEEP_OBJECT,
        '{"x": ' + DEEP_ARRAY[:50_000] + DEEP_ARRAY[-50_000:] + "}",
        '{"decks": ' + "9" * 5000 + "}",
        '{"decks": 1e400}',
        '{"decks": NaN}',
        '{"decks": "2"}',
        '{"columns": 13, "opening_rows": 99999999999}',
    ]
    for variant in variants:
        yield pytest.param(
            ["deal", "--variant", variant, "--number", "1"], id=f"deal-variant-{variant[:12]}"
        )
    others = [
        ["solve", "--number", "1", "--max-positions", "9" * 5000],
        ["solve", "--number", "1", "--max-positions", "1" + "0" * 30],
        ["solve", "--number", "1", "--max-positions", "１０"],
        ["solve", "--number", "1", "--timeout", "nan"],
        ["solve", "--number", "1", "--timeout", "-1"],
        ["solve", "ok.json", "--number", "1"],
        ["solve"],
        ["hint", "ok.json", "--max-positions", "1" + "0" * 30],
        ["hint", "ok.json", "--samples", "0"],
        ["play", "--resume", "ok.json", "--variant", "one-deck"],
        ["play", "--resume", "ok.json", "--number", "3"],
        ["play", "--number", "1", "--resume"],
        ["play", "--resume", "-"],
        ["serve", "--port", "70000"],
        ["serve", "--port", "-1"],
        ["serve", "--port", "x"],
        ["serve", "--host", "no-such-host.invalid", "--port", "0"],
        ["serve", "--host", "256.1.1.1", "--port", "0"],
        ["frobnicate"],
    ]
    for args in others:
        yield pytest.param(args, id="-".join(arg[:12] for arg in args))
    yield pytest.param(
        ["solve", "--number", "1", "--max-memory", "999999999", "--max-positions", "10"],
        id="solve-max-memory-huge",
    )
    yield pytest.param(["autoplay", "--number", "1", "--samples", "10" * 20], id="samples-huge")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    for name, content in FILES.items():
        path = folder / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    (folder / "ok.json").write_text(record_text())
    (folder / "a-folder").mkdir()
    return folder


@pytest.mark.parametrize("args", hostile_inputs())
def test_bad_input_is_one_line_and_status_2(args: list[str], workdir: Path) -> None:
    before = {path.name: path.read_bytes() for path in workdir.iterdir() if path.is_file()}
    result = run(*args, cwd=workdir)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2, (result.returncode, result.stderr[-500:])
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr[-2000:]
    assert len(lines[0]) < 300, lines[0]
    after = {path.name: path.read_bytes() for path in workdir.iterdir() if path.is_file()}
    assert after == before  # state unchanged


def test_memory_is_capped_at_what_the_machine_has() -> None:
    from milligan.cli import MAX_MEMORY_MB, memory_mb

    assert memory_mb("512") == 512
    with pytest.raises(Exception, match="more than this machine can give"):
        memory_mb(str(MAX_MEMORY_MB + 1))


@pytest.fixture
def busy_port() -> Iterator[int]:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        yield taken.getsockname()[1]


def test_serve_on_a_port_in_use_is_one_line(busy_port: int, tmp_path: Path) -> None:
    result = run(
        "serve", "--port", str(busy_port), "--database", str(tmp_path / "g.sqlite"), cwd=tmp_path
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"milligan serve: error: port {busy_port} on 127.0.0.1 is already in use"
    ]


def test_serve_on_port_0_names_the_real_port(tmp_path: Path) -> None:
    server = subprocess.Popen(
        [*milligan(), "serve", "--port", "0", "--database", str(tmp_path / "g.sqlite")],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
    )
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert match is not None, line
        port = int(match[1])
        assert port != 0
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=30) as page:
            assert page.status == 200
    finally:
        server.terminate()
        server.wait(timeout=30)
