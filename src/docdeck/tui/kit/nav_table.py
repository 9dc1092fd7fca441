"""`NavDataTable`: a row-cursor `DataTable` with the shared list keys (`list_keys`).

Apart from `list_keys` so that a screen without a table (the review pane, the org tree's first
view) does not import Textual's DataTable (~5 ms of a launch) with the keys of its lists."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, TypeVar

from rich.markup import escape
from rich.text import TextType
from textual.binding import BindingType
from textual.widgets import DataTable
from textual.widgets.data_table import ColumnKey, RowKey

from docdeck.tui.kit.list_keys import LIST_BINDINGS, ListKeys

__all__ = ["NavDataTable"]

T = TypeVar("T")


def _as_written(cell: Any) -> Any:
    """A text cell escaped for the markup Textual reads it as; anything else as it is."""
    return escape(cell) if isinstance(cell, str) else cell


class NavDataTable(ListKeys, DataTable[str]):
    """A row-cursor table with the shared list keys.

    Its text cells are shown as written: Textual reads a `str` cell as markup, so a member
    named "Bob [contractor]" was listed as "Bob " (and a "[/]" in a subject raised a
    MarkupError as the row drew). A cell is stored with its markup escaped (what is read
    back holds a backslash before such a bracket; nothing in docdeck reads cells back)."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_BINDINGS

    def add_row(
        self,
        *cells: str,
        height: int | None = 1,
        key: str | None = None,
        label: TextType | None = None,
    ) -> RowKey:
        return super().add_row(*map(_as_written, cells), height=height, key=key, label=label)

    def update_cell(
        self,
        row_key: RowKey | str,
        column_key: ColumnKey | str,
        value: str,
        *,
        update_width: bool = False,
    ) -> None:
        super().update_cell(row_key, column_key, _as_written(value), update_width=update_width)

    def list_index(self) -> int:
        return self.cursor_row if self.row_count else -1

    def list_length(self) -> int:
        return self.row_count

    def list_go(self, index: int) -> None:
        self.move_cursor(row=index, animate=False)

    def list_page(self) -> int:
        height = self.scrollable_content_region.height - (
            self.header_height if self.show_header else 0
        )
        return max(1, height - 1)

    def item_of(self, items: Sequence[T]) -> T | None:
        """The item of the row under the cursor, the rows being `items` in their order (None:
        no rows, or the cursor on none)."""
        row = self.cursor_row
        return items[row] if 0 <= row < len(items) else None

    def keep_cursor_on(self, key: str | None) -> None:
        """After the rows were written again: the cursor back on the row keyed `key`, where
        it is still there (a refresh leaves the cursor where the user left it)."""
        if key is not None and key in self.rows:
            self.move_cursor(row=self.get_row_index(key), animate=False)
