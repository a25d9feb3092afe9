"""The web layer's shape: models in schemas.py, answers built in views.py, checked on the way."""

from __future__ import annotations

import ast
import inspect
import typing

import pytest
from fastapi.responses import Response
from fastapi.routing import APIRoute
from pydantic import ValidationError

import milligan.web.schemas as schemas
from milligan.web.routes import router


def _imports(module: object) -> set[str]:
    tree = ast.parse(inspect.getsource(module))  # type: ignore[arg-type]
    return {
        node.module or "" if isinstance(node, ast.ImportFrom) else alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.Import | ast.ImportFrom)
        for alias in node.names
    }


def test_schemas_hold_only_models() -> None:
    assert not {name for name in _imports(schemas) if name.startswith("milligan")}
    tree = ast.parse(inspect.getsource(schemas))
    assert not [node.name for node in tree.body if isinstance(node, ast.FunctionDef)]


def test_every_answer_with_a_model_is_checked_against_it() -> None:
    """A handler that returned a Response would skip the check: none does."""
    routes = [route for route in router.routes if isinstance(route, APIRoute)]
    assert len(routes) >= 12
    for route in routes:
        returned = typing.get_type_hints(route.endpoint)["return"]
        assert not (isinstance(returned, type) and issubclass(returned, Response)), route.path
        if route.response_model is not None:
            assert returned == route.response_model, route.path


def test_answers_refuse_fields_beyond_their_model() -> None:
    with pytest.raises(ValidationError):
        schemas.SolutionPublic(result="won", moves=[], assisted=True, cards=[])  # type: ignore[call-arg]
