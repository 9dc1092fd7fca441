"""Reading a space: which page is shown, how it got there, and going back and forward.

A `Location` is a page and, optionally, a place in it (a heading's anchor or a line).
Every way of reaching a page (the tree, `n`/`p`, a followed link, a search hit, a
broken link, a backlink) goes through `show`, which records the page left in the
back history, as a web browser does; `[` and `]` walk it. Moving the tree cursor
shows the page under it after a short pause, so holding `j` does not ask for every
page it passes (a page already fetched shows at once).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widget import AwaitMount, Widget
from textual.widgets import ContentSwitcher

from docdeck.models import RevisionFile
from docdeck.tui.content import PagePreview, RenderedPage
from docdeck.tui.content.page_prepare import file_summary
from docdeck.tui.content.page_tree import PageInfo, SpacePages, Target
from docdeck.tui.content.revision_cache import RevisionContent
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.kit.workers import read
from docdeck.tui.space._page_tree import PageTree

if TYPE_CHECKING:
    from docdeck.tui.content.page_text import PageLink
    from docdeck.tui.space.link_rows import LinkRow

# A page's headings and links (`t`, `l`, an anchor, a link followed) and the chooser are
# imported when first used: the first page shows none of them.

__all__ = ["HIGHLIGHT_PAUSE", "Location", "SpaceReading"]

HIGHLIGHT_PAUSE = 0.15
"""Seconds the tree cursor rests on a page not fetched yet before it is asked for."""

HISTORY_LIMIT = 200

MODES = ("pages", "links", "files", "search", "history", "change_requests", "comments")
"""The space screen's views (`1`-`6` and `/`): each is `<name>-mode` in its switcher."""


@dataclass(frozen=True)
class Location:
    page_id: str
    anchor: str | None = None
    line: int | None = None


class SpaceReading(Screen[None]):
    content: RevisionContent
    pages: SpacePages | None
    location: Location | None

    def init_reading(self) -> None:
        self.pages = None
        self.location = None
        self.back_stack: list[Location] = []
        self.forward_stack: list[Location] = []
        self._pause: Timer | None = None
        self.read_on_arrival: Location | None = None
        """A page to focus once it is shown (`docdeck open` at a page): `G`, `t` and `/`
        then act on it. Any other page shown first cancels it."""
        self._mounting: dict[str, AwaitMount] = {}

    @property
    def page_tree(self) -> PageTree:
        return self.query_one(PageTree)

    @property
    def preview(self) -> PagePreview:
        # Kept once found: key bindings ask for it (and `mode`) dozens of times per key, and
        # each query walks the whole screen (see check_action).
        found: PagePreview | None = getattr(self, "_preview_widget", None)
        if found is None or found.parent is None:
            found = self._preview_widget = self.query_one(PagePreview)
        return found

    def first_content_shown(self) -> bool:
        """The page shown has its first lines (it renders in a thread after the first load):
        what `kit.beneath` waits for before building the screens behind this one."""
        view = self.preview.view
        return not isinstance(view, RenderedPage) or view.line_count > 0 or view.complete

    @property
    def composed(self) -> bool:
        """True once the preview exists (bindings are checked before compose, too)."""
        try:
            return self.preview is not None
        except NoMatches:
            return False

    @property
    def current_page(self) -> PageInfo | None:
        if self.pages is None or self.location is None:
            return None
        return self.pages.by_id.get(self.location.page_id)

    @property
    def mode(self) -> str:
        current: ContentSwitcher | None = getattr(self, "_modes_widget", None)
        if current is None or current.parent is None:
            switchers = self.query("#space-modes").results(ContentSwitcher)
            current = self._modes_widget = next(switchers, None)
        name = (current.current if current is not None else None) or "pages-mode"
        return name.removesuffix("-mode")

    def action_mode(self, name: str) -> None:
        if name not in MODES:
            return
        self.with_view(name, lambda: self._enter_mode(name))

    def _enter_mode(self, name: str) -> None:
        self.query_one("#space-modes", ContentSwitcher).current = f"{name}-mode"
        getattr(self, f"enter_{name}")()
        self.refresh_bindings()

    # ----- the views, made when first wanted -------------------------------------------------

    def make_view(self, name: str) -> Widget:
        """A new view `name` (not the pages), with the id `<name>-mode`: the screen's."""
        raise NotImplementedError

    def has_view(self, name: str) -> bool:
        """The view `name` is there, composed (the pages always are; asked before the
        screen is composed, no other view is)."""
        if name == "pages":
            return True
        return name not in self._mounting and bool(self.query(f"#{name}-mode"))

    def with_view(self, name: str, then: Callable[[], None]) -> None:
        """Run `then` once the view `name` is there. A space opens with its pages alone; each
        other view is made, mounted and composed the first time it is wanted (styling and
        mounting them all cost a space's opening about a quarter of its time). Keys typed
        meanwhile wait for `then` (`kit/typeahead.py`), so they reach the view."""
        if self.has_view(name):
            then()
            return
        mounting = self._mounting.get(name)
        if mounting is None:
            view = self.make_view(name)
            view.display = False  # shown when its mode is the switcher's current one
            switcher = self.query_one("#space-modes", ContentSwitcher)
            mounting = self._mounting[name] = switcher.mount(view)

        async def when_mounted() -> None:
            await mounting
            self._mounting.pop(name, None)
            then()

        opens_a_screen(
            self.run_worker(when_mounted, name=f"Opening the {name} view", group=f"view-{name}")
        )

    # ----- going somewhere -------------------------------------------------------------------

    def show(self, location: Location, *, record: bool = True) -> None:
        """Show a page (at an anchor or line), remembering where we were."""
        if self.pages is None or location.page_id not in self.pages.by_id:
            self.notify("That page is not in this revision.", title="Not found", severity="warning")
            return
        if self._pause is not None:
            self._pause.stop()
            self._pause = None
        previous = self.location
        if record and previous is not None and previous != location:
            self.back_stack.append(previous)
            del self.back_stack[:-HISTORY_LIMIT]
            self.forward_stack.clear()
        self.location = location
        page = self.pages.by_id[location.page_id]
        if self.page_tree.current is not page:
            self.page_tree.select_page(page)
        same_page = (
            previous is not None
            and previous.page_id == location.page_id
            and self.preview.page is page
            and self.preview.markdown is not None
        )
        if same_page and (location.anchor or location.line is not None):
            line = self._line_of(location, self.preview.markdown or "")
            if line is not None:
                self.run_worker(partial(self.preview.goto_line, line), group="goto", exclusive=True)  # type: ignore[arg-type]
            return
        if same_page:
            return
        self._load(page, location)
        self.page_changed()

    def open_at_link(self, row: LinkRow) -> None:
        """The page a link is in, at the link (a row of the links view)."""
        self.action_mode("pages")
        self._open_at_link(row)

    @read("preview", lambda self, row: f"Opening “{row.source_title}”")
    async def _open_at_link(self, row: LinkRow) -> None:
        from docdeck.tui.space.link_rows import find_link

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

    def open_at_file_link(self, page_id: str, file: RevisionFile) -> None:
        """The page `page_id` at its link to `file` (a backlink chosen)."""
        self.action_mode("pages")
        self._open_at_file_link(page_id, file)

    @read("preview", "Opening the page")
    async def _open_at_file_link(self, page_id: str, file: RevisionFile) -> None:
        from docdeck.tui.content.page_text import links

        line = None
        if self.pages is not None:
            source = self.pages.by_id.get(page_id)
            try:
                markdown = await self.content.markdown(page_id)
            except Exception:
                markdown = ""
            for link in links(markdown):
                target = self.pages.resolve(source, link.href) if source else None
                if target is not None and target.file is not None and target.file.id == file.id:
                    line = link.line
                    break
        self.show(Location(page_id, line=line))
        self.focus_preview()

    def page_changed(self) -> None:
        """The breadcrumb and keys follow the page (the screen fills this in)."""

    def _load(self, page: PageInfo, location: Location) -> None:
        preview = self.preview
        if not page.readable:
            preview.show_message(page, self._describe_page(page))
            return
        markdown = self.content.cached(("markdown", page.id))
        if markdown is not None:
            preview.show_page(page, markdown, self._files(), line=self._line_of(location, markdown))
            self._arrived(location)
            return
        preview.show_loading(page)
        self._fetch(page, location)

    @read("preview", lambda self, page, location: f"Reading “{page.title}”")
    async def _fetch(self, page: PageInfo, location: Location) -> None:
        try:
            markdown = await self.content.markdown(page.id)
        except Exception as error:
            if self.location == location:
                problem = describe(error, f"Reading “{page.title}”")
                text = f"{problem.title}\n\n{problem.message}\n\nPress r to try again."
                self.preview.show_message(page, text, error=True)
                if problem.fatal:
                    self.app.report_error(error, f"Reading “{page.title}”")  # type: ignore[attr-defined]
            return
        if self.location == location:
            self.preview.show_page(
                page, markdown, self._files(), line=self._line_of(location, markdown)
            )
            self._arrived(location)

    def _arrived(self, location: Location) -> None:
        wanted, self.read_on_arrival = self.read_on_arrival, None
        if wanted == location:
            self.focus_preview()

    def _files(self) -> list:  # type: ignore[type-arg]
        return self.pages.files if self.pages is not None else []

    def _line_of(self, location: Location, markdown: str) -> int | None:
        if location.line is not None:
            return location.line
        if location.anchor:
            from docdeck.tui.content.page_text import headings

            for heading in headings(markdown):
                if heading.anchor == location.anchor:
                    return heading.line
            self.notify(
                f"“#{location.anchor}” is not a heading of this page; showing its top.",
                title="Anchor not found",
                severity="warning",
            )
        return None

    def _describe_page(self, page: PageInfo) -> str:
        if page.type == "group":
            count = len(page.children)
            plural = "s" if count != 1 else ""
            return f"A group of {count} page{plural}. Expand it with → in the tree."
        if page.type == "link":
            href = getattr(page.page, "href", None) or self._target_text(page)
            return f"A link page to {href}.\n\nEnter follows it (o opens it in the browser)."
        return f"A {page.type} page: it has no markdown to show."

    def _target_text(self, page: PageInfo) -> str:
        target = getattr(page.page, "target", None)
        if target is None:
            return "(nowhere)"
        for name in ("url", "page", "file", "space"):
            value = getattr(target, name, None)
            if value:
                return f"{name} {value}"
        return "(unknown target)"

    def on_page_tree_page_highlighted(self, message: PageTree.PageHighlighted) -> None:
        page = message.page
        if page is not self.page_tree.current:
            return  # the cursor has moved on since (see `PageTree._highlighted`)
        if self.location is not None and self.location.page_id == page.id:
            return
        if self._pause is not None:
            self._pause.stop()
        cached = not page.readable or self.content.cached(("markdown", page.id)) is not None
        if cached:
            self.show(Location(page.id))
        else:
            self._pause = self.set_timer(HIGHLIGHT_PAUSE, lambda: self._show_highlighted(page))

    def _show_highlighted(self, page: PageInfo) -> None:
        """The pause after a highlight is over: show the page if the cursor is still on it.
        A timer that fired as the cursor moved on (a filter typed further, a held arrow key)
        is a callback already queued, which `stop` no longer cancels: showing its page then
        took the cursor back, clearing the filter typed meanwhile."""
        if page is self.page_tree.current:
            self.show(Location(page.id))

    def on_rendered_page_link_clicked(self, message: RenderedPage.LinkClicked) -> None:
        message.stop()
        self.follow(message.href)

    def on_page_tree_page_chosen(self, message: PageTree.PageChosen) -> None:
        page = message.page
        if page.type == "link":
            self.follow_link_page(page)
            return
        self.show(Location(page.id))
        if page.readable:
            self.focus_preview()

    def focus_preview(self) -> None:
        view = self.preview.view
        if view is not None:
            self.preview.slot.focus_when_shown(view)

    # ----- back and forward, next and previous -----------------------------------------------

    def action_history_back(self) -> None:
        self._travel(self.back_stack, self.forward_stack, "back", "Back")

    def action_history_forward(self) -> None:
        self._travel(self.forward_stack, self.back_stack, "forward", "Forward")

    def _travel(self, going: list[Location], coming: list[Location], way: str, title: str) -> None:
        """`[` and `]`: the last place on one stack is shown, the place shown now goes on the
        other, so the opposite key comes back to it."""
        if not going or self.location is None:
            self.notify(f"Nothing to go {way} to.", title=title)
            return
        coming.append(self.location)
        self.show(going.pop(), record=False)

    def action_next_page(self) -> None:
        self._step(1)

    def action_previous_page(self) -> None:
        self._step(-1)

    def _step(self, delta: int) -> None:
        page = self.current_page
        if page is None or self.pages is None:
            return
        target = self.pages.step(page, delta)
        if target is None:
            self.notify("This is the " + ("last" if delta > 0 else "first") + " page.")
            return
        self.show(Location(target.id))

    # ----- links -----------------------------------------------------------------------------

    def action_toc(self) -> None:
        from docdeck.tui.content.page_text import headings
        from docdeck.tui.kit.chooser import Chooser

        markdown = self.preview.markdown
        page = self.current_page
        if markdown is None or page is None:
            return
        found = headings(markdown)
        if not found:
            self.notify("This page has no headings.", title="Contents")
            return
        items = [("  " * (h.level - 1) + h.title, h) for h in found]

        def chosen(heading: object) -> None:
            if heading is not None and self.location is not None:
                self.show(Location(page.id, line=heading.line))  # type: ignore[attr-defined]

        self.app.push_screen(Chooser(f"Contents of “{page.title}”", items), chosen)

    def action_page_links(self) -> None:
        from docdeck.tui.content.page_text import PageLink, links
        from docdeck.tui.kit.chooser import Chooser

        markdown = self.preview.markdown
        page = self.current_page
        if markdown is None or page is None or self.pages is None:
            return
        found = links(markdown)
        if not found:
            self.notify("This page has no links.", title="Links")
            return
        pages = self.pages
        items = [
            (f"{link.text}  → {self._where(pages.resolve(page, link.href), link)}", link)
            for link in found
        ]

        def chosen(link: object) -> None:
            if isinstance(link, PageLink):
                self.follow(link.href)

        self.app.push_screen(
            Chooser(
                f"Links in “{page.title}”",
                items,
                hint="enter: follow · y: copy target · o: open in browser · esc: close",
                on_copy=lambda link: copy_value(self, CopyValue("Link target", link.href)),
                on_open=lambda link: self.open_href(link.href),
            ),
            chosen,
        )

    def _where(self, target: Target, link: PageLink) -> str:
        if target.kind == "page" and target.page is not None:
            anchor = f"#{target.anchor}" if target.anchor else ""
            return f"{target.page.title}{anchor}"
        if target.kind == "file" and target.file is not None:
            return f"file {file_summary(target.file)}"
        if target.kind == "url":
            return target.url
        return f"{link.href} (broken)"

    def follow(self, href: str) -> None:
        page = self.current_page
        if page is None or self.pages is None:
            return
        target = self.pages.resolve(page, href)
        if target.kind == "page" and target.page is not None:
            if target.page.readable or target.page.type != "link":
                self.show(Location(target.page.id, anchor=target.anchor))
            else:
                self.follow_link_page(target.page)
        elif target.kind == "file" and target.file is not None:
            self.show_file(target.file.id)
        elif target.kind == "url":
            self.open_href(target.url)
        else:
            self.notify(
                f"{href} points to nothing in this revision (a broken link).",
                title="Broken link",
                severity="warning",
            )

    def follow_link_page(self, page: PageInfo) -> None:
        target = getattr(page.page, "target", None)
        kind = getattr(target, "kind", None)
        if kind == "page" and self.pages is not None and target.page in self.pages.by_id:  # type: ignore[union-attr]
            self.show(Location(target.page))  # type: ignore[union-attr]
        elif kind == "url":
            self.open_href(target.url)  # type: ignore[union-attr]
        elif kind == "file":
            self.show_file(target.file)  # type: ignore[union-attr]
        else:
            self.notify(f"This link page points to {self._target_text(page)}.", title="Link page")

    def open_href(self, href: str) -> None:
        if "://" not in href and not href.startswith("/app/"):
            self.follow(href)
            return
        open_url(self, href, "Link")

    def show_file(self, file_id: str) -> None:
        """Files mode with this file selected (the screen fills this in)."""

    def on_markdown_link_clicked(self, message: object) -> None:
        href = getattr(message, "href", "")
        if href:
            self.follow(href)
