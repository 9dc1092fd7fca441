"""A team: its fields and its members with their team roles."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.widgets import DataTable, Label
from textual.worker import Worker, WorkerState

from docdeck.models import TeamMembership
from docdeck.tui.kit.entries import OrgEntry, TeamEntry, org_of
from docdeck.tui.kit.formatting import role_text
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.orgs._field_list import FieldList
from docdeck.tui.orgs._resource_fields import team_fields
from docdeck.tui.orgs.messages import RowChanged

__all__ = ["TeamDetail"]

PAGE_SIZE = 100


class TeamDetail(Vertical):
    pane_view: ClassVar[str] = "team"
    """How the detail pane knows it (`DetailPane.team_detail`) without importing it."""

    DEFAULT_CSS = """
    TeamDetail { height: 1fr; }
    TeamDetail #team-members-title { padding: 1 1 0 1; text-style: bold; }
    TeamDetail DataTable { height: 1fr; }
    """

    def __init__(self, entry: TeamEntry) -> None:
        super().__init__()
        self.entry = entry

    @property
    def org(self) -> OrgEntry:
        org = org_of(self.entry)
        assert org is not None
        return org

    def compose(self) -> ComposeResult:
        yield FieldList(team_fields(self.entry.value), id="team-fields")
        yield Label("Members: loading…", id="team-members-title", markup=False)
        table: DataTable[str] = NavDataTable(
            id="team-members", cursor_type="row", zebra_stripes=True
        )
        # Roles before the email, so they show at 80 columns without scrolling sideways.
        table.add_column("Name", key="name")
        table.add_column("Team role", key="team_role")
        table.add_column("Org role", key="org_role")
        table.add_column("Email", key="email")
        yield table

    def on_mount(self) -> None:
        if self.entry.memberships is not None:
            self._show(self.entry.memberships)
        else:
            self.reload()

    def show_entry(self) -> None:
        """Show the entry's team and members as they are now (after an action), in place."""
        if not self.is_mounted:
            return  # its on_mount shows the entry as it is then
        if self.entry.memberships is not None:
            self._show(self.entry.memberships)
        else:
            self.reload()

    def reload(self) -> None:
        """Fetch the team and its members again (after a change, or on refresh)."""
        self._fetch()

    @read("team-members", lambda self: f"Loading the members of {self.entry.title}")
    async def _fetch(self) -> None:
        client = client_of(self)
        org_id = self.org.organization.id
        memberships = await client.teams.members.list(
            org_id, self.entry.value.id, limit=PAGE_SIZE
        ).all()
        self.entry.memberships = memberships
        self._show(memberships)

    def _show(self, memberships: list[TeamMembership]) -> None:
        table = self.query_one("#team-members", DataTable)
        row = table.cursor_row
        table.clear()
        for item in memberships:
            member = item.organization
            table.add_row(
                member.user.displayName,
                item.team.role,
                role_text(member.role),
                member.user.email or "—",
                key=member.id,
            )
        if memberships:
            table.move_cursor(row=min(max(row, 0), len(memberships) - 1))
        count = len(memberships)
        self.query_one("#team-members-title", Label).update(
            f"Members ({count})" if count else "Members: none yet — press a to add one"
        )
        self.query_one("#team-fields", FieldList).set_fields(team_fields(self.entry.value))
        self.post_message(RowChanged())

    @property
    def highlighted(self) -> TeamMembership | None:
        table = next(self.query("#team-members").results(NavDataTable), None)
        return table.item_of(self.entry.memberships or []) if table is not None else None

    @on(DataTable.RowHighlighted)
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(RowChanged())

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and self.entry.memberships is None:
            self.query_one("#team-members-title", Label).update(
                "Members: not loaded — press r to retry"
            )
        report_worker_failure(self, event)
