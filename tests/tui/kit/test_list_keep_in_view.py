"""A list made smaller keeps its cursor in view (`ListKeys`, for every list that mixes it in).

Textual's lists keep their scroll offset when their height shrinks, so the row the user is on
could be left below the edge: in the site editor at 50x14, a new section got the cursor while
the chooser was open, then the detail pane below the list grew by a line and the list lost
two rows; the new section was off screen until a key moved the cursor.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.widget import Widget
from textual.widgets import Tree

from docdeck.tui.kit.list_keys import LIST_BINDINGS, ListKeys, NavOptionList
from docdeck.tui.kit.nav_table import NavDataTable
from tui.helpers import wait_until


class _Tree(ListKeys, Tree[str]):
    BINDINGS = LIST_BINDINGS


def _table() -> Widget:
    table = NavDataTable(cursor_type="row")
    table.add_column("n")
    for n in range(40):
        table.add_row(str(n))
    return table


def _options() -> Widget:
    return NavOptionList(*[str(n) for n in range(40)])


def _tree() -> Widget:
    tree = _Tree("root")
    tree.show_root = False
    for n in range(40):
        tree.root.add_leaf(str(n))
    tree.root.expand()
    return tree


def _visible_rows(widget: Any) -> range:
    top = int(widget.scroll_offset.y)
    return range(top, top + widget.scrollable_content_region.height)


@pytest.mark.parametrize("make", [_table, _options, _tree], ids=["table", "options", "tree"])
async def test_a_list_made_smaller_keeps_its_cursor_in_view(make: Any) -> None:
    class ListApp(App[None]):
        def compose(self) -> ComposeResult:
            widget = make()
            widget.id = "list"
            yield widget

    async with ListApp().run_test(size=(40, 30)) as pilot:
        widget: Any = pilot.app.query_one("#list")
        widget.styles.height = 30
        widget.focus()
        await pilot.pause()
        widget.list_go(20)  # a row in view while the list is tall
        await pilot.pause()
        assert widget.list_index() == 20
        assert 20 in _visible_rows(widget)
        widget.styles.height = 8  # a pane below it grew
        await wait_until(
            pilot, lambda: widget.scrollable_content_region.height < 10, "the smaller list"
        )
        await wait_until(pilot, lambda: 20 in _visible_rows(widget), "the cursor's row in view")
        assert widget.list_index() == 20  # the cursor did not move, the view did
