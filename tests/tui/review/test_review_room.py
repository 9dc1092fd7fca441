"""Room to work at 80x24: the diff keeps at least 12 rows, the list with the focus at least
5, and `z` gives the diff the whole screen (and gives the other parts back)."""

from __future__ import annotations

from textual.widget import Widget

from docdeck.tui.review import ReviewScreen
from tui.helpers import AppFactory, screen_lines
from tui.review.actions_helpers import open_host
from tui.review.helpers import review_settled


def shown_rows(widget: Widget) -> int:
    """The rows of the widget's content on screen (inside its border), clipped by every
    container's region."""
    if not widget.display or any(not a.display for a in widget.ancestors if isinstance(a, Widget)):
        return 0
    region = widget.content_region
    for ancestor in widget.ancestors:
        if isinstance(ancestor, Widget) and ancestor is not widget.screen:
            region = region.intersection(ancestor.region)
    return region.height


async def _focus(pilot, widget: Widget) -> None:  # type: ignore[no-untyped-def]
    widget.focus()
    await pilot.pause()
    await review_settled(pilot)


async def test_at_80x24_the_diff_and_the_focused_list_have_room(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await open_host(pilot, 4)
        diff, pages = host.diff_view, host.pages_list
        threads = host.threads_panel.thread_list
        assert threads.items, "the demo's #4 has threads"
        assert shown_rows(diff) >= 12, shown_rows(diff)
        assert shown_rows(pages) >= 1 and shown_rows(threads) >= 1

        await _focus(pilot, pages)
        assert shown_rows(pages) >= 5 and shown_rows(diff) >= 12, (
            shown_rows(pages),
            shown_rows(diff),
        )
        highlighted = pages.highlighted
        assert highlighted is not None
        # The highlighted page is among the rows shown.
        assert pages.scroll_offset.y <= highlighted < pages.scroll_offset.y + shown_rows(pages)

        await _focus(pilot, threads)
        assert shown_rows(threads) >= 5 and shown_rows(diff) >= 12, (
            shown_rows(threads),
            shown_rows(diff),
        )
        # tab goes round every part: from the threads to the changed pages, then the diff.
        await pilot.press("tab")
        await pilot.pause()
        assert host.focused is pages and shown_rows(pages) >= 5, shown_rows(pages)
        await pilot.press("tab")
        await pilot.pause()
        assert host.focused is diff

        await _focus(pilot, diff)
        assert shown_rows(diff) >= 12
        footer = screen_lines(pilot)[-1]
        assert "Diff only" in footer, footer


async def test_z_gives_the_diff_the_whole_screen_and_back(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await open_host(pilot, 4)
        header = host.query_one("#review-header")
        host.pages_list.focus()
        await pilot.pause()
        await pilot.press("z")
        await pilot.pause()
        # Everything but the page's head line and the footer is the diff.
        assert shown_rows(host.diff_view) >= 24 - 1 - 1 - 1, shown_rows(host.diff_view)
        assert shown_rows(header) == 0 and shown_rows(host.pages_list) == 0
        assert shown_rows(host.threads_panel) == 0
        assert host.focused is host.diff_view  # the hidden list gave up the focus
        assert "All parts" in screen_lines(pilot)[-1]
        # The diff's keys still work with the rest hidden.
        page = host.current_page_id()
        await pilot.press("right_curly_bracket")
        await review_settled(pilot)
        assert host.current_page_id() != page
        await pilot.press("tab")
        await pilot.pause()
        assert host.focused is host.diff_view  # nothing hidden takes the focus

        await pilot.press("z")
        await pilot.pause()
        assert shown_rows(header) > 0 and shown_rows(host.pages_list) > 0
        assert shown_rows(host.threads_panel) > 0
        assert shown_rows(host.diff_view) >= 12
        assert "Diff only" in screen_lines(pilot)[-1]


async def test_z_is_in_the_help(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        host = await open_host(pilot, 4)
        assert isinstance(host, ReviewScreen)
        await pilot.press("question_mark")
        await pilot.pause()
        await review_settled(pilot)
        text = "\n".join(screen_lines(pilot))
        for _ in range(12):
            if "The diff alone on the screen" in text:
                break
            await pilot.press("ctrl+d")
            await pilot.pause()
            text += "\n".join(screen_lines(pilot))
        assert "The diff alone on the screen" in text
