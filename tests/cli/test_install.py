"""Installing with pip works without a C compiler: the solver falls back to pure Python.

This builds the package in a fresh virtual environment (about 20 seconds), so it
is marked ``slow``: ``pytest -m "not slow"`` leaves it out.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: Build output and caches that a fresh clone would not have.
NOT_IN_A_CLONE = shutil.ignore_patterns(
    "__pycache__", "*.so", "*.pyd", "*.egg-info", "build", "_core.c"
)


@pytest.mark.slow
def test_pip_install_without_a_c_compiler(tmp_path: Path) -> None:
    source = tmp_path / "milligan"
    shutil.copytree(ROOT / "src", source / "src", ignore=NOT_IN_A_CLONE)
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    venv = tmp_path / "venv"
    # The dependencies come from this environment; the build requirements
    # (setuptools, wheel, Cython) are fetched by pip as for any user.
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    env = {**os.environ, "CC": "/bin/false", "PIP_DISABLE_PIP_VERSION_CHECK": "1"}
    install = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "--no-deps", "-v", str(source)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    if install.returncode != 0 and "matching distribution" in install.stdout + install.stderr:
        pytest.skip("pip cannot fetch the build requirements (offline?)")
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    assert "could not build milligan.solver._core" in install.stdout + install.stderr

    python = venv / "bin" / "python"
    probe = subprocess.run(
        [
            str(python),
            "-c",
            "import milligan, milligan.solver.compiled as c; print(milligan.__file__, c.AVAILABLE)",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=True,
    )
    where, available = probe.stdout.split()
    assert where.startswith(str(venv)) and available == "False"

    solve = subprocess.run(
        [
            str(venv / "bin" / "milligan"),
            "solve",
            "--variant",
            "one-deck",
            "--number",
            "3",
            "--max-positions",
            "20000",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert solve.returncode == 0, solve.stderr
    assert solve.stdout.split(":")[0] in ("won", "lost", "unknown"), solve.stdout
