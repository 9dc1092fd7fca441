"""Share links and redirects from the site editor, checked through the API."""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.choose import ChooseDialog
from docdeck.tui.kit.dialogs.confirm import ConfirmDialog
from docdeck.tui.kit.dialogs.form import FormDialog
from tui.helpers import AppFactory, dialog_input, type_text, wait_for_workers, wait_until
from tui.sites.helpers import dialog_error, open_site


async def test_share_links_create_turn_off_and_copy_says_it_holds_the_secret(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        client: Client = app.client  # type: ignore[assignment]
        await _share_links(pilot)
        await pilot.press("enter")  # + New share link
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the form")
        await type_text(pilot, "Auditors")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the links again")
        listed = client.sites.share_links.list(screen.org_id, screen.site.id)
        links = [link async for link in listed]
        assert "Auditors" in [link.name for link in links]
        # Partners (active): y copies, saying the URL holds the secret.
        await type_text(pilot, "Partners")
        await pilot.press("down", "y")
        await wait_until(
            pilot,
            lambda: any("secret" in n.message for n in app._notifications),
            "the copy's notification",
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChooseDialog), "its actions")
        await pilot.press("j", "j", "enter")  # Turn off
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the links again")
        await wait_for_workers(pilot)
        listed = client.sites.share_links.list(screen.org_id, screen.site.id)
        links = [link async for link in listed]
        assert next(link for link in links if link.name == "Partners").active is False


async def _share_links(pilot: Pilot[None]) -> None:
    """L: the site's share links, in a chooser."""
    await pilot.press("L")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, Chooser), "the links")


async def _refused(pilot: Pilot[None], source: str) -> str:
    """The dialog's answer to `source` typed as its path and sent."""
    dialog_input(pilot, "source").value = source
    await pilot.press("enter")
    await wait_for_workers(pilot)
    return dialog_error(pilot)


async def test_a_redirect_is_added_to_a_section_and_looked_up(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        await pilot.press("R")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the redirects")
        await pilot.press("enter")  # + Add a redirect
        await wait_until(pilot, lambda: isinstance(app.screen, ChooseDialog), "destinations")
        await pilot.press("enter")  # the first section (API)
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the form")
        # the message names the field as the form does (it said "From:" in every form)
        error = await _refused(pilot, "not a path")
        assert error.startswith("From the path: a path starting with /")
        dialog_input(pilot, "source").value = "/old-api"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the list again")
        client: Client = app.client  # type: ignore[assignment]
        found = await client.sites.redirects.resolve(screen.org_id, screen.site.id, "/old-api")
        assert found.redirect.destination["kind"] == "site-section"
        assert found.target.rstrip("/").endswith("/api")
        await pilot.press("down", "enter")  # ? Look up a path
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the lookup")
        error = await _refused(pilot, "no slash")
        assert error.startswith("Path: a path starting with /")


async def test_a_share_link_is_deleted_after_asking(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        client: Client = app.client  # type: ignore[assignment]
        await _share_links(pilot)
        await type_text(pilot, "Partners")
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ChooseDialog), "its actions")
        await pilot.press("j", "j", "j", "enter")  # Delete
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog), "the question")
        assert "Whoever has its URL loses access" in str(
            app.screen.query_one("#dialog-question", Static).render()
        )
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the links again")
        await wait_for_workers(pilot)
        listed = client.sites.share_links.list(screen.org_id, screen.site.id)
        assert "Partners" not in [link.name async for link in listed]
