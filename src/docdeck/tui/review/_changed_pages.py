"""The changed pages of a change request, with their counts; files and variables after
them (listed, not selectable: they have no markdown to diff). Each page says whether I
marked it viewed (`✓ viewed`), whether it changed since I did (`● changed since viewed`),
and whether it changed since my last review (`● new since your review`)."""

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
        self.viewed: set[str] = set()
        self.lapsed: set[str] = set()
        """Pages marked viewed whose markdown changed since."""
        self.since_review: set[str] = set()

    def _label(self, page: ChangedPage) -> Text:
        label = Text()
        label.append(f"{page.mark} ", style=_MARK_STYLE[page.mark])
        label.append(page.title or "(untitled)")
        what = ", ".join(page.kinds)
        label.append(f"  {what}", style="dim")
        if page.page_id in self.since_review:
            label.append("  ● new since your review", style="yellow")
        if page.page_id in self.viewed:
            label.append("  ✓ viewed", style="green")
        elif page.page_id in self.lapsed:
            label.append("  ● changed since viewed", style="yellow")
        return label

    def set_marks(self, viewed: set[str], lapsed: set[str], since_review: set[str]) -> None:
        """Redraw the pages' labels in place (the highlight and the diff stay)."""
        self.viewed, self.lapsed, self.since_review = viewed, lapsed, since_review
        if self.changes is None:
            return
        for index, page in enumerate(self.changes.pages):
            if index < self.option_count:
                self.replace_option_prompt_at_index(index, self._label(page))

    def show_changes(self, changes: ReviewChanges, keep: str | None = None) -> None:
        self.changes = changes
        self.clear_options()
        for page in changes.pages:
            self.add_option(Option(self._label(page), id=page.page_id))
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
