"""`RawPage`: a page's markdown as written, in a read-only TextArea (the page view's `v`).

Apart from the rendered page so that a page opened for reading does not import Textual's
TextArea (~7 ms) until the raw view is first asked for."""

from __future__ import annotations

from textual.widgets import TextArea

__all__ = ["RawPage"]


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
