"""A page rendered as markdown, a piece at a time, and the same page as raw text.

Textual's `Markdown` widget mounts one widget per block; a 1 MB page is thousands of
blocks, and building them at once froze the screen for seconds. `RenderedPage` cuts
the page into pieces (`space_text.chunks`, at blank lines outside code) and renders
the first; the next one is added when the reader scrolls near the end, or when a
jump (a heading, a link's line) needs it. Each piece is its own `Markdown` widget,
small enough to mount within a frame.

Before rendering, two things the Markdown widget cannot show are rewritten, line for
line (so line numbers still match the page): images become their file's name, type,
size and dimensions, and GitHub callouts (`> [!NOTE]`) get a readable title.
"""

from __future__ import annotations

import re
from typing import ClassVar

from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.widgets import Markdown, Static, TextArea
from textual.widgets._markdown import MarkdownBlock

from docdeck.models import RevisionFile
from docdeck.tui.space_pages import ASSETS
from docdeck.tui.space_text import chunk_starts, chunks

__all__ = ["RawPage", "RenderedPage", "prepare"]

_IMAGE = re.compile(r"!\[([^\]]*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_CALLOUT = re.compile(r"^(\s*>\s*)\[!(NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$", re.IGNORECASE)
_CALLOUT_TITLES = {
    "NOTE": "ℹ Note",
    "TIP": "✔ Tip",
    "IMPORTANT": "❗ Important",
    "WARNING": "⚠ Warning",
    "CAUTION": "⛔ Caution",
}


def size_text(size: int) -> str:
    if size < 1024:
        return f"{size} B"
    if size < 1024 * 1024:
        return f"{size / 1024:.1f} KB"
    return f"{size / 1024 / 1024:.1f} MB"


def file_summary(file: RevisionFile) -> str:
    parts = [file.name, file.contentType, size_text(file.size)]
    if file.dimensions is not None:
        parts.append(f"{int(file.dimensions.width)}×{int(file.dimensions.height)}")
    return ", ".join(parts)


def prepare(markdown: str, files: list[RevisionFile]) -> str:
    """The page's markdown with images and callouts made readable, line for line."""
    by_name = {file.name: file for file in files}

    def image(match: re.Match[str]) -> str:
        alt, src = match.groups()
        name = src.rsplit("/", 1)[-1]
        file = by_name.get(name) if ASSETS in src else None
        what = file_summary(file) if file is not None else f"{name} (not in this space)"
        label = f"{alt} — {what}" if alt else what
        return f"[🖼 {label}]({src})"

    out: list[str] = []
    for line in markdown.split("\n"):
        if "![" in line:
            line = _IMAGE.sub(image, line)
        if "[!" in line:
            match = _CALLOUT.match(line)
            if match:
                line = f"{match.group(1)}**{_CALLOUT_TITLES[match.group(2).upper()]}**"
        out.append(line)
    return "\n".join(out)


_SCROLL_KEYS: list[BindingType] = [
    Binding("j", "scroll_down", "Down", show=False),
    Binding("k", "scroll_up", "Up", show=False),
    Binding("g", "scroll_home", "Top", show=False),
    Binding("G", "scroll_end", "End", show=False),
    Binding("ctrl+d,space", "page_down", "Page down", show=False),
    Binding("ctrl+u", "page_up", "Page up", show=False),
]


class RenderedPage(VerticalScroll, can_focus=True):
    BINDINGS: ClassVar[list[BindingType]] = _SCROLL_KEYS
    DEFAULT_CSS = """
    RenderedPage { height: 1fr; padding: 0 1; }
    RenderedPage > Markdown { margin: 0; padding: 0; }
    RenderedPage > .more { color: $text-muted; padding: 1 0; }
    """

    def __init__(
        self, markdown: str, files: list[RevisionFile], *, line: int | None = None
    ) -> None:
        super().__init__()
        self.pieces = chunks(prepare(markdown, files))
        self.starts = chunk_starts(self.pieces)
        self.rendered = 0
        """How many pieces are on screen (from the top)."""
        self._busy = False
        self._first_line = line
        self._more = Static("", classes="more")

    def compose(self):  # type: ignore[no-untyped-def]
        yield self._more

    async def on_mount(self) -> None:
        self.watch(self, "scroll_y", self._scrolled, init=False)
        if self._first_line is not None:
            await self.goto_line(self._first_line)
        else:
            await self.render_next()

    @property
    def complete(self) -> bool:
        return self.rendered >= len(self.pieces)

    async def render_next(self) -> None:
        """Add the next piece of the page below what is shown."""
        if self._busy or self.complete or not self.is_attached:
            return
        self._busy = True
        try:
            piece = self.pieces[self.rendered]
            document = Markdown(open_links=False)
            await self.mount(document, before=self._more)
            await document.update(piece)
            self.rendered += 1
            left = len(self.pieces) - self.rendered
            self._more.update(
                f"… {left} more part{'s' if left != 1 else ''} of this page: scroll on to read"
                if left
                else ""
            )
            self._more.display = bool(left)
        finally:
            self._busy = False

    def _scrolled(self, _value: float) -> None:
        if not self.complete and self.max_scroll_y - self.scroll_y < self.size.height * 2:
            self.call_later(self.render_next)

    def action_scroll_end(self) -> None:
        # The end of what is rendered; the next piece follows as the scroll nears it.
        super().action_scroll_end()

    async def goto_line(self, line: int) -> None:
        """Scroll so the block holding `line` (of the page's markdown) is at the top."""
        index = 0
        for number, start in enumerate(self.starts):
            if start <= line:
                index = number
        while self.rendered <= index and not self.complete and self.is_attached:
            await self.render_next()
        documents = list(self.query_children(Markdown))
        if index >= len(documents):
            return
        document = documents[index]
        relative = line - self.starts[index]
        target: MarkdownBlock | None = None
        for block in document.query_children(MarkdownBlock):
            start, end = block.source_range
            if start <= relative:
                target = block
            if start <= relative < max(end, start + 1):
                break
        self.call_after_refresh(self.scroll_to_widget, target or document, top=True, animate=False)


class RawPage(TextArea):
    """The page's markdown as written: selectable, searchable by eye, never re-parsed."""

    DEFAULT_CSS = """
    RawPage { height: 1fr; border: none; padding: 0 1; }
    """

    def __init__(self, markdown: str, *, line: int | None = None) -> None:
        super().__init__(markdown, read_only=True, soft_wrap=True, show_line_numbers=True)
        self._first_line = line

    def on_mount(self) -> None:
        if self._first_line is not None:
            line = self._first_line
            self.move_cursor((line, 0))
            self.call_after_refresh(self.scroll_cursor_visible, center=False)
