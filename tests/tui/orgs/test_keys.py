"""Keys terminal users know: j/k, g/G, ctrl+d/ctrl+u, Home/End in every list; Enter drills in,
Escape backs out; focus shows by shape; the footer spells keys out for the focused widget."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import DataTable, Input, OptionList

from docdeck.tui.kit.dialogs.pick import PickDialog
from docdeck.tui.orgs import OrgTree
from tui.helpers import (
    AppFactory,
    burst,
    footer_text,
    open_node,
    open_northwind,
    screen_lines,
    select,
    tree_of,
    wait_for_workers,
)


async def test_vim_and_home_end_keys_move_the_tree_cursor(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        tree = tree_of(pilot)
        await select(pilot, "Northwind Labs")
        await pilot.press("j", "j")
        assert tree.current.title == "Company Handbook"  # type: ignore[union-attr]
        await pilot.press("k")
        assert tree.current.title == "Engineering"  # type: ignore[union-attr]
        await pilot.press("G")
        assert tree.current.title == "Lumen"  # type: ignore[union-attr]
        await pilot.press("g")
        assert tree.current.title == "Northwind Labs"  # type: ignore[union-attr]
        await pilot.press("end")
        assert tree.current.title == "Lumen"  # type: ignore[union-attr]
        await pilot.press("home")
        assert tree.current.title == "Northwind Labs"  # type: ignore[union-attr]


async def test_half_pages_in_the_tree(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 12)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Engineering")
        tree = tree_of(pilot)
        await select(pilot, "Northwind Labs")
        half = max(1, (tree.scrollable_content_region.height - 1) // 2)
        await pilot.press("ctrl+d")
        assert tree.cursor_line == half
        await pilot.press("ctrl+u")
        assert tree.cursor_line == 0


@pytest.mark.parametrize("table_id", ["members", "team-members"])
async def test_list_keys_and_home_end_move_table_rows(make_app: AppFactory, table_id: str) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        if table_id == "members":
            await select(pilot, "Members")
        else:
            await open_node(pilot, "Teams")
            await select(pilot, "Docs Guild")
        await wait_for_workers(pilot)
        table = app.screen.query_one(f"#{table_id}", DataTable)
        assert table.row_count >= 2
        table.focus()
        await pilot.press("j")
        assert table.cursor_row == 1
        await pilot.press("k")
        assert table.cursor_row == 0
        await pilot.press("end")  # a row table used to scroll sideways here
        assert table.cursor_row == table.row_count - 1
        await pilot.press("home")
        assert table.cursor_row == 0
        await pilot.press("G")
        assert table.cursor_row == table.row_count - 1
        await pilot.press("g", "ctrl+d")
        assert table.cursor_row > 0
        await pilot.press("ctrl+u")
        assert table.cursor_row == 0


async def test_list_keys_in_a_pick_dialog(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("m")
        assert isinstance(app.screen, PickDialog)
        options = app.screen.query_one(OptionList)
        await pilot.press("G")
        assert options.highlighted == options.option_count - 1
        await pilot.press("g")
        assert options.highlighted == 0
        await pilot.press("j")
        assert options.highlighted == 1


async def test_enter_on_members_focuses_the_table_and_escape_comes_back(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "members"
        assert "R Change role" in footer_text(pilot)
        assert "n New space" not in footer_text(pilot)  # a tree key, not the table's
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, OrgTree)
        # From the member search field too.
        app.screen.query_one("#member-search").focus()
        await pilot.pause()
        assert "Back to tree" in footer_text(pilot)
        assert "? Help" not in footer_text(pilot)  # typed into the field, not a key there
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.focused, OrgTree)


async def test_enter_on_a_team_focuses_its_members(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, "Docs Guild")
        await pilot.press("enter")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "team-members"


async def test_focus_shows_as_a_bar_not_only_colour(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Members")
        tree_rows = [line for line in screen_lines(pilot)[1:-1] if "Northwind Labs" in line]
        assert tree_rows[0].startswith("▌")
        await pilot.press("enter")
        await pilot.pause()
        lines = screen_lines(pilot)
        tree_row = next(line for line in lines if "Northwind Labs" in line)
        assert not tree_row.startswith("▌")
        member_rows = [line for line in lines if "@northwind.dev" in line]
        assert member_rows and all("▌" in line for line in member_rows)


@pytest.mark.parametrize("size", [(80, 24), (160, 50)])
async def test_the_footer_spells_out_every_key(make_app: AppFactory, size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Engineering")
        await pilot.pause()
        footer = footer_text(pilot)
        assert "n New space" in footer and "c New collection" in footer
        assert "nc" not in footer.replace("c New collection", "")
        assert len(footer.rstrip()) <= size[0]


async def test_the_footer_follows_the_highlighted_team_row(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, "Docs Guild")
        await pilot.press("enter")
        await pilot.pause()
        table = app.screen.query_one("#team-members", DataTable)
        roles = [table.get_row_at(row)[1] for row in range(table.row_count)]
        assert "owner" in roles and "member" in roles
        table.move_cursor(row=roles.index("owner"))
        await pilot.pause()
        await pilot.pause()
        assert "t Make member" in footer_text(pilot)
        table.move_cursor(row=roles.index("member"))
        await pilot.pause()
        await pilot.pause()
        assert "t Make owner" in footer_text(pilot)
        assert "e Rename" not in footer_text(pilot)  # the tree's key, not the table's


async def test_the_footer_fits_80_columns_with_the_filter_active(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.press("slash", "r", "e", "l", "enter")
        await pilot.pause()
        footer = footer_text(pilot)
        assert "esc Clear filter" in footer
        assert len(footer.rstrip()) <= 80
        assert footer.rstrip().split()[-1] not in ("New", "Clear", "Copy")


async def test_a_disallowed_key_is_drawn_dim_not_highlighted(
    make_app: AppFactory,
    token_for,  # type: ignore[no-untyped-def]
) -> None:
    from textual.widgets._footer import FooterKey

    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.pause()
        keys = {key.key: key for key in app.screen.query(FooterKey)}
        disabled, enabled = keys["n"], keys["y"]
        assert disabled.has_class("-disabled") and not enabled.has_class("-disabled")

        def style_at(footer_key: FooterKey, offset: int):  # type: ignore[no-untyped-def]
            return footer_key.render().get_style_at_offset(app.console, offset)

        # 16-colour terminals turned the old blended "dim" into a bright colour; now a
        # disallowed key loses its bold and its key colour: it reads like its own grey text.
        assert style_at(enabled, 0).bold and not style_at(disabled, 0).bold
        assert style_at(enabled, 0).color != style_at(enabled, 3).color
        assert style_at(disabled, 0).color == style_at(disabled, 3).color


async def test_list_keys_scroll_the_help(make_app: AppFactory) -> None:
    from textual.containers import VerticalScroll

    from docdeck.tui.kit.help import HelpScreen

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        scroll = app.screen.query_one(VerticalScroll)
        await pilot.press("G")
        await pilot.pause()
        assert scroll.scroll_y == scroll.max_scroll_y > 0
        await pilot.press("g")
        await pilot.pause()
        assert scroll.scroll_y == 0
        await pilot.press("j")
        await pilot.pause()
        assert scroll.scroll_y > 0


async def test_keys_typed_in_the_same_burst_as_slash_reach_the_filter(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        await burst(pilot, ["slash", "r", "e", "l"])
        await wait_for_workers(pilot)
        field = app.screen.query_one("#tree-filter", Input)
        assert field.value == "rel"
        assert app.focused is field
        assert tree_of(pilot).filter_text == "rel"
        # and "/" typed in the filter itself is text, not a new filter
        await burst(pilot, ["slash"])
        assert field.value == "rel/"


async def test_pasting_into_the_tree_filters_by_the_pasted_text(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Northwind Labs")
        app.screen.query_one(OrgTree).post_message(events.Paste("/release"))
        await wait_for_workers(pilot)
        field = app.screen.query_one("#tree-filter", Input)
        assert field.value == "release"
        assert app.focused is field
        assert tree_of(pilot).current is not None
        assert tree_of(pilot).current.title == "Release Notes"


async def test_keys_typed_ahead_go_into_the_dialog_their_first_key_opened(
    make_app: AppFactory,
) -> None:
    """ "nDocs" arriving in one burst (fast typing; SSH delivering keys together): `n` opens
    the new-space dialog and "Docs" is its title. The letters used to reach the tree behind
    the dialog (its `o` and `c` bindings included) and the title stayed empty."""
    from docdeck.tui.kit.dialogs.form import FormDialog

    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Engineering")
        await burst(pilot, ["n", "D", "o", "c", "s", "space", "q", "a"])
        for _ in range(20):
            await pilot.pause(0.02)
        assert isinstance(app.screen, FormDialog)
        assert len(app.screen_stack) == 2, "one dialog, none opened by the typed-ahead keys"
        assert app.screen.query_one("#field-title", Input).value == "Docs qa"
        assert app.is_running, "a typed-ahead q is a letter, not quit"
        # Escape on a typed title asks first (`DiscardDraft`); `y`, typed ahead too, throws
        # it away and the keys after it reach the tree.
        await burst(pilot, ["escape", "y", "j", "k"])
        await pilot.pause(0.1)
        assert len(app.screen_stack) == 1
