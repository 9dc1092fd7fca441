"""The preview pane: a title line and one view at a time (loading, a page, raw text, a
message), swapped through a `ViewSlot` so the cursor can move through the tree at
any speed. The same pane shows a page of any revision (the history) and, later, of a
change request: it is given markdown and files, and asks nothing itself.

The page's renderer (markdown-it, Rich's markdown and syntax: ~60 ms of imports) is
imported when a page is first shown, not with the pane: the review pane composes one for
`v`, and its first diff does not wait for them.
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, TypeGuard

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import Static

from docdeck.tui.content.page_tree import PageInfo
from docdeck.tui.kit.view_slot import ViewSlot

if TYPE_CHECKING:
    from docdeck.models import RevisionFile
    from docdeck.tui.content._raw_page import RawPage
    from docdeck.tui.content._rendered_page import RenderedPage

__all__ = ["PagePreview"]

_VIEWS = ("docdeck.tui.content._rendered_page", "docdeck.tui.content._raw_page")
"""The page views' modules (imported when a view is first shown: not yet, no such view)."""


def _is_rendered(view: object) -> TypeGuard[RenderedPage]:
    rendered = sys.modules.get(_VIEWS[0])
    return rendered is not None and isinstance(view, rendered.RenderedPage)


def _is_raw(view: object) -> TypeGuard[RawPage]:
    raw = sys.modules.get(_VIEWS[1])
    return raw is not None and isinstance(view, raw.RawPage)


class Notice(Static):
    DEFAULT_CSS = """
    Notice { padding: 1 2; height: auto; }
    Notice.-error { color: $error; }
    """


class PagePreview(Vertical):
    DEFAULT_CSS = """
    PagePreview { height: 1fr; }
    PagePreview > #preview-title {
        height: 1; padding: 0 1; background: $boost; text-style: bold;
    }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.page: PageInfo | None = None
        self.markdown: str | None = None
        self.raw = False
        self.note = ""
        # Made here, not found by query: a page may be asked for before the pane has
        # composed (a read that lands while it mounts) or after it left the screen.
        self._title_line = Static("", id="preview-title", markup=False)
        self._slot = ViewSlot(id="preview-body")

    def compose(self) -> ComposeResult:
        yield self._title_line
        yield self._slot

    @property
    def slot(self) -> ViewSlot:
        return self._slot

    @property
    def view(self) -> RenderedPage | RawPage | None:
        view = self.slot.view
        return view if _is_rendered(view) or _is_raw(view) else None

    def _title(self, page: PageInfo | None, state: str = "") -> None:
        text = Text()
        if page is not None:
            text.append(page.title or "(untitled)")
            if page.path:
                text.append(f"  /{page.path}", style="dim")
        if self.note:
            text.append(f"  {self.note}", style="italic")
        if state:
            text.append(f"  [{state}]", style="dim")
        self._title_line.update(text)

    def show_loading(self, page: PageInfo) -> None:
        self.page, self.markdown = page, None
        self._title(page, "loading…")
        self.slot.swap(Notice("loading…"))

    def show_message(self, page: PageInfo | None, message: str, *, error: bool = False) -> None:
        self.page, self.markdown = page, None
        self._title(page, "not loaded" if error else "")
        self.slot.swap(Notice(message, classes="-error" if error else ""))

    def show_page(
        self,
        page: PageInfo,
        markdown: str,
        files: list[RevisionFile],
        *,
        line: int | None = None,
    ) -> None:
        self.page, self.markdown, self.files = page, markdown, files
        self._title(page, "raw" if self.raw else "")
        if not markdown.strip():
            self.slot.swap(Notice("(this page is empty)"))
        elif self.raw:
            from docdeck.tui.content._raw_page import RawPage

            self.slot.swap(RawPage(markdown, line=line))
        else:
            from docdeck.tui.content._rendered_page import RenderedPage

            self.slot.swap(RenderedPage(markdown, files, line=line))

    def toggle_raw(self) -> None:
        self.raw = not self.raw
        if self.page is not None and self.markdown is not None:
            self.show_page(self.page, self.markdown, self.files)

    async def goto_line(self, line: int) -> None:
        view = self.view
        if _is_rendered(view):
            await view.goto_line(line)
        elif _is_raw(view):
            view.move_cursor((line, 0))
            view.scroll_cursor_visible()
