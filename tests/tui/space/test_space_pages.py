"""The space screen's page tree and preview, against the sandbox's demo content."""

from __future__ import annotations

import pytest

from docdeck.gateway import Client
from docdeck.tui.content import PagePreview, RenderedPage
from docdeck.tui.space import SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, tree_of, wait_for_workers, wait_until
from tui.space.helpers import open_api_reference, page_tree, preview_text, settle


async def test_enter_opens_the_space_and_escape_returns_to_the_tree(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        lines = screen_lines(pilot)
        assert "Northwind Labs › Engineering › API › Public API Reference" in lines[0]
        labels = [str(node.label.plain) for node in page_tree(pilot).root.children]
        assert labels, "the page tree shows the top level"
        first = screen.pages.first_readable()
        assert first is not None and first.title in lines[0]
        assert first.title in preview_text(pilot)
        tree = tree_of(pilot)
        before = (tree.cursor_line, tree.current)
        await pilot.press("escape")
        await wait_for_workers(pilot)
        assert not isinstance(app.screen, SpaceScreen)
        assert (tree.cursor_line, tree.current) == before


async def test_back_from_a_space_its_details_say_what_was_done_there(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """A comment posted while the space was open: back in the tree, its details count it
    (they were the ones read before the space was opened)."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        client = Client("http://sandbox", admin_token, transport=transport, max_retries=0)
        await client.comments.post(screen.space.id, "Posted while the space was open.")
        await client.aclose()
        await pilot.press("escape")
        await wait_until(
            pilot,
            lambda: any("Comments" in line and "3 open" in line for line in screen_lines(pilot)),
            "the details count the new comment",
        )


async def test_next_previous_and_raw(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        first = screen.current_page
        await pilot.press("n")
        await settle(pilot)
        second = screen.current_page
        assert second is not first and second is not None
        assert second.title in screen_lines(pilot)[0]
        await pilot.press("p")
        await settle(pilot)
        assert screen.current_page is first
        await pilot.press("v")
        await settle(pilot)
        assert "[raw]" in preview_text(pilot)


async def test_a_burst_of_next_and_previous_ends_on_the_page_the_keys_lead_to(
    make_app: AppFactory,
) -> None:
    """Keys typed faster than the screen follows (key repeat, or typing ahead over SSH):
    none waits for the one before. The preview must end on the page the keys lead to,
    rendered, and stay there; it used to bounce between two pages for ever, blank."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await open_api_reference(pilot)
        first = screen.current_page
        assert first is not None and screen.pages is not None
        expected = first
        for _ in range(5):
            expected = screen.pages.step(expected, 1) or expected
        assert expected is not first, "the space has pages to step through"
        for key in ["n"] * 12 + ["p"] * 12 + ["n"] * 5:
            app.simulate_key(key)
        for _ in range(40):  # bounded: a screen still swapping views after this never settles
            await settle(pilot)
            if screen.preview.slot.settled:
                break
        assert screen.preview.slot.settled, "the preview keeps swapping views"
        assert screen.current_page is expected
        assert screen.preview.page is expected
        assert page_tree(pilot).current is expected
        await pilot.pause(0.2)
        view = screen.preview.view
        assert isinstance(view, RenderedPage)
        assert view.size.height > 0 and view.line_count > 0, "the page is rendered"
        assert expected.title in screen_lines(pilot)[0]


async def test_a_space_whose_revision_is_read_shows_its_tree_as_it_mounts(
    make_app: AppFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Opened again (or by `docdeck open`, whose early read of the revision is in by then),
    the tree is shown as the screen mounts: its first frame has the tree, not "loading the
    page tree…" and the tree a worker and a frame later."""
    said: list[str] = []
    show_message = PagePreview.show_message

    def recording(self: PagePreview, page: object, message: str, **kwargs: object) -> None:
        said.append(message)
        show_message(self, page, message, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(PagePreview, "show_message", recording)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_api_reference(pilot)
        assert "loading the page tree…" in said  # the first visit reads the revision
        await pilot.press("escape")
        await wait_for_workers(pilot)
        said.clear()
        again = SpaceScreen(screen.space, list(screen.trail))
        await app.push_screen(again)  # mounted: nothing else has run yet
        assert again.pages is not None and again.page_tree.root.children
        assert "loading the page tree…" not in said
        await settle(pilot)
        assert again.current_page is not None
        assert again.current_page.title in preview_text(pilot)
