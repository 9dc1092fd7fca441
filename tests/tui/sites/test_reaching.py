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
