"""Text that comes from data (a title, an id, a server's message) is shown as written, not
read as Textual markup: a space titled "Docs [beta]" was asked about as "Delete the space
“Docs ”?", and a "[/]" in a title raised a MarkupError as a dialog drew.

Every `Static` or `Label` the TUI makes from anything but a string literal or a `Text`
says `markup=False` (and so do the error lines dialogs fill in later). No docdeck text is
written as markup; a new widget that forgets it fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).parents[3] / "src" / "docdeck" / "tui"
FILLED_LATER = {"dialog-error", "save-why", "chooser-hint"}
"""Ids of widgets made empty and filled with a message (a server's words) later."""


def _unmarked() -> list[str]:
    found: list[str] = []
    for path in sorted(TUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("Static", "Label")
                and node.args
            ):
                continue
            if any(k.arg == "markup" for k in node.keywords):
                continue
            first = node.args[0]
            widget_id = next(
                (
                    k.value.value
                    for k in node.keywords
                    if k.arg == "id" and isinstance(k.value, ast.Constant)
                ),
                None,
            )
            literal = isinstance(first, ast.Constant) and widget_id not in FILLED_LATER
            text = isinstance(first, ast.Call) and getattr(first.func, "id", None) == "Text"
            if not (literal or text):
                found.append(f"{path.relative_to(TUI)}:{node.lineno} {ast.unparse(first)}")
    return found


def test_every_widget_showing_data_shows_it_as_plain_text() -> None:
    assert TUI.is_dir()
    assert _unmarked() == []
