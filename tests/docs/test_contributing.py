"""CONTRIBUTING.md against the code: the engine layer and the checks it tells you to run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")


def test_the_engine_row_names_the_modules_the_boundary_test_checks() -> None:
    boundaries = (ROOT / "tests" / "engine" / "test_boundaries.py").read_text(encoding="utf-8")
    assert "CONTRIBUTING.md" in boundaries
    listed = re.search(r"^ENGINE = \[(.*?)\]", boundaries, re.MULTILINE)
    assert listed is not None
    engine = re.findall(r'"(\w+)"', listed[1])
    row = next(line for line in TEXT.splitlines() if line.startswith("| engine |"))
    assert re.findall(r"`(\w+)`", row.split("|")[2]) == engine


def test_the_section_the_boundary_test_cites_exists() -> None:
    assert "\n## Layers and what each may import\n" in TEXT


def test_the_commands_match_test_sh() -> None:
    script = (ROOT / "test.sh").read_text(encoding="utf-8")
    assert "ruff check src tests bench" in script and "ruff check src tests bench" in TEXT
    assert "ruff format --check --quiet src tests bench" in script
    assert "ruff format src tests bench" in TEXT
    mypy = next(line for line in TEXT.splitlines() if "python3 -m mypy --strict" in line)
    assert "-m mypy --strict src/milligan\n" in script
    assert mypy.split("#")[0].split() == ["python3", "-m", "mypy", "--strict", "src/milligan"]
    for name in ("engine", "solver", "survey", "web"):
        assert f"bench/{name}.py" in TEXT and (ROOT / "bench" / f"{name}.py").exists()


def test_every_bench_script_is_listed() -> None:
    for script in sorted((ROOT / "bench").glob("*.py")):
        assert f"`python3 bench/{script.name}`" in TEXT, script.name


def test_no_reference_outside_the_repository() -> None:
    for needle in ("../shared", "shared/RULES", "STYLE.md"):
        assert needle not in TEXT
