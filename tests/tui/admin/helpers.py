"""Opening an administration screen as a user does: the org tree, then Enter on its node."""

from __future__ import annotations

from textual.pilot import Pilot

from docdeck.tui.admin import AdminScreen
from tui.helpers import open_northwind, select, wait_for_workers, wait_until


async def open_admin(pilot: Pilot[None], title: str) -> AdminScreen:
    """Expand Northwind Labs, put the cursor on the node titled `title`, press Enter."""
    await open_northwind(pilot)
    await select(pilot, title)
    below = pilot.app.screen
    await pilot.press("enter")
    await wait_until(
        pilot,
        lambda: pilot.app.screen is not below and isinstance(pilot.app.screen, AdminScreen),
        f"the {title} screen is open",
    )
    await wait_for_workers(pilot)
    screen = pilot.app.screen
    assert isinstance(screen, AdminScreen)
    return screen
