"""Driving the review actions against the sandbox demo's change requests.

Until the review pane is on main, the actions mixin is hosted by a minimal screen that keeps
the pane's contract (`space`, `change_request`, `reload()`, `current_page_id()`), re-reading
the change request from the server on every reload.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.pilot import Pilot
from textual.widgets import Static

from docdeck.gateway import Client
from docdeck.models import ChangeRequest, Space
from docdeck.tui.screens._review_actions import ReviewActions
from tui.helpers import wait_for_organizations, wait_for_workers, wait_until

SPACE = "Public API Reference"


class ReviewHost(ReviewActions):
    def __init__(self, space: Space, change_request: ChangeRequest, page_id: str | None) -> None:
        super().__init__()
        self.space = space
        self.change_request = change_request
        self.page_id = page_id
        self.reloads = 0

    def compose(self) -> ComposeResult:
        yield Static(self._state(), id="host-state")

    def _state(self) -> str:
        cr = self.change_request
        return f"#{cr.number} {cr.subject} · {cr.status} · outdated={cr.outdated}"

    def reload(self) -> None:
        self.run_worker(self._reload(), group="host-reload", exclusive=True)

    async def _reload(self) -> None:
        client = self.app.client  # type: ignore[attr-defined]
        self.change_request = await client.change_requests.get(
            self.space.id, self.change_request.number
        )
        self.query_one("#host-state", Static).update(self._state())
        self.reloads += 1

    def current_page_id(self) -> str | None:
        return self.page_id


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


async def open_host(pilot: Pilot[None], number: int, page: str | None = None) -> ReviewHost:
    await wait_for_organizations(pilot)
    client: Client = pilot.app.client  # type: ignore[attr-defined]
    space = await find_space(client)
    change_request = await client.change_requests.get(space.id, number)
    page_ref = await page_id(client, space, number, page) if page else None
    host = ReviewHost(space, change_request, page_ref)
    await pilot.app.push_screen(host)
    await wait_for_workers(pilot)
    return host


async def reloaded(pilot: Pilot[None], host: ReviewHost, before: int) -> None:
    await wait_until(pilot, lambda: host.reloads > before, "the pane reloaded")
    await wait_for_workers(pilot)
