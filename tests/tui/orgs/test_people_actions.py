"""Members and teams: the member table and its filters, role changes, team membership."""

from __future__ import annotations

from textual.widgets import DataTable, Input, Label, Select

from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.orgs import MemberTable, TeamDetail
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    dialog_input,
    open_node,
    open_northwind,
    screen_lines,
    select,
    type_text,
    wait_for_workers,
)


def _column(table: DataTable[str], key: str) -> list[str]:
    return [str(value) for value in table.get_column(key)]


async def _members(pilot) -> MemberTable:  # type: ignore[no-untyped-def]
    await open_northwind(pilot)
    await select(pilot, "Members")
    return pilot.app.screen.query_one(MemberTable)


async def test_member_table_lists_members_with_roles(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        members = await _members(pilot)
        table = members.table
        names = _column(table, "name")
        assert "Ada Okafor" in names and "Freya Lindqvist" in names
        roles = dict(zip(names, _column(table, "role"), strict=True))
        assert roles["Ada Okafor"] == "admin"
        assert roles["Gus Patel"] == "guest"
        assert str(members.query_one("#member-count", Label).render()) == f"{len(names)} members"


async def test_member_filters_use_the_api(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        members = await _members(pilot)
        members.query_one("#member-search", Input).focus()
        await type_text(pilot, "chen")
        await wait_for_workers(pilot)
        assert _column(members.table, "name") == ["Chen Wei"]

        members.query_one("#member-search", Input).value = ""
        await wait_for_workers(pilot)
        members.query_one("#member-role").value = "read"  # type: ignore[attr-defined]
        await wait_for_workers(pilot)
        assert set(_column(members.table, "role")) == {"read"}
        assert "Freya Lindqvist" in _column(members.table, "name")


async def test_change_a_members_role(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        members = await _members(pilot)
        table = members.table
        row = _column(table, "name").index("Freya Lindqvist")
        table.focus()
        table.move_cursor(row=row)
        await pilot.pause()
        await pilot.press("R")
        assert isinstance(app.screen, PickDialog)
        choice = [role for _, role in app.screen.choices].index("comment")
        app.screen.query_one("#dialog-options").highlighted = choice  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, PickDialog)
        assert _column(table, "role")[row] == "comment"


async def _team(pilot, title: str) -> TeamDetail:  # type: ignore[no-untyped-def]
    await open_northwind(pilot)
    await open_node(pilot, "Teams")
    await select(pilot, title)
    return pilot.app.screen.query_one(TeamDetail)


async def test_team_shows_members_and_roles(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        detail = await _team(pilot, "Platform")
        table = detail.query_one(DataTable)
        roles = dict(zip(_column(table, "name"), _column(table, "team_role"), strict=True))
        assert roles == {"Chen Wei": "owner", "Bruno Castillo": "member", "Dana Kowalski": "member"}


async def test_add_toggle_and_remove_a_team_member(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        detail = await _team(pilot, "Platform")
        await pilot.press("a")
        assert isinstance(app.screen, FormDialog)
        dialog_input(pilot, "user").value = "ines@northwind.dev"
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        detail = app.screen.query_one(TeamDetail)
        table = detail.query_one(DataTable)
        names = _column(table, "name")
        assert "Inês Duarte" in names
        assert "(4)" in str(detail.query_one("#team-members-title", Label).render())

        table.focus()
        table.move_cursor(row=names.index("Inês Duarte"))
        await pilot.pause()
        await pilot.press("t")
        await wait_for_workers(pilot)
        table = app.screen.query_one(TeamDetail).query_one(DataTable)
        roles = dict(zip(_column(table, "name"), _column(table, "team_role"), strict=True))
        assert roles["Inês Duarte"] == "owner"

        table.focus()
        table.move_cursor(row=_column(table, "name").index("Inês Duarte"))
        await pilot.pause()
        await pilot.press("x", "y")
        await wait_for_workers(pilot)
        table = app.screen.query_one(TeamDetail).query_one(DataTable)
        assert "Inês Duarte" not in _column(table, "name")


async def test_a_failed_request_keeps_the_dialog_and_its_input(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _team(pilot, "Platform")
        await pilot.press("a")
        dialog_input(pilot, "user").value = "nobody@nowhere.example"
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert dialog_input(pilot, "user").value == "nobody@nowhere.example"
        error = str(app.screen.query_one("#dialog-error").render())
        assert "nobody@nowhere.example" in error or "not" in error.lower()


async def test_the_team_role_is_a_picker_not_free_text(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await _team(pilot, "Platform")
        await pilot.press("a")
        assert isinstance(app.screen, FormDialog)
        role = app.screen.query_one("#field-role", Select)
        assert [str(option[0]) for option in role._options] == ["member", "owner"]
        assert role.value == "member"
        dialog_input(pilot, "user").value = "ines@northwind.dev"
        role.value = "owner"
        transport.requests.clear()
        dialog_input(pilot, "user").focus()
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, FormDialog)
        table = app.screen.query_one(TeamDetail).query_one(DataTable)
        row = _column(table, "name").index("Inês Duarte")
        assert table.get_row_at(row)[1] == "owner"


async def test_team_actions_keep_the_focus_and_the_highlighted_row(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        detail = await _team(pilot, "Platform")
        table = detail.query_one(DataTable)
        table.focus()
        row = _column(table, "team_role").index("member")  # promoting asks nothing
        table.move_cursor(row=row)
        await pilot.pause()
        name = _column(table, "name")[row]
        await pilot.press("t")
        await wait_for_workers(pilot)
        assert app.screen.query_one(TeamDetail) is detail  # updated in place, not rebuilt
        assert app.focused is table
        assert table.cursor_row == row and _column(table, "name")[row] == name

        await pilot.press("x", "y")
        await wait_for_workers(pilot)
        assert app.focused is table
        assert name not in _column(table, "name")

        await pilot.press("r")
        await wait_for_workers(pilot)
        assert app.focused is table


async def test_team_roles_show_at_80_columns(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        detail = await _team(pilot, "Platform")
        table = detail.query_one(DataTable)
        keys = [column.key.value for column in table.ordered_columns]
        assert keys[:3] == ["name", "team_role", "org_role"]
        roles_end = sum(column.get_render_width(table) for column in table.ordered_columns[:3])
        assert roles_end <= table.scrollable_content_region.width


async def test_members_keep_their_filter_when_revisited_and_refreshed(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        members = await _members(pilot)
        members.query_one("#member-search", Input).value = "zzz"
        await wait_for_workers(pilot)
        assert str(members.query_one("#member-count", Label).render()) == (
            "No member matches this filter."
        )
        await select(pilot, "Design System")
        await select(pilot, "Members")
        members = app.screen.query_one(MemberTable)
        assert members.query_one("#member-search", Input).value == "zzz"

        members.query_one("#member-search", Input).value = "chen"
        await wait_for_workers(pilot)
        search = members.query_one("#member-search", Input)
        transport.requests.clear()
        members.table.focus()
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert any("/members" in request for request in transport.requests)
        assert app.screen.query_one(MemberTable) is members
        assert search.value == "chen"
        assert _column(members.table, "name") == ["Chen Wei"]


async def test_a_search_the_server_refuses_says_why_over_the_rows_of_before(
    make_app: AppFactory,
) -> None:
    """A search over 512 characters is refused (400): the notice says why, and the count
    line no longer says "press r to retry" (the same search would be refused again) over
    rows that are the filter before's."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        members = await _members(pilot)
        members.query_one("#member-search", Input).value = "x" * 600
        await wait_for_workers(pilot)
        count = str(members.query_one("#member-count", Label).render())
        assert count.startswith("Not filtered: search: must be at most 512 characters"), count
        assert count.endswith("The rows below are from the filter before.")
        assert len(_column(members.table, "name")) == 9  # the unfiltered list, still there
        assert any("at most 512" in note.message for note in app._notifications)
        await pilot.pause()
        shown = " ".join(line.strip(" ▕▌") for line in screen_lines(pilot))
        assert "from the filter before" in shown  # wrapped at 80 columns, not cut


async def test_members_and_a_team_that_failed_to_load_say_so_and_r_loads_them(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        transport.offline = True
        await select(pilot, "Platform")
        detail = app.screen.query_one(TeamDetail)
        title = detail.query_one("#team-members-title", Label)
        assert "not loaded — press r to retry" in str(title.render())
        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert str(title.render()) == "Members (3)"

        transport.offline = True
        await select(pilot, "Members")
        members = app.screen.query_one(MemberTable)
        count = members.query_one("#member-count", Label)
        assert "not loaded — press r to retry" in str(count.render())
        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert str(count.render()).endswith("members")


async def test_every_members_role_reads_whole_at_80x24(make_app: AppFactory) -> None:
    """The role is what the members table is used to change: at 80 columns it came after
    the email and was cut ("commen")."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        await wait_for_workers(pilot)
        lines = screen_lines(pilot)
        for name, role in [
            ("Emeka Nwosu", "comment"),
            ("Dana Kowalski", "review"),
            ("Bruno Castillo", "create"),
            ("Gus Patel", "guest"),
        ]:
            line = next(line for line in lines if name in line)
            assert role in line.split(), (name, line)
