"""The keys every list and table answers to, written once: j/k, g/G, Home/End, ctrl+d/ctrl+u.

Textual's Tree, DataTable and OptionList each name their cursor differently (a
line, a row, a highlighted option) and disagree on Home/End (a row-cursor
DataTable scrolls sideways). A widget mixes in `ListKeys` and says in three
small methods where its cursor is, how many items it has and how to move; the
bindings and the moves are the same everywhere.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar, TypeVar

from rich.markup import escape
from rich.text import TextType
from textual.binding import Binding, BindingType
from textual.widgets import DataTable, OptionList, Tree
from textual.widgets.data_table import ColumnKey, RowKey
from textual.widgets.tree import TreeNode

__all__ = [
    "LIST_BINDINGS",
    "ListKeys",
    "NavDataTable",
    "NavOptionList",
    "collapse_or_step_out",
    "expand_or_step_in",
]

T = TypeVar("T")


def _key(keys: str, action: str, description: str) -> Binding:
    return Binding(keys, action, description, show=False, id=f"list.{action.removeprefix('list_')}")


LIST_BINDINGS: list[BindingType] = [
    _key("j,down", "list_down", "Down"),
    _key("k,up", "list_up", "Up"),
    _key("g,home", "list_first", "First"),
    _key("G,end", "list_last", "Last"),
    _key("ctrl+d", "list_half_down", "Half a page down"),
    _key("ctrl+u", "list_half_up", "Half a page up"),
    _key("pagedown", "list_page_down", "Page down"),
    _key("pageup", "list_page_up", "Page up"),
]


class ListKeys:
    """Mixed into a list widget (before the Textual class) to give it the shared moves.

    Textual merges `BINDINGS` only from widget classes, so each list widget lists
    `*LIST_BINDINGS` in its own `BINDINGS`, which also puts them over the Textual
    class's own up/down/home/end.
    """

    def list_index(self) -> int:
        """The cursor's position (-1 when there is none). A `Tree`'s is its cursor line."""
        if isinstance(self, Tree):
            return self.cursor_line
        raise NotImplementedError

    def list_length(self) -> int:
        if isinstance(self, Tree):
            return self.last_line + 1
        raise NotImplementedError

    def list_go(self, index: int) -> None:
        """Put the cursor on `index` (already within bounds) and bring it into view."""
        tree = self
        if not isinstance(tree, Tree):
            raise NotImplementedError
        tree.cursor_line = index
        tree.scroll_to_line(index, animate=False)

    def _on_resize(self, *_: object) -> None:  # the event, or none: OptionList's takes none
        """A list made smaller (a pane below it grew, the terminal shrank) keeps its cursor
        in view: Textual's lists keep their scroll offset, so the row the user is on (a new
        item the cursor was just put on, in the site editor at 50x14) was left below the
        edge. Runs after the widget's own resize handler (it comes later in the MRO)."""
        index = self.list_index()
        if index >= 0:
            self.list_keep_in_view(index)

    def list_keep_in_view(self, index: int) -> None:
        """Scroll so the item at `index` (the cursor's) is visible; by default, going there
        again (each widget's `list_go` brings its cursor into view)."""
        self.list_go(index)

    def list_page(self) -> int:
        """How many items a page is: the visible height."""
        region = self.scrollable_content_region  # type: ignore[attr-defined]
        return max(1, int(region.height) - 1)

    def _list_move(self, target: int) -> None:
        length = self.list_length()
        if length:
            self.list_go(max(0, min(length - 1, target)))

    def action_list_down(self) -> None:
        index = self.list_index()
        self._list_move(0 if index < 0 else index + 1)

    def action_list_up(self) -> None:
        index = self.list_index()
        self._list_move(self.list_length() - 1 if index < 0 else index - 1)

    def action_list_first(self) -> None:
        self._list_move(0)

    def action_list_last(self) -> None:
        self._list_move(self.list_length() - 1)

    def action_list_half_down(self) -> None:
        self._list_move(max(self.list_index(), 0) + max(1, self.list_page() // 2))

    def action_list_half_up(self) -> None:
        self._list_move(max(self.list_index(), 0) - max(1, self.list_page() // 2))

    def action_list_page_down(self) -> None:
        self._list_move(max(self.list_index(), 0) + self.list_page())

    def action_list_page_up(self) -> None:
        self._list_move(max(self.list_index(), 0) - self.list_page())


def _as_written(cell: Any) -> Any:
    """A text cell escaped for the markup Textual reads it as; anything else as it is."""
    return escape(cell) if isinstance(cell, str) else cell


def expand_or_step_in(tree: Tree[Any], fill: Callable[[TreeNode[Any]], None] | None = None) -> None:
    """Right/l on a tree: expand the cursor's node (`fill` first gives it its children), or
    step to its first child when it is open already."""
    node = tree.cursor_node
    if node is None:
        return
    if node.allow_expand and not node.is_expanded:
        if fill is not None:
            fill(node)
        node.expand()
    elif node.children:
        tree.action_cursor_down()


def collapse_or_step_out(tree: Tree[Any]) -> None:
    """Left/h on a tree: collapse the cursor's node, or step out to its parent when it is
    closed already."""
    node = tree.cursor_node
    if node is None:
        return
    if node.is_expanded:
        node.collapse()
    elif node.parent is not None and node.parent is not tree.root:
        tree.move_cursor(node.parent)


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


class NavOptionList(ListKeys, OptionList):
    """An option list (the pick dialogs) with the shared list keys; its options' text is
    shown as written, not read as markup (a space's title with brackets)."""

    BINDINGS: ClassVar[list[BindingType]] = LIST_BINDINGS

    def __init__(self, *content: Any, markup: bool = False, **options: Any) -> None:
        super().__init__(*content, markup=markup, **options)

    def list_index(self) -> int:
        return -1 if self.highlighted is None else self.highlighted

    def list_length(self) -> int:
        return self.option_count

    def list_go(self, index: int) -> None:
        self.highlighted = index

    def list_keep_in_view(self, index: int) -> None:
        self.scroll_to_highlight()
