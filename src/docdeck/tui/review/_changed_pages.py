"""The changed pages of a change request, with their counts; files and variables after
them (listed, not selectable: they have no markdown to diff)."""

from __future__ import annotations

from rich.text import Text
from textual.widgets.option_list import Option

from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.review.changes import ChangedPage, ReviewChanges

__all__ = ["ChangedPagesList"]

_MARK_STYLE = {"+": "green", "-": "red", "~": "yellow", "→": "cyan", "·": "dim"}


class ChangedPagesList(NavOptionList):
    DEFAULT_CSS = """
    ChangedPagesList { height: 1fr; border: none; padding: 0; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.changes: ReviewChanges | None = None

    def show_changes(self, changes: ReviewChanges, keep: str | None = None) -> None:
        self.changes = changes
        self.clear_options()
        for page in changes.pages:
            label = Text()
            label.append(f"{page.mark} ", style=_MARK_STYLE[page.mark])
            label.append(page.title or "(untitled)")
            what = ", ".join(page.kinds)
            label.append(f"  {what}", style="dim")
            self.add_option(Option(label, id=page.page_id))
        for index, other in enumerate(changes.others):
            label = Text.assemble((f"{other.mark} ", _MARK_STYLE.get(other.mark, "")), other.text)
            self.add_option(Option(label, id=f"other-{index}", disabled=True))
        if changes.more:
            self.add_option(Option(Text(f"… {changes.more} more", style="dim"), disabled=True))
        ids = [page.page_id for page in changes.pages]
        if keep in ids:
            self.highlighted = ids.index(keep)
        elif ids:
            # The first diff to read: the first page whose body changed.
            bodies = [index for index, page in enumerate(changes.pages) if page.body_changed]
            self.highlighted = bodies[0] if bodies else 0

    @property
    def current(self) -> ChangedPage | None:
        if self.changes is None or self.highlighted is None:
            return None
        pages = self.changes.pages
        return pages[self.highlighted] if self.highlighted < len(pages) else None

    def select_page(self, page_id: str) -> None:
        if self.changes is None:
            return
        for index, page in enumerate(self.changes.pages):
            if page.page_id == page_id:
                self.highlighted = index
                return
