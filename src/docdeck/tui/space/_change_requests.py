"""The space screen's change requests (`5`): the list, its filters, and Enter opening the
review pane.

The list is one request (`GET {S}/change-requests` for the status and contributor asked
for, every page of it); each listed change request's review state then arrives from its
reviews, a few requests at a time, without holding the list up.

The list is read again when the user comes back from a change request's pane (what was
done there shows in its row) and when a write sent from a closed pane lands meanwhile
(`WriteLanded`: an update from main that finished after Escape).
"""

from __future__ import annotations

import asyncio

from textual import events, on

from docdeck.models import ChangeRequest, Space
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.in_flight import WriteLanded
from docdeck.tui.kit.navigation import OpenChangeRequest
from docdeck.tui.kit.workers import client_of
from docdeck.tui.review import ChangeRequestsView, review_state
from docdeck.tui.space._reading import SpaceReading

__all__ = ["REVIEW_STATE_CONCURRENCY", "SpaceChangeRequests"]

REVIEW_STATE_CONCURRENCY = 4
"""Reviews lists read at the same time to fill the review state column."""


class SpaceChangeRequests(SpaceReading):
    space: Space

    @property
    def change_requests_view(self) -> ChangeRequestsView:
        return self.query_one(ChangeRequestsView)

    def enter_change_requests(self) -> None:
        view = self.change_requests_view
        view.table.focus()
        if not view.loaded:
            self.load_change_requests()

    _visited: str | None = None
    """The change request whose pane was opened from the list, until the list is back."""

    def load_change_requests(self, *, forget: str | None = None) -> None:
        """Read the list; `forget`: a change request whose review state is read again."""
        if forget is not None:
            self.change_requests_view.verdicts.pop(forget, None)
        self.run_worker(
            self._load_change_requests(),
            name="Reading the space's change requests",
            group="change-requests",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_change_requests(self) -> None:
        view = self.change_requests_view
        client = client_of(self)
        contributor = view.contributor[0] if view.contributor else None
        try:
            found = client.change_requests.list(
                self.space.id,
                status=view.status,
                contributor=contributor,
                limit=100,
            )
            items = [cr async for cr in found]
        except Exception as error:
            problem = describe(error, "Reading the space's change requests")
            view.show_error(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}"
            )
            return
        view.show_change_requests(items)
        limit = asyncio.Semaphore(REVIEW_STATE_CONCURRENCY)

        async def verdicts(cr: ChangeRequest) -> None:
            async with limit:
                try:
                    reviews = [
                        r async for r in client.change_requests.reviews.list(self.space.id, cr.id)
                    ]
                except Exception:
                    return  # the cell keeps its "…"; the review pane shows the failure
                view.set_verdicts(cr.id, review_state(reviews, cr))

        await asyncio.gather(*(verdicts(cr) for cr in items if cr.id not in view.verdicts))

    @on(ChangeRequestsView.FiltersChanged)
    def _filters_changed(self, event: ChangeRequestsView.FiltersChanged) -> None:
        event.stop()
        self.load_change_requests()

    @on(ChangeRequestsView.ChangeRequestChosen)
    def _change_request_chosen(self, event: ChangeRequestsView.ChangeRequestChosen) -> None:
        event.stop()
        self._visited = event.change_request.id
        self.app.post_message(OpenChangeRequest(self.space, event.change_request))

    @on(events.ScreenResume)
    def _back_from_pane(self) -> None:
        visited, self._visited = self._visited, None
        if visited is not None and self.change_requests_view.loaded:
            self.load_change_requests(forget=visited)

    @on(WriteLanded)
    def _write_landed(self, message: WriteLanded) -> None:
        cr = getattr(message.subject, "change_request", None)
        view = self.change_requests_view
        if isinstance(cr, ChangeRequest) and any(c.id == cr.id for c in view.change_requests):
            self.load_change_requests(forget=cr.id)
