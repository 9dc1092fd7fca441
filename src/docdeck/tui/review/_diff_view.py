"""A page's diff, one row per diff line with a cursor, unified or side by side.

A Line API widget (`ScrollView.render_line`): only the lines on screen are drawn, so a
long page scrolls at any speed. Each diff row is laid out once per width and layout into
screen lines (long lines wrap inside their side, so a changed word at the end of a long
paragraph is still seen); the cursor marks every screen line of its row.

Extra rows (a thread summary) can be shown after a line of the change request's side:
`set_annotations(page_id, {line: [renderable, ...]})`; they are drawn under that line in
both layouts, indented, and the cursor skips them.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.console import Console, RenderableType
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip

from docdeck.tui.kit.list_keys import LIST_BINDINGS, ListKeys
from docdeck.tui.review._diff_text import lexers_pending, styled_lines
from docdeck.tui.review.diff_model import DiffRow, PageDiff, Side

__all__ = ["DiffLayout", "DiffView"]

DiffLayout = Literal["unified", "split"]

GUTTER = 5
"""Cells of a line number and its space."""

_STYLES = {
    "delete": (Style(bgcolor="rgb(72,22,28)"), Style(bgcolor="rgb(150,40,50)", bold=True), "-"),
    "insert": (Style(bgcolor="rgb(20,62,32)"), Style(bgcolor="rgb(36,130,60)", bold=True), "+"),
}
_SIGN = {"-": Style(color="red", bold=True), "+": Style(color="green", bold=True)}
_DIM = Style(dim=True)
_CURSOR = Style(color="black", bgcolor="rgb(230,180,60)", bold=True)


class DiffView(ListKeys, ScrollView, can_focus=True):
    DEFAULT_CSS = """
    DiffView { height: 1fr; background: $surface; scrollbar-gutter: stable; }
    DiffView:focus { background-tint: $foreground 3%; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("l", "noop", show=False, id="diff.ignore_l"),
    ]

    class CursorMoved(Message):
        """The cursor is on another row (the screen updates what depends on the line)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.page_id: str | None = None
        self.diff: PageDiff | None = None
        self.diff_layout: DiffLayout = "unified"
        self.cursor = 0
        """The cursor's diff row (an index into `diff.rows(layout)`)."""
        self.annotations: dict[str, dict[int, list[RenderableType]]] = {}
        self._styled: tuple[list[Text], list[Text]] = ([], [])
        self._lines: list[tuple[int, Strip]] = []
        """Screen lines: (diff row, or -1 for an annotation line; the line drawn)."""
        self._first_line: list[int] = []
        """Per diff row, its first screen line."""
        self._width = 0
        self._land_line: tuple[str, int] | None = None
        self._plain_code: PageDiff | None = None
        """A diff drawn with code blocks plain (`lexers_pending`), coloured once drawn."""
        self._land_hunk = ""

    # ----- what is shown ---------------------------------------------------------------------

    def show_diff(self, page_id: str, diff: PageDiff) -> None:
        same_page = page_id == self.page_id and self.diff is not None
        old_line = self.cursor_line() if same_page else None
        self.page_id, self.diff = page_id, diff
        # A language's first code block waits for its lexer until the diff is on screen.
        later = lexers_pending(diff.base) or lexers_pending(diff.change)
        self._styled = (
            styled_lines(diff.base, build_lexers=not later),
            styled_lines(diff.change, build_lexers=not later),
        )
        self._plain_code = diff if later else None
        self.cursor = 0
        self._relayout()
        if old_line is not None:
            self._cursor_to_line(*old_line)
        elif diff.hunks:
            self.goto_hunk(0)
        else:
            self.scroll_to(y=0, animate=False)
        self._land()

    def _colour_code(self, diff: PageDiff) -> None:
        """The code blocks coloured, once the diff drawn with them plain is on screen (asked
        for by its first `render_line`: `call_after_refresh` could run before the frame
        that draws the diff, when the view's repaint was not yet asked for)."""
        if self.diff is not diff:
            return  # another page (or none) is shown now: it was styled as it came
        self._styled = (styled_lines(diff.base), styled_lines(diff.change))
        self._relayout()

    def clear(self) -> None:
        self.page_id, self.diff = None, None
        self._styled = ([], [])
        self._relayout()

    @property
    def rows(self) -> list[DiffRow]:
        return self.diff.rows(self.diff_layout) if self.diff is not None else []

    def set_layout(self, layout: DiffLayout) -> None:
        if layout == self.diff_layout:
            return
        place = self.cursor_line()
        self.diff_layout = layout
        self._relayout()
        if place is not None:
            self._cursor_to_line(*place)

    def set_annotations(self, page_id: str, annotations: dict[int, list[RenderableType]]) -> None:
        """Rows shown after lines of the change request's side of `page_id` (0-based line
        numbers, as `cursor_line` gives them); replaces that page's earlier annotations."""
        self.annotations[page_id] = dict(annotations)
        if page_id == self.page_id:
            self._relayout()

    def cursor_line(self) -> tuple[str, int] | None:
        """('base' or 'change', 0-based line in that side's markdown) under the cursor."""
        rows = self.rows
        if not rows or not 0 <= self.cursor < len(rows):
            return None
        row = rows[self.cursor]
        if row.kind == "fold":
            return ("change", row.change.line) if row.change else None
        if row.change is not None:
            return ("change", row.change.line)
        if row.base is not None:
            return ("base", row.base.line)
        return None

    def show_line(self, side: str, line: int) -> None:
        """The cursor on a line of one side (or the next shown after it), scrolled into view
        near the top."""
        self._cursor_to_line(side, line, top=True)

    def _cursor_to_line(self, side: str, line: int, *, top: bool = False) -> None:
        for index, row in enumerate(self.rows):
            found = row.change if side == "change" else row.base
            if found is not None and found.line >= line and row.kind != "fold":
                self.move_cursor(index, top=top)
                return

    # ----- where the next diff shown lands --------------------------------------------------

    def land_on_line(self, page_id: str, line: int) -> None:
        """The cursor goes to a line of the change side when the next diff shown is
        `page_id`'s (a thread's Enter; another page shown first drops it)."""
        self._land_line = (page_id, line)

    def land_on_hunk(self, which: str) -> None:
        """The next diff shown starts on its "last" hunk (`[` crossing into the page before)
        or, as any diff does, its "first" (`]`)."""
        self._land_hunk = which

    def _land(self) -> None:
        target, self._land_line = self._land_line, None
        if target is not None and target[0] == self.page_id:
            self.show_line("change", target[1])
        land, self._land_hunk = self._land_hunk, ""
        if land == "last":
            starts = self.hunk_starts()
            if starts:
                self.goto_hunk(len(starts) - 1)

    # ----- hunks -----------------------------------------------------------------------------

    def hunk_starts(self) -> list[int]:
        """Each hunk's first changed row."""
        starts: list[int] = []
        seen: set[int] = set()
        for index, row in enumerate(self.rows):
            if row.changed and row.hunk not in seen:
                seen.add(row.hunk)
                starts.append(index)
        return starts

    def goto_hunk(self, number: int) -> None:
        starts = self.hunk_starts()
        if starts:
            self.move_cursor(starts[max(0, min(number, len(starts) - 1))], top=True)

    def next_hunk(self) -> bool:
        """Moves to the next hunk; False when there is none after the cursor."""
        for start in self.hunk_starts():
            if start > self.cursor:
                self.move_cursor(start, top=True)
                return True
        return False

    def previous_hunk(self) -> bool:
        rows = self.rows
        current = rows[self.cursor].hunk if rows and self.cursor < len(rows) else -1
        for start in reversed(self.hunk_starts()):
            if start < self.cursor and rows[start].hunk != current:
                self.move_cursor(start, top=True)
                return True
            if start < self.cursor and rows[start].hunk == current:
                continue
        return False

    @property
    def current_hunk(self) -> int:
        rows = self.rows
        return rows[self.cursor].hunk if rows and self.cursor < len(rows) else -1

    # ----- cursor ----------------------------------------------------------------------------

    def move_cursor(self, index: int, *, top: bool = False) -> None:
        rows = self.rows
        if not rows:
            return
        index = max(0, min(index, len(rows) - 1))
        old = self.cursor
        self.cursor = index
        self._scroll_to_cursor(top=top)
        if old != index:
            self.refresh()
            self.post_message(self.CursorMoved())

    def _scroll_to_cursor(self, *, top: bool) -> None:
        if not self._first_line or self.cursor >= len(self._first_line):
            return
        first = self._first_line[self.cursor]
        last = first
        while last + 1 < len(self._lines) and self._lines[last + 1][0] == self.cursor:
            last += 1
        height = max(1, self.scrollable_content_region.height)
        y = self.scroll_offset.y
        if top:
            target = max(0, first - min(3, height // 4))
        elif first < y:
            target = first
        elif last >= y + height:
            target = last - height + 1
        else:
            return
        self.scroll_to(y=target, animate=False, immediate=True)

    def list_index(self) -> int:
        return self.cursor if self.rows else -1

    def list_length(self) -> int:
        return len(self.rows)

    def list_go(self, index: int) -> None:
        self.move_cursor(index)

    def action_noop(self) -> None:
        """`l` does nothing here (it is not a page's link list)."""

    # ----- layout ----------------------------------------------------------------------------

    def on_resize(self, event: events.Resize) -> None:
        if self.scrollable_content_region.width != self._width:
            self._relayout()

    def _relayout(self) -> None:
        width = self.scrollable_content_region.width
        self._width = width
        self._lines, self._first_line = [], []
        if width <= 0:
            self.virtual_size = Size(0, 0)
            return
        notes = self.annotations.get(self.page_id or "", {})
        console = self.app.console
        for index, row in enumerate(self.rows):
            self._first_line.append(len(self._lines))
            for strip in self._row_strips(row, width):
                self._lines.append((index, strip))
            if row.change is not None and row.kind != "fold" and row.change.line in notes:
                options = console.options.update_width(max(10, width - GUTTER * 2))
                for renderable in notes[row.change.line]:
                    for line in console.render_lines(renderable, options, pad=False):
                        indent = Strip([Segment(" " * (GUTTER * 2))], GUTTER * 2)
                        self._lines.append((-1, Strip.join([indent, Strip(line)])))
        self.virtual_size = Size(width, len(self._lines))
        self.refresh()

    def _row_strips(self, row: DiffRow, width: int) -> list[Strip]:
        if row.kind == "fold":
            label = f"  ⋯ {row.folded} unchanged line{'s' if row.folded != 1 else ''} ⋯"
            return [_strip(Text(label, style=_DIM), width)]
        if self.diff_layout == "unified":
            return self._unified(row, width)
        half = max(8, (width - 1) // 2)
        left = self._side(
            row.base, "delete" if row.kind != "equal" else None, half, self._styled[0]
        )
        right = self._side(
            row.change, "insert" if row.kind != "equal" else None, width - half - 1, self._styled[1]
        )
        count = max(len(left), len(right))
        bar = Strip([Segment("│", _DIM)], 1)
        out: list[Strip] = []
        for k in range(count):
            a = left[k] if k < len(left) else Strip.blank(half)
            b = right[k] if k < len(right) else Strip.blank(width - half - 1)
            out.append(Strip.join([a, bar, b]))
        return out

    def _unified(self, row: DiffRow, width: int) -> list[Strip]:
        base = row.base.line + 1 if row.base is not None else None
        change = row.change.line + 1 if row.change is not None else None
        numbers = f"{base or '':>4} {change or '':>4}"
        if row.kind == "delete" and row.base is not None:
            body = self._content(row.base, "delete", self._styled[0])
        elif row.kind == "insert" and row.change is not None:
            body = self._content(row.change, "insert", self._styled[1])
        else:
            side = row.change or row.base
            assert side is not None
            body = self._content(side, None, self._styled[1] if row.change else self._styled[0])
        return _wrapped(Text(" " + numbers, style=_DIM), body, width)

    def _side(
        self, side: Side | None, kind: str | None, width: int, styled: list[Text]
    ) -> list[Strip]:
        if side is None:
            return [Strip.blank(width, Style(dim=True))]
        gutter = Text(f" {side.line + 1:>4}", style=_DIM)
        return _wrapped(gutter, self._content(side, kind, styled), width)

    def _content(self, side: Side, kind: str | None, styled: list[Text]) -> Text:
        line = styled[side.line].copy() if side.line < len(styled) else Text(side.text)
        if kind is None:
            return Text.assemble("   ", line)
        background, words, sign = _STYLES[kind]
        text = Text.assemble((f" {sign} ", _SIGN[sign]), line)
        text.stylize(background, 3)
        for start, end in side.words:
            text.stylize(words, 3 + start, 3 + end)
        return text

    # ----- drawing ---------------------------------------------------------------------------

    def render_line(self, y: int) -> Strip:
        width = self.scrollable_content_region.width
        if width != self._width and self.diff is not None:
            # The first frame with this width (a diff shown before the view had its size):
            # laid out now, not at the Resize that follows the frame (one blank frame).
            self._relayout()
        if self._plain_code is not None and self._lines:
            # Being drawn now: coloured once this frame is out (not after a blank frame).
            self.call_later(self._colour_code, self._plain_code)
            self._plain_code = None
        index = self.scroll_offset.y + y
        if index >= len(self._lines):
            return Strip.blank(width, self.rich_style)
        row, strip = self._lines[index]
        if row == self.cursor and row >= 0 and self.diff is not None and self.diff.hunks >= 0:
            marker = Strip(
                [Segment("▌", _CURSOR if self.has_focus else Style(color="rgb(230,180,60)"))], 1
            )
            strip = Strip.join([marker, strip.crop(1)])
        return strip.adjust_cell_length(width, self.rich_style).apply_style(self.rich_style)


def _strip(text: Text, width: int) -> Strip:
    text = text.copy()
    text.truncate(width, overflow="ellipsis", pad=True)
    return Strip(list(text.render(_console())), width)


_CONSOLE: Console | None = None


def _console() -> Console:
    """A console of its own for laying text out (wrapping measures cells, not colours)."""
    global _CONSOLE
    if _CONSOLE is None:
        _CONSOLE = Console(width=10_000, color_system="truecolor", legacy_windows=False)
    return _CONSOLE


def _wrapped(gutter: Text, body: Text, width: int) -> list[Strip]:
    """`gutter` then `body`, the body wrapped to the room left, continuation lines under it."""
    room = max(4, width - gutter.cell_len)
    body.no_wrap = False
    pieces = body.wrap(_console(), room, overflow="fold") if body.cell_len > room else [body]
    blank = Text(" " * gutter.cell_len)
    out: list[Strip] = []
    for number, piece in enumerate(pieces):
        line = Text.assemble(gutter if number == 0 else blank, piece)
        line.truncate(width, pad=True)
        out.append(Strip(list(line.render(_console())), width))
    return out
