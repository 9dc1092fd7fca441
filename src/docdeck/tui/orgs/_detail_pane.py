"""The right-hand pane: the selected entry's fields, or a table for members and teams."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.widget import Widget
from textual.widgets import Static

from docdeck.tui.kit.entries import (
    AdminEntry,
    CollectionEntry,
    DeletedEntry,
    Entry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    RootEntry,
    SiteEntry,
    SitesEntry,
    SpaceEntry,
    TeamEntry,
    TeamsEntry,
    org_of,
)
from docdeck.tui.kit.view_slot import ViewSlot
from docdeck.tui.orgs._field_list import Field, FieldList
from docdeck.tui.orgs._resource_fields import (
    collection_fields,
    org_fields,
    site_fields,
    space_fields,
)

if TYPE_CHECKING:  # imported when first shown: the first view needs neither
    from docdeck.models import Member, TeamMembership
    from docdeck.tui.orgs._member_table import MemberTable
    from docdeck.tui.orgs._team_detail import TeamDetail

__all__ = ["DetailPane"]


def _collection_title(entry: Entry, collection_id: str | None) -> str | None:
    if collection_id is None:
        return None
    org = org_of(entry)
    for collection in (org.collections if org is not None else None) or ():
        if collection.id == collection_id:
            return collection.title
    return collection_id


class _FieldsView(VerticalScroll):
    """A resource's fields, scrolling; kept while the cursor moves between resources."""

    def __init__(self, fields: list[Field]) -> None:
        self.field_list = FieldList(fields, id="fields")
        super().__init__(self.field_list, classes="fields-scroll")


def _clock(moment: datetime, now: datetime) -> str:
    """A time of day; with the date when it is not today's (a long session, a cached view)."""
    if moment.date() == now.date():
        return moment.strftime("%H:%M:%S")
    return moment.strftime("%Y-%m-%d %H:%M")


def _hint(text: str) -> Static:
    return Static(Text(text, style="italic"), classes="hint", markup=False)


class DetailPane(Vertical):
    """Shows one entry at a time; what it shows is rebuilt on each selection (no request for
    resources already in the tree's model)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.entry: Entry | None = None
        self.body = ViewSlot(_hint("Connecting…"), id="detail-body")
        """Swaps the views safely at any speed (see `ViewSlot`)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="detail-stale", markup=False)
        yield self.body
        yield Static("", id="detail-why", markup=False)

    def on_mount(self) -> None:
        self.query_one("#detail-stale").display = False

    def _show_staleness(self, entry: Entry | None) -> None:
        """Explain the tree's ⚠: what is old, since when, why, and how to retry."""
        note = self.query_one("#detail-stale", Static)
        stale = entry.stale if entry is not None else None
        note.display = stale is not None
        if stale is None:
            return
        since = _clock(stale.since, stale.failed_at)
        text = Text("⚠ Not up to date: ", style="bold")
        text.append(f"{stale.what} as read at {since}; ")
        text.append(f"refreshing failed at {_clock(stale.failed_at, stale.failed_at)}: ")
        text.append(stale.why, style="italic")
        text.append(". Press r to retry.")
        note.update(text)

    @property
    def _view(self) -> Widget | None:
        """The view last asked for (tracked by the slot, not queried: a view being removed
        is still found by a query, and updating it would lose the new selection)."""
        return self.body.view

    def show(self, entry: Entry | None) -> None:
        same = entry is self.entry
        self.entry = entry
        if self.is_mounted:
            self._show_staleness(entry)
        if same and self._update_in_place(entry):
            return
        fields = self._fields_of(entry)
        view = self._view
        if fields is not None and isinstance(view, _FieldsView):
            # Same kind of view: update it in place, no remount (cheap while the cursor moves).
            view.field_list.set_fields(fields)
            if view.is_mounted:
                view.scroll_home(animate=False)
            return
        self.body.swap(self._view_of(entry))

    def _update_in_place(self, entry: Entry | None) -> bool:
        """The same team or Members again (after an action): keep the table, its cursor row,
        its filters and the focus; only the data changes."""
        team = self.team_detail
        if isinstance(entry, TeamEntry) and team is not None and team.entry is entry:
            team.show_entry()
            return True
        members = self.member_table
        return isinstance(entry, MembersEntry) and members is not None and members.entry is entry

    def _fields_of(self, entry: Entry | None) -> list[Field] | None:
        if isinstance(entry, OrgEntry):
            return org_fields(entry.organization)
        if isinstance(entry, SpaceEntry):
            return space_fields(entry.value, _collection_title(entry, entry.value.parent))
        if isinstance(entry, CollectionEntry):
            return collection_fields(entry.value, _collection_title(entry, entry.value.parent))
        if isinstance(entry, SiteEntry):
            return site_fields(entry.value)
        return None

    def set_reasons(self, reasons: list[str]) -> None:
        """Say why the keys shown dimmed in the footer are unavailable here."""
        why = self.query_one("#detail-why", Static)
        text = Text("Not allowed here:", style="bold")
        for reason in reasons:
            text.append(f"\n• {reason}", style="italic")
        why.update(text)
        why.display = bool(reasons)

    def _view_of(self, entry: Entry | None) -> Widget | None:
        if entry is None or isinstance(entry, RootEntry):
            return _hint("Select an organization, collection, space, Members or a team.")
        fields = self._fields_of(entry)
        if fields is not None:
            return _FieldsView(fields)
        if isinstance(entry, MembersEntry):
            from docdeck.tui.orgs._member_table import MemberTable

            return MemberTable(entry)
        if isinstance(entry, TeamEntry):
            from docdeck.tui.orgs._team_detail import TeamDetail

            return TeamDetail(entry)
        if isinstance(entry, TeamsEntry):
            # Not "N loaded": the pane is not redrawn when they arrive, so a count goes stale.
            return _hint(
                "Teams of the organization. Expand to list them; select one for its "
                "members and their roles."
            )
        if isinstance(entry, SitesEntry):
            return _hint(
                "The organization's docs sites. Expand to list them; enter on one opens its "
                "structure editor; n creates a site, d deletes the selected one (asks first)."
            )
        if isinstance(entry, DeletedEntry):
            return _hint(
                "Spaces deleted in the last 7 days. Expand, select one "
                "and press u to restore it; after 7 days they are removed for good."
            )
        if isinstance(entry, LoadMoreEntry):
            return _hint("More items exist; they load when the cursor reaches this line.")
        if isinstance(entry, AdminEntry):
            return _hint(entry.hint)
        return None

    @property
    def member_table(self) -> MemberTable | None:
        view = self._view
        return cast("MemberTable", view) if getattr(view, "pane_view", None) == "members" else None

    @property
    def team_detail(self) -> TeamDetail | None:
        view = self._view
        return cast("TeamDetail", view) if getattr(view, "pane_view", None) == "team" else None

    @property
    def highlighted_member(self) -> Member | None:
        table = self.member_table
        return table.highlighted if table is not None else None

    @property
    def highlighted_membership(self) -> TeamMembership | None:
        detail = self.team_detail
        return detail.highlighted if detail is not None else None
