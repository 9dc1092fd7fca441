"""At 80x24 nothing is cut off: the footer's keys and the reasons for dimmed keys fit."""

from __future__ import annotations

import pytest
from textual.widgets import Static
from textual.widgets._footer import FooterKey

from docdeck.tui.kit.footer import BrowserFooter
from tui.helpers import AppFactory, open_node, open_northwind, select, wait_for_workers


def _cut_keys(pilot) -> list[str]:  # type: ignore[no-untyped-def]
    """Footer keys that do not fully show: past the edge or under the palette key."""
    footer = pilot.app.screen.query_one(BrowserFooter)
    keys = list(footer.query(FooterKey))
    palette = [key for key in keys if key.has_class("-command-palette")]
    right = palette[0].region.x if palette else footer.region.right
    return [
        f"{key.key} {key.description}"
        for key in keys
        if not key.has_class("-command-palette") and key.region.right > right
    ]


@pytest.mark.parametrize("title", ["Release Notes", "Docs Guild", "Northwind Labs"])
async def test_every_footer_key_shows_at_80_columns(make_app: AppFactory, title: str) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Teams")
        await select(pilot, title)
        await pilot.press("tab")  # into the team table: its row keys join the footer
        await wait_for_workers(pilot)
        await pilot.pause()
        assert _cut_keys(pilot) == []


async def test_the_palette_key_shows_when_there_is_room(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(160, 50)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.pause()
        footer = app.screen.query_one(BrowserFooter)
        assert footer.query(".-command-palette")
        assert _cut_keys(pilot) == []


async def test_every_reason_for_a_dimmed_key_shows_at_80x24(
    make_app: AppFactory, token_for
) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token=token_for("freya@northwind.dev"))
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.pause()
        why = app.screen.query_one("#detail-why", Static)
        text = str(why.render())
        assert "create content" in text and "admin role in the space" in text
        region = why.content_region
        assert why.get_content_height(region.size, app.size, region.width) <= region.height


async def test_below_80_columns_the_panes_stack_instead_of_breaking_words(
    make_app: AppFactory,
) -> None:
    from tui.helpers import footer_text, screen_lines

    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await open_northwind(pilot)
        await select(pilot, "Release Notes")
        await pilot.pause()
        lines = screen_lines(pilot)
        title = next(line for line in lines if line.lstrip().startswith("Title"))
        assert "Release Notes" in title  # not "Relea" / "se" / "Notes" on three lines
        assert any("public — anyone" in line for line in lines)
        assert len(footer_text(pilot).rstrip()) <= 60
