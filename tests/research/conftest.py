"""Research interfaces need the ``research`` extra: skipped without it, failed under CI."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest


def need(module: str) -> ModuleType:
    """Import ``module``; skip the test when it is missing (fail under ``CI=true``)."""
    try:
        return importlib.import_module(module)
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail(f"{module} is missing under CI: ./test.sh should have installed it")
        pytest.skip(f"{module} is not installed: pip install -e '.[research]'")
