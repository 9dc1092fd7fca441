"""The space's change requests: number, subject, status, author, updated, open comments,
review state and an outdated marker.

`s` cycles the status asked for (the API lists one status at a time, open by default),
`c` cycles the contributor (anyone, then each author seen), `f` filters the rows by text,
`O` cycles the order (updated, created, number, subject). The subject takes the width the
other columns leave, and a cell too long for its column ends in "…".
Enter asks the screen to open the review pane (`ChangeRequestChosen`). The review state
column fills in as each change request's reviews arrive.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import DataTable, Input, Static

from docdeck.models import ChangeRequest
from docdeck.models.change_requests import ChangeRequestStatus
from docdeck.tui.kit.bindings import binder
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.review.columns import cut, fit_widths, lay_columns, next_order, sort_by

__all__ = ["CR_STATUSES", "ChangeRequestsView", "review_cell"]

CR_STATUSES: tuple[ChangeRequestStatus, ...] = ("open", "draft", "merged", "archived")
_STATUS_STYLE = {"open": "green", "draft": "yellow", "merged": "magenta", "archived": "dim"}
_COLUMNS = (
    ("number", "#"),
    ("subject", "Subject"),
    ("status", "Status"),
    ("author", "Author"),
    ("updated", "Updated"),
    ("comments", "Cmts"),
    ("reviews", "Reviews"),
)
_b = binder("space")


def _when(value: datetime, *, narrow: bool) -> str:
    return value.strftime("%Y-%m-%d" if narrow else "%Y-%m-%d %H:%M")


def review_cell(verdicts: dict[str, list[str]] | None) -> Text:
    if verdicts is None:
        return Text("…", style="dim")
    approved = len(verdicts.get("approved", []))
    changes = len(verdicts.get("changes-requested", []))
    outdated = sum(len(names) for key, names in verdicts.items() if key.startswith("outdated"))
    text = Text()
    if approved:
        text.append(f"✔{approved}", style="green")
    if changes:
        text.append(" " if text else "")
        text.append(f"✘{changes}", style="red")
    if outdated:  # a review of an older revision: not counted as an approval
        text.append(" " if text else "")
        text.append(f"○{outdated}", style="yellow")
    return text or Text("—", style="dim")


class ChangeRequestsView(Vertical):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "s",
            "cr_status",
            "Status",
            id="space.cr_status",
            tooltip="List open, draft, merged or archived change requests",
        ),
        Binding(
            "c",
            "cr_contributor",
            "Contributor",
            id="space.cr_contributor",
            tooltip="Only change requests by one contributor (cycles through the authors)",
        ),
        Binding(
            "f",
            "cr_filter",
            "Filter",
            id="space.cr_filter",
            tooltip="Filter the change requests by subject, author or number",
        ),
        _b(
            "O",
            "cr_sort",
            "Sort",
            "Order the change requests by updated, created, number or subject",
        ),
    ]
    DEFAULT_CSS = """
    ChangeRequestsView { height: 1fr; }
    ChangeRequestsView > #cr-state { height: auto; padding: 0 1; }
    ChangeRequestsView > #cr-filter { display: none; }
    ChangeRequestsView > #cr-filter.-shown { display: block; }
    ChangeRequestsView > NavDataTable { height: 1fr; }
    """

    @dataclass
    class ChangeRequestChosen(Message):
        change_request: ChangeRequest

    @dataclass
    class FiltersChanged(Message):
        """Status or contributor changed: the screen lists again."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.change_requests: list[ChangeRequest] = []
        self.shown: list[ChangeRequest] = []
        self.status: ChangeRequestStatus = "open"
        self.contributor: tuple[str, str] | None = None
        """(user id, name), or None for anyone."""
        self.authors: dict[str, str] = {}
        """Every author seen in this space so far, id to name (the contributor choices)."""
        self.verdicts: dict[str, dict[str, list[str]]] = {}
        self.text = ""
        self.order = "updated"
        self.loaded = False
        self.problem = ""
        self.widths: dict[str, int] = {}

    def compose(self) -> ComposeResult:
        yield Static("reading the change requests…", id="cr-state", markup=False)
        yield Input(placeholder="filter by subject, author or #number", id="cr-filter")
        yield NavDataTable(id="cr-table", cursor_type="row", zebra_stripes=True)

    def on_mount(self) -> None:
        self._lay_columns()

    @property
    def narrow(self) -> bool:
        return self.app.size.width < 110

    def _lay_columns(self) -> bool:
        """Columns for the width the table has now (True when they changed: the rows are
        then gone and must be added again)."""
        narrow = self.narrow
        fixed = [
            ("number", 4),
            ("status", 8 if narrow else 16),
            ("author", 10 if narrow else 16),
            ("updated", 10 if narrow else 16),
            ("comments", 4),
            ("reviews", 7),
        ]
        width = self.table.size.width or self.size.width or self.app.size.width
        widths = fit_widths(width, fixed, "subject")
        laid = lay_columns(self.table, _COLUMNS, widths, self.widths)
        self.widths = widths
        return laid

    def on_resize(self) -> None:
        if self._lay_columns():
            self.refill()

    @property
    def table(self) -> NavDataTable:
        return self.query_one("#cr-table", NavDataTable)

    @property
    def field(self) -> Input:
        return self.query_one("#cr-filter", Input)

    # ----- rows ------------------------------------------------------------------------------

    def show_change_requests(self, items: list[ChangeRequest]) -> None:
        self.change_requests = items
        self.loaded = True
        self.problem = ""
        for cr in items:
            self.authors.setdefault(cr.createdBy.id, cr.createdBy.displayName)
        self.refill()

    def show_error(self, message: str) -> None:
        self.problem = message
        self._state()

    def set_verdicts(self, change_request_id: str, verdicts: dict[str, list[str]]) -> None:
        self.verdicts[change_request_id] = verdicts
        if change_request_id in self.table.rows:
            cell = review_cell(verdicts)
            self.table.update_cell(change_request_id, "reviews", cell)  # type: ignore[arg-type]

    def matches(self, cr: ChangeRequest) -> bool:
        words = self.text.casefold().split()
        haystack = f"#{cr.number} {cr.number} {cr.subject} {cr.createdBy.displayName}".casefold()
        return all(word in haystack for word in words)

    def refill(self) -> None:
        table = self.table
        keep = self.highlighted.id if self.highlighted is not None else None
        table.clear()
        shown = [cr for cr in self.change_requests if self.matches(cr)]
        self.shown = sort_by(shown, self.order, lambda cr: cr)
        widths, narrow = self.widths, self.narrow
        for cr in self.shown:
            status = Text(cr.status, style=_STATUS_STYLE.get(cr.status, ""))
            if cr.outdated:
                status.append(" ⚠" if narrow else " ⚠ outdated", style="yellow")
            cells: list[Any] = [
                str(cr.number),
                cut(cr.subject or "(no subject)", widths["subject"]),
                cut(status, widths["status"]),
                cut(cr.createdBy.displayName, widths["author"]),
                _when(cr.updatedAt, narrow=narrow),
                str(cr.comments) if cr.comments else "",
                review_cell(self.verdicts.get(cr.id)),
            ]
            table.add_row(*cells, key=cr.id)
        table.keep_cursor_on(keep)
        self._state()

    def _state(self) -> None:
        text = Text()
        text.append("status: ", style="dim")
        text.append(self.status, style=f"bold {_STATUS_STYLE.get(self.status, '')}")
        text.append("  contributor: ", style="dim")
        text.append(self.contributor[1] if self.contributor else "anyone", style="bold")
        if self.text:
            text.append(f"  text: “{self.text}”", style="bold")
        text.append("  sort: ", style="dim")
        text.append(self.order, style="bold")
        if self.problem:
            text.append(f"\n{self.problem}", style="red")
        elif self.loaded:
            count = len(self.shown)
            text.append(f"  · {count} change request{'s' if count != 1 else ''}", style="dim")
            if not self.shown:
                text.append("\nNone here: s changes the status, c the contributor.", style="dim")
        else:
            text.append("  · reading…", style="dim")
        self.query_one("#cr-state", Static).update(text)

    @property
    def highlighted(self) -> ChangeRequest | None:
        return self.table.item_of(self.shown)

    # ----- keys ------------------------------------------------------------------------------

    def action_cr_status(self) -> None:
        index = CR_STATUSES.index(self.status) if self.status in CR_STATUSES else -1
        self.status = CR_STATUSES[(index + 1) % len(CR_STATUSES)]
        self.loaded = False
        self._state()
        self.post_message(self.FiltersChanged())

    def action_cr_contributor(self) -> None:
        choices: list[tuple[str, str] | None] = [
            None,
            *sorted(self.authors.items(), key=lambda a: a[1]),
        ]
        index = choices.index(self.contributor) if self.contributor in choices else 0
        self.contributor = choices[(index + 1) % len(choices)]
        self.loaded = False
        self._state()
        self.post_message(self.FiltersChanged())

    def action_cr_sort(self) -> None:
        """The next order; the rows are sorted here (the API has one order), the cursor
        staying on its change request."""
        self.order = next_order(self.order)
        self.refill()

    def action_cr_filter(self) -> None:
        self.field.add_class("-shown")
        self.field.focus()

    def close_filter(self) -> bool:
        """Escape in the filter: clears and hides it (True when it was open)."""
        if not self.field.has_class("-shown"):
            return False
        self.field.value = ""
        self.field.remove_class("-shown")
        self.table.focus()
        return True

    @on(Input.Changed, "#cr-filter")
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        self.text = event.value.strip()
        self.refill()

    @on(Input.Submitted, "#cr-filter")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.table.focus()

    @on(DataTable.RowSelected, "#cr-table")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        cr = self.highlighted
        if cr is not None:
            self.post_message(self.ChangeRequestChosen(cr))
