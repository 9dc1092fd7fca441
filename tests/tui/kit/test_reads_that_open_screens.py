"""A read that ends by pushing a screen says so (`read(..., opens_a_screen=True)`).

The keys typed while it reads then wait for it and go to the screen it pushes
(`kit/typeahead.py`). Undeclared, they went to the screen below: "n" and a space's name
typed at once in the site editor left the chooser empty. This guard reads the source, so a
new read that pushes a chooser or a dialog cannot forget it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import docdeck.tui

_PUSHES = re.compile(r"\.push_screen\(|\bChooser\(|\b\w+Dialog\(")


def _declared(decorator: ast.expr, bound: dict[str, ast.expr]) -> ast.Call | None:
    """The `read(...)`/`work(...)` call a decorator is, directly or through a module-level
    name bound to one (`reading_schema = read(...)`); None for any other decorator."""
    if isinstance(decorator, ast.Name) and decorator.id in bound:
        decorator = bound[decorator.id]
    if (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Name)
        and decorator.func.id in ("read", "work")
    ):
        return decorator
    return None


def _opens(call: ast.Call) -> bool:
    return any(
        keyword.arg == "opens_a_screen"
        and isinstance(keyword.value, ast.Constant)
        and keyword.value.value is True
        for keyword in call.keywords
    )


def test_every_read_that_pushes_a_screen_holds_the_keys_for_it() -> None:
    root = Path(docdeck.tui.__file__).parent
    undeclared: list[str] = []
    checked = 0
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        bound = {
            target.id: node.value
            for node in tree.body
            if isinstance(node, ast.Assign)
            for target in node.targets
            if isinstance(target, ast.Name)
        }
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                continue
            calls = [c for d in node.decorator_list if (c := _declared(d, bound)) is not None]
            if not calls or not _PUSHES.search(ast.unparse(node)):
                continue
            checked += 1
            if not any(_opens(call) for call in calls):
                undeclared.append(f"{path.relative_to(root)}:{node.lineno} {node.name}")
    assert checked >= 10, "the guard found too few reads that push a screen: is it reading?"
    assert not undeclared, "reads that push a screen without opens_a_screen=True:\n" + "\n".join(
        undeclared
    )
