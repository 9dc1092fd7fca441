"""An organization with 1,000 spaces: pages load as the cursor reaches them, nothing twice."""

from __future__ import annotations

import pytest
from fastapi import FastAPI
from textual.widgets import Input

from docdeck.server.demo import add_bulk_spaces
from docdeck.tui.kit.entries import LoadMoreEntry, OrgEntry, SpaceEntry
from docdeck.tui.orgs.loaders import PAGE_SIZE
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    find_node,
    open_node,
    open_northwind,
    screen_lines,
    select,
    tree_of,
    wait_for_workers,
    wait_until,
)


@pytest.fixture
def bulk_org(sandbox_db, sandbox_app: FastAPI) -> None:  # type: ignore[no-untyped-def]
    """Lumen gets 1,000 more top-level spaces."""
    import sqlite3

    with sqlite3.connect(sandbox_db) as conn:
        (org_id,) = conn.execute("SELECT id FROM organizations WHERE title = 'Lumen'").fetchone()
    add_bulk_spaces(sandbox_db, org_id, 1000)


@pytest.mark.usefixtures("bulk_org")
async def test_a_thousand_spaces_page_in_as_the_cursor_reaches_them(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        transport.requests.clear()
        await open_node(pilot, "Lumen")
        # One round trip for the level: collections and the first page of spaces, together.
        assert sorted(transport.requests) == sorted(
            [f"GET /v1/orgs/{_org_id(pilot)}/collections", f"GET /v1/orgs/{_org_id(pilot)}/spaces"]
        )
        tree = tree_of(pilot)
        org = tree.current
        assert isinstance(org, OrgEntry) and org.children is not None
        # One page of the 1,000 spaces, not all of them (beside the collections, the
        # organization's fixed nodes: members, teams, sites, deleted, its administration).
        spaces = [child for child in org.children if isinstance(child, SpaceEntry)]
        assert len(spaces) <= PAGE_SIZE
        assert isinstance(find_node(tree, "load more").data, LoadMoreEntry)

        transport.requests.clear()
        await select(pilot, "load more")
        assert transport.requests == [f"GET /v1/orgs/{_org_id(pilot)}/spaces"]
        assert find_node(tree, "Bulk space 0150") is not None

        # Moving around loaded nodes costs nothing.
        transport.requests.clear()
        await select(pilot, "Bulk space 0010")
        await select(pilot, "Lumen")
        await pilot.press("down", "down", "up")
        await wait_for_workers(pilot)
        assert transport.requests == []


def _org_id(pilot) -> str:  # type: ignore[no-untyped-def]
    for node in tree_of(pilot).root.children:
        if node.data is not None and node.data.title == "Lumen":
            return node.data.organization.id  # type: ignore[no-any-return,attr-defined]
    raise AssertionError("Lumen not shown")


async def test_collapse_and_expand_again_costs_no_request(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        transport.requests.clear()
        node = find_node(tree_of(pilot), "Northwind Labs")
        node.collapse()
        await wait_for_workers(pilot)
        node.expand()
        await wait_for_workers(pilot)
        await select(pilot, "Architecture Decisions")
        await select(pilot, "Engineering")
        assert transport.requests == []


@pytest.mark.usefixtures("bulk_org")
async def test_end_and_pagedown_load_the_pages_they_pass(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        await open_node(pilot, "Lumen")
        tree = tree_of(pilot)
        org = tree.current
        assert isinstance(org, OrgEntry)
        pages = len(org.children or ())
        transport.requests.clear()
        # End jumps past "… load more" to Recently deleted: the page it passed loads.
        await pilot.press("end")
        await wait_for_workers(pilot)
        assert transport.requests == [f"GET /v1/orgs/{_org_id(pilot)}/spaces"]
        assert len(org.children or ()) >= pages + PAGE_SIZE - 1
        # PageDown over the next "… load more" loads it too.
        more = next(child for child in org.children or () if isinstance(child, LoadMoreEntry))
        assert more.node is not None
        tree.move_cursor(tree.get_node_at_line(more.node.line - 3))
        await wait_for_workers(pilot)
        transport.requests.clear()
        await pilot.press("pagedown")
        await wait_for_workers(pilot)
        assert transport.requests == [f"GET /v1/orgs/{_org_id(pilot)}/spaces"]


@pytest.mark.usefixtures("bulk_org")
async def test_the_filter_asks_the_server_for_what_is_not_loaded(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        await open_node(pilot, "Lumen")
        tree = tree_of(pilot)
        transport.requests.clear()
        await pilot.press("slash")
        field = app.screen.query_one("#tree-filter", Input)
        for end in range(1, 5):  # typed faster than the debounce: "0", "09", "099", "0999"
            field.value = "0999"[:end]  # far past the first page of 100
        await wait_for_workers(pilot)
        searches = [r for r in transport.requests if r.endswith("/search")]
        # Debounced, the stale ones cancelled: the last text asks once per organization.
        assert len(searches) == 2
        labels = [str(node.label.plain) for node in find_node(tree, "Found on").children]
        assert any("Bulk space 0999" in label for label in labels)
        current = tree.current
        assert current is not None and current.title == "Bulk space 0999"
        # Escape clears the filter and the found entries with it.
        await pilot.press("escape")
        await pilot.pause()
        with pytest.raises(AssertionError):
            find_node(tree, "Found on")


async def test_a_space_found_on_the_server_opens_with_its_collections_above_it(
    make_app: AppFactory,
) -> None:
    """Enter on a space under "Found on the server" (its collections not loaded in the tree)
    opened it under "Northwind Labs › Public API Reference": its breadcrumb is read."""
    from docdeck.tui.space import SpaceScreen

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        await pilot.press("slash")
        app.screen.query_one("#tree-filter", Input).value = "Public API"
        await wait_for_workers(pilot)
        await wait_until(
            pilot,
            lambda: tree.current is not None and tree.current.title == "Public API Reference",
            "the found space has the cursor",
        )
        find_node(tree, "Found on")  # it is a server's hit, not a loaded entry
        await pilot.press("enter")  # from the filter to the tree
        await wait_until(pilot, lambda: app.focused is tree, "the tree has the keys")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space")
        await wait_until(
            pilot,
            lambda: (
                "Northwind Labs › Engineering › API › Public API Reference"
                in screen_lines(pilot)[0]
            ),
            "the breadcrumb names its collections",
        )
