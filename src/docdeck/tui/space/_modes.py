"""The space screen's views besides the pages: links, files, search, history, comments.

They share the screen's body (a `ContentSwitcher`: the views stay mounted, so going
back to the pages finds the tree and the preview as they were). Each view loads when
first shown, through the revision's cache; Escape goes back to the pages.
"""

from __future__ import annotations

from textual import on
from textual.timer import Timer
from textual.widgets import Input

from docdeck.gateway import OperationUnavailableError
from docdeck.models import Space
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.formatting import quoted
from docdeck.tui.space._change_requests import SpaceChangeRequests
from docdeck.tui.space._comments import SpaceComments
from docdeck.tui.space._links_view import LinksView
from docdeck.tui.space._reading import Location
from docdeck.tui.space._search_view import SearchView
from docdeck.tui.space.link_rows import LinkRow, find_link, link_rows

__all__ = ["SpaceModes"]


SEARCH_PAUSE = 0.25
"""Seconds of no typing before the search is sent."""

TEXT_PAGES = 40
"""Pages whose markdown is read to show the text of their broken and in-app links."""


class SpaceModes(SpaceChangeRequests, SpaceComments):
    older: bool
    space: Space
    broken_count: int | None = None
    _search_timer: Timer | None = None

    def enter_pages(self) -> None:
        if self.page_tree.display:
            self.page_tree.focus()

    # ----- links -----------------------------------------------------------------------------

    @property
    def links_view(self) -> LinksView:
        return self.query_one(LinksView)

    def enter_links(self) -> None:
        view = self.links_view
        view.table.focus()
        if not view.loaded:
            self.load_links()

    def load_links(self) -> None:
        self.run_worker(
            self._load_links(),
            name="Loading the space's links",
            group="links",
            exclusive=True,
            exit_on_error=False,
        )

    def load_link_stats(self) -> None:
        self.run_worker(
            self._load_link_stats(),
            name="Counting the space's broken links",
            group="link-stats",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_link_stats(self) -> None:
        try:
            stats = (await self.content.link_stats()).stats
        except OperationUnavailableError:
            return  # the links view says so once, in words, when it is opened

        self.broken_count = stats.broken.total
        self.page_changed()

    async def _load_links(self) -> None:
        view = self.links_view
        try:
            usages, first = await self.content.links()
        except Exception as error:
            problem = describe(error, "Loading the space's links")
            if isinstance(error, OperationUnavailableError):
                view.show_error(f"{error.message}; the rest of the space works as usual.")
                return
            view.show_error(
                f"{problem.title}: {problem.brief or problem.message}{problem.retry_note}"
            )
            if problem.fatal:
                self.app.report_error(error, "Loading the links")  # type: ignore[attr-defined]
            return
        rows = link_rows(usages)
        self.broken_count = first.stats.broken.total
        self.page_changed()
        view.show_rows(rows, first.stats.total, first.stats.broken.total)
        await self._fill_link_texts(rows)

    async def _fill_link_texts(self, rows: list[LinkRow]) -> None:
        """The text of broken and in-app links (the API gives targets, not texts)."""
        pages = self.pages
        if pages is None:
            return
        wanted = [r for r in rows if r.status != "ok"]
        sources = list(dict.fromkeys(r.source_id for r in wanted))[:TEXT_PAGES]
        for source in sources:
            try:
                markdown = await self.content.markdown(source)
            except Exception:
                continue  # the text is a nicety: the row still says page and target
            for row in wanted:
                if row.source_id == source:
                    link = find_link(row, markdown, pages)
                    if link is not None:
                        self.links_view.set_text(row, link.text)
        self.links_view.refill()

    @on(LinksView.LinkChosen)
    def _link_chosen(self, message: LinksView.LinkChosen) -> None:
        self.open_at_link(message.row)

    def open_at_link(self, row: LinkRow) -> None:
        self.action_mode("pages")
        self.run_worker(
            self._open_at_link(row),
            name=f"Opening “{row.source_title}”",
            group="preview",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_at_link(self, row: LinkRow) -> None:
        line = None
        if self.pages is not None:
            try:
                markdown = await self.content.markdown(row.source_id)
            except Exception:
                markdown = None  # showing the page reports the failure in place
            link = find_link(row, markdown, self.pages) if markdown is not None else None
            line = link.line if link is not None else None
        self.show(Location(row.source_id, line=line))
        self.focus_preview()

    # ----- search ----------------------------------------------------------------------------

    @property
    def search_view(self) -> SearchView:
        return self.query_one(SearchView)

    def enter_search(self) -> None:
        view = self.search_view
        focus_now(view.field)  # the keys typed right after "/" are the query's
        if self.older:
            view.status("Search looks in the space's current content, not this revision.")

    @on(Input.Changed, "#search-input")
    def _search_typed(self, event: Input.Changed) -> None:
        event.stop()
        if self._search_timer is not None:
            self._search_timer.stop()
        query = event.value.strip()
        if not query:
            self.workers.cancel_group(self, "search")
            self.search_view.clear()
            return
        self.search_view.status(f"searching for {quoted(query)}…")
        self._search_timer = self.set_timer(SEARCH_PAUSE, lambda: self.search(query))

    def search(self, query: str) -> None:
        self.run_worker(
            self._search(query),
            name=f"Searching for {quoted(query)}",
            group="search",
            exclusive=True,  # a newer query cancels this one's request
            exit_on_error=False,
        )

    async def _search(self, query: str, page: str | None = None) -> None:
        view = self.search_view
        try:
            found = await self.content.search(query, page)
        except Exception as error:
            problem = describe(error, f"Searching for {quoted(query)}")
            view.loading_more = False
            view.status(f"{problem.title}: {problem.brief or problem.message}", error=True)
            return
        if view.field.value.strip() == query:
            view.show_results(query, found, more=page is not None)

    @on(SearchView.MoreWanted)
    def _search_more(self, message: SearchView.MoreWanted) -> None:
        self.run_worker(
            self._search(message.query, message.page),
            name=f"Reading more results for {quoted(message.query)}",
            group="search",
            exclusive=True,
            exit_on_error=False,
        )

    @on(SearchView.SearchHitChosen)
    def _search_hit(self, message: SearchView.SearchHitChosen) -> None:
        hit = message.hit
        self.action_mode("pages")
        self.show(Location(hit.page_id, anchor=hit.anchor))
        self.focus_preview()
