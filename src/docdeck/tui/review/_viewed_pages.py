"""Which changed pages I marked viewed, and which changed since my latest review: an
invisible part of the review pane that reads them when the pane's changes or reviews arrive,
keeps `V`'s marks (per account, `viewed.py`), and shows them in the changed-pages list and
the counts line."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from rich.text import Text
from textual.widget import Widget
from textual.widgets import Static
from textual.worker import Worker

from docdeck.models.change_requests import ChangeRequestReview
from docdeck.tui.content.revision_cache import RevisionContent
from docdeck.tui.kit.session import session_of
from docdeck.tui.kit.workers import client_of, read, report_worker_failure, work
from docdeck.tui.review.changes import ChangedPage, ReviewChanges
from docdeck.tui.review.viewed import Mark, ViewedMarks, digest, viewed_path

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Space
    from docdeck.tui.review._changed_pages import ChangedPagesList
    from docdeck.tui.review._header_view import ReviewHeader
    from docdeck.tui.review.content import ChangeRequestContent

__all__ = ["MarksSource", "ViewedPages"]


class MarksSource(Protocol):
    """What the marks read from the pane: the change request and its changes as last read,
    the list that shows them, the header's reviews, and the page contents."""

    space: Space
    change_request: ChangeRequest
    changes: ReviewChanges | None

    @property
    def pages_list(self) -> ChangedPagesList: ...

    @property
    def header(self) -> ReviewHeader: ...

    def sides(self) -> tuple[ChangeRequestContent, RevisionContent]: ...


class ViewedPages(Widget):
    DEFAULT_CSS = "ViewedPages { display: none; }"

    def __init__(self, source: MarksSource) -> None:
        super().__init__()
        self.source = source

    @property
    def viewed_marks(self) -> ViewedMarks:
        marks = session_of(self).cache(ViewedMarks)
        marks.use(viewed_path(getattr(self.app, "first_view_path", None)))
        return marks

    _marks_asked = False

    def may_change(self) -> None:
        """Read the marks once after this refresh: the changes and the reviews often arrive
        together, and a worker replaced before it starts leaves its coroutine unawaited."""
        if not self._marks_asked:
            self._marks_asked = True
            self.screen.call_after_refresh(self._read_marks_now)

    def _read_marks_now(self) -> None:
        self._marks_asked = False
        self._read_marks()

    async def _markdown_digest(self, page: ChangedPage) -> str:
        content, _base = self.source.sides()
        return digest(await content.markdown(page.page_id) if page.in_change else "")

    @read("review-marks", "Reading what changed since viewed")
    async def _read_marks(self) -> None:
        """Which marks still hold at this revision (the page's markdown is the one marked),
        and which pages changed since my latest review, when it was made on an older
        revision (the platform's outdated review, and the revision it was made on)."""
        changes, cr = self.source.changes, self.source.change_request
        if changes is None:
            return
        marks = self.viewed_marks.of(self.source.space.id, cr.id)
        viewed: set[str] = set()
        lapsed: set[str] = set()
        for page in changes.pages:
            mark = marks.get(page.page_id)
            if mark is None:
                continue
            held = mark.revision == cr.revision or mark.digest == await self._markdown_digest(page)
            (viewed if held else lapsed).add(page.page_id)
        since = await self._changed_since_my_review(changes)
        self.source.pages_list.set_marks(viewed, lapsed, since)
        self._show_counts()
        self.screen.refresh_bindings()

    async def _my_review(self) -> ChangeRequestReview | None:
        reviews = self.source.header.reviews
        if not reviews:
            return None
        session = session_of(self)
        if session.me.user_id is None:
            session.me.user_id = (await client_of(self).users.me()).id
        mine = [r for r in reviews if r.reviewer.id == session.me.user_id]
        return max(mine, key=lambda r: r.updatedAt) if mine else None

    async def _changed_since_my_review(self, changes: ReviewChanges) -> set[str]:
        try:
            review = await self._my_review()
        except Exception:
            return set()  # who I am is unknown: nothing to compare
        if review is None or review.revision == self.source.change_request.revision:
            self.since_review_revision = None
            return set()
        self.since_review_revision = review.revision
        then = RevisionContent(client_of(self), self.source.space.id, review.revision)
        changed: set[str] = set()
        for page in changes.pages:
            if not page.in_change:
                continue  # deleted: no markdown to compare (see docs/tui.md)
            try:
                before = digest(await then.markdown(page.page_id))
            except Exception:
                before = ""  # not in that revision (or unreadable): new since
            if before != await self._markdown_digest(page):
                changed.add(page.page_id)
        return changed

    since_review_revision: str | None = None
    """The revision of my latest review when the change request has moved past it."""

    def _show_counts(self) -> None:
        if self.source.changes is None:
            return
        text = Text(self.source.changes.summary(), style="bold")
        pages = self.source.pages_list
        total = len(self.source.changes.pages)
        if pages.viewed or pages.lapsed:
            text.append(f" · {len(pages.viewed)}/{total} viewed", style="green")
        if self.since_review_revision is not None:
            count = len(pages.since_review)
            text.append(f" · {count} new since your review", style="yellow")
        self.screen.query_one("#review-counts", Static).update(text)

    def toggle_shown(self) -> None:
        """`V`: the changed page shown marked viewed, or not."""
        page = self.source.pages_list.current
        if page is None:
            self.notify("No changed page is shown.", title="Viewed")
            return
        self._toggle_viewed(page)

    @work(
        group="review-viewed",
        exit_on_error=False,
        name=lambda self, page: f"Marking “{page.title}” viewed",
    )
    async def _toggle_viewed(self, page: ChangedPage) -> None:
        marks, cr, pages = self.viewed_marks, self.source.change_request, self.source.pages_list
        if page.page_id in pages.viewed:
            marks.unmark(self.source.space.id, cr.id, page.page_id)
            viewed = pages.viewed - {page.page_id}
        else:
            mark = Mark(cr.revision, await self._markdown_digest(page))
            marks.mark(self.source.space.id, cr.id, page.page_id, mark)
            viewed = pages.viewed | {page.page_id}
        pages.set_marks(viewed, pages.lapsed - {page.page_id}, pages.since_review)
        self._show_counts()
        self.screen.refresh_bindings()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
