"""N on the space screen creates a change request of that space and opens it."""

from __future__ import annotations

from docdeck.gateway import Client
from docdeck.tui.screens._review import ReviewScreen
from tui.helpers import AppFactory, type_text, wait_for_workers, wait_until
from tui.space.helpers import open_api_reference


async def test_create_a_change_request_from_the_space_screen(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        space = await open_api_reference(pilot)
        await pilot.press("N")
        await wait_for_workers(pilot)
        await type_text(pilot, "Explain pagination cursors")
        await pilot.press("enter")
        await wait_until(
            pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens"
        )
        pane = pilot.app.screen
        assert isinstance(pane, ReviewScreen)
        assert pane.change_request.subject == "Explain pagination cursors"
        client: Client = app.client  # type: ignore[attr-defined]
        newest = (await client.change_requests.list(space.space.id)).items[0]
        assert newest.id == pane.change_request.id and newest.status == "open"
        await wait_for_workers(pilot)
        await pilot.press("escape")
        await wait_until(pilot, lambda: pilot.app.screen is space, "back on the space")


async def test_a_reader_is_told_why_not(make_app: AppFactory, token_for) -> None:  # type: ignore[no-untyped-def]
    app = make_app(token_for("kofi@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await pilot.press("N")
        await wait_for_workers(pilot)
        assert pilot.app.screen is screen
        assert any("needs the edit role" in n.message for n in app._notifications)
