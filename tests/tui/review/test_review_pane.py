"""The review pane: opened from the space screen's change requests, header, changed pages,
and the diff of a page in both layouts."""

from __future__ import annotations

from docdeck.tui.review import ReviewScreen
from docdeck.tui.space import SpaceScreen
from tui.helpers import AppFactory, screen_lines
from tui.review.helpers import diff_view, open_review


async def test_open_a_change_request_and_read_its_diff(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(pilot, 4)
        text = "\n".join(screen_lines(pilot))
        # The header: number, subject, status, author, reviews by whom, who is asked.
        assert "#4 Document partial refunds" in text
        assert "open" in text and "by Chen Wei" in text
        assert "approved: Inês Duarte" in text
        assert "changes requested: Dana Kowalski" in text
        assert "asked: Ada Okafor, Bruno Castillo" in text
        # The changed pages with their counts.
        assert "1 added · 2 edited · 1 moved" in text and "1 deleted" in text
        for title in ("Idempotency", "Rate limits", "Partial refunds", "Pagination", "Changelog"):
            assert title in text
        # The first page whose body changed is shown first, unified.
        assert screen.current_page_id() is not None
        view = diff_view(pilot)
        assert view.diff is not None and view.diff.hunks == 1
        assert "- Requests are limited per token" in text
        assert "+ Each token may send 1,000 read" in text
        assert view.cursor_line() == ("base", 2)  # the cursor is on the hunk's first line

        await pilot.press("d")
        await pilot.pause()
        lines = screen_lines(pilot)
        both = [line for line in lines if "Requests are limited" in line]
        assert both and "Each token may send" in both[0]  # base and change on one row
        assert view.diff_layout == "split"

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SpaceScreen) and not isinstance(app.screen, ReviewScreen)
