"""The issue's smaller defects, each as the user met it."""

from __future__ import annotations

from collections.abc import Callable

from textual.widgets import DataTable, Static

from docdeck.gateway import APIConnectionError
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.kit.entries import CollectionEntry, SpaceEntry
from docdeck.tui.kit.errors import describe
from docdeck.tui.orgs import MainScreen, MemberTable, TeamDetail
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    dialog_input,
    labels_under,
    open_node,
    open_northwind,
    select,
    tree_of,
    type_text,
    wait_for_workers,
)


def _column(table: DataTable[str], key: str) -> list[str]:
    return [str(value) for value in table.get_column(key)]


async def test_the_last_admin_is_told_so_in_words(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        table = app.screen.query_one(MemberTable).table
        table.focus()
        table.move_cursor(row=_column(table, "name").index("Ada Okafor"))  # the caller
        await pilot.pause()
        await pilot.press("R")
        assert isinstance(app.screen, PickDialog)
        read = next(i for i, (_, role) in enumerate(app.screen.choices) if role == "read")
        app.screen.query_one("#dialog-options").highlighted = read  # type: ignore[attr-defined]
        await pilot.press("enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, PickDialog)
        error = str(app.screen.query_one("#dialog-error", Static).render())
        assert "you are the organization's last admin" in error
        member_id = app.screen_stack[0].query_one(MemberTable).highlighted
        assert member_id is not None and member_id.id not in error


def test_advice_in_a_dialog_says_send_again_once() -> None:
    error = APIConnectionError("Could not connect to http://x", method="GET", path="/v1/orgs")
    message = describe(error, "Renaming", in_dialog=True).message
    assert "then send again" in message
    assert "then then" not in message


def test_correct_the_input_only_where_there_was_input() -> None:
    """A 400 answering a key (merge, archive) carried nothing typed: it says the server
    refused it and why; in a dialog it still asks to correct the fields."""
    from docdeck.gateway import BadRequestError

    error = BadRequestError(
        "Change request is not mergeable", method="POST", path="/x/merge", status_code=400
    )
    key = describe(error, "Merging").message
    assert "Correct the input" not in key
    assert "Change request is not mergeable" in key and "refused it as sent" in key
    assert "Correct the input" in describe(error, "Renaming", in_dialog=True).message


async def test_demoting_a_teams_only_owner_asks_first(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, "Platform")
        detail = app.screen.query_one(TeamDetail)
        table = detail.query_one(DataTable)
        roles = _column(table, "team_role")
        assert roles.count("owner") == 1
        table.focus()
        table.move_cursor(row=roles.index("owner"))
        await pilot.pause()
        await pilot.press("t")
        assert isinstance(app.screen, ConfirmDialog)
        assert "only owner" in app.screen.question
        await pilot.press("n")
        await wait_for_workers(pilot)
        assert not [r for r in transport.requests if r.startswith("PUT")]
        assert _column(table, "team_role").count("owner") == 1

        await pilot.press("t", "y")
        await wait_for_workers(pilot)
        assert _column(table, "team_role").count("owner") == 0


async def test_creating_inside_a_new_collection_keeps_the_cursor_there(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("c")
        await type_text(pilot, "Research")
        await pilot.press("enter")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert isinstance(tree.current, CollectionEntry) and tree.current.title == "Research"

        await pilot.press("n")
        assert isinstance(app.screen, FormDialog)
        dialog_input(pilot, "title").value = "Lab notes"
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        assert isinstance(tree.current, SpaceEntry) and tree.current.title == "Lab notes"
        assert labels_under(tree, "Research") == ["· Lab notes"]

        await pilot.press("c")  # next to the space: in Research, not at the top level
        assert isinstance(app.screen, FormDialog)
        assert app.screen.dialog_title == "New collection in Research"
        await pilot.press("escape")


async def test_restore_says_where_the_space_goes_when_its_collection_is_gone(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Company Handbook")
        spaces = labels_under(tree_of(pilot), "Company Handbook")
        await select(pilot, "Company Handbook")
        await pilot.press("d", "y")
        await wait_for_workers(pilot)
        await open_node(pilot, "Recently deleted")
        title = spaces[0].split(" ", 1)[1]
        await select(pilot, title)
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmDialog)
        assert "the top level of “Northwind Labs”" in app.screen.question


async def test_restore_names_the_collection_a_space_goes_back_to(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Company Handbook")
        title = labels_under(tree_of(pilot), "Company Handbook")[0].split(" ", 1)[1]
        await select(pilot, title)
        await pilot.press("d", "y")
        await wait_for_workers(pilot)
        await open_node(pilot, "Recently deleted")
        await select(pilot, title)
        await pilot.press("u")
        assert isinstance(app.screen, ConfirmDialog)
        assert "the collection “Company Handbook”" in app.screen.question


async def test_a_read_only_member_is_not_offered_recently_deleted(
    make_app: AppFactory, token_for: Callable[[str], str]
) -> None:
    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        children = labels_under(tree_of(pilot), "Northwind Labs")
        assert "👥 Members" in children
        assert "🚮 Recently deleted" not in children
        assert isinstance(app.screen, MainScreen)


async def test_a_notification_already_shown_is_not_stacked_again(make_app: AppFactory) -> None:
    """`n` held on the last page said "This is the last page." once per key repeat: a
    column of identical toasts. One is shown; a different one still is."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(5):
            app.notify("This is the last page.")
            await pilot.pause()
        app.notify("This is the first page.")
        app.notify("This is the last page.", severity="warning")
        await pilot.pause()
        shown = [(n.message, n.severity) for n in app._notifications]
        assert shown == [
            ("This is the last page.", "information"),
            ("This is the first page.", "information"),
            ("This is the last page.", "warning"),
        ]
