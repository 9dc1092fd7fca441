"""Text that comes from data (a title, an id, a server's message, what the user typed) is
shown as written, not read as Textual markup: a space titled "Docs [beta]" was asked about
as "Delete the space “Docs ”?", and a "[/]" in a title raised a MarkupError as a dialog drew.

No docdeck text is written as markup, and a widget made with a literal is often filled with
data later (`update`), so every `Static` and `Label` the TUI makes says `markup=False`. A
new one that forgets it fails here.
"""

from __future__ import annotations

import ast
from pathlib import Path

TUI = Path(__file__).parents[3] / "src" / "docdeck" / "tui"


def _unmarked() -> list[str]:
    found: list[str] = []
    for path in sorted(TUI.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("Static", "Label")
            ):
                continue
            said = {k.arg for k in node.keywords}
            if "markup" in said or None in said:  # None: **options passed on
                continue
            first = ast.unparse(node.args[0]) if node.args else "()"
            found.append(f"{path.relative_to(TUI)}:{node.lineno} {first[:50]}")
    return found


def test_every_static_and_label_shows_its_text_as_written() -> None:
    assert TUI.is_dir()
    assert _unmarked() == []
