"""Reaching the site editor from the org tree, and back."""

from __future__ import annotations

from docdeck.tui.sites import SiteScreen
from tui.helpers import AppFactory, labels_under, tree_of
from tui.sites.helpers import open_site, row_titles


async def test_sites_node_lists_sites_and_enter_opens_the_structure(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_site(pilot)
        tree = tree_of(pilot)
        sites = labels_under(tree, "🌐 Sites")
        assert sites[0].startswith("Developer Portal · share-link · published · ")
        assert any(
            label.startswith("Internal Drafts · unlisted · not published") for label in sites
        )
        assert row_titles(screen)[:4] == [
            "Build",
            "  API",
            "    Public API Reference",
            "    Webhooks Guide",
        ]
        cursor_before = tree.cursor_line
        await pilot.press("escape")
        assert not isinstance(app.screen, SiteScreen)
        assert tree_of(pilot).cursor_line == cursor_before


async def test_the_palette_goes_to_any_site(make_app: AppFactory) -> None:
    from textual.command import CommandPalette

    from docdeck.gateway import Client
    from docdeck.tui.kit.chooser import Chooser
    from tui.helpers import open_northwind, type_text, wait_for_workers, wait_until

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_northwind(pilot)
        await pilot.press("ctrl+p")
        await wait_until(pilot, lambda: CommandPalette.is_open(app), "the palette")
        await type_text(pilot, "go to site")
        await wait_for_workers(pilot)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, Chooser), "the sites")
        await type_text(pilot, "handbook")
        await pilot.press("enter")
        await wait_until(
            pilot,
            lambda: isinstance(app.screen, SiteScreen) and app.screen.loaded,
            "the site editor",
        )
        screen = app.screen
        assert isinstance(screen, SiteScreen)
        client: Client = app.client  # type: ignore[assignment]
        site = await client.sites.get(screen.org_id, screen.site.id)
        assert site.title == "Handbook"
        assert row_titles(screen) == ["Onboarding", "Design System"]
