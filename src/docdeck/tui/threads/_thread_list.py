"""Threads as one list: each comment, then its replies, then a separator; grouped by page.

The cursor is on one comment or reply at a time (`highlighted_item`): the thread keys act
on it. Filling the list again (after a write or a reload) keeps the cursor on the same
comment or reply when it is still shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets.option_list import Option

from docdeck.tui.kit.list_keys import NavOptionList
from docdeck.tui.threads._model import Me, Thread, ThreadItem
from docdeck.tui.threads._render import item_text

__all__ = ["ThreadList", "group_threads"]


def group_threads(threads: list[Thread], first_page: str | None) -> list[tuple[str, list[Thread]]]:
    """(heading, threads) groups: `first_page`'s threads first, then whole-scope threads,
    then each other page's; within a group open threads before resolved, newest first."""
    groups: dict[str | None, list[Thread]] = {}
    titles: dict[str | None, str] = {None: "On the whole space"}
    for thread in threads:
        page = thread.comment.target.page
        key = page.id if page is not None else None
        groups.setdefault(key, []).append(thread)
        if page is not None:
            # 0.202.0 may name the page by its id alone: no empty quotes.
            titles[key] = f"On “{page.title}”" if page.title else "On a page"
        elif thread.comment.target.changeRequest:
            titles[None] = "On the whole change request"
    order = sorted(groups, key=lambda k: (k != first_page, k is not None, titles.get(k, "")))
    result = []
    for key in order:
        members = sorted(groups[key], key=lambda t: (t.resolved, -t.comment.postedAt.timestamp()))
        title = titles[key] + ("  (this page)" if key is not None and key == first_page else "")
        result.append((title, members))
    return result


class ThreadList(NavOptionList):
    DEFAULT_CSS = """
    ThreadList { height: 1fr; border: none; }
    ThreadList > .option-list--option { padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.items: list[ThreadItem | None] = []
        """One per option (None for a page heading)."""

    def show(
        self, groups: list[tuple[str, list[Thread]]], me: Me, *, keep: str | None = None
    ) -> None:
        """Fill the list; the cursor goes to the item whose id is `keep` (else the first)."""
        current = keep if keep is not None else self._current_key()
        options: list[Option] = []
        self.items = []
        for title, threads in groups:
            options.append(Option(Text(title, style="bold underline"), disabled=True))
            self.items.append(None)
            for thread in threads:
                options.append(Option(item_text(thread, None, me)))
                self.items.append(ThreadItem(thread))
                for reply in thread.replies:
                    options.append(Option(item_text(thread, reply, me)))
                    self.items.append(ThreadItem(thread, reply))
                options[-1]._divider = True  # a line between threads
        self.clear_options()
        self.add_options(options)
        target = next(
            (i for i, item in enumerate(self.items) if item is not None and item.key == current),
            next((i for i, item in enumerate(self.items) if item is not None), None),
        )
        if target is not None:
            self.highlighted = target

    def list_go(self, index: int) -> None:
        """Page headings are skipped: the cursor is always on a comment or a reply."""
        current = self.list_index()
        step = 1 if index >= current else -1
        while 0 <= index < len(self.items) and self.items[index] is None:
            index += step
        if not 0 <= index < len(self.items):
            index -= step
            while 0 <= index < len(self.items) and self.items[index] is None:
                index -= step
        if 0 <= index < len(self.items):
            self.highlighted = index

    def show_item(self, key: str) -> bool:
        """Put the cursor on the comment or reply `key` (False when it is not shown)."""
        for index, item in enumerate(self.items):
            if item is not None and item.key == key:
                self.highlighted = index
                return True
        return False

    def _current_key(self) -> str | None:
        item = self.highlighted_item
        return item.key if item is not None else None

    @property
    def highlighted_item(self) -> ThreadItem | None:
        index = self.highlighted
        if index is None or not 0 <= index < len(self.items):
            return None
        return self.items[index]
