"""A write sent from the review pane runs to its end after the pane is closed (Escape):
the user is told how it ended, and the list the pane was opened from shows the result."""

from __future__ import annotations

import asyncio

from docdeck.gateway import Client
from docdeck.tui.space import SpaceScreen
from tui.conftest import RecordingTransport
from tui.helpers import AppFactory, wait_for_workers, wait_until
from tui.review.actions_helpers import open_host


async def _update_sent_then_escape(pilot, transport: RecordingTransport) -> asyncio.Event:  # type: ignore[no-untyped-def]
    """#2 (outdated) in the pane, `u` sent and held at the server's door, then Escape: the
    list is in front. Setting the returned event lets the update through."""
    host = await open_host(pilot, 2)
    assert host.change_request.outdated
    gate = asyncio.Event()
    transport.held = ("/update", gate)
    await pilot.press("u")
    await wait_until(
        pilot,
        lambda: any(r.startswith("POST") and r.endswith("/update") for r in transport.requests),
        "the update is sent",
    )
    await pilot.press("escape")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SpaceScreen), "back on the list")
    return gate


async def test_an_update_ending_after_escape_is_told_and_the_list_shows_it(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        gate = await _update_sent_then_escape(pilot, transport)
        space = app.screen
        assert isinstance(space, SpaceScreen)
        gate.set()
        await wait_until(
            pilot,
            lambda: any("now has main's latest changes" in n.message for n in app._notifications),
            "the update's end is told",
        )
        await wait_for_workers(pilot)
        view = space.change_requests_view
        listed = next(cr for cr in view.change_requests if cr.number == 2)
        assert not listed.outdated, "the list still shows the change request before the update"
        client: Client = app.client  # type: ignore[attr-defined]
        assert not (await client.change_requests.get(space.space.id, 2)).outdated


async def test_a_failed_write_ending_after_escape_is_told(
    make_app: AppFactory, transport: RecordingTransport
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        gate = await _update_sent_then_escape(pilot, transport)
        transport.failing = "/update"
        gate.set()
        await wait_until(
            pilot,
            lambda: any(
                "Updating #2 from main" in (n.title or "") + n.message for n in app._notifications
            ),
            "the failure is told, naming the write",
        )
        await wait_for_workers(pilot)


async def test_closing_the_pane_while_its_footer_refits_is_not_a_crash(
    make_app: AppFactory,
) -> None:
    """The footer's refit runs after the next refresh; when the pane was closed meanwhile,
    its parts are already gone and asking its keys' state found no thread list (a crash)."""
    from docdeck.tui.kit.footer import BrowserFooter

    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        pane = await open_host(pilot, 2)
        for footer in pane.query(BrowserFooter):
            footer.refit()
        pane.query_one("#review-threads").remove_children()
        app.pop_screen()
        await pilot.pause()
        await wait_for_workers(pilot)
        assert isinstance(app.screen, SpaceScreen)
