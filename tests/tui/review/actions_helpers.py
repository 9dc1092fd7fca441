"""Driving the review actions in the real review pane, opened as a user does (the space
screen, `5`, Enter on the change request), against the sandbox demo's change requests."""

from __future__ import annotations

from textual.pilot import Pilot

from docdeck.gateway import Client
from docdeck.models import Space
from docdeck.tui.review import ReviewScreen
from tui.helpers import wait_for_workers, wait_until
from tui.review.helpers import open_review, review_settled

SPACE = "Public API Reference"
_STATUS = {5: "draft"}
"""The demo's change requests that the list shows under another status than open."""


async def find_space(client: Client, title: str = SPACE) -> Space:
    orgs = await client.orgs.list()
    for org in orgs.items:
        async for space in client.spaces.list(org.id):
            if space.title == title:
                return await client.spaces.get(space.id)
    raise AssertionError(title)


async def page_id(client: Client, space: Space, number: int, title: str) -> str:
    listed = await client.change_requests.content.pages(space.id, number)
    for page in listed.walk():
        if page.title == title:
            return page.id
    raise AssertionError(f"no page {title!r} in #{number}")


async def open_host(pilot: Pilot[None], number: int, page: str | None = None) -> ReviewScreen:
    """The review pane on #number, on the changed page titled `page` when given. Its
    `reload()` is counted (`reloads`), so a test can wait for the reload a write causes."""
    screen = await open_review(pilot, number, _STATUS.get(number, "open"))
    if page is not None:
        client: Client = pilot.app.client  # type: ignore[attr-defined]
        wanted = await page_id(client, screen.space, number, page)
        screen.pages_list.select_page(wanted)
        await wait_until(pilot, lambda: screen.current_page_id() == wanted, f"{page} is shown")
        await review_settled(pilot)
        screen.page_id = wanted  # type: ignore[attr-defined]
    screen.reloads = 0  # type: ignore[attr-defined]
    original = screen.reload

    def counted() -> None:
        screen.reloads += 1  # type: ignore[attr-defined]
        original()

    screen.reload = counted  # type: ignore[method-assign]
    return screen


async def reloaded(pilot: Pilot[None], host: ReviewScreen, before: int) -> None:
    await wait_until(pilot, lambda: host.reloads > before, "the pane reloaded")  # type: ignore[attr-defined]
    await wait_for_workers(pilot)
    await review_settled(pilot)
