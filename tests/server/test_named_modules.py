"""Every module named in a string resolves: import checks cannot see these names, so a move
that misses one would fail only when its code path runs (a deferred router after start-up,
a subcommand, a lazy name of `docdeck.server`)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import docdeck.cli
from docdeck.server import named_modules


def _cli_lazy_handlers() -> list[tuple[str, str]]:
    tree = ast.parse(Path(docdeck.cli.__file__).read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "_lazy"
            and all(isinstance(arg, ast.Constant) for arg in node.args)
        ):
            module, function = (arg.value for arg in node.args)  # type: ignore[attr-defined]
            found.append((module, function))
    return found


def test_every_router_module_resolves_and_has_a_router() -> None:
    names = named_modules.FIRST_ROUTERS + named_modules.LATER_ROUTERS
    assert len(set(names)) == len(names)
    for name in names:
        assert importlib.import_module(name).router.routes, name


@pytest.mark.parametrize("name", sorted(named_modules.LAZY_HOMES))
def test_every_lazy_name_of_the_server_resolves(name: str) -> None:
    home = importlib.import_module(named_modules.LAZY_HOMES[name])
    assert hasattr(home, name)
    assert getattr(importlib.import_module("docdeck.server"), name) is getattr(home, name)


def test_every_lazy_subcommand_resolves() -> None:
    handlers = _cli_lazy_handlers()
    assert len(handlers) >= 8  # the scan still finds them
    for module, function in handlers:
        assert callable(getattr(importlib.import_module(module), function)), (module, function)
