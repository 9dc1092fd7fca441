"""Helpers for the site editor's tests: open a demo site from the org tree."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from docdeck.tui.sites import SiteScreen
from tui.helpers import open_node, open_northwind, select, wait_for_workers, wait_until


async def open_site(pilot: Pilot[None], title: str = "Developer Portal") -> SiteScreen:
    """From the start: Northwind › Sites › the site, Enter, until its structure is shown."""
    await open_northwind(pilot)
    await open_node(pilot, "Sites")
    await select(pilot, title)
    await pilot.press("enter")
    await wait_until(
        pilot,
        lambda: isinstance(pilot.app.screen, SiteScreen) and pilot.app.screen.loaded,
        f"the site editor shows {title}",
    )
    await wait_for_workers(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, SiteScreen)
    return screen


def row_titles(screen: SiteScreen) -> list[str]:
    return [f"{'  ' * row.depth}{row.title}" for row in screen.view.model.rows]


async def put_cursor(pilot: Pilot[None], screen: SiteScreen, title: str) -> None:
    for row in screen.view.model.rows:
        if row.title == title:
            screen.view.put_cursor_on(row)
            await pilot.pause()
            return
    raise AssertionError(f"no row {title!r} in {row_titles(screen)}")


async def settled(pilot: Pilot[None]) -> None:
    await wait_for_workers(pilot)


def dialog_error(pilot: Pilot[None]) -> str:
    """What the open dialog says under its fields (`#dialog-error`)."""
    return str(pilot.app.screen.query_one("#dialog-error", Static).render())
