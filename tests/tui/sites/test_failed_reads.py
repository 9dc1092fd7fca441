"""A read of the site editor that fails says so: the error notice, and on the screen."""

from __future__ import annotations

from textual.widgets import Static

from docdeck.tui.sites import SiteScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, open_node, open_northwind, select, wait_for_workers, wait_until
from tui.sites.helpers import open_site


async def test_a_structure_that_cannot_be_read_is_said_not_shown_empty(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """The editor showed an empty structure and no notice: a site with nothing in it, to
    anyone who did not know the server had failed. r reads it again."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Sites")
        await select(pilot, "Developer Portal")
        transport.failing = "/structure"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SiteScreen), "the editor")
        await wait_for_workers(pilot)
        screen = app.screen
        assert isinstance(screen, SiteScreen) and not screen.loaded
        assert any("the server failed (test)" in str(n.message) for n in app._notifications)
        assert "could not be read" in str(screen.query_one("#site-row", Static).render())
        transport.failing = None
        await pilot.press("r")
        await wait_for_workers(pilot)
        assert screen.loaded and screen.view.model.rows


async def test_a_key_whose_read_fails_says_why(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """`n` reads the spaces before its dialog: when that failed, the key did nothing."""
    app = make_app()
    async with app.run_test(size=(100, 30)) as pilot:
        screen = await open_site(pilot)
        transport.failing = "/spaces"
        await pilot.press("n")
        await wait_for_workers(pilot)
        assert app.screen is screen
        assert any("the server failed (test)" in str(n.message) for n in app._notifications)
