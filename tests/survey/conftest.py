"""Survey tests start real processes: they must run the code under test."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import milligan


@pytest.fixture(autouse=True)
def same_source_in_subprocesses(monkeypatch: pytest.MonkeyPatch) -> None:
    """Point child processes (CLI, pool and Dask workers) at the package imported here.

    Without it they would import whatever the editable install points at,
    which may be another checkout.
    """
    source = str(Path(milligan.__file__).resolve().parents[1])
    rest = os.environ.get("PYTHONPATH")
    monkeypatch.setenv("PYTHONPATH", source + (os.pathsep + rest if rest else ""))


def run_survey_command(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``milligan survey ARGS`` in a real process, as a user runs it."""
    command = [sys.executable, "-m", "milligan.cli", "survey", *args]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
