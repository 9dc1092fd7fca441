"""Following links with back and forward, and a failing request shown in place."""

from __future__ import annotations

from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, type_text
from tui.space.helpers import open_api_reference, preview_text, settle


async def _go_to(pilot, title: str) -> None:  # type: ignore[no-untyped-def]
    await pilot.press("f")
    await type_text(pilot, title)
    await pilot.press("enter")
    await settle(pilot)
    await pilot.press("escape")  # the filter closes; the cursor stays on the page
    await settle(pilot)


async def test_follow_a_link_then_back_and_forward(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await _go_to(pilot, "Authentication")
        assert screen.current_page is not None
        assert screen.current_page.title == "Authentication"

        await pilot.press("L")
        await settle(pilot)
        assert "Links in “Authentication”" in preview_text(pilot)
        assert "Rate limits  → Rate limits#limits-per-token" in preview_text(pilot)
        await type_text(pilot, "Rate limits")
        await pilot.press("enter")
        await settle(pilot)
        page = screen.current_page
        assert page is not None and page.title == "Rate limits"
        assert screen.location is not None and screen.location.anchor == "limits-per-token"
        assert "Rate limits" in screen_lines(pilot)[0]

        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert screen.current_page is not None
        assert screen.current_page.title == "Authentication"
        assert "Authentication" in screen_lines(pilot)[0]

        await pilot.press("right_square_bracket")
        await settle(pilot)
        assert screen.current_page is not None and screen.current_page.title == "Rate limits"


async def test_a_broken_link_says_so(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await _go_to(pilot, "Event types")
        before = screen.current_page
        await pilot.press("L")
        await settle(pilot)
        assert "legacy-events.md (broken)" in preview_text(pilot)
        await type_text(pilot, "Legacy")
        await pilot.press("enter")
        await settle(pilot)
        assert screen.current_page is before
        notes = [n.message for n in app._notifications]
        assert any("legacy-events.md points to nothing" in n for n in notes), notes


async def test_a_failing_page_read_is_shown_in_place_and_r_retries(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        first = screen.current_page
        transport.offline = True
        await pilot.press("n")
        await settle(pilot)
        second = screen.current_page
        assert second is not first and second is not None
        text = preview_text(pilot)
        assert "Press r to try again" in text
        assert "[not loaded]" in text
        # The rest keeps working: back to the first page, read from the cache.
        await pilot.press("p")
        await settle(pilot)
        assert screen.current_page is first
        assert "Press r to try again" not in preview_text(pilot)
        await pilot.press("n")
        await settle(pilot)
        transport.offline = False
        await pilot.press("r")
        await settle(pilot)
        text = preview_text(pilot)
        assert "Press r to try again" not in text
        assert screen.preview.markdown


async def test_clicking_a_link_in_the_page_follows_it(make_app: AppFactory) -> None:
    """With the mouse on, a link in the rendered page is followed by a click, as in a
    browser; back returns."""
    from docdeck.tui.content import RenderedPage

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        await _go_to(pilot, "Authentication")
        await pilot.pause(0.2)
        view = screen.preview.view
        assert isinstance(view, RenderedPage)
        where = None
        for y, line in enumerate(view._shown.lines[: view.size.height]):
            x = 0
            for segment in line:
                if (
                    segment.style is not None
                    and segment.style.link
                    and "Rate limits" in (segment.text)
                ):
                    where = (x + 1, y)  # the view's padding: one column
                    break
                x += segment.cell_length
            if where:
                break
        assert where is not None, "the page shows its link to Rate limits"
        assert await pilot.click(view, offset=where)
        await settle(pilot)
        page = screen.current_page
        assert page is not None and page.title == "Rate limits"
        assert screen.location is not None and screen.location.anchor == "limits-per-token"
        await pilot.press("left_square_bracket")
        await settle(pilot)
        assert screen.current_page is not None
        assert screen.current_page.title == "Authentication"
