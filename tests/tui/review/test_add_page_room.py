"""At 80x24 the "Under" list of a new page (every page of the space) opens above the
footer: its keys stay readable while the list is open."""

from __future__ import annotations

from textual.widgets._select import SelectOverlay

from docdeck.tui.kit.footer import BrowserFooter
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host


async def test_the_under_list_stays_above_the_footer_at_80x24(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_host(pilot, 2)
        footer = pane.query_one(BrowserFooter)
        await pilot.press("N")
        await wait_for_workers(pilot)
        await pilot.press("tab", "enter")
        overlay = app.screen.query_one(SelectOverlay)
        await wait_until(pilot, lambda: overlay.display and overlay.region.height > 0, "open")
        await pilot.pause()
        assert overlay.region.bottom <= footer.region.y, (overlay.region, footer.region)
