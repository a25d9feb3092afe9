"""The engine imports nothing but the standard library and itself.

The layer rules are in CONTRIBUTING.md, "Layers and what each may import".
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import milligan

ENGINE = ["cards", "variants", "deal", "moves", "position", "game", "record", "errors"]


def test_engine_modules_import_only_the_standard_library() -> None:
    package = Path(milligan.__file__).parent
    for name in ENGINE:
        tree = ast.parse((package / f"{name}.py").read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                roots = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                roots = [node.module]
            else:
                continue
            for root in roots:
                if root.startswith("milligan."):
                    assert root.split(".")[1] in ENGINE, f"{name} imports {root}"
                else:
                    top = root.split(".")[0]
                    assert top in sys.stdlib_module_names or top == "__future__", (
                        f"{name} imports {root}"
                    )
