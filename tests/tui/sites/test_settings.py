"""The site's settings (one PATCH) and publishing, checked through the API."""

from __future__ import annotations

from docdeck.gateway import Client
from docdeck.tui.kit.dialogs.form import FormDialog
from tui.helpers import AppFactory, dialog_input, wait_for_workers, wait_until
from tui.sites.helpers import dialog_error, open_site


async def test_settings_are_checked_as_typed_and_saved_in_one_patch(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await pilot.press("S")
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the settings")
        dialog_input(pilot, "basename").value = "bad name"
        dialog_input(pilot, "title").focus()
        await pilot.press("enter")
        await pilot.press("enter", "enter")
        await wait_for_workers(pilot)
        assert isinstance(app.screen, FormDialog)
        assert "Basename" in dialog_error(pilot)
        dialog_input(pilot, "basename").value = "portal"
        dialog_input(pilot, "title").value = "Developer Hub"
        dialog_input(pilot, "proxy").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.screen is screen, "saved")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[assignment]
        site = await client.sites.get(screen.org_id, screen.site.id)
        assert (site.title, site.basename) == ("Developer Hub", "portal")
        assert screen.site.title == "Developer Hub"


async def test_publishing_a_site_whose_plan_lacks_the_feature_is_explained(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot, "Internal Drafts")
        await pilot.press("P")
        await wait_for_workers(pilot)
        client: Client = app.client  # type: ignore[assignment]
        site = await client.sites.get(screen.org_id, screen.site.id)
        assert site.published  # unlisted on basic: allowed
        assert screen.site.published
