"""A failed read keeps what was loaded (marked stale) and says so once; an unreachable server
at start is the connection screen, whose advice names the setting the user used."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from docdeck.tui.kit.connect_error import ConnectErrorScreen
from docdeck.tui.kit.help import HelpScreen
from docdeck.tui.orgs import MainScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    find_node,
    labels_under,
    open_node,
    open_northwind,
    screen_lines,
    select,
    tree_of,
    visible_labels,
    wait_for_workers,
)


async def test_a_failed_refresh_keeps_what_was_loaded_marks_it_and_says_so_once(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        before = labels_under(tree_of(pilot), "Northwind Labs")
        await select(pilot, "Northwind Labs")
        app.clear_notifications()
        transport.offline = True
        await pilot.press("r")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        assert labels_under(tree, "Northwind Labs") == before  # nothing thrown away
        assert "⚠ 🏢 Northwind Labs" in [str(n.label.plain) for n in tree.root.children]
        errors = [n for n in app._notifications if n.severity == "error"]
        assert len(errors) == 1
        assert errors[0].title == "Reloading Northwind Labs failed"
        # Short: at 80x24 a toast is 36 columns wide.
        assert (
            errors[0].message
            == "Cannot reach the server; check that it runs, then press r to retry."
        )

        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert "🏢 Northwind Labs" in [str(n.label.plain) for n in tree.root.children]


async def test_a_failed_refresh_of_a_collection_keeps_its_spaces(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Company Handbook")
        before = labels_under(tree_of(pilot), "Company Handbook")
        transport.offline = True
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert labels_under(tree_of(pilot), "Company Handbook") == before
        assert len([n for n in app._notifications if n.severity == "error"]) == 1


@pytest.mark.parametrize(
    ("source", "label", "named"),
    [
        ("flags", "api.example.com", "--base-url"),
        ("environment", "api.example.com", "DOCDECK_BASE_URL"),
        ("profile", "work", "profile “work”"),
    ],
)
async def test_an_unreachable_server_at_start_is_the_connection_screen(
    make_app: AppFactory, transport: RecordingTransport, source: str, label: str, named: str
) -> None:
    transport.offline = True
    app = make_app(account_source=source)
    app.account_label = label
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_for_workers(pilot)
        assert isinstance(app.screen, ConnectErrorScreen)
        message = str(app.screen.query_one("#connect-error-message", Static).render())
        assert "lost" not in message  # it was never made
        assert "Cannot reach the server" in message
        assert named in message
        assert not [n for n in app._notifications if n.severity == "error"]

        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        keys = [(row.key, row.description) for row in app.screen.rows]
        assert ("r", "Retry") in keys and ("q", "Quit") in keys
        await pilot.press("escape")

        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, MainScreen)
        assert "🏢 Northwind Labs" in [str(n.label.plain) for n in tree_of(pilot).root.children]


async def test_a_connection_lost_after_start_is_a_notification(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app(account_source="flags")
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        transport.offline = True
        await open_node(pilot, "Engineering")
        assert isinstance(app.screen, MainScreen)
        assert len([n for n in app._notifications if n.severity == "error"]) == 1


async def test_the_detail_pane_says_what_is_stale_since_when_and_why(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Company Handbook")
        note = app.screen.query_one("#detail-stale", Static)
        assert not note.display  # nothing stale yet
        transport.offline = True
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert note.display
        region = note.region  # what the user reads there, wrapped to the pane's width
        rows = screen_lines(pilot)[region.y : region.bottom]
        said = " ".join(" ".join(row[region.x : region.right] for row in rows).split())
        assert "Not up to date: the list under it as read at" in said
        assert "refreshing failed at" in said
        assert "Cannot reach" in said or "onnect" in said  # the error itself, not only a mark
        assert "Press r to retry" in said

        transport.offline = False
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert not note.display  # a refresh that worked clears the note with the mark


async def test_refresh_keeps_open_collections_open_and_the_cursor_where_it_was(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(100, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await open_node(pilot, "API")
        before = visible_labels(tree_of(pilot))
        assert "      🪝 Webhooks Guide" in before
        await select(pilot, "Northwind Labs")
        transport.requests.clear()
        await pilot.press("r")
        # The cursor moves down into API while the refresh's answers arrive.
        tree = tree_of(pilot)
        tree.select_entry(find_node(tree, "Webhooks Guide").data)
        await wait_for_workers(pilot)
        assert visible_labels(tree) == before  # Engineering and API still open
        assert tree.current is not None and tree.current.title == "Webhooks Guide"
        # What is under the refreshed entry was read again, not only kept open.
        api = find_node(tree, "API").data
        assert any(api.value.id in line for line in transport.requests)

        await select(pilot, "Engineering")
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert visible_labels(tree) == before
        assert tree.current is not None and tree.current.title == "Engineering"
