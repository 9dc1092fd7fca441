"""The keys every list and table answers to, written once: j/k, g/G, Home/End, ctrl+d/ctrl+u.

Textual's Tree, DataTable and OptionList each name their cursor differently (a
line, a row, a highlighted option) and disagree on Home/End (a row-cursor
DataTable scrolls sideways). A widget mixes in `ListKeys` and says in three
small methods where its cursor is, how many items it has and how to move; the
bindings and the moves are the same everywhere. The tables' widget, `NavDataTable`, is in
`nav_table.py` (a screen without a table does not import Textual's DataTable).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.binding import Binding, BindingType
from textual.widgets import OptionList, Tree
from textual.widgets.tree import TreeNode

__all__ = [
    "LIST_BINDINGS",
    "ListKeys",
    "NavOptionList",
    "collapse_or_step_out",
    "expand_or_step_in",
]


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
