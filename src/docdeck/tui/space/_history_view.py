"""The space's revisions, newest first (following `parents`, read a few at a time as the
cursor nears the end), and what the highlighted one changed. Enter asks the screen to open
the space as it was at that revision (`RevisionChosen`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static
from textual.worker import Worker

from docdeck.models import (
    FileCreated,
    FileDeleted,
    FileEdited,
    PageCreated,
    PageDeleted,
    PageEdited,
    PageMoved,
    Revision,
    RevisionSemanticChanges,
    VariablesEdited,
)
from docdeck.tui.content.revision_cache import content_cache
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.formatting import datetime_text
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import read, report_worker_failure
from docdeck.tui.space._source import SpaceSource

__all__ = ["HISTORY_STEP", "HistoryView", "change_lines", "merged_name"]

HISTORY_STEP = 10
"""Revisions read at a time while walking `parents` (each read is a whole revision)."""


def merged_name(revision: Revision) -> str:
    """The merged change request, named as well as the revision says it."""
    merged: dict[str, Any] | None = getattr(revision, "mergedFrom", None)
    if getattr(revision, "type", "") != "merge":
        return ""
    merged = merged or {}
    number, title = merged.get("number"), merged.get("subject") or merged.get("title")
    if number and title:
        return f"change request #{number} “{title}”"
    if number:
        return f"change request #{number}"
    return "a change request"


def _edited_parts(change: PageEdited) -> str:
    return ", ".join("body" if name == "document" else name for name in change.attributes)


def _moved_under(change: PageMoved) -> str:
    return change.parent.after.title if change.parent.after else "the top level"


_SAID: dict[type[Any], tuple[str, Callable[[Any], str]]] = {
    PageCreated: ("+", lambda c: f"page created: {c.page.title}"),
    PageDeleted: ("-", lambda c: f"page deleted: {c.page.title}"),
    PageEdited: ("~", lambda c: f"page edited: {c.page.title} ({_edited_parts(c)})"),
    PageMoved: ("→", lambda c: f"page moved: {c.page.title} under {_moved_under(c)}"),
    FileCreated: ("+", lambda c: f"file added: {c.file.name}"),
    FileDeleted: ("-", lambda c: f"file deleted: {c.file.name}"),
    FileEdited: ("~", lambda c: f"file edited: {c.file.name}"),
    VariablesEdited: ("~", lambda c: f"variables edited: {', '.join(c.variables)}"),
}
"""Each kind of change: its mark (in `_MARK_STYLE`'s colour) and what its line says."""
_MARK_STYLE = {"+": "green", "-": "red", "~": "yellow", "→": "cyan"}


def change_lines(changes: RevisionSemanticChanges) -> Text:
    text = Text()
    for change in changes.changes:
        said = _SAID.get(type(change))
        if said is None:
            text.append(f"· {getattr(change, 'type', 'change')}")
        else:
            mark, words = said
            text.append(f"{mark} ", style=_MARK_STYLE[mark])
            text.append(words(change))
        path = getattr(getattr(change, "page", None), "path", None)
        if path:
            text.append(f"  /{path}", style="dim")
        text.append("\n")
    if changes.more:
        text.append(f"… and {changes.more} more\n", style="dim")
    if not changes.changes:
        text.append("No changes (the space's first revision, or an empty one).", style="dim")
    return text


class HistoryView(Horizontal):
    DEFAULT_CSS = """
    HistoryView { height: 1fr; }
    HistoryView > NavDataTable { width: 1fr; height: 1fr; }
    HistoryView > #changes-scroll { width: 1fr; height: 1fr; padding: 0 1;
        border-left: vkey $foreground 20%; }
    .-stacked HistoryView { layout: vertical; }
    """

    @dataclass
    class RevisionChosen(Message):
        revision: Revision
        page_id: str | None
        """The first page it created, edited or moved (None: the screen keeps its page)."""

    def __init__(self, source: SpaceSource, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self.revisions: list[Revision] = []
        self.loaded = False
        self.complete = False
        self._next: str | None = None
        """The parent of the last revision read: the next to read."""

    def compose(self) -> ComposeResult:
        yield NavDataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="changes-scroll"):
            yield Static("", id="changes", markup=False)

    def on_mount(self) -> None:
        table = self.table
        table.add_column("Date", key="date")
        table.add_column("Type", key="type")
        table.add_column("Merged", key="merged")
        table.add_column("Revision", key="id")

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#history-table", NavDataTable)

    def enter(self) -> None:
        """Shown (`4`): the newest revisions, read once."""
        self.table.focus()
        if not self.loaded:
            self._next = None
            self.load_history()

    def load_history(self) -> None:
        self._load_history()

    @read("history", "Reading the space's revisions")
    async def _load_history(self) -> None:
        cache = content_cache(self)
        content = self.source.content
        for _ in range(HISTORY_STEP):
            if not self.revisions:
                revision = await content.revision()
            elif self._next is not None:
                parent = cache.get(content.client, self.source.space.id, self._next)
                revision = await parent.revision()
            else:
                self.complete = True
                return
            self.add_revision(revision)
            self._next = revision.parents[0] if revision.parents else None
        self.complete = self._next is None

    def copy_highlighted(self) -> None:
        """`y`: the highlighted revision's id."""
        revision = self.highlighted
        if revision is not None:
            copy_value(self.screen, CopyValue("Revision id", revision.id))

    def reload(self) -> bool:
        """`r`: what the highlighted revision changed, read again (False: none highlighted)."""
        revision = self.highlighted
        if revision is None:
            return False
        self.load_changes(revision)
        return True

    def load_changes(self, revision: Revision) -> None:
        """What `revision` changed, beside the list (and more revisions at the list's end)."""
        if revision is self.revisions[-1] and not self.complete:
            self.load_history()
        self._load_changes(revision)

    @read("changes", lambda self, revision: f"Reading what revision {revision.id} changed")
    async def _load_changes(self, revision: Revision) -> None:
        content = content_cache(self).get(
            self.source.content.client, self.source.space.id, revision.id
        )
        try:
            changes = await content.changes()
        except Exception as error:
            problem = describe(error, "Reading what the revision changed")
            self.show_changes(
                revision,
                None,
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}",
            )
            return
        self.show_changes(revision, changes)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def add_revision(self, revision: Revision) -> None:
        self.loaded = True
        self.revisions.append(revision)
        self.table.add_row(
            datetime_text(revision.createdAt),
            str(getattr(revision, "type", "?")),
            merged_name(revision),
            revision.id,
            key=revision.id,
        )

    def show_changes(
        self, revision: Revision, changes: RevisionSemanticChanges | None, why: str = ""
    ) -> None:
        if revision is not self.highlighted:
            return
        head = Text.assemble(
            (f"{getattr(revision, 'type', '')} · {datetime_text(revision.createdAt)}", "bold"),
            f"\n{revision.id}",
        )
        merged = merged_name(revision)
        if merged:
            head.append(f"\nmerged {merged}")
        head.append("\n\n")
        if changes is None:
            head.append(why or "loading what it changed…", style="red" if why else "dim")
        else:
            head.append_text(change_lines(changes))
        head.append("\nenter: read the space as it was at this revision", style="dim")
        self.query_one("#changes", Static).update(head)

    @property
    def highlighted(self) -> Revision | None:
        return self.table.item_of(self.revisions)

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        revision = self.highlighted
        if revision is not None:
            self.show_changes(revision, None)
            self.load_changes(revision)

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        revision = self.highlighted
        if revision is not None:
            self.post_message(self.RevisionChosen(revision, self._changed_page(revision)))

    def _changed_page(self, revision: Revision) -> str | None:
        content = content_cache(self).get(
            self.source.content.client, self.source.space.id, revision.id
        )
        for change in getattr(content.cached("changes"), "changes", []):
            changed = getattr(change, "page", None)
            if changed is not None and getattr(change, "type", "") != "page_deleted":
                return str(changed.id)
        return None
