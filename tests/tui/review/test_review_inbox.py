"""The review inbox: open change requests across the organization where I am the author or
a requested reviewer, newest first; Enter opens the review pane."""

from __future__ import annotations

from collections.abc import Callable

from docdeck.tui.review import ReviewInboxScreen, ReviewScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_organizations, wait_until
from tui.review.helpers import review_settled


async def _open_inbox(pilot, app) -> ReviewInboxScreen:  # type: ignore[no-untyped-def]
    await wait_for_organizations(pilot)
    await pilot.press("i")
    await wait_until(pilot, lambda: isinstance(app.screen, ReviewInboxScreen), "the inbox")
    screen = app.screen
    await wait_until(pilot, lambda: screen.inbox is not None, "the inbox is gathered")
    await pilot.pause()
    return screen


async def test_the_inbox_of_a_requested_reviewer(make_app: AppFactory) -> None:
    app = make_app()  # Ada, asked to review #4 of the Public API Reference
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await _open_inbox(pilot, app)
        items = inbox.inbox.items if inbox.inbox else []
        assert [(i.space.title, i.change_request.number, i.why) for i in items] == [
            ("Public API Reference", 4, "review requested")
        ]
        text = "\n".join(screen_lines(pilot))
        assert "Review inbox · Northwind Labs" in text
        assert "Document partial refunds" in text and "review requested" in text

        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane")
        await review_settled(pilot)
        assert "#4 Document partial refunds" in "\n".join(screen_lines(pilot))
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is inbox


async def test_the_inbox_of_an_author_across_spaces_newest_first(
    make_app: AppFactory, token_for: Callable[[str], str], transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("chen@northwind.dev"))
    async with app.run_test(size=(80, 24)) as pilot:
        inbox = await _open_inbox(pilot, app)
        items = inbox.inbox.items if inbox.inbox else []
        found = [(i.space.title, i.change_request.number, i.why) for i in items]
        assert ("Public API Reference", 4, "author") in found
        assert ("Public API Reference", 2, "author") in found
        assert ("Webhooks Guide", 1, "author") in found
        assert all(why == "author" for _, _, why in found)  # nobody asked Chen to review
        dates = [i.change_request.updatedAt for i in items]
        assert dates == sorted(dates, reverse=True)
        # Gathered per space: the spaces without open change requests were not asked.
        lists = [r for r in transport.requests if r.endswith("/change-requests")]
        assert len(lists) == inbox.inbox.spaces if inbox.inbox else False


async def test_a_space_that_fails_is_named_and_the_rest_shown(
    make_app: AppFactory, token_for: Callable[[str], str], transport: RecordingTransport
) -> None:
    app = make_app(token=token_for("chen@northwind.dev"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        transport.failing = "/requested-reviewers"  # Chen needs none: his own are enough
        inbox = await _open_inbox(pilot, app)
        assert inbox.inbox is not None and len(inbox.inbox.items) == 3
        assert inbox.inbox.problems  # the change requests of others could not be checked
        assert "not read:" in "\n".join(screen_lines(pilot))
        transport.failing = None
        await pilot.press("r")
        await wait_until(pilot, lambda: inbox.inbox is not None and not inbox.inbox.problems, "r")
