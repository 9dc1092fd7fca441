"""The space screen: a space's pages and content, pushed over the organization tree.

Escape pops it and the tree is exactly as it was (the tree screen is never touched).
A breadcrumb (organization › collections › space › page) stays on top. Content comes
from one revision (the space's current one, or an older one from the history) through
the app's per-revision cache, so nothing is fetched twice for the same view.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, ClassVar, Protocol

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import ContentSwitcher, Input, Static
from textual.worker import Worker

from docdeck.gateway import OperationUnavailableError
from docdeck.models import Space
from docdeck.tui.content import PagePreview
from docdeck.tui.content.page_tree import PageInfo
from docdeck.tui.content.revision_cache import content_cache
from docdeck.tui.kit.beneath import later
from docdeck.tui.kit.bindings import HELP, QUIT, binder
from docdeck.tui.kit.copy_values import CopyValue
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.focus import focus_now
from docdeck.tui.kit.footer import BrowserFooter
from docdeck.tui.kit.heap import keep_long_lived
from docdeck.tui.kit.in_flight import WriteLanded
from docdeck.tui.kit.sharing import copy_value, open_url
from docdeck.tui.kit.styled import StyledOnMount
from docdeck.tui.kit.workers import client_of, leaving, read, report_worker_failure
from docdeck.tui.space._change_request import ChangeRequestStarter
from docdeck.tui.space._comments import COMMENT_ACTIONS, block_context, line_in_view
from docdeck.tui.space._page_tree import PageTree
from docdeck.tui.space._reading import Location, SpaceReading
from docdeck.tui.space._search_view import SearchView
from docdeck.tui.threads import THREAD_FOOTER, Scope

if TYPE_CHECKING:
    from docdeck.tui.content.page_tree import SpacePages

    # The views besides the pages are imported when first made (`make_view`): a space
    # opened by its URL draws its first page without them.
    from docdeck.tui.space._change_requests import ChangeRequestsOfSpace
    from docdeck.tui.space._files_view import FilesView
    from docdeck.tui.space._history_view import HistoryView
    from docdeck.tui.space._links_view import LinksView
    from docdeck.tui.threads import ThreadsPanel

__all__ = ["SpaceScreen"]


class ListView(Protocol):
    """What `y` and `r` do in a list view: it knows what its rows are."""

    def copy_highlighted(self) -> None: ...

    def reload(self) -> bool:
        """Read again what `r` reads here; False: nothing, the pages' `r` applies."""
        ...


_COPY_LABELS = {"links": "Copy target", "files": "Copy id", "history": "Copy id"}

PAGES_ONLY = frozenset(
    {"next_page", "previous_page", "toc", "page_links", "toggle_raw", "filter", "toggle_tree"}
)
"""Keys that act on the page tree or the preview: hidden in the other views."""


_b = binder("space")


_TO_A_FIELD = {("filter", ()), ("mode", ("search",))}
"""Keys that move focus to a text field: priority bindings (`docdeck.tui.kit.focus`), so the keys
typed right after them are the field's; in a text field they are typed, not run."""


class SpaceScreen(StyledOnMount, SpaceReading):
    AUTO_FOCUS = "#page-tree"
    """Not the hidden filter field, the first focusable part: keys typed ahead are the tree's."""
    KEYS_WAIT_FOR = ("pages", "preview")
    """Keys typed ahead wait for the page tree and the first page (`kit/typeahead.py`)."""
    help_intro = (
        "A space: its page tree on the left, the highlighted page on the right. 1–6 switch "
        "between pages, links, files, history, change requests and comments. In the pages "
        "view n/p go to the next or previous page, t jumps to a heading, / searches, L "
        "follows a link, v shows the raw markdown, z hides the tree for more room, c comments "
        "on the block under the cursor. [ and ] go back and forward through the pages seen. "
        "Enter on a change request (5) opens its review pane. Escape goes back to the tree.\n"
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(
            "N",
            "new_change_request",
            "New CR",
            show=False,
            id="space.new_change_request",
            tooltip="Create a change request of this space and open it",
        ),
        Binding(
            "E",
            "edit_in_change_request",
            "Edit in CR",
            show=False,
            id="space.edit_in_change_request",
            tooltip="Edit this page in $EDITOR in a change request (an open one or a new one)",
        ),
        HELP,
        _b("escape", "back", "Back", "Close the filter or view, or go back to the tree"),
        QUIT,
        _b("1", "mode('pages')", "Pages", "The page tree and the preview"),
        _b("2", "mode('links')", "Links", "Every link in the space, broken ones first"),
        _b("3", "mode('files')", "Files", "The space's files and their backlinks"),
        _b("4", "mode('history')", "History", "The space's revisions and what each changed"),
        _b("5", "mode('change_requests')", "Changes", "The space's change requests (review them)"),
        _b("6", "mode('comments')", "Comments", "The space's comment threads, open and resolved"),
        _b(
            "slash",
            "mode('search')",
            "Search",
            "Search the space's content as you type",
            priority=True,
        ),
        _b("n", "next_page", "Next", "The next page in tree order"),
        _b("p", "previous_page", "Prev", "The previous page in tree order"),
        _b("t", "toc", "Contents", "Jump to a heading of the page"),
        _b("L", "page_links", "Follow", "The page's links: follow one, copy or open it"),
        _b("left_square_bracket", "history_back", "Back", "Back to the page before", show=False),
        _b("right_square_bracket", "history_forward", "Fwd", "Forward again", show=False),
        _b("v", "toggle_raw", "Raw", "Show the raw markdown, or the rendered page"),
        _b("f", "filter", "Filter", "Filter the page tree by title", priority=True),
        _b("y", "copy", "Copy URL", "Copy the page's app URL (or the highlighted item's)"),
        _b("o", "open", "Open", "Open the page in the browser (or copy its URL)"),
        _b("z", "toggle_tree", "Tree", "Hide or show the page tree (more room to read)"),
        _b("r", "refresh", "Refresh", "Check for a newer revision and reload"),
        _b("c", "comment_on_block", "Comment", "Comment on the block under the cursor"),
        _b("C", "comment_on_page", "Comment page", "Comment on the page as a whole"),
    ]
    FOOTER_PRIORITY = (
        "app.help",
        "back",
        *THREAD_FOOTER,
        "mode('search')",
        "mode('links')",
        "mode('files')",
        "mode('history')",
        "mode('change_requests')",
        "mode('pages')",
        "next_page",
        "previous_page",
        "toc",
        "page_links",
        "toggle_raw",
        "filter",
        "copy",
        "open",
        "app.quit",
        "toggle_tree",
        "refresh",
        "mode('comments')",
        "comment_on_block",
    )

    def __init__(
        self,
        space: Space,
        trail: list[str],
        *,
        revision: str | None = None,
        page_id: str | None = None,
        anchor: str | None = None,
        read: bool = False,
    ) -> None:
        """`read`: focus the page `page_id` once shown (not the page tree), as `docdeck open`
        at a page does: the keys typed next are for the page."""
        super().__init__()
        self.space = space
        self.trail = trail
        self.revision_id = revision or space.revision
        self.older = revision is not None and revision != space.revision
        self._start = Location(page_id, anchor=anchor) if page_id else None
        self.init_reading()
        self._read_start = read
        self.broken_count: int | None = None
        """The space's broken links, on the breadcrumb (None: not counted)."""

    def compose(self) -> ComposeResult:
        yield Static("", id="breadcrumb", markup=False)
        with ContentSwitcher(initial="pages-mode", id="space-modes"):
            with Horizontal(id="pages-mode"):
                with Vertical(id="page-tree-panel"):
                    yield Input(placeholder="filter pages by title", id="page-filter")
                    yield PageTree(id="page-tree")
                yield PagePreview(id="preview")
            # The search view from the start: "/" is typed straight into its field ("/web"
            # in one burst), with no view to mount between that key and the next ones. The
            # other views are mounted here when first wanted (`make_view`).
            yield SearchView(self, id="search-mode")
        yield BrowserFooter()
        yield ChangeRequestStarter(self)

    def make_view(self, name: str) -> Widget:
        """The views besides the pages, made when first wanted (`SpaceReading.with_view`)."""
        view: Widget
        if name == "links":
            from docdeck.tui.space._links_view import LinksView

            view = LinksView(self)
        elif name == "files":
            from docdeck.tui.space._files_view import FilesView

            view = FilesView(self)
        elif name == "history":
            from docdeck.tui.space._history_view import HistoryView

            view = HistoryView(self)
        elif name == "change_requests":
            from docdeck.tui.space._change_requests import ChangeRequestsOfSpace

            view = ChangeRequestsOfSpace(self)
        else:
            from docdeck.tui.threads import ThreadsPanel

            view = ThreadsPanel()
        view.id = f"{name}-mode"
        return view

    def on_mount(self) -> None:
        keep_long_lived("space screen")  # its modules (markdown, syntax) are imported now
        self.query_one("#page-filter", Input).display = False
        self.content = content_cache(self).get(client_of(self), self.space.id, self.revision_id)
        self.page_changed()
        self.load_pages()

    # ----- loading ---------------------------------------------------------------------------

    def load_pages(self) -> None:
        # The revision read already (`docdeck open`'s early read, a revision seen before):
        # the tree now, so the screen's first frame has it, not "loading…" and a frame later.
        pages = self.content.pages_now()
        if pages is not None:
            self._show_pages(pages)
            return
        self.preview.show_message(None, "loading the page tree…")
        self._load_pages()

    @read("pages", lambda self, *_: f"Loading the pages of {self.space.title}")
    async def _load_pages(self) -> None:
        try:
            pages = await self.content.pages()
        except Exception as error:
            problem = describe(error, f"Loading the pages of {self.space.title}")
            self.preview.show_message(
                None, f"{problem.title}\n\n{problem.message}\n\nPress r to try again.", error=True
            )
            if problem.fatal:
                self.app.report_error(error, "Loading the pages")  # type: ignore[attr-defined]
            return
        self._show_pages(pages)

    def _show_pages(self, pages: SpacePages) -> None:
        self.pages = pages
        self.page_tree.show_pages(pages)
        start = self._start
        self._start = None
        read, self._read_start = self._read_start, False
        if start is not None and start.page_id not in pages.by_id:
            read = False
            self.notify(
                f"The page {start.page_id} is not in {self.space.title} any more (deleted or "
                "moved out); showing its first page.",
                title="Page not found",
                severity="warning",
            )
            start = None
        if start is None:
            first = pages.first_readable() or (pages.order[0] if pages.order else None)
            if first is None:
                self.preview.show_message(None, "This space has no pages yet.")
                return
            start = Location(first.id)
        read = read and pages.by_id[start.page_id].readable and self.mode == "pages"
        if read:
            self.read_on_arrival = start
        self.show(start, record=False)
        if self.mode == "pages" and not read:
            self.page_tree.focus()
        if not self.older:
            # The broken count on the breadcrumb, once the first page is drawn: its read
            # (and the link models it builds first) would come before the page's own.
            later(self.app, self._count_broken_if_shown)

    def resume_place(self) -> dict[str, object]:
        """Where the user is, for the next start (`docdeck.tui.last_place.Place`'s fields)."""
        location = self.location or self._start
        view = self.preview.view if self.composed else None
        return {
            "kind": "space",
            "space": self.space.id,
            "page": location.page_id if location is not None else None,
            "reading": view is not None and self.focused is view,
        }

    # ----- breadcrumb ------------------------------------------------------------------------

    def page_changed(self) -> None:
        width = max(20, (self.app.size.width or 80) - 2)
        text = self._breadcrumb(with_trail=True)
        if text.cell_len > width:
            text = self._breadcrumb(with_trail=False)
        if text.cell_len > width:
            text.truncate(width, overflow="ellipsis")
        self.query_one("#breadcrumb", Static).update(text)
        self.refresh_bindings()

    def _breadcrumb(self, *, with_trail: bool) -> Text:
        """organization › collections › space › pages; the marks (an older revision, the
        broken count) come first so a narrow terminal cuts the titles, not them."""
        text = Text()
        broken = self.broken_count
        if broken:
            plural = "s" if broken != 1 else ""
            text.append(f"⚠ {broken} broken link{plural} ", style="bold red")
        if self.older:
            text.append(f"@ revision {self.revision_id} ", style="italic")
        if with_trail:
            for title in self.trail:
                text.append(title, style="dim")
                text.append(" › ", style="dim")
        elif self.trail:
            text.append("… › ", style="dim")
        text.append(self.space.title or "(untitled)", style="bold")
        page = self.current_page
        if page is not None and self.pages is not None:
            for part in [*self.pages.ancestors(page), page]:
                text.append(" › ")
                text.append(part.title or "(untitled)")
        return text

    # ----- the views ---------------------------------------------------------------------

    def enter_pages(self) -> None:
        if self.page_tree.display:
            self.page_tree.focus()

    @property
    def links_view(self) -> LinksView:
        from docdeck.tui.space._links_view import LinksView

        return self.query_one("#links-mode", LinksView)

    def enter_links(self) -> None:
        self.links_view.enter()

    def _count_broken_if_shown(self) -> None:
        if not leaving(self):
            self.count_broken()

    @read("link-stats", "Counting the space's broken links")
    async def count_broken(self) -> None:
        """Count the broken links alone (for the breadcrumb), without the links view."""
        try:
            stats = (await self.content.link_stats()).stats
        except OperationUnavailableError:
            return  # the links view says so once, in words, when it is opened
        self.broken_count = stats.broken.total
        self.page_changed()

    def on_links_view_broken_counted(self, message: LinksView.BrokenCounted) -> None:
        self.broken_count = message.broken
        self.page_changed()

    def on_links_view_link_chosen(self, message: LinksView.LinkChosen) -> None:
        self.open_at_link(message.row)

    @property
    def search_view(self) -> SearchView:
        return self.query_one("#search-mode", SearchView)

    def enter_search(self) -> None:
        self.search_view.enter()

    def on_search_view_search_hit_chosen(self, message: SearchView.SearchHitChosen) -> None:
        hit = message.hit
        self.action_mode("pages")
        self.show(Location(hit.page_id, anchor=hit.anchor))
        self.focus_preview()

    def action_new_change_request(self) -> None:
        self.query_one(ChangeRequestStarter).new()

    def action_edit_in_change_request(self) -> None:
        self.query_one(ChangeRequestStarter).edit(self.current_page)

    @property
    def change_requests_view(self) -> ChangeRequestsOfSpace:
        from docdeck.tui.space._change_requests import ChangeRequestsOfSpace

        return self.query_one("#change_requests-mode", ChangeRequestsOfSpace)

    def enter_change_requests(self) -> None:
        self.change_requests_view.enter()

    @on(events.ScreenResume)
    def _back_from_pane(self) -> None:
        if self.has_view("change_requests"):  # none before it is first shown
            self.change_requests_view.back_from_pane()

    @on(WriteLanded)
    def _write_landed(self, message: WriteLanded) -> None:
        if self.has_view("change_requests"):
            self.change_requests_view.write_landed(message)

    # ----- files ---------------------------------------------------------------------------

    @property
    def files_view(self) -> FilesView:
        from docdeck.tui.space._files_view import FilesView

        return self.query_one("#files-mode", FilesView)

    def enter_files(self) -> None:
        self.files_view.enter()

    def show_file(self, file_id: str) -> None:
        def select() -> None:
            self._enter_mode("files")
            self.files_view.select(file_id)

        self.with_view("files", select)

    def on_files_view_backlink_chosen(self, message: FilesView.BacklinkChosen) -> None:
        self.open_at_file_link(message.page_id, message.file)

    # ----- history -------------------------------------------------------------------------

    @property
    def history_view(self) -> HistoryView:
        from docdeck.tui.space._history_view import HistoryView

        return self.query_one("#history-mode", HistoryView)

    def enter_history(self) -> None:
        self.history_view.enter()

    def on_history_view_revision_chosen(self, message: HistoryView.RevisionChosen) -> None:
        page_id = message.page_id
        if page_id is None and self.location is not None:
            page_id = self.location.page_id
        self.open_revision(message.revision.id, page_id)

    # ----- comments ------------------------------------------------------------------------

    @property
    def threads_panel(self) -> ThreadsPanel:
        from docdeck.tui.threads import ThreadsPanel

        return self.query_one("#comments-mode", ThreadsPanel)

    @property
    def comment_scope(self) -> Scope:
        return Scope(self.space.id, can_comment=self.space.permissions.comment)

    def _panel_ready(self) -> ThreadsPanel:
        panel = self.threads_panel
        panel.set_scope(self.comment_scope)
        page = self.current_page
        panel.set_page(page.id if page else None, page.title if page else "")
        return panel

    def enter_comments(self) -> None:
        panel = self._panel_ready()
        panel.thread_list.focus()

    def refresh_comments(self) -> None:
        self.threads_panel.load()

    def check_comment_action(self, action: str) -> bool | None:
        if self.mode != "pages":
            return False
        if action == "comment_on_block" and self._page_at_cursor() is None:
            return False
        return True if self.space.permissions.comment and not self.older else None

    def explain_comment_action(self) -> bool:
        if self.older:
            self.notify(
                "This is an older revision: comments are on the space's current content.",
                title="Not here",
                severity="warning",
            )
            return True
        if not self.space.permissions.comment:
            self.notify(
                f"You may not comment in “{self.space.title}”: it needs the comment role "
                "in the space.",
                title="Not allowed",
                severity="warning",
            )
            return True
        return False

    def on_key(self, event: events.Key) -> None:
        """c or C where commenting is not allowed says why instead of doing nothing."""
        if event.key not in ("c", "C", "shift+c"):
            return  # active_bindings checks every binding: not for every key pressed
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.binding.action not in COMMENT_ACTIONS:
            return
        if self.mode == "pages" and self.explain_comment_action():
            event.stop()

    def action_comment_on_page(self) -> None:
        page = self.current_page
        if page is None:
            return
        context = Text("A new thread on the page ")
        context.append(page.title or "(untitled)", style="bold")
        self.with_view(
            "comments", lambda: self._panel_ready().compose_thread(page.id, None, context)
        )

    def _page_at_cursor(self) -> PageInfo | None:
        """The page `c` comments on: the tree's cursor, shown or still on its way."""
        page = self.page_tree.current or self.current_page
        return page if page is not None and page.readable else None

    def action_comment_on_block(self) -> None:
        page = self._page_at_cursor()
        if page is None:
            return
        if self.current_page is not page:
            self.show(Location(page.id))  # the highlight's pause cut short
        self._comment_block(page.id, page.title)  # the composer: what is typed next is its text

    async def _page_shown(self, page_id: str) -> bool:
        """Wait for the preview's load; True when it shows `page_id`'s markdown."""
        for worker in list(self.app.workers):
            if worker.group == "preview" and worker.node is self and not worker.is_finished:
                with contextlib.suppress(Exception):
                    await worker.wait()
        preview = self.preview
        return (
            preview.markdown is not None and preview.page is not None and preview.page.id == page_id
        )

    @read(
        "comment-block",
        lambda self, page_id, title: f"Reading the blocks of “{title}”",
        opens_a_screen=True,
    )
    async def _comment_block(self, page_id: str, title: str) -> None:
        view = self.preview.view if await self._page_shown(page_id) else None
        line = line_in_view(view) if view is not None else 0
        try:
            blocks = await self.content.blocks(page_id)
        except Exception as error:
            problem = describe(error, f"Reading the blocks of “{title}”")
            self.notify(
                f"{problem.brief or problem.message} (c tries again; C comments on the page)",
                title=problem.title,
                severity="error",
            )
            return
        block = blocks.at_line(line)
        if block is None:
            self.action_comment_on_page()
            return
        context = block_context(title, block)
        self.with_view(
            "comments", lambda: self._panel_ready().compose_thread(page_id, block.key, context)
        )

    # ----- keys ------------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if (action, parameters) in _TO_A_FIELD and isinstance(self.focused, Input):
            return False  # typed into the field
        if not self.composed:
            return True  # asked before the screen is composed
        reading = self.preview.markdown is not None
        if action in PAGES_ONLY and self.mode != "pages":
            return False
        if action == "mode" and parameters and parameters[0] == self.mode:
            return False
        if action in COMMENT_ACTIONS:
            return self.check_comment_action(action)
        if action in ("toc", "page_links", "toggle_raw"):
            return True if reading else None
        if action in ("next_page", "previous_page", "copy", "open"):
            return True if self.current_page is not None else None
        return True

    def footer_label(self, binding: Binding) -> str | None:
        if isinstance(self.focused, Input):
            return binding.description if binding.action == "back" else None
        if binding.action == "cycle_status" and self.mode != "links":
            return None
        if binding.action == "save" and self.mode != "files":
            return None
        if binding.action == "toggle_raw" and self.composed:
            return "Rendered" if self.preview.raw else "Raw"
        if binding.action in ("copy", "open") and self.mode == "comments":
            return None
        if binding.action == "copy":
            return _COPY_LABELS.get(self.mode, binding.description)
        if binding.action == "open" and self.mode in ("files", "history"):
            return None
        if binding.action == "open" and self.mode == "links":
            return "Open link"
        return binding.description

    def action_back(self) -> None:
        if self.mode == "change_requests" and self.change_requests_view.close_filter():
            return
        if self.mode != "pages":
            self.action_mode("pages")
            return
        field = self.query_one("#page-filter", Input)
        if field.display:
            field.value = ""
            field.display = False
            self.page_tree.set_filter("")
            self.page_tree.focus()
            return
        if not isinstance(self.focused, PageTree) and self.focused is not None:
            self.page_tree.focus()
            return
        self.dismiss()

    def action_filter(self) -> None:
        field = self.query_one("#page-filter", Input)
        field.display = True
        focus_now(field)

    @on(Input.Changed, "#page-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        event.stop()
        self.page_tree.set_filter(event.value)
        tree = self.page_tree
        if tree.filter_text and tree.filter_matches == 0:
            self.notify(f"No page title contains “{tree.filter_text}”.", title="Filter")

    @on(Input.Submitted, "#page-filter")
    def _filter_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.page_tree.focus()

    def action_toggle_raw(self) -> None:
        self.preview.toggle_raw()
        self.refresh_bindings()

    def action_toggle_tree(self) -> None:
        panel = self.query_one("#page-tree-panel")
        panel.display = not panel.display
        if not panel.display:
            self.focus_preview()
        else:
            self.page_tree.focus()

    @property
    def list_view(self) -> ListView | None:
        """The view shown when it is one of the lists (links, files, history, change requests)."""
        mode = self.mode
        if mode == "links":
            return self.links_view
        if mode == "files":
            return self.files_view
        if mode == "history":
            return self.history_view
        if mode == "change_requests":
            return self.change_requests_view
        return None

    def action_copy(self) -> None:
        view = self.list_view
        if view is not None:
            view.copy_highlighted()
            return
        page = self.current_page
        if page is None:
            return
        url = page.app_url
        value = CopyValue("Page URL", url) if url else CopyValue("Page id", page.id)
        copy_value(self, value)

    def action_open(self) -> None:
        if self.mode == "change_requests":
            self.change_requests_view.open_highlighted()
            return
        if self.mode == "links":
            row = self.links_view.highlighted
            if row is not None and row.target_url and "://" in row.target_url:
                open_url(self, row.target_url, "Link")
            elif row is not None:
                self.open_at_link(row)
            return
        page = self.current_page
        if page is not None and page.app_url:
            open_url(self, page.app_url, "Page URL")

    def open_revision(self, revision_id: str, page_id: str | None) -> None:
        if revision_id == self.revision_id:
            self.action_mode("pages")
            if page_id is not None:
                self.show(Location(page_id))
            return
        self.app.push_screen(
            SpaceScreen(self.space, self.trail, revision=revision_id, page_id=page_id)
        )

    def action_refresh(self) -> None:
        if self.mode == "comments":
            self.refresh_comments()
            return
        view = self.list_view
        if view is not None and view.reload():
            return
        page = self.current_page
        if self.preview.markdown is None and page is not None:
            self._load(page, self.location or Location(page.id))
            return
        if self.pages is None:
            self.load_pages()
            return
        self._check_revision()

    @read("refresh", "Checking for a newer revision")
    async def _check_revision(self) -> None:
        space = await client_of(self).spaces.get(self.space.id)
        if self.older or space.revision == self.revision_id:
            self.notify("This is the space's latest content.", title="Up to date")
            return
        self.space = space
        self.revision_id = space.revision
        self.content = content_cache(self).get(client_of(self), space.id, space.revision)
        self._start = self.location
        self.load_pages()
        self.notify("The space has a newer revision: reloaded.", title="Refreshed")

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
