"""The review pane's header, reading its own reviews and requested reviewers.

The change request itself comes from the pane (its `ReviewSource`: a reload replaces it); the
header asks for the change request's reviews and requested reviewers each time it is
loaded, shows a failure in place (with `r` to retry where it can help), and says when the
reviews are read (`ReviewsRead`: what changed since my review follows them)."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from textual.message import Message
from textual.widgets import Static
from textual.worker import Worker

from docdeck.models.change_requests import ChangeRequestRequestedReviewer, ChangeRequestReview
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.workers import client_of, read, report_worker_failure
from docdeck.tui.review._header import header_text

if TYPE_CHECKING:
    from docdeck.tui.review._base import ReviewSource

__all__ = ["ReviewHeader"]


class ReviewHeader(Static):
    class ReviewsRead(Message):
        """The reviews were read (or failed to be)."""

    def __init__(self, source: ReviewSource, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self.source = source
        self.reviews: list[ChangeRequestReview] | None = None
        self.requested: list[ChangeRequestRequestedReviewer] | None = None
        self.problem = ""
        """Why the change request or its reviews were not read (kept until a read succeeds)."""

    def load(self) -> None:
        """Read the reviews and requested reviewers again."""
        self._load()

    @read("review-header", "Reading the reviews")
    async def _load(self) -> None:
        client = client_of(self)
        space_id, cr = self.source.space.id, self.source.change_request

        async def reviews() -> list[ChangeRequestReview]:
            return [r async for r in client.change_requests.reviews.list(space_id, cr.id)]

        async def requested() -> list[ChangeRequestRequestedReviewer]:
            found = client.change_requests.requested_reviewers.list(space_id, cr.id)
            return [r async for r in found]

        try:
            self.reviews, self.requested = await asyncio.gather(reviews(), requested())
            self.problem = ""
        except Exception as error:
            problem = describe(error, "Reading the reviews")
            self.problem = (
                f"reviews not read: {problem.brief or problem.message}{problem.retry_note}"
            )
        self.show()
        self.post_message(self.ReviewsRead())

    def show_problem(self, problem: str) -> None:
        self.problem = problem
        self.show()

    def show(self) -> None:
        self.update(
            header_text(
                self.source.change_request,
                self.reviews,
                self.requested,
                self.problem,
                narrow=self.app.size.width < 100,
            )
        )

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
