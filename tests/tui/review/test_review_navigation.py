"""Walking a change request: hunks (`]`/`[`), changed pages (`}`/`{`), attribute changes
above the body, the rendered view (`v`), and a failed read shown in place."""

from __future__ import annotations

from docdeck.gateway import Client
from docdeck.tui.review import ReviewScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_until
from tui.review.helpers import (
    authored_change_request,
    diff_view,
    open_review,
    review_settled,
    space_titled,
)


def _edit_far_apart(markdown: str) -> str:
    lines = markdown.splitlines()
    lines[2] = "The first paragraph, rewritten for the test."
    lines[-1] = lines[-1] + " And one more sentence at the end."
    return "\n".join(lines) + "\n"


async def test_hunks_and_attribute_changes(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    _space, cr, page_id = await authored_change_request(
        transport,
        admin_token,
        "getting-started/rate-limits",
        _edit_far_apart,
        title="Rate limits and quotas",
        emoji="🚦",
    )
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(pilot, cr.number)
        assert screen.current_page_id() == page_id
        text = "\n".join(screen_lines(pilot))
        # Attribute changes above the body diff.
        assert "title: Rate limits → Rate limits and quotas" in text
        assert "emoji: ⏱️ → 🚦" in text
        view = diff_view(pilot)
        assert view.diff is not None and view.diff.hunks >= 2
        assert view.current_hunk == 0
        assert view.cursor_line() == ("base", 2)

        await pilot.press("right_square_bracket")
        assert view.current_hunk == 1
        _side, line = view.cursor_line() or ("", -1)
        assert line > 6  # far down the page
        await pilot.press("left_square_bracket")
        assert view.current_hunk == 0 and view.cursor_line() == ("base", 2)

        # The cursor keeps its line when the layout changes.
        await pilot.press("right_square_bracket", "d")
        assert view.diff_layout == "split" and view.current_hunk == 1
        await pilot.press("d")
        assert view.diff_layout == "unified" and view.current_hunk == 1
        # ] past the last hunk of the only page says so and stays.
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert view.current_hunk == 1
        assert any("last changed page" in n.message for n in app._notifications)


async def test_changed_pages_and_the_rendered_view(make_app: AppFactory) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(pilot, 4)
        titles = [page.title for page in screen.changes.pages] if screen.changes else []
        assert titles[:2] == ["Idempotency", "Rate limits"]
        assert screen.pages_list.current is not None
        assert screen.pages_list.current.title == "Rate limits"

        await pilot.press("right_curly_bracket")
        await review_settled(pilot)
        assert screen.pages_list.current.title == "Partial refunds"
        text = "\n".join(screen_lines(pilot))
        assert "+ # Partial refunds" in text  # an added page: every line is new
        added = diff_view(pilot).diff
        assert added is not None and added.removed == 0 and added.added > 0

        # ] past this page's last hunk goes on to the next changed page.
        await pilot.press("right_square_bracket")
        await review_settled(pilot)
        assert screen.pages_list.current.title == "Pagination"
        view = diff_view(pilot)
        assert view.diff is not None and view.diff.hunks >= 1
        # The code block's edit: both versions, coloured as code.
        text = "\n".join(screen_lines(pilot))
        assert "```" in text

        await pilot.press("right_curly_bracket")
        await review_settled(pilot)
        assert screen.pages_list.current.title == "Changelog"
        assert view.diff is not None and view.diff.added == 0 and view.diff.removed > 0

        await pilot.press("left_curly_bracket", "left_curly_bracket")
        await review_settled(pilot)
        assert screen.pages_list.current.title == "Partial refunds"

        # v: the page rendered, through the space screen's preview.
        await pilot.press("v")
        await review_settled(pilot)
        assert screen.view == "rendered"
        assert screen.preview.markdown is not None and "Partial refunds" in screen.preview.markdown
        assert "Partial refunds" in "\n".join(screen_lines(pilot))
        await pilot.press("v")
        await review_settled(pilot)
        assert screen.view == "diff" and view.display


async def test_a_failed_read_is_shown_in_place_and_r_retries(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        transport.failing = "/changes"
        screen = await open_review(pilot, 4)
        text = "\n".join(screen_lines(pilot))
        assert "#4 Document partial refunds" in text  # the header still reads
        assert "server failed" in text.lower() or "500" in text
        assert "r retries" in text
        assert screen.changes is None

        transport.failing = None
        await pilot.press("r")
        await review_settled(pilot)
        assert screen.changes is not None
        assert diff_view(pilot).diff is not None

        # A page whose markdown cannot be read: the failure where its diff would be.
        pagination = next(p for p in screen.changes.pages if p.title == "Pagination")
        transport.failing = f"/page/{pagination.page_id}"
        # Forget what was read, so the page is asked for again.
        app.session.forget_caches()
        screen.pages_list.select_page(pagination.page_id)
        await review_settled(pilot)
        text = "\n".join(screen_lines(pilot))
        assert "Press r to try again" in text
        assert "Pagination" in text
        transport.failing = None
        await pilot.press("r")
        await review_settled(pilot)
        await wait_until(pilot, lambda: diff_view(pilot).display, "the diff is shown")
        assert diff_view(pilot).page_id == pagination.page_id
        assert isinstance(app.screen, ReviewScreen)


async def test_a_page_without_text_on_either_side_says_so(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """A page added without a body (or a computed page deleted, as the hosted platform's
    answers allow) has no line on either side: the pane says so instead of an empty box, and
    `]` has no hunk of another page to move to."""
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.create(space.id, subject="An empty page")
        insert = {"operation": "insert_page", "title": "Blank", "document": {"markdown": ""}}
        await client.change_requests.content.update(space.id, cr.number, [insert])
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(pilot, cr.number)
        assert screen.changes is not None
        blank = next(p for p in screen.changes.pages if p.title == "Blank")
        screen.pages_list.select_page(blank.page_id)
        await review_settled(pilot)
        text = "\n".join(screen_lines(pilot))
        assert "“Blank” was added without text." in text
        view = diff_view(pilot)
        assert not view.display
        assert view.page_id == blank.page_id and view.diff is not None
        assert view.diff.hunks == 0


async def test_the_rendered_view_parses_the_answer_the_diff_read(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    """The diff reads a page's markdown without the page models (`page_markdown`); `v` then
    shows the page from that same answer, parsed as its page type: no second read."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_review(pilot, 4)
        page = screen.pages_list.current
        assert page is not None and page.in_change
        ours = f"/change-requests/4/content/page/{page.page_id}"
        await pilot.press("v")
        await review_settled(pilot)
        assert screen.view == "rendered"
        assert screen.preview.markdown and page.title in "\n".join(screen_lines(pilot))
        assert len([r for r in transport.requests if ours in r]) == 1, transport.requests
