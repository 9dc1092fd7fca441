"""Modules named in strings, resolved: import checks (ruff, mypy, lint-imports) cannot see a
module named by a string, so a move or a rename would break these only when they run.

This is the one place that lists them. It reads every string the code, the tests and the
benches hold that names a docdeck module (`"docdeck.tui.kit.errors"`, a probe's
`import docdeck.tui.app`, a `monkeypatch.setattr("docdeck._cli.tui._has_terminal", …)`,
a docstring's `docdeck.tui.kit.in_flight.Subject`), the CLI's lazy handlers, the models'
lazy modules, the gateway's resource discovery, the TUI faces' lazy maps and every import
inside a function (run only when that function is), and checks that each resolves.
The sandbox server's own string-named modules are checked with the server.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import pkgutil
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
_NAME = re.compile(r"\bdocdeck(?:\.[A-Za-z_][A-Za-z0-9_]*)+")
_SKIPPED = ("src/docdeck/server/", "tests/server/")


def _sources() -> list[Path]:
    files = [
        *ROOT.glob("src/docdeck/**/*.py"),
        *ROOT.glob("tests/**/*.py"),
        *ROOT.glob("bench/**/*.py"),
    ]
    here = Path(__file__)
    return sorted(
        f for f in files if f != here and not str(f.relative_to(ROOT)).startswith(_SKIPPED)
    )


def _resolves(dotted: str) -> bool:
    """A module, or a module's attribute (a class's too): the longest importable prefix, then
    attributes."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        try:
            if importlib.util.find_spec(name) is None:
                continue
        except ModuleNotFoundError:
            continue
        value: object = importlib.import_module(name)
        for attribute in parts[cut:]:
            if not hasattr(value, attribute):
                # A field declared without a default (a dataclass's, a model's) is no attribute.
                return attribute in getattr(value, "__annotations__", {})
            value = getattr(value, attribute)
        return True
    return False


def _named_in_strings() -> set[str]:
    found: set[str] = set()
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.update(_NAME.findall(node.value))
    return found


def _imported_in_functions() -> set[str]:
    """`from X import Y` inside a function (in the code, the tests, the benches), as `X.Y`
    (X alone for `import X`): such an import runs only when its function does."""
    found: set[str] = set()
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        for function in ast.walk(tree):
            if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            for node in ast.walk(function):
                if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                    if node.module.startswith("docdeck"):
                        found.update(f"{node.module}.{a.name}" for a in node.names)
                    elif node.module == "docdeck":
                        found.update(f"docdeck.{a.name}" for a in node.names)
                elif isinstance(node, ast.Import):
                    found.update(a.name for a in node.names if a.name.startswith("docdeck"))
    return found


def _cli_handlers() -> set[str]:
    """`_lazy("docdeck._cli.serve", "run_serve")` in cli.py, as `module.function`."""
    tree = ast.parse((ROOT / "src/docdeck/cli.py").read_text())
    return {
        f"{node.args[0].value}.{node.args[1].value}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "_lazy"
        and all(isinstance(a, ast.Constant) for a in node.args)
    }


def _lazy_faces() -> set[str]:
    """Each TUI package's lazy face: `_LAZY = {name: module}`, as `module.name`."""
    import docdeck.tui

    found: set[str] = set()
    for info in pkgutil.walk_packages(docdeck.tui.__path__, "docdeck.tui."):
        if not info.ispkg:
            continue
        lazy = getattr(importlib.import_module(info.name), "_LAZY", {})
        found.update(f"{module}.{name}" for name, module in lazy.items())
    return found


def _models_and_resources() -> set[str]:
    import docdeck.models
    from docdeck.gateway import resources

    found = {f"docdeck.models.{m}" for m in docdeck.models._LAZY_MODULES}
    found.update(f"{resources.__name__}.{m.name}" for m in pkgutil.iter_modules(resources.__path__))
    return found


NAMED = sorted(
    _named_in_strings()
    | _imported_in_functions()
    | _cli_handlers()
    | _lazy_faces()
    | _models_and_resources()
)


def test_the_list_is_not_empty() -> None:
    assert len(_cli_handlers()) >= 5
    assert "docdeck.tui.app" in NAMED


@pytest.mark.parametrize("dotted", NAMED)
def test_a_module_named_in_a_string_resolves(dotted: str) -> None:
    assert _resolves(dotted), f"{dotted} names no module or attribute"
