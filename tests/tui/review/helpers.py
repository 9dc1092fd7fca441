"""Opening a change request as a user does: the space screen, `5`, then Enter on it."""

from __future__ import annotations

from textual.pilot import Pilot

from docdeck.tui.screens._review import ReviewScreen
from docdeck.tui.widgets.review import DiffView
from docdeck.tui.widgets.space._change_requests_view import ChangeRequestsView
from tui.helpers import wait_for_workers, wait_until
from tui.space.helpers import open_api_reference, settle


async def open_change_requests(pilot: Pilot[None]) -> ChangeRequestsView:
    screen = await open_api_reference(pilot)
    await pilot.press("5")
    await settle(pilot)
    view = screen.query_one(ChangeRequestsView)
    await wait_until(pilot, lambda: view.loaded, "the change requests are listed")
    return view


async def open_review(pilot: Pilot[None], number: int, status: str = "open") -> ReviewScreen:
    view = await open_change_requests(pilot)
    while view.status != status:
        await pilot.press("s")
        await wait_until(pilot, lambda: view.loaded, "the change requests are listed again")
    row = [cr.number for cr in view.shown].index(number)
    view.table.move_cursor(row=row, animate=False)
    await pilot.pause()
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReviewScreen), "the pane opens")
    screen = pilot.app.screen
    assert isinstance(screen, ReviewScreen)
    await review_settled(pilot)
    return screen


async def review_settled(pilot: Pilot[None]) -> None:
    await wait_for_workers(pilot)
    await pilot.pause(0.05)
    await wait_for_workers(pilot)


def diff_view(pilot: Pilot[None]) -> DiffView:
    return pilot.app.screen.query_one(DiffView)
