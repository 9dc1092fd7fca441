"""The links view: every link with its status, filtered, and Enter to the page at it."""

from __future__ import annotations

from docdeck.tui.space import LinksView
from tui.helpers import AppFactory, screen_lines
from tui.space.helpers import open_api_reference, preview_text, settle


async def test_broken_links_listed_filtered_and_opened(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        # The broken count shows on the space from the start.
        assert "⚠ 3 broken links" in screen_lines(pilot)[0]

        await pilot.press("2")
        await settle(pilot)
        view = screen.query_one(LinksView)
        text = preview_text(pilot)
        assert "3 broken" in text
        assert "legacy-events.md" in text and "carrier-logos.zip" in text
        assert "Legacy events" in text  # the link's text, read from its page

        await pilot.press("s")  # broken only
        await settle(pilot)
        assert view.status == "broken"
        assert {row.status for row in view.shown} == {"broken"}
        assert len(view.shown) == 3
        await pilot.press("s")  # in-app only
        await settle(pilot)
        assert [row.status for row in view.shown] == ["in-app"]
        await pilot.press("s", "s")  # all again
        await settle(pilot)
        assert view.status == "all"

        row = next(r for r in view.shown if "legacy-events" in r.target)
        view.table.move_cursor(row=view.shown.index(row), animate=False)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.mode == "pages"
        page = screen.current_page
        assert page is not None and page.title == row.source_title == "Event types"
        assert screen.location is not None and screen.location.line is not None
        assert "Legacy events" in preview_text(pilot)

        await pilot.press("2")
        await settle(pilot)
        await pilot.press("escape")
        await settle(pilot)
        assert screen.mode == "pages"
