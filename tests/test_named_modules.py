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
from functools import cache
from pathlib import Path

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


class _Scan(ast.NodeVisitor):
    """One file's docdeck names: those in its strings, and `from X import Y` inside a
    function (in the code, the tests, the benches), as `X.Y` (X alone for `import X`): such an
    import runs only when its function does."""

    def __init__(self) -> None:
        self.strings: set[str] = set()
        self.imports: set[str] = set()
        self._functions = 0

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._functions += 1
        self.generic_visit(node)
        self._functions -= 1

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Constant(self, node: ast.Constant) -> None:
        if isinstance(node.value, str):
            self.strings.update(_NAME.findall(node.value))

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        if self._functions and node.level == 0 and (node.module or "").startswith("docdeck"):
            self.imports.update(f"{node.module}.{a.name}" for a in node.names)

    def visit_Import(self, node: ast.Import) -> None:
        if self._functions:
            self.imports.update(a.name for a in node.names if a.name.startswith("docdeck"))


def _named_in_sources() -> set[str]:
    """Every docdeck name in the sources' strings and their imports inside functions (each
    file parsed once: parsing is most of this test's time)."""
    found: set[str] = set()
    for path in _sources():
        text = path.read_text()
        if "docdeck" not in text:
            continue
        scan = _Scan()
        scan.visit(ast.parse(text, str(path)))
        found |= scan.strings | scan.imports
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


@cache
def _named() -> list[str]:
    """Worked out when a test asks, not at collection: every pytest-xdist worker collects
    every module, and parsing the sources took each of them some 4.5 s before its first test."""
    return sorted(_named_in_sources() | _cli_handlers() | _lazy_faces() | _models_and_resources())


def test_the_list_is_not_empty() -> None:
    assert len(_cli_handlers()) >= 5
    named = _named()
    assert "docdeck.tui.app" in named


def test_every_module_named_in_a_string_resolves() -> None:
    unresolved = [dotted for dotted in _named() if not _resolves(dotted)]
    assert not unresolved, f"these name no module or attribute: {unresolved}"
