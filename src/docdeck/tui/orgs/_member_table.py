"""An organization's members as a table, filtered by the API's `search` and `role` parameters."""

from __future__ import annotations

import asyncio
from typing import ClassVar, cast

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Input, Label, Select
from textual.worker import Worker, WorkerState

from docdeck.gateway import repeats_dropped
from docdeck.models import Member, MemberRoleFilter
from docdeck.tui.kit.entries import MembersEntry, OrgEntry
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.formatting import date, role_text
from docdeck.tui.kit.nav_table import NavDataTable
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.orgs.messages import RowChanged

__all__ = ["ROLE_CHOICES", "MemberTable"]

PAGE_SIZE = 50
SEARCH_DELAY = 0.25
"""Wait this long before searching: a word costs one request, not one per key."""

ROLE_CHOICES: list[MemberRoleFilter] = [
    "admin",
    "create",
    "edit",
    "review",
    "comment",
    "read",
    "guest",
]


class MemberTable(Vertical):
    """Members of the organization; more rows load as the cursor reaches the end."""

    pane_view: ClassVar[str] = "members"
    """How the detail pane knows it (`DetailPane.member_table`) without importing it."""

    DEFAULT_CSS = """
    MemberTable { height: 1fr; }
    MemberTable #member-filters { height: auto; }
    MemberTable #member-search { width: 1fr; }
    MemberTable #member-role { width: 22; }
    MemberTable #member-count { padding: 0 1; color: $text-muted; width: 100%; }
    MemberTable DataTable { height: 1fr; }
    """

    def __init__(self, entry: MembersEntry) -> None:
        super().__init__()
        self.entry = entry
        self.members: list[Member] = []
        self.next_page: str | None = None
        self._filter: tuple[str, str] = entry.member_filter

    @property
    def org(self) -> OrgEntry:
        assert isinstance(self.entry.parent, OrgEntry)
        return self.entry.parent

    def compose(self) -> ComposeResult:
        with Horizontal(id="member-filters"):
            search, role = self._filter
            yield Input(search, placeholder="name or email", id="member-search")
            yield Select(
                [(role, role) for role in ROLE_CHOICES],
                prompt="any role",
                value=role or Select.NULL,
                id="member-role",
            )
        yield Label("loading members…", id="member-count", markup=False)
        table: DataTable[str] = NavDataTable(id="members", cursor_type="row", zebra_stripes=True)
        # The role second, as in a team's table: it is what this table is used to change,
        # and an 80-column terminal showed it cut ("commen") after the email.
        table.add_column("Name", key="name")
        table.add_column("Role", key="role")
        table.add_column("Email", key="email")
        table.add_column("Joined", key="joined")
        table.add_column("Last seen", key="seen")
        yield table

    def on_mount(self) -> None:
        self._show_filter(self._filter, delay=0)

    def reload(self) -> None:
        """Fetch the current filter's first page again (the cached pages were dropped)."""
        self._show_filter(self._current_filter(), delay=0)

    @property
    def table(self) -> DataTable[str]:
        return self.query_one("#members", DataTable)

    @property
    def highlighted(self) -> Member | None:
        table = next(self.query("#members").results(NavDataTable), None)
        return table.item_of(self.members) if table is not None else None

    # ----- filtering and loading -------------------------------------------------------------

    def _current_filter(self) -> tuple[str, str]:
        search = self.query_one("#member-search", Input).value.strip()
        role = self.query_one("#member-role", Select).value
        return (search, role if isinstance(role, str) else "")

    @on(Input.Changed, "#member-search")
    def _search_changed(self) -> None:
        self._show_filter(self._current_filter(), delay=SEARCH_DELAY)

    @on(Select.Changed, "#member-role")
    def _role_changed(self) -> None:
        self._show_filter(self._current_filter(), delay=0)

    def _show_filter(self, key: tuple[str, str], *, delay: float) -> None:
        self._filter = key
        self.entry.member_filter = key
        cached = self.entry.member_pages.get(key)
        if cached is not None:
            self.workers.cancel_group(self, "members")
            self._show(cached[0], cached[1])
            return
        self._fetch_first(key, delay)

    @read("members", "Loading members")
    async def _fetch_first(self, key: tuple[str, str], delay: float) -> None:
        await self._fetch(key, None, delay)

    @read("members-more", "Loading more members")
    async def _fetch_more(self, key: tuple[str, str], page: str) -> None:
        await self._fetch(key, page, 0)

    async def _fetch(self, key: tuple[str, str], page: str | None, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        search, role = key
        result = await client_of(self).members.list(
            self.org.organization.id,
            search=search or None,
            role=cast(MemberRoleFilter, role) if role else None,
            page=page,
            limit=PAGE_SIZE,
        )
        previous = self.entry.member_pages.get(key, ([], None))[0] if page else []
        # a member read on an earlier page again (the list shifted meanwhile) is left out:
        # each row is keyed by the member's id
        members = previous + repeats_dropped(result.items, {m.id for m in previous})
        next_page = result.next.page if result.next is not None else None
        self.entry.member_pages[key] = (members, next_page)
        if key == self._filter:
            self._show(members, next_page, total=result.count)

    def _show(self, members: list[Member], next_page: str | None, total: int | None = None) -> None:
        table = self.table
        row = table.cursor_row
        first_new = len(self.members) if members[: len(self.members)] == self.members else 0
        if first_new == 0:
            table.clear()
        for member in members[first_new:]:
            table.add_row(*self._cells(member), key=member.id)
        self.members = list(members)
        self.next_page = next_page
        if first_new and 0 <= row < len(members):
            table.move_cursor(row=row)
        shown = f"{len(members)} member{'s' if len(members) != 1 else ''}"
        if not members and any(self._filter):
            shown = "No member matches this filter."
        if next_page is not None:
            # (a count below what was read, a server's slip, is no "of": more are below)
            known = total is not None and total > len(members)
            shown += f" of {total}" if known else " (more below)"
        self.query_one("#member-count", Label).update(shown)
        self.post_message(RowChanged())

    @staticmethod
    def _cells(member: Member) -> tuple[str, str, str, str, str]:
        return (
            member.user.displayName,
            role_text(member.role),
            member.user.email or "—",
            date(member.joinedAt),
            date(member.lastSeenAt),
        )

    @on(DataTable.RowHighlighted, "#members")
    def _row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        event.stop()
        self.post_message(RowChanged())
        if self.next_page is not None and event.cursor_row >= len(self.members) - 1:
            self._fetch_more(self._filter, self.next_page)

    def replace_member(self, member: Member) -> None:
        """Show a member's new role in place; drop other filters' pages, which may be stale."""
        self.entry.member_pages = {
            key: value for key, value in self.entry.member_pages.items() if key == self._filter
        }
        shown = self.is_mounted and self.is_attached
        for index, known in enumerate(self.members):
            if known.id == member.id:
                self.members[index] = member
                if shown:
                    self.table.update_cell(member.id, "role", role_text(member.role))
        cached = self.entry.member_pages.get(self._filter)
        if cached is not None:
            self.entry.member_pages[self._filter] = (list(self.members), cached[1])
        self.post_message(RowChanged())

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.state is WorkerState.ERROR and event.worker.group == "members":
            self.query_one("#member-count", Label).update(self._failed(event.worker.error))
        report_worker_failure(self, event)

    def _failed(self, error: BaseException | None) -> str:
        """The count line when the list could not be read. A search the server refused
        (too long: over 512 characters) is not worth a retry, and the rows still shown are
        those of the filter before: the line said "press r to retry" under them."""
        problem = describe(error, "Loading members") if error is not None else None
        if problem is None or problem.retry_helps:
            return "Members not loaded — press r to retry."
        reason = (problem.brief or problem.message).splitlines()[0]
        if self.members:
            return f"Not filtered: {reason}. The rows below are from the filter before."
        return f"Members not loaded: {reason}."
