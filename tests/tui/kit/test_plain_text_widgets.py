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

from textual.app import App, ComposeResult
from textual.widgets import Select
from textual.widgets.option_list import Option

from docdeck.tui.kit.dialogs.form import FormDialog, FormField
from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.orgs._field_list import FieldList
from tui.helpers import screen_lines, wait_until

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


async def test_tables_and_option_lists_show_their_text_as_written() -> None:
    """A table's `str` cells and an option list's `str` options were read as markup too: a
    member named "Bob [contractor]" was listed as "Bob ", and "[/]" raised a MarkupError."""

    class Lists(App[None]):
        def compose(self) -> ComposeResult:
            table = NavDataTable(id="table")
            table.add_columns("name", "subject")
            table.add_row("Bob [contractor]", "fix [/] escaping", key="bob")
            yield table
            yield NavOptionList(Option("Docs [beta]"), "Notes [bold]x", id="options")

    app = Lists()
    async with app.run_test(size=(60, 12)) as pilot:
        table = app.query_one("#table", NavDataTable)
        table.update_cell("bob", table.ordered_columns[1].key, "[b]plain[/b]")
        await pilot.pause()
        screen = "\n".join(screen_lines(pilot))
        assert "Bob [contractor]" in screen
        assert "[b]plain[/b]" in screen
        assert "Docs [beta]" in screen and "Notes [bold]x" in screen
        assert app._exception is None


async def test_a_form_s_choices_show_as_written() -> None:
    """A form's picker (a space to translate, a parent page) read its choices as markup: a
    space titled "Docs [beta] x" was offered as "Docs  x"."""

    async def submit(values: dict[str, str]) -> None:
        return None

    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        field = FormField("space", "Space", choices=("Docs [beta] x", "Fix [/] y"))
        app.push_screen(FormDialog("Pick", [field], submit, doing="Picking"))
        await wait_until(pilot, lambda: bool(app.screen.query(Select)), "the form")
        await pilot.pause()
        assert "Docs [beta] x" in "\n".join(screen_lines(pilot))
        assert app._exception is None


async def test_a_detail_pane_s_values_show_as_written() -> None:
    """The detail pane's fields (a collection's description, the collection a space is in,
    an organization's hostname) went into a rich table as `str`, which reads markup: a
    description with "[/]" raised a MarkupError as the pane drew (the app ended)."""

    class Details(App[None]):
        def compose(self) -> ComposeResult:
            yield FieldList([("Description", "Specs [draft] and [/] notes")], id="fields")

    app = Details()
    async with app.run_test(size=(60, 8)) as pilot:
        fields = app.query_one(FieldList)
        fields.set_fields([*fields.fields, ("Parent", "Docs [bold]x")])
        await pilot.pause()
        screen = "\n".join(screen_lines(pilot))
        assert "Specs [draft] and [/] notes" in screen
        assert "Docs [bold]x" in screen
        assert app._exception is None
