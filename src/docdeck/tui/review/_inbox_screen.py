"""The review inbox screen (`i` on the organization tree, or the palette): the open change
requests of every organization I belong to, in three views: `1` what waits for me (I wrote
it or am asked to review it), `2` what I reviewed, `3` everything I am involved in
(`inbox.INBOX_VIEWS`). Enter opens the review pane; Escape goes back to the tree; `O` cycles
the order. The subject takes the width the other columns leave; a cell too long for its
column ends in "…".

Coming back from a pane gathers again (what was done there moves the change request
between the views), and so does a write that lands after its pane was closed
(`WriteLanded`)."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import DataTable, Static
from textual.worker import Worker

from docdeck.models import Organization
from docdeck.tui.kit.bindings import HELP, binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.in_flight import WriteLanded
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.sharing import copy_value
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.review.columns import cut, fit_widths, lay_columns, next_order, sort_by
from docdeck.tui.review.inbox import INBOX_VIEWS, Inbox, InboxItem, gather_inbox

__all__ = ["ReviewInboxScreen"]


_b = binder("inbox")
_COLUMNS = (
    ("space", "Space"),
    ("number", "#"),
    ("subject", "Subject"),
    ("author", "Author"),
    ("why", "Why"),
    ("updated", "Updated"),
)


def _key(item: InboxItem) -> str:
    return f"{item.space.id}/{item.change_request.id}"


class ReviewInboxScreen(Screen[None]):
    DEFAULT_CSS = """
    ReviewInboxScreen #inbox-title { height: auto; padding: 0 1; background: $boost; }
    ReviewInboxScreen #inbox-table { height: 1fr; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        HELP,
        _b("escape", "back", "Back", "Back to the organization tree"),
        _b("r", "refresh", "Refresh", "Gather the inbox again"),
        _b("y", "copy", "Copy URL", "Copy the highlighted change request's app URL"),
        _b("O", "sort", "Sort", "Order by updated, created, number or subject"),
        _b("1", "show_waiting", "Waiting", "What waits for me: I wrote it or am asked to review"),
        _b("2", "show_reviewed", "Reviewed", "Change requests I reviewed"),
        _b(
            "3",
            "show_involved",
            "Involved",
            "Change requests I wrote, am asked to review, reviewed or commented on",
        ),
    ]
    FOOTER_PRIORITY = (
        "app.help",
        "back",
        "show_waiting",
        "show_reviewed",
        "show_involved",
        "refresh",
        "sort",
        "copy",
    )
    KEYS_WAIT_FOR = ("inbox",)
    """Keys typed ahead (`i`, `j`, Enter) wait for the inbox's rows (`kit/typeahead.py`)."""

    def __init__(self, organization: Organization) -> None:
        """`organization`: where the inbox was opened; it gathers from every organization
        of mine (a reviewer of two organizations has one inbox)."""
        super().__init__()
        self.organization = organization
        self.view = "waiting"
        self.inbox: Inbox | None = None
        self.me: str | None = None
        self.order = "updated"
        self.shown: list[InboxItem] = []
        self.widths: dict[str, int] = {}

    def compose(self) -> ComposeResult:
        yield Static("", id="inbox-title", markup=False)
        yield NavDataTable(id="inbox-table", cursor_type="row", zebra_stripes=True)
        yield BrowserFooter()

    def on_mount(self) -> None:
        self._lay_columns()
        self.table.focus()
        self.gather()

    @property
    def narrow(self) -> bool:
        return self.app.size.width < 110

    def _lay_columns(self) -> bool:
        """Columns for the width there is now (True when they changed: the rows are then
        gone and must be added again)."""
        narrow = self.narrow
        fixed = [
            # Wide enough to name the organization too (`Lumen › Handbook`).
            ("space", 11 if narrow else 24 if self.app.size.width < 150 else 36),
            ("number", 3),
            ("author", 10 if narrow else 16),
            ("why", 10 if narrow else 18),
            ("updated", 10 if narrow else 16),
        ]
        widths = fit_widths(self.app.size.width, fixed, "subject")
        laid = lay_columns(self.table, _COLUMNS, widths, self.widths)
        self.widths = widths
        return laid

    def on_resize(self) -> None:
        if self._lay_columns() and self.inbox is not None:
            self.show(self.inbox)

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#inbox-table", NavDataTable)

    def _title(self, state: str, *, error: bool = False) -> None:
        text = Text()
        text.append("Review inbox", style="bold")
        organizations = self.inbox.organizations if self.inbox is not None else 0
        if organizations > 1:
            text.append(f" · {organizations} organizations")
        elif self.inbox is None or organizations == 1:
            text.append(f" · {self.organization.title}")
        text.append(f"  {INBOX_VIEWS[self.view]}")
        text.append(f"\n{state}", style="red" if error else "dim")
        self.query_one("#inbox-title", Static).update(text)

    def gather(self) -> None:
        self._title("gathering from the organizations' spaces…")
        self._gather()

    @read("inbox", lambda self, *_: f"Gathering the review inbox of {self.organization.title}")
    async def _gather(self) -> None:
        client = client_of(self)
        try:
            if self.me is None:
                self.me = (await client.users.me()).id
            inbox = await gather_inbox(client, self.me)
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
        keep = _key(self.highlighted) if self.highlighted is not None else None
        table.clear()
        view = self.view
        self.shown = sort_by(inbox.view(view), self.order, lambda item: item.change_request)
        widths, narrow = self.widths, self.narrow
        for item in self.shown:
            cr = item.change_request
            says = item.says(view)
            if narrow and says == "review requested":
                says = "asked"  # as the involved view says it: the column is 10 wide
            why = Text(says, style="cyan" if item.roles != ("author",) else "")
            where = item.space.title
            if inbox.organizations > 1 and not narrow:
                where = f"{item.organization.title} › {where}"
            cells: list[Any] = [
                cut(where, widths["space"]),
                str(cr.number),
                cut(cr.subject or "(no subject)", widths["subject"]),
                cut(cr.createdBy.displayName, widths["author"]),
                cut(why, widths["why"]),
                cr.updatedAt.strftime("%Y-%m-%d" if narrow else "%Y-%m-%d %H:%M"),
            ]
            table.add_row(*cells, key=_key(item))
        table.keep_cursor_on(keep)
        count = len(self.shown)
        state = f"{count} change request{'s' if count != 1 else ''} in {inbox.spaces} spaces"
        if not count:
            state = {
                "waiting": "Nothing waits for you",
                "reviewed": "You reviewed none of them",
                "involved": "You are involved in none of them",
            }[view] + f" ({inbox.spaces} spaces with open change requests; 1 2 3 switch views)."
        state += f" · sort: {self.order} (O)"
        if inbox.problems:
            state += " · not read: " + "; ".join(inbox.problems) + inbox.retry_note
        self._title(state, error=bool(inbox.problems))

    @property
    def highlighted(self) -> InboxItem | None:
        return self.table.item_of(self.shown)

    @on(DataTable.RowSelected, "#inbox-table")
    def _chosen(self, event: DataTable.RowSelected) -> None:
        event.stop()
        item = self.highlighted
        if item is not None:
            from docdeck.tui.review._screen import ReviewScreen

            self._visited = True
            self.app.push_screen(ReviewScreen(item.space, item.change_request))

    _visited = False
    """A pane was opened from here: gather again when the inbox is back in front."""

    @on(events.ScreenResume)
    def _back_from_pane(self) -> None:
        if self._visited:
            self._visited = False
            self.gather()

    @on(WriteLanded)
    def _write_landed(self, message: WriteLanded) -> None:
        if getattr(message.subject, "change_request", None) is not None:
            self.gather()

    def action_back(self) -> None:
        self.dismiss()

    def action_refresh(self) -> None:
        self.gather()

    def footer_label(self, binding: Binding) -> str | None:
        if binding.action == f"show_{self.view}":
            return f"•{binding.description}"
        return binding.description

    def _show_view(self, view: str) -> None:
        self.view = view
        if self.inbox is not None:
            self.show(self.inbox)
        else:
            self._title("gathering from the organizations' spaces…")
        self.refresh_bindings()

    def action_show_waiting(self) -> None:
        self._show_view("waiting")

    def action_show_reviewed(self) -> None:
        self._show_view("reviewed")

    def action_show_involved(self) -> None:
        self._show_view("involved")

    def action_sort(self) -> None:
        """The next order (`columns.CR_ORDERS`), the cursor staying on its change request."""
        self.order = next_order(self.order)
        if self.inbox is not None:
            self.show(self.inbox)

    def action_copy(self) -> None:
        item = self.highlighted
        if item is not None:
            copy_value(self, CopyValue("Change request URL", item.change_request.urls.app))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
