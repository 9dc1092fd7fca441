"""The review inbox screen (`i` on the organization tree, or the palette): what waits for me
in an organization. Enter opens the review pane; Escape goes back to the tree."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker

from docdeck.models import Organization
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.list_keys import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import client_of, report_worker_failure
from docdeck.tui.review.inbox import Inbox, InboxItem, gather_inbox

__all__ = ["ReviewInboxScreen"]


_b = binder("inbox")


class ReviewInboxScreen(Screen[None]):
    DEFAULT_CSS = """
    ReviewInboxScreen #inbox-title { height: auto; padding: 0 1; background: $boost; }
    ReviewInboxScreen #inbox-table { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark", "app.help", "Help", id="app.help", tooltip="Every key"),
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("r", "refresh", "Refresh", "Gather the inbox again"),
        _b("y", "copy", "Copy URL", "Copy the highlighted change request's app URL"),
    ]
    FOOTER_PRIORITY = ("app.help", "back", "refresh", "copy")
    KEYS_WAIT_FOR = ("inbox",)
    """Keys typed ahead (`i`, `j`, Enter) wait for the inbox's rows (`kit/typeahead.py`)."""

    def __init__(self, organization: Organization) -> None:
        super().__init__()
        self.organization = organization
        self.inbox: Inbox | None = None
        self.me: str | None = None

    def compose(self) -> ComposeResult:
        yield Static("", id="inbox-title")
        yield NavDataTable(id="inbox-table", cursor_type="row", zebra_stripes=True)
        yield BrowserFooter()

    def on_mount(self) -> None:
        table = self.table
        narrow = self.app.size.width < 110
        table.add_column("Space", key="space", width=14 if narrow else 24)
        table.add_column("#", key="number", width=3)
        table.add_column("Subject", key="subject", width=18 if narrow else 36)
        table.add_column("Author", key="author", width=10 if narrow else 16)
        table.add_column("Why", key="why", width=9 if narrow else 16)
        table.add_column("Updated", key="updated", width=10 if narrow else 16)
        table.focus()
        self.gather()

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#inbox-table", NavDataTable)

    def _title(self, state: str, *, error: bool = False) -> None:
        text = Text()
        text.append(f"Review inbox · {self.organization.title}", style="bold")
        text.append("  open change requests I wrote or am asked to review, newest first")
        text.append(f"\n{state}", style="red" if error else "dim")
        self.query_one("#inbox-title", Static).update(text)

    def gather(self) -> None:
        self._title("gathering from the organization's spaces…")
        self.run_worker(
            self._gather(),
            name=f"Gathering the review inbox of {self.organization.title}",
            group="inbox",
            exclusive=True,
            exit_on_error=False,
        )

    async def _gather(self) -> None:
        client = client_of(self)
        try:
            if self.me is None:
                self.me = (await client.users.me()).id
            inbox = await gather_inbox(client, self.organization.id, self.me)
        except Exception as error:
            problem = describe(error, "Gathering the review inbox")
            self._title(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}",
                error=True,
            )
            return
        self.show(inbox)

    def show(self, inbox: Inbox) -> None:
        self.inbox = inbox
        table = self.table
        table.clear()
        for item in inbox.items:
            cr = item.change_request
            why = Text(item.why, style="cyan" if item.why != "author" else "")
            cells: list[Any] = [
                item.space.title,
                str(cr.number),
                cr.subject or "(no subject)",
                cr.createdBy.displayName,
                why,
                cr.updatedAt.strftime("%Y-%m-%d %H:%M"),
            ]
            table.add_row(*cells, key=f"{item.space.id}/{cr.id}")
        count = len(inbox.items)
        state = f"{count} change request{'s' if count != 1 else ''} in {inbox.spaces} spaces"
        if not count:
            state = f"Nothing waits for you ({inbox.spaces} spaces with open change requests)."
        if inbox.problems:
            state += " · not read: " + "; ".join(inbox.problems) + inbox.retry_note
        self._title(state, error=bool(inbox.problems))

    @property
    def highlighted(self) -> InboxItem | None:
        items = self.inbox.items if self.inbox else []
        row = self.table.cursor_row
        return items[row] if items and 0 <= row < len(items) else None

    @on(DataTable.RowSelected, "#inbox-table")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        item = self.highlighted
        if item is not None:
            from docdeck.tui.review._screen import ReviewScreen

            self.app.push_screen(ReviewScreen(item.space, item.change_request))

    def action_back(self) -> None:
        self.dismiss()

    def action_refresh(self) -> None:
        self.gather()

    def action_copy(self) -> None:
        item = self.highlighted
        if item is not None:
            copy_value(self, CopyValue("Change request URL", item.change_request.urls.app))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
