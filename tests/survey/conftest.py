"""Survey tests start real processes: they must run the code under test."""

from __future__ import annotations

import os
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
