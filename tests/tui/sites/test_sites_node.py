"""Creating and deleting a site from the org tree's Sites node, checked through the API."""

from __future__ import annotations

from docdeck.gateway import Client
from docdeck.tui.kit.chooser import Chooser
from docdeck.tui.kit.dialogs.form import FormDialog
from tui.helpers import (
    AppFactory,
    dialog_input,
    find_node,
    open_node,
    open_northwind,
    select,
    tree_of,
    type_text,
    wait_for_workers,
    wait_until,
)


async def _site_titles(app: object) -> list[str]:
    client: Client = app.client  # type: ignore[attr-defined]
    orgs = (await client.orgs.list()).items
    northwind = next(org for org in orgs if org.title == "Northwind Labs")
    return [site.title for site in (await client.sites.list(northwind.id)).items]


async def test_n_creates_a_site_with_spaces_picked_from_a_searchable_list(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Sites")
        await select(pilot, "Sites")
        await pilot.press("n")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the space list")
        await type_text(pilot, "onboard")
        await pilot.press("enter")  # Onboarding; the list comes back with Done on top
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, Chooser) and "Onboarding" in str(app.screen.items[0][0]),
            "the list again, naming the pick",
        )
        await pilot.press("enter")  # Done
        await wait_until(pilot, lambda: isinstance(app.screen, FormDialog), "the form")
        assert dialog_input(pilot, "title").value == "Onboarding"
        dialog_input(pilot, "title").value = "Onboarding Site"
        dialog_input(pilot, "title").focus()
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, FormDialog), "sent")
        await wait_for_workers(pilot)
        assert "Onboarding Site" in await _site_titles(app)


async def test_d_deletes_a_site_after_naming_its_sections_and_share_links(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await open_northwind(pilot)
        await open_node(pilot, "Sites")
        await select(pilot, "Developer Portal")
        await pilot.press("d")
        await wait_until(pilot, lambda: bool(app.screen.query("#dialog-question")), "asked")
        question = str(app.screen.query_one("#dialog-question").render())
        assert "Build" in question and "Design" in question
        assert "Partners" in question
        await pilot.press("y")
        await wait_until(pilot, lambda: not app.screen.query("#dialog-question"), "sent")
        await wait_for_workers(pilot)
        assert "Developer Portal" not in await _site_titles(app)


async def test_back_from_the_site_editor_the_sites_line_says_what_was_done_there(
    make_app: AppFactory,
) -> None:
    """A site space added while the site was open: back in the tree, the site's line counts
    it (it was read before the site was opened)."""
    from tui.sites.helpers import open_site

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot, "Internal Drafts")
        client: Client = app.client  # type: ignore[attr-defined]
        org_id = screen.organization.id
        spaces = (await client.spaces.list(org_id)).items
        notes = next(space for space in spaces if space.title == "Release Notes")
        await client.sites.site_spaces.create(org_id, screen.site.id, spaceId=notes.id)
        await pilot.press("escape")
        await wait_for_workers(pilot)
        await wait_until(
            pilot,
            lambda: "2 site spaces" in find_node(tree_of(pilot), "Internal Drafts").label.plain,
            "the site's line counts the new site space",
        )
