"""The space screen's change requests (`5`): review's list, reading its own data, and
Enter opening the review pane.

The list is one request (`GET {S}/change-requests` for the status and contributor asked
for, every page of it); each listed change request's review state then arrives from its
reviews, a few requests at a time, without holding the list up.

The list is read again when the user comes back from a change request's pane (what was
done there shows in its row: the screen says so, `back_from_pane`) and when a write sent
from a closed pane lands meanwhile (`write_landed`: an update from main that finished
after Escape).
"""

from __future__ import annotations

import asyncio

from textual import on
from textual.worker import Worker

from docdeck.models import ChangeRequest
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.in_flight import WriteLanded
from docdeck.tui.kit.navigation import OpenChangeRequest
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.review import ChangeRequestsView, review_state
from docdeck.tui.space._source import SpaceSource

__all__ = ["REVIEW_STATE_CONCURRENCY", "ChangeRequestsOfSpace"]

REVIEW_STATE_CONCURRENCY = 4
"""Reviews lists read at the same time to fill the review state column."""


class ChangeRequestsOfSpace(ChangeRequestsView):
    """Review's change-request list, filled with the space's change requests."""

    def __init__(self, source: SpaceSource, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.source = source
        self._visited: str | None = None
        """The change request whose pane was opened from the list, until the list is back."""

    def enter(self) -> None:
        """Shown (`5`): the list, read once."""
        self.table.focus()
        if not self.loaded:
            self.load()

    def load(self, *, forget: str | None = None) -> None:
        """Read the list; `forget`: a change request whose review state is read again."""
        if forget is not None:
            self.verdicts.pop(forget, None)
        self._load()

    def reload(self) -> bool:
        """`r`: the list and every review state read again."""
        self.verdicts.clear()
        self.load()
        return True

    def copy_highlighted(self) -> None:
        """`y`: the highlighted change request's URL."""
        cr = self.highlighted
        if cr is not None:
            copy_value(self.screen, CopyValue("Change request URL", cr.urls.app))

    def open_highlighted(self) -> None:
        """`o`: the highlighted change request in the browser."""
        cr = self.highlighted
        if cr is not None:
            open_url(self.screen, cr.urls.app, "Change request URL")

    @read("change-requests", "Reading the space's change requests")
    async def _load(self) -> None:
        client = client_of(self)
        space_id = self.source.space.id
        contributor = self.contributor[0] if self.contributor else None
        try:
            found = client.change_requests.list(
                space_id,
                status=self.status,
                contributor=contributor,
                limit=100,
            )
            items = [cr async for cr in found]
        except Exception as error:
            problem = describe(error, "Reading the space's change requests")
            self.show_error(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}"
            )
            return
        self.show_change_requests(items)
        limit = asyncio.Semaphore(REVIEW_STATE_CONCURRENCY)

        async def verdicts(cr: ChangeRequest) -> None:
            async with limit:
                try:
                    reviews = [
                        r async for r in client.change_requests.reviews.list(space_id, cr.id)
                    ]
                except Exception:
                    return  # the cell keeps its "…"; the review pane shows the failure
                self.set_verdicts(cr.id, review_state(reviews, cr))

        await asyncio.gather(*(verdicts(cr) for cr in items if cr.id not in self.verdicts))

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    @on(ChangeRequestsView.FiltersChanged)
    def _filters_changed(self, event: ChangeRequestsView.FiltersChanged) -> None:
        event.stop()
        self.load()

    @on(ChangeRequestsView.ChangeRequestChosen)
    def _change_request_chosen(self, event: ChangeRequestsView.ChangeRequestChosen) -> None:
        event.stop()
        self._visited = event.change_request.id
        self.app.post_message(OpenChangeRequest(self.source.space, event.change_request))

    def back_from_pane(self) -> None:
        """The screen is back in front: the change request visited is read again."""
        visited, self._visited = self._visited, None
        if visited is not None and self.loaded:
            self.load(forget=visited)

    def write_landed(self, message: WriteLanded) -> None:
        """A write sent from a closed pane has landed: its change request is read again."""
        cr = getattr(message.subject, "change_request", None)
        if isinstance(cr, ChangeRequest) and any(c.id == cr.id for c in self.change_requests):
            self.load(forget=cr.id)
