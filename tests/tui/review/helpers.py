"""Opening a change request as a user does: the space screen, `5`, then Enter on it."""

from __future__ import annotations

from collections.abc import Callable

import httpx
from textual.pilot import Pilot

from docdeck.gateway import Client
from docdeck.models import ChangeRequest, Space
from docdeck.tui.review import ChangeRequestsView, DiffView, ReviewScreen
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


async def space_titled(client: Client, title: str) -> Space:
    async for org in client.orgs.list():
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return space
    raise AssertionError(f"no space {title!r}")


async def authored_change_request(
    transport: httpx.AsyncBaseTransport,
    token: str,
    page_path: str,
    edit: Callable[[str], str],
    *,
    subject: str = "Two edits far apart",
    **fields: object,
) -> tuple[Space, ChangeRequest, str]:
    """A new change request of the Public API Reference editing one page's markdown (and
    `fields`: title, emoji...), made through the API as an author would."""
    async with Client("http://sandbox", token, transport=transport) as client:
        space = await space_titled(client, "Public API Reference")
        pages = await client.content.pages(space.id)
        page = pages.by_path(page_path)
        assert page is not None
        markdown = (await client.content.page(space.id, page.id, format="markdown")).markdown  # type: ignore[union-attr]
        cr = await client.change_requests.create(space.id, subject=subject)
        change = {
            "operation": "update_page",
            "page": page.id,
            "document": {"markdown": edit(markdown)},
        }
        change.update(fields)
        await client.change_requests.content.update(space.id, cr.number, [change])
        cr = await client.change_requests.get(space.id, cr.number)
        return space, cr, page.id
