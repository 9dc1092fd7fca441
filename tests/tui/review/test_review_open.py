"""`docdeck open` with a change request's app URL starts on its review pane."""

from __future__ import annotations

from docdeck.gateway import Client
from docdeck.tui.kit.open_target import OpenTarget, parse_target
from docdeck.tui.review import ReviewScreen
from docdeck.tui.space import SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, screen_lines, wait_for_organizations, wait_until
from tui.review.helpers import review_settled, space_titled


async def test_open_a_change_request_url(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        cr = await client.change_requests.get(space.id, 4)
    target = parse_target(cr.urls.app)
    assert target == OpenTarget(space=space.id, change_request="4")
    app = make_app(open_at=target)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen), "the pane opens")
        await review_settled(pilot)
        assert "#4 Document partial refunds" in "\n".join(screen_lines(pilot))
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, SpaceScreen)  # the space is underneath


async def test_an_unknown_change_request_is_one_notification_over_its_space(
    make_app: AppFactory, transport: RecordingTransport, admin_token: str
) -> None:
    async with Client("http://sandbox", admin_token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
    app = make_app(open_at=OpenTarget(space=space.id, change_request="999"))
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_for_organizations(pilot)
        await wait_until(pilot, lambda: isinstance(app.screen, SpaceScreen), "the space opens")
        await review_settled(pilot)
        assert not isinstance(app.screen, ReviewScreen)
        notes = [f"{n.title} {n.message}" for n in app._notifications]
        assert any("999" in n for n in notes), notes
