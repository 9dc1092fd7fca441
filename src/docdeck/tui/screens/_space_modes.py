"""The space screen's views besides the pages: links, files, search, history.

They share the screen's body (a `ContentSwitcher`: the views stay mounted, so going
back to the pages finds the tree and the preview as they were). Each view loads when
first shown, through the revision's cache; Escape goes back to the pages.
"""

from __future__ import annotations

import os
from pathlib import Path

from textual import on
from textual.timer import Timer
from textual.widgets import ContentSwitcher, Input

from docdeck.models import RevisionFile
from docdeck.tui.errors import describe
from docdeck.tui.link_rows import LinkRow, find_link, link_rows
from docdeck.tui.screens._space_reading import Location, SpaceReading
from docdeck.tui.widgets.space._files_view import FilesView
from docdeck.tui.widgets.space._links_view import LinksView
from docdeck.tui.widgets.space._save_dialog import SaveDialog
from docdeck.tui.widgets.space._search_view import SearchView

__all__ = ["MODES", "SpaceModes"]

MODES = ("pages", "links", "files", "search", "history")

SEARCH_PAUSE = 0.25
"""Seconds of no typing before the search is sent."""

TEXT_PAGES = 40
"""Pages whose markdown is read to show the text of their broken and in-app links."""


class SpaceModes(SpaceReading):
    older: bool
    broken_count: int | None = None
    _search_timer: Timer | None = None

    @property
    def mode(self) -> str:
        current = self.query_one("#space-modes", ContentSwitcher).current or "pages-mode"
        return current.removesuffix("-mode")

    def action_mode(self, name: str) -> None:
        if name not in MODES:
            return
        self.query_one("#space-modes", ContentSwitcher).current = f"{name}-mode"
        getattr(self, f"enter_{name}")()
        self.refresh_bindings()

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

    async def _load_links(self) -> None:
        view = self.links_view
        try:
            usages, first = await self.content.links()
        except Exception as error:
            problem = describe(error, "Loading the space's links")
            view.show_error(f"{problem.title}: {problem.brief or problem.message} (r retries)")
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
        view.field.focus()
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
        self.search_view.status(f"searching for “{query}”…")
        self._search_timer = self.set_timer(SEARCH_PAUSE, lambda: self.search(query))

    def search(self, query: str) -> None:
        self.run_worker(
            self._search(query),
            name=f"Searching for “{query}”",
            group="search",
            exclusive=True,  # a newer query cancels this one's request
            exit_on_error=False,
        )

    async def _search(self, query: str) -> None:
        view = self.search_view
        try:
            results = await self.content.search(query)
        except Exception as error:
            problem = describe(error, f"Searching for “{query}”")
            view.status(f"{problem.title}: {problem.brief or problem.message}", error=True)
            return
        if view.field.value.strip() == query:
            view.show_results(query, results)

    @on(SearchView.SearchHitChosen)
    def _search_hit(self, message: SearchView.SearchHitChosen) -> None:
        hit = message.hit
        self.action_mode("pages")
        self.show(Location(hit.page_id, anchor=hit.anchor))
        self.focus_preview()

    # ----- files -----------------------------------------------------------------------------

    @property
    def files_view(self) -> FilesView:
        return self.query_one(FilesView)

    def enter_files(self) -> None:
        view = self.files_view
        if not view.loaded and self.pages is not None:
            view.show_files(self.pages.files)
        view.table.focus()

    def show_file(self, file_id: str) -> None:
        self.action_mode("files")
        self.files_view.select(file_id)

    @on(FilesView.FileHighlighted)
    def _file_highlighted(self, message: FilesView.FileHighlighted) -> None:
        self.load_backlinks(message.file)

    def load_backlinks(self, file: RevisionFile) -> None:
        self.run_worker(
            self._load_backlinks(file),
            name=f"Reading the backlinks of {file.name}",
            group="backlinks",
            exclusive=True,
            exit_on_error=False,
        )

    async def _load_backlinks(self, file: RevisionFile) -> None:
        try:
            found = await self.content.backlinks(file.id)
        except Exception:
            self.files_view.show_backlinks(file, None)
            raise  # reported once, by the worker's failure
        self.files_view.show_backlinks(file, found)

    @on(FilesView.BacklinkChosen)
    def _backlink_chosen(self, message: FilesView.BacklinkChosen) -> None:
        self.action_mode("pages")
        self.run_worker(
            self._open_at_file_link(message.page_id, message.file),
            name="Opening the page",
            group="preview",
            exclusive=True,
            exit_on_error=False,
        )

    async def _open_at_file_link(self, page_id: str, file: RevisionFile) -> None:
        line = None
        if self.pages is not None:
            source = self.pages.by_id.get(page_id)
            try:
                markdown = await self.content.markdown(page_id)
            except Exception:
                markdown = ""
            from docdeck.tui.space_text import links

            for link in links(markdown):
                target = self.pages.resolve(source, link.href) if source else None
                if target is not None and target.file is not None and target.file.id == file.id:
                    line = link.line
                    break
        self.show(Location(page_id, line=line))
        self.focus_preview()

    @on(FilesView.SaveAsked)
    def _save_asked(self, message: FilesView.SaveAsked) -> None:
        file = message.file
        default = str(Path.cwd() / file.name)

        async def save(path: str) -> str:
            return await self.save_file(file, path)

        def saved(path: str | None) -> None:
            if path:
                self.notify(f"{file.name} → {path}", title="Saved")

        self.app.push_screen(SaveDialog(f"Save {file.name} to", default, save), saved)

    async def save_file(self, file: RevisionFile, path_text: str) -> str:
        """Write the file to `path_text`; why not, or "" when it is written."""
        text = path_text.strip()
        if not text:
            return "Type a path to save to."
        path = Path(os.path.expanduser(text))
        if path.is_dir():
            path = path / file.name
        if path.exists():
            return f"{path} exists: choose another name (nothing is replaced)."
        if not path.parent.is_dir():
            return f"The folder {path.parent} does not exist."
        partial = path.with_name(path.name + ".part")
        try:
            with partial.open("xb") as out:
                await self.content.client.content.download(file, out.write)
            partial.rename(path)
        except OSError as error:
            partial.unlink(missing_ok=True)
            return f"Could not write {path}: {error.strerror or error}."
        except Exception as error:
            partial.unlink(missing_ok=True)
            problem = describe(error, f"Downloading {file.name}")
            return f"{problem.title}: {problem.brief or problem.message}"
        return ""
