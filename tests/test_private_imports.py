"""Private names of dependencies that docdeck uses, listed in one place.

A release that moves one of them fails here, by name, instead of as an ImportError in the
sandbox's fast lane or a slower start-up; pyproject.toml bounds these dependencies to the
next minor release for the same reason, and this says what to check when raising a bound.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

PRIVATE_NAMES = [
    ("starlette._exception_handler", "wrap_app_handling_exceptions"),  # server/fast_routes.py
    ("starlette._exception_handler", "_lookup_exception_handler"),  # server/fast_lane.py
    ("starlette._utils", "is_async_callable"),  # server/fast_lane.py
    ("pydantic._internal._config", "config_defaults"),  # server/lean_imports.py
    ("pydantic.plugin._loader", "get_plugins"),  # _cli/pydantic_plugins.py
    ("textual.widgets._footer", "FooterKey"),  # tui/kit/footer.py
    ("textual._context", "NoActiveAppError"),  # tui/kit/styled.py
    ("textual.widgets._header", "HeaderTitle"),  # tui/kit/header.py
]
"""(module, name) for every import from a dependency's private module."""

DEPENDANT_FIELDS = [
    "call",
    "name",
    "dependencies",
    "path_params",
    "query_params",
    "header_params",
    "cookie_params",
    "body_params",
    "request_param_name",
    "websocket_param_name",
    "http_connection_param_name",
    "response_param_name",
    "background_tasks_param_name",
    "security_scopes_param_name",
]
"""FastAPI's undocumented `Dependant`, which server/fast_routes.py reads to plan a route."""

_PRIVATE_IMPORT = re.compile(
    r"^\s*from ((?:starlette|fastapi|uvicorn|pydantic|pydantic_core|pydantic_settings|textual"
    r"|httpx|rich|markdown_it|mdit_py_plugins)(?:\.\w+)*\._\w+(?:\.\w+)*) import (\w+)",
    re.MULTILINE,
)
_SRC = Path(__file__).resolve().parents[1] / "src" / "docdeck"


@pytest.mark.parametrize(("module", "name"), PRIVATE_NAMES)
def test_each_private_name_still_exists(module: str, name: str) -> None:
    assert hasattr(importlib.import_module(module), name), f"{module}.{name} moved"


def test_fastapis_dependant_still_has_the_fields_the_fast_routes_read() -> None:
    import dataclasses

    from fastapi.dependencies.models import Dependant
    from fastapi.routing import APIRoute

    fields = {field.name for field in dataclasses.fields(Dependant)}
    assert set(DEPENDANT_FIELDS) <= fields, set(DEPENDANT_FIELDS) - fields

    def endpoint() -> None:
        return None

    assert isinstance(APIRoute("/x", endpoint).dependant, Dependant)


def test_the_list_holds_every_private_import_in_the_source() -> None:
    found = {
        (match[0], match[1])
        for path in _SRC.rglob("*.py")
        for match in _PRIVATE_IMPORT.findall(path.read_text(encoding="utf-8"))
    }
    assert found, "the scan finds nothing: check its pattern"
    assert found <= set(PRIVATE_NAMES), found - set(PRIVATE_NAMES)


def test_every_imported_distribution_is_declared() -> None:
    """What src imports is in pyproject's dependencies, not installed by luck as another's."""
    import sys
    import tomllib
    from importlib.metadata import packages_distributions

    project = tomllib.loads((_SRC.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))
    declared = {
        re.split(r"[<>=!~;\[ ]", requirement, maxsplit=1)[0].lower().replace("_", "-")
        for requirement in project["project"]["dependencies"]
    }
    owners = packages_distributions()
    imported: set[str] = set()
    for path in _SRC.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                imported.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                imported.add(node.module.split(".")[0])
    third_party = {
        module
        for module in imported - set(sys.stdlib_module_names) - {"docdeck"}
        if not module.startswith("_")  # CPython's accelerator modules (_sha2)
    }
    missing = {
        (module, distribution)
        for module in third_party
        for distribution in owners.get(module, [module])
        if distribution.lower().replace("_", "-") not in declared
    }
    assert not missing, missing
