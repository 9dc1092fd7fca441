"""A page highlighted is shown after a short pause; a pause that ends once the cursor has
moved on (a filter typed further, a held arrow key) shows nothing and moves nothing."""

from __future__ import annotations

from docdeck.tui.space import SpaceScreen
from tui.helpers import AppFactory, type_text
from tui.space.helpers import open_api_reference, page_tree, settle


async def test_a_pause_that_ends_after_the_cursor_moved_on_keeps_the_filter(
    make_app: AppFactory,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        assert isinstance(screen, SpaceScreen)
        tree = page_tree(pilot)
        assert tree.pages is not None
        stale = next(p for p in tree.pages.order if "limit" not in p.title.casefold())
        await pilot.press("f")
        await type_text(pilot, "limit")
        await settle(pilot)
        here = tree.current
        assert here is not None and "limit" in here.title.casefold()
        # The pause of a page highlighted before the filter moved the cursor ends now.
        screen._show_highlighted(stale)
        await settle(pilot)
        assert tree.filter_text == "limit"
        assert tree.current is here
