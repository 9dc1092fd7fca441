"""The tree cursor stays where a person expects after the tree changes under it.

Textual's Tree leaves a removed cursor node in place and later lands on whatever
line has its old number, without telling anyone: the detail pane and the keys
then described an entry that was gone. These drive the actions that remove or
rebuild nodes and check that the cursor, the pane and the keys agree.
"""

from __future__ import annotations

from docdeck.tui.kit.entries import CollectionEntry, Entry, OrgEntry, SpaceEntry
from docdeck.tui.orgs import DetailPane, FieldList, MainScreen
from tui.conftest import RecordingTransport
from tui.helpers import (
    AppFactory,
    find_node,
    labels_under,
    open_node,
    open_northwind,
    select,
    tree_of,
    type_text,
    wait_for_workers,
)


def _shown_title(pilot) -> str:  # type: ignore[no-untyped-def]
    detail = pilot.app.screen_stack[0].query_one(DetailPane)
    return detail.query_one(FieldList).value_of("Title")


def _on_screen(pilot) -> Entry | None:  # type: ignore[no-untyped-def]
    """The entry on the line the tree highlights, as a person sees it."""
    tree = tree_of(pilot)
    node = tree.get_node_at_line(tree.cursor_line)
    return node.data if node is not None else None


async def test_deleting_the_selected_space_selects_its_neighbour(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("d", "y")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        current = tree.current
        assert isinstance(current, SpaceEntry) and current.title == "Design System"
        assert _on_screen(pilot) is current
        assert _shown_title(pilot) == "🎨 Design System"
        assert app.screen.query_one(DetailPane).entry is current


async def test_restoring_the_last_deleted_space_leaves_the_cursor_in_the_bin(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Recently deleted")
        bin_before = labels_under(tree_of(pilot), "Recently deleted")
        await select(pilot, bin_before[-1].split(" ", 1)[1])
        await pilot.press("u", "y")
        await wait_for_workers(pilot)
        tree = tree_of(pilot)
        current = tree.current
        assert current is not None and current.node is not None
        assert _on_screen(pilot) is current
        assert app.screen.query_one(DetailPane).entry is current
        if len(bin_before) > 1:
            assert isinstance(current, SpaceEntry) and current.deleted
        else:
            assert labels_under(tree, "Recently deleted") == ["(empty)"]


async def test_moving_a_space_into_an_unloaded_collection_leaves_no_stale_pane(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        moved = tree_of(pilot).current
        await pilot.press("m")
        await pilot.press("down", "down", "enter")  # Engineering / API, not expanded
        await wait_for_workers(pilot)
        current = tree_of(pilot).current
        assert current is not moved
        assert _on_screen(pilot) is current
        assert app.screen.query_one(DetailPane).entry is current


async def test_clearing_the_filter_keeps_the_cursor_on_the_match(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        await pilot.press("slash")
        await type_text(pilot, "incident")
        await pilot.press("enter", "escape")
        await wait_for_workers(pilot)
        current = tree_of(pilot).current
        assert isinstance(current, SpaceEntry) and current.title == "Incident Runbooks"
        assert _on_screen(pilot) is current
        assert _shown_title(pilot) == "🚨 Incident Runbooks"


async def test_a_filter_matching_nothing_says_so_and_escape_brings_the_cursor_back(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Design System")
        await pilot.press("slash")
        await type_text(pilot, "zzz")
        await pilot.pause()
        tree = tree_of(pilot)
        lines = [str(node.label.plain) for node in tree.root.children]
        assert lines == ["Nothing loaded matches “zzz”; escape clears the filter."]
        await pilot.press("escape")
        await wait_for_workers(pilot)
        current = tree.current
        assert isinstance(current, SpaceEntry) and current.title == "Design System"
        assert _on_screen(pilot) is current


async def test_r_on_a_failed_line_reloads_that_entry_not_the_whole_tree(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        transport.offline = True
        await open_node(pilot, "Engineering")
        tree = tree_of(pilot)
        assert labels_under(tree, "Engineering") == ["⚠ not loaded — r retries"]
        tree.move_cursor(find_node(tree, "not loaded"))
        await pilot.pause()
        # The failure line stands for Engineering: its keys, its pane.
        assert isinstance(tree.current, CollectionEntry)
        assert isinstance(app.screen, MainScreen)
        assert app.screen.check_action("new_space", ()) is True

        transport.offline = False
        transport.requests.clear()
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert "GET /v1/orgs" not in transport.requests
        assert "🚨 Incident Runbooks" in labels_under(tree, "Engineering")
        assert "▤ Company Handbook" in labels_under(tree, "Northwind Labs")
        current = tree.current
        assert isinstance(current, CollectionEntry) and current.title == "Engineering"


async def test_the_first_organization_is_selected_after_the_tree_reloads(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Lumen")
        tree = tree_of(pilot)
        tree.load_root()
        await wait_for_workers(pilot)
        current = tree.current
        assert isinstance(current, OrgEntry)
        assert _on_screen(pilot) is current


async def test_the_pane_keeps_up_with_a_cursor_passing_over_members(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Design System")
        tree = tree_of(pilot)
        members, design = find_node(tree, "Members").data, tree.current
        assert members is not None and design is not None
        tree.select_entry(members)  # no pause: the table is still being mounted...
        tree.select_entry(design)  # ...when the cursor is already back on a space
        await wait_for_workers(pilot)
        assert _shown_title(pilot) == "🎨 Design System"
