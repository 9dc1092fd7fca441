"""The space's revisions, newest first (following `parents`), and what the highlighted one
changed. Enter asks the screen to open the space as it was at that revision."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.message import Message
from textual.widgets import DataTable, Static

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
from docdeck.tui.kit.formatting import datetime_text
from docdeck.tui.kit.list_keys import NavDataTable

__all__ = ["HistoryView", "change_lines", "merged_name"]


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


def change_lines(changes: RevisionSemanticChanges) -> Text:
    text = Text()
    for change in changes.changes:
        if isinstance(change, PageCreated):
            text.append("+ ", style="green")
            text.append(f"page created: {change.page.title}")
        elif isinstance(change, PageDeleted):
            text.append("- ", style="red")
            text.append(f"page deleted: {change.page.title}")
        elif isinstance(change, PageEdited):
            text.append("~ ", style="yellow")
            what = ", ".join("body" if name == "document" else name for name in change.attributes)
            text.append(f"page edited: {change.page.title} ({what})")
        elif isinstance(change, PageMoved):
            text.append("→ ", style="cyan")
            after = change.parent.after.title if change.parent.after else "the top level"
            text.append(f"page moved: {change.page.title} under {after}")
        elif isinstance(change, FileCreated):
            text.append("+ ", style="green")
            text.append(f"file added: {change.file.name}")
        elif isinstance(change, FileDeleted):
            text.append("- ", style="red")
            text.append(f"file deleted: {change.file.name}")
        elif isinstance(change, FileEdited):
            text.append("~ ", style="yellow")
            text.append(f"file edited: {change.file.name}")
        elif isinstance(change, VariablesEdited):
            text.append("~ ", style="yellow")
            text.append(f"variables edited: {', '.join(change.variables)}")
        else:
            text.append(f"· {getattr(change, 'type', 'change')}")
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
    class RevisionHighlighted(Message):
        revision: Revision

    @dataclass
    class RevisionChosen(Message):
        revision: Revision

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.revisions: list[Revision] = []
        self.loaded = False
        self.complete = False

    def compose(self) -> ComposeResult:
        yield NavDataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        with VerticalScroll(id="changes-scroll"):
            yield Static("", id="changes")

    def on_mount(self) -> None:
        table = self.table
        table.add_column("Date", key="date")
        table.add_column("Type", key="type")
        table.add_column("Merged", key="merged")
        table.add_column("Revision", key="id")

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#history-table", NavDataTable)

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
        row = self.table.cursor_row
        return self.revisions[row] if self.revisions and 0 <= row < len(self.revisions) else None

    @on(DataTable.RowHighlighted)
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        revision = self.highlighted
        if revision is not None:
            self.show_changes(revision, None)
            self.post_message(self.RevisionHighlighted(revision))

    @on(DataTable.RowSelected)
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        revision = self.highlighted
        if revision is not None:
            self.post_message(self.RevisionChosen(revision))
