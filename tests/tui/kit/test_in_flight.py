"""Writes in flight over a slow link: sent once, marked busy, followed to their end.

The transport waits before each request reaches the sandbox (`transport.delay`,
0.3 s as on the link where the issue was found), or holds a request until
released, so keys can be pressed while a write runs.
"""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog
from docdeck.tui.kit.entries import SpaceEntry
from docdeck.tui.orgs import MainScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    dialog_input,
    find_node,
    labels_under,
    open_northwind,
    select,
    tree_of,
    type_text,
    wait_for_workers,
)


async def _space_titles(transport: RecordingTransport, token: str) -> list[str]:
    """What the server has, asked directly (not through the app)."""
    client = Client("http://sandbox", token, transport=transport, max_retries=0)
    try:
        orgs = await client.orgs.list()
        org = next(org for org in orgs.items if org.title == "Northwind Labs")
        return [space.title for space in await client.spaces.list(org.id, limit=100).all()]
    finally:
        await client.aclose()


async def test_duplicate_pressed_twice_on_a_slow_link_makes_one_copy(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        transport.delay = 0.3
        await pilot.press("D")
        await pilot.pause()
        # Busy: the entry carries a mark while the request runs.
        assert find_node(tree_of(pilot), "Release Notes").label.plain.startswith("⟳ ")
        await pilot.press("D")
        await wait_for_workers(pilot)
        transport.delay = 0
        assert transport.requests.count(_duplicate_of(transport)) == 1
        children = labels_under(tree_of(pilot), "Northwind Labs")
        assert children.count("📣 Release Notes (copy)") == 1
        assert "⟳ 📣 Release Notes" not in children  # the mark is gone
        titles = await _space_titles(transport, admin_token)
        assert titles.count("Release Notes (copy)") == 1


def _duplicate_of(transport: RecordingTransport) -> str:
    return next(line for line in transport.requests if line.endswith("/duplicate"))


async def test_escape_while_a_rename_runs_closes_and_the_tree_shows_what_landed(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Changelog"
        release = asyncio.Event()
        transport.held = ("/v1/spaces/", release)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, FormDialog)
        await pilot.press("escape")
        assert isinstance(app.screen, MainScreen)
        notices = [n.message for n in app._notifications]
        assert any("may still be applied" in message for message in notices)
        release.set()
        transport.held = None
        await wait_for_workers(pilot)
        children = labels_under(tree_of(pilot), "Northwind Labs")
        assert "📣 Changelog" in children
        assert "📣 Release Notes" not in children
        # Abandoned: the space was read again once the rename ended.
        space_reads = [r for r in transport.requests if r.startswith("GET /v1/spaces/")]
        assert space_reads


async def test_keys_typed_while_a_request_runs_do_not_reach_the_input(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        title = dialog_input(pilot, "title")
        title.value = "Changelog"
        release = asyncio.Event()
        transport.held = ("/v1/spaces/", release)
        transport.offline = True  # when released, the request fails
        await pilot.press("enter")
        await pilot.pause()
        await type_text(pilot, "oops")
        await pilot.press("enter", "backspace")
        assert title.value == "Changelog"
        assert title.disabled
        release.set()
        await wait_for_workers(pilot)
        # Failed: the dialog stays, editable again, with what was typed before sending.
        assert isinstance(app.screen, FormDialog)
        assert not title.disabled
        assert title.value == "Changelog"
        assert isinstance(app.focused, Input)
        transport.offline = False
        transport.held = None


async def test_escape_then_a_failure_is_one_notification_and_a_reread(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        entry = tree_of(pilot).current
        assert isinstance(entry, SpaceEntry)
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Changelog"
        release = asyncio.Event()
        transport.held = ("/v1/spaces/", release)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("escape")
        transport.offline = True
        app.clear_notifications()
        release.set()
        await wait_for_workers(pilot)
        failures = [n for n in app._notifications if n.severity == "error"]
        assert len(failures) == 1
        assert entry.busy == 0
        assert labels_under(tree_of(pilot), "Northwind Labs").count("📣 Release Notes") == 1
        transport.offline = False
        transport.held = None


async def test_q_while_a_rename_runs_keeps_the_dialog_and_says_why(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("e")
        dialog_input(pilot, "title").value = "Changelog"
        release = asyncio.Event()
        transport.held = ("/v1/spaces/", release)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("q", "q", "q")
        assert isinstance(app.screen, FormDialog)  # q must not close it while it runs
        notices = [n.message for n in app._notifications]
        assert sum("is being sent" in message for message in notices) == 1
        release.set()
        transport.held = None
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)  # it closed when the rename landed
        assert "📣 Changelog" in labels_under(tree_of(pilot), "Northwind Labs")


async def test_n_in_a_confirmation_while_its_delete_runs_keeps_the_dialog(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("delete")
        assert isinstance(app.screen, ConfirmDialog)
        release = asyncio.Event()
        transport.held = ("/v1/spaces/", release)
        await pilot.press("y")
        await pilot.pause()
        await pilot.press("n")
        assert isinstance(app.screen, ConfirmDialog)
        release.set()
        transport.held = None
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)
        assert "📣 Release Notes" not in labels_under(tree_of(pilot), "Northwind Labs")
