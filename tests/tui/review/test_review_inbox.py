"""The review inbox: open change requests across the organization where I am the author or
a requested reviewer, newest first; Enter opens the review pane."""

from __future__ import annotations

from collections.abc import Callable

from docdeck.gateway import Client
from docdeck.tui.review import ReviewInboxScreen, ReviewScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_organizations, wait_until
from tui.review.helpers import review_settled, space_titled


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
        items = inbox.shown
        assert [(i.space.title, i.change_request.number, i.why) for i in items] == [
            ("Public API Reference", 4, "review requested")
        ]
        text = "\n".join(screen_lines(pilot))
        assert "Review inbox · 2 organizations" in text
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
        items = inbox.shown
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


async def test_a_reviewer_keeps_what_they_reviewed_across_organizations(
    make_app: AppFactory,
    token_for: Callable[[str], str],
    transport: RecordingTransport,
    admin_token: str,
) -> None:
    """Ada requests changes on #4 (the platform drops her from the requested reviewers), and
    comments on a change request of the other organization she belongs to."""
    async with Client(
        "http://sandbox", token_for("hana@lumen-project.org"), transport=transport
    ) as hana:
        orgs = [org async for org in hana.orgs.list()]
        lumen = next(org for org in orgs if org.title != "Northwind Labs")
        lumen_space = (await hana.spaces.list(lumen.id)).items[0]
        elsewhere = await hana.change_requests.create(lumen_space.id, subject="Lumen roadmap")
        thread = await hana.comments.post(
            lumen_space.id, "Is the roadmap page right?", change_request=elsewhere.number
        )
        replied_on = await hana.change_requests.create(lumen_space.id, subject="Lumen logo")
        other_thread = await hana.comments.post(
            lumen_space.id, "Which logo?", change_request=replied_on.number
        )
    async with Client("http://sandbox", admin_token, transport=transport) as ada:
        await ada.comments.post(lumen_space.id, "Looks good", change_request=elsewhere.number)
        await ada.comments.replies.post(
            lumen_space.id, thread.id, "Yes", change_request=elsewhere.number
        )
        # A reply in another's thread, and no thread of her own: she commented there too.
        await ada.comments.replies.post(
            lumen_space.id, other_thread.id, "The round one", change_request=replied_on.number
        )
        space = await space_titled(ada, "Public API Reference")
        await ada.change_requests.reviews.submit(space.id, 4, status="changes-requested")
        asked = [r async for r in ada.change_requests.requested_reviewers.list(space.id, 4)]
        me = (await ada.users.me()).id
        assert all(r.user is None or r.user.id != me for r in asked)  # dropped once reviewed

    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await _open_inbox(pilot, app)
        assert inbox.view == "waiting"
        assert 4 not in [i.change_request.number for i in inbox.shown]
        assert "Nothing waits for you" in "\n".join(screen_lines(pilot))

        await pilot.press("2")
        await pilot.pause()
        assert [(i.space.title, i.change_request.number) for i in inbox.shown] == [
            ("Public API Reference", 4)
        ]
        text = "\n".join(screen_lines(pilot))
        assert "reviewed by me" in text and "✘ changes" in text, text

        await pilot.press("3")
        await pilot.pause()
        found = {(i.space.title, i.change_request.number): i.roles for i in inbox.shown}
        assert "reviewed" in found[("Public API Reference", 4)]
        assert found[(lumen_space.title, elsewhere.number)] == ("commented",)
        assert found[(lumen_space.title, replied_on.number)] == ("commented",)
        text = "\n".join(screen_lines(pilot))
        assert f"{lumen.title} › {lumen_space.title}"[:20] in text, text

        await pilot.press("2")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane")
        await review_settled(pilot)
        assert "#4 Document partial refunds" in "\n".join(screen_lines(pilot))


async def test_coming_back_from_a_pane_the_inbox_shows_what_was_done_there(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    """Ada opens #4 from "waiting", reviews it (here through the API, as the pane's `a`
    does), and Escape: #4 has left "waiting" without an `r`."""
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        inbox = await _open_inbox(pilot, app)
        assert [i.change_request.number for i in inbox.shown] == [4]
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane")
        await review_settled(pilot)
        async with Client("http://sandbox", admin_token, transport=transport) as ada:
            space = await space_titled(ada, "Public API Reference")
            await ada.change_requests.reviews.submit(space.id, 4, status="changes-requested")
        await pilot.press("escape")
        await wait_until(pilot, lambda: app.screen is inbox, "back on the inbox")
        await wait_until(
            pilot,
            lambda: 4 not in [i.change_request.number for i in inbox.shown],
            "the inbox gathered again",
        )
