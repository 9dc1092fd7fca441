"""The review pane's reads, all in workers.

Opening a change request costs two dependent round trips before its first diff: the
changes (`{CR}/changes`), then both sides of the first changed page at once. The header's
reviews and requested reviewers and the threads are asked once that first diff is drawn:
their reads, answers and widgets (and, with `docdeck open`, httpx's first import) would
otherwise come before it on the one thread that draws; the threads panel itself is mounted
then (`show_threads`). The other pages' diffs are
then fetched in the background, a few at a time, so `}` finds them ready. Everything goes
through the per-revision caches (`review_content`), so nothing is read twice. A failure is
shown where its answer would have been (the header, the list, the diff), with `r` to retry
where a retry can help (`Problem.retry_note`).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING

from rich.text import Text
from textual.screen import Screen
from textual.widgets import ContentSwitcher, Static

from docdeck.models import ChangeRequest, Space
from docdeck.tui.content import PagePreview
from docdeck.tui.content.page_tree import PageInfo
from docdeck.tui.content.revision_cache import RevisionContent
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.review._changed_pages import ChangedPagesList
from docdeck.tui.review._diff_view import DiffView
from docdeck.tui.review._header_view import ReviewHeader
from docdeck.tui.review.changes import ChangedPage, ReviewChanges, review_changes
from docdeck.tui.review.content import (
    DIFF_CONCURRENCY,
    ChangeRequestContent,
    change_request_content,
)

if TYPE_CHECKING:
    from docdeck.tui.review._threads import DiffThreads

__all__ = ["ReviewLoading"]


class ReviewLoading(Screen[None]):
    space: Space
    change_request: ChangeRequest
    changes: ReviewChanges | None = None
    view: str = "diff"
    """'diff' or 'rendered' (`v`)."""

    @property
    def pages_list(self) -> ChangedPagesList:
        return self.query_one(ChangedPagesList)

    @property
    def header(self) -> ReviewHeader:
        return self.query_one(ReviewHeader)

    @property
    def diff_view(self) -> DiffView:
        return self.query_one(DiffView)

    @property
    def preview(self) -> PagePreview:
        return self.query_one(PagePreview)

    diff_threads_part: DiffThreads | None = None
    """The threads' part of the pane, once mounted (`show_threads`)."""

    _threads_mount: asyncio.Future[None] | None = None

    async def show_threads(self) -> None:
        """The threads panel, and `DiffThreads` that ties it to the diff, mounted and started
        once the first diff is drawn, in the slot the pane keeps for the panel (the diff
        keeps its rows). Their code, compose and first frame came before that diff (~20 ms
        of CPU on `docdeck open <change request>`, all on the one thread that draws), and
        the threads are read only from then on anyway. Keys typed ahead wait for it (the
        first load's worker); a thread key pressed before says so (`ReviewScreen.on_key`).

        The mount runs once, in a task of its own that every load awaits: a load is an
        exclusive worker, and one replaced while it waited here (`r`, or the reload after
        an edit) would leave a panel mounted but never started, and the next load would
        mount a second one."""
        if self._threads_mount is None:
            self._threads_mount = asyncio.ensure_future(self._mount_threads())
        await asyncio.shield(self._threads_mount)

    async def _mount_threads(self) -> None:
        from docdeck.tui.review._threads import DiffThreads
        from docdeck.tui.threads import ThreadsPanel

        part = DiffThreads(self)  # type: ignore[arg-type]  # the pane (`ReviewScreen`) is its source
        slot = self.query_one_optional("#review-threads-slot")
        panel = ThreadsPanel(id="review-threads", classes="-docked")
        if slot is not None:
            await self.mount(panel, part, before=slot)
            await slot.remove()
        else:
            await self.mount(panel, part)
        self.diff_threads_part = part
        part.start()
        self.refresh_bindings()

    def sides(self) -> tuple[ChangeRequestContent, RevisionContent]:
        return change_request_content(self, client_of(self), self.space.id, self.change_request)

    # ----- the change request and its header ---------------------------------------------

    def load(self, *, fresh: bool) -> None:
        """`fresh`: read the change request again first (after a write, or `r`)."""
        self._load(fresh)

    _first_load = True
    """No load has run yet: the reviews and threads are asked after its diff is drawn."""

    @read("review", lambda self, *_: f"Opening change request #{self.change_request.number}")
    async def _load(self, fresh: bool) -> None:
        first, self._first_load = self._first_load, False
        read_header = await self._load_changes(fresh, read_header=not first)
        if first or self.diff_threads_part is None:
            # The first load that gets this far (`r` pressed during the first one replaces
            # it): its diff is drawn, then the reviews (unless read already) and the threads.
            await self.wait_for_refresh()
            if first and read_header:
                self.header.load()
            await self.show_threads()

    async def _load_changes(self, fresh: bool, *, read_header: bool) -> bool:
        """The change request (`fresh`), its changes and the current page's diff; False when
        the change request could not be read (the header says why)."""
        client = client_of(self)
        if fresh:
            try:
                self.change_request = await client.change_requests.get(
                    self.space.id, self.change_request.id
                )
            except Exception as error:
                problem = describe(error, f"Reading change request #{self.change_request.number}")
                self.header.show_problem(
                    f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}"
                )
                return False
        if read_header:
            self.header.load()
        self.header.show()
        content, _base = self.sides()
        try:
            changes = await content.changes()
        except Exception as error:
            problem = describe(error, "Reading what the change request changed")
            self.show_list_problem(
                f"{problem.title}\n{problem.brief or problem.message}{problem.retry_note}"
            )
            return True
        self.changes = review_changes(changes)
        keep, self.show_next = self.show_next or self.current_page_id(), None
        self.pages_list.show_changes(self.changes, keep)
        self.query_one("#review-counts", Static).update(Text(self.changes.summary(), style="bold"))
        self.marks_may_change()
        page = self.pages_list.current
        if page is None:
            self.show_page_head(None)
            self.diff_view.clear()
            self.show_diff_message("The change request changes no pages.")
            return True
        self.asked = page.page_id
        await self._show_page(page)
        self._prefetch()
        return True

    def show_list_problem(self, message: str) -> None:
        self.pages_list.clear_options()
        self.query_one("#review-counts", Static).update(Text(message, style="red"))
        self.show_diff_message(message, error=True)

    # ----- one page ------------------------------------------------------------------------

    show_next: str | None = None
    """The page the next load shows (the page just edited), instead of the one shown."""

    asked: str | None = None
    """The page last asked for: the list's highlight event for a page already being shown
    is not a second request to show it."""
    _keys_state: tuple[object, ...] = ()

    def page_chosen(self, page: ChangedPage) -> None:
        self.asked = page.page_id
        self._show_chosen(page)

    @read("review-diff", lambda self, page: f"Reading the diff of “{page.title}”")
    async def _show_chosen(self, page: ChangedPage) -> None:
        await self._show_page(page)

    async def _show_page(self, page: ChangedPage) -> None:
        self.show_page_head(page)
        content, base = self.sides()
        if self.view == "rendered":
            await self._show_rendered(page, content)
            return
        if not page.body_changed and page.in_base and page.in_change:
            self.diff_view.clear()
            self.show_diff_message("The body is unchanged (see the changes above).")
            return
        if self.diff_view.page_id != page.page_id:
            self.show_diff_message("reading both versions…")
        try:
            diff = await content.page_diff(
                base, page.page_id, in_base=page.in_base, in_change=page.in_change
            )
        except Exception as error:
            problem = describe(error, f"Reading the diff of “{page.title}”")
            self.show_diff_message(
                f"{problem.title}: {problem.brief or problem.message}\n\nPress r to try again.",
                error=True,
            )
            return
        current = self.pages_list.current
        if current is None or current.page_id != page.page_id:
            return  # the reader moved on meanwhile
        self.diff_view.show_diff(page.page_id, diff)
        if diff.unified:
            self.query_one("#review-diff-message", Static).display = False
            self.diff_view.display = True
        else:  # both sides without a line: an empty box said nothing
            self.show_diff_message(_no_text(page))
        self.show_page_head(page)
        self.keys_changed()

    def keys_changed(self) -> None:
        """Refresh the footer only when what it offers changed: each refresh recomposes it,
        which costs more than showing the diff."""
        diff = self.diff_view.diff
        state = (
            self.view,
            self.diff_view.diff_layout,
            bool(diff and diff.hunks),
            self.has_class("-diff-only"),
        )
        if state != self._keys_state:
            self._keys_state = state
            self.refresh_bindings()

    def marks_may_change(self) -> None:
        """Called when the changed pages or the reviews arrive (the viewed marks and what
        changed since my review follow them)."""

    async def _show_rendered(self, page: ChangedPage, content: ChangeRequestContent) -> None:
        if not page.in_change:
            info = None
            self.preview.show_message(
                info, "This change request deletes the page; d shows its diff."
            )
            return
        try:
            revision_page = await content.page(page.page_id)
        except Exception as error:
            problem = describe(error, f"Reading “{page.title}”")
            self.preview.show_message(
                None,
                f"{problem.title}: {problem.brief or problem.message}\n\nPress r to try again.",
                error=True,
            )
            return
        markdown = str(getattr(revision_page, "markdown", None) or "")
        self.preview.show_page(PageInfo(revision_page, None, 0), markdown, [])

    def show_diff_message(self, message: str, *, error: bool = False) -> None:
        note = self.query_one("#review-diff-message", Static)
        note.update(Text(message, style="red" if error else "dim"))
        note.display = True
        self.diff_view.display = False

    def show_page_head(self, page: ChangedPage | None) -> None:
        text = Text()
        if page is not None:
            text.append(page.title or "(untitled)", style="bold")
            if page.path:
                text.append(f"  /{page.path}", style="dim")
            text.append(f"  {', '.join(page.kinds)}", style="italic")
            diff = self.diff_view.diff if self.diff_view.page_id == page.page_id else None
            if diff is not None and diff.hunks:
                plural = "s" if diff.hunks != 1 else ""
                counts = f"  +{diff.added} -{diff.removed} · {diff.hunks} hunk{plural}"
                text.append(counts, style="dim")
            for what, before, after in page.attribute_lines():
                text.append(f"\n  {what}: ", style="bold")
                text.append(before, style="red strike")
                text.append(" → ")
                text.append(after, style="green")
        self.query_one("#review-page-head", Static).update(text)

    @read("review-prefetch", "Reading the other pages' diffs")
    async def _prefetch(self) -> None:
        changes = self.changes
        if changes is None:
            return
        content, base = self.sides()
        limit = asyncio.Semaphore(DIFF_CONCURRENCY)

        async def one(page: ChangedPage) -> None:
            async with limit:
                # A failure is shown in place when the reader opens that page.
                with contextlib.suppress(Exception):
                    await content.page_diff(
                        base, page.page_id, in_base=page.in_base, in_change=page.in_change
                    )

        await asyncio.gather(*(one(p) for p in changes.pages if p.body_changed))

    def switch_view(self, view: str) -> None:
        self.view = view
        self.query_one("#review-views", ContentSwitcher).current = (
            "review-preview" if view == "rendered" else "review-diff-pane"
        )
        page = self.pages_list.current
        if page is not None:
            self.page_chosen(page)

    def current_page_id(self) -> str | None:
        """The page whose diff or rendering is shown."""
        page = self.pages_list.current if self.is_mounted else None
        return page.page_id if page is not None else None


def _no_text(page: ChangedPage) -> str:
    """What the diff of a page with no text on either side says (a computed page, a page
    added or emptied without a body)."""
    title = f"“{page.title or '(untitled)'}”"
    if page.in_base and not page.in_change:
        return f"{title} had no text when it was deleted."
    if page.in_change and not page.in_base:
        return f"{title} was added without text."
    return f"Neither version of {title} has any text."
