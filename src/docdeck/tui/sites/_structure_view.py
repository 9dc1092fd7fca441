"""The structure tree: one line per row, drawn line by line (only what is on screen).

A move redraws the lines, not widgets: holding ctrl+j over 500 rows costs a few lines'
rendering per key. The widget owns the cursor and the list keys; the screen owns the
writes and asks it to redraw.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.binding import BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from docdeck.tui.kit.list_keys import LIST_BINDINGS, ListKeys
from docdeck.tui.sites.structure_model import GROUP, SECTION, Row, StructureModel

__all__ = ["StructureView", "row_text"]

BUSY = "⏳ "
CUT = "✂ "


def row_text(row: Row, *, cut: bool = False) -> Text:
    """A row as the tree shows it: title, path, the space shown, and its marks."""
    indent = "  " * row.depth
    text = Text(indent)
    if row.busy:
        text.append(BUSY)
    if cut:
        text.append(CUT, style="bold yellow")
    if row.kind == GROUP:
        text.append("▾ ", style="dim")
        text.append(row.title, style="bold")
        count = len(row.children)
        text.append(f"  group · {count} section{'s' if count != 1 else ''}", style="dim")
    elif row.kind == SECTION:
        text.append("§ ", style="dim")
        text.append(row.title, style="bold")
        text.append(f"  /{row.path}", style="cyan")
    else:
        text.append("· ", style="dim")
        text.append(row.space_title or row.title)
        text.append(f"  /{row.path}", style="cyan")
    if row.default:
        text.append("  ★default", style="green")
    if row.condition:
        text.append("  ◆condition", style="magenta")
    if row.draft:
        text.append("  ✎draft", style="yellow")
    return text


class StructureView(ListKeys, ScrollView, can_focus=True):
    """The rows of a `StructureModel`; the cursor is an index into `model.rows`."""

    BINDINGS: ClassVar[list[BindingType]] = [*LIST_BINDINGS]
    DEFAULT_CSS = """
    StructureView { height: 1fr; }
    """

    class Highlighted(Message):
        """The cursor is on another row (or the rows changed under it)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.model = StructureModel("", [])
        self.cursor = 0
        self.cut: Row | None = None
        self._cursor_style = Style(reverse=True)

    @property
    def current(self) -> Row | None:
        rows = self.model.rows
        return rows[self.cursor] if 0 <= self.cursor < len(rows) else None

    def show(self, model: StructureModel, *, keep: Row | None = None) -> None:
        """New rows (a read): the cursor stays on the same item if it is still there (on
        `keep`, a row of `model`, when given), scrolled into view."""
        current = keep or self.current
        self.model = model
        if current is not None:
            same = model.find(current.kind, current.id)
            if same is not None:
                self.cursor = model.index(same)
        self.cursor = max(0, min(self.cursor, len(model.rows) - 1))
        if self.cut is not None:
            self.cut = model.find(self.cut.kind, self.cut.id)
        self.redraw()
        self.scroll_to(y=self._scroll_target(self.cursor), animate=False, immediate=True)
        self.post_message(self.Highlighted())

    def redraw(self) -> None:
        self.virtual_size = Size(self.size.width, len(self.model.rows))
        self.refresh()

    def put_cursor_on(self, row: Row) -> None:
        if row in self.model.rows:
            self.list_go(self.model.index(row))

    # ----- list keys --------------------------------------------------------------------------

    def list_index(self) -> int:
        return self.cursor if self.model.rows else -1

    def list_length(self) -> int:
        return len(self.model.rows)

    def list_go(self, index: int) -> None:
        moved = index != self.cursor
        self.cursor = index
        self.scroll_to(y=self._scroll_target(index), animate=False, immediate=True)
        self.refresh()
        if moved:
            self.post_message(self.Highlighted())

    def _scroll_target(self, index: int) -> float:
        top = self.scroll_offset.y
        height = max(1, self.scrollable_content_region.height)
        if index < top:
            return index
        if index >= top + height:
            return index - height + 1
        return top

    def on_resize(self) -> None:
        self.redraw()

    # ----- drawing ----------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        index = self.scroll_offset.y + y
        width = self.scrollable_content_region.width
        rows = self.model.rows
        base = self.rich_style
        if not 0 <= index < len(rows):
            return Strip.blank(width, base)
        row = rows[index]
        text = row_text(row, cut=row is self.cut)
        text.truncate(width, overflow="ellipsis")
        segments = list(text.render(self.app.console))
        strip = Strip(Segment.apply_style(segments, base), text.cell_len)
        strip = strip.extend_cell_length(width, base)
        if index == self.cursor:
            style = self._cursor_style if self.has_focus else Style(bgcolor="grey23")
            strip = strip.apply_style(style)
        return strip.crop(self.scroll_offset.x, self.scroll_offset.x + width)

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
