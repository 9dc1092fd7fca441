"""The review pane's comment threads: the change request's list, and each thread inline.

A `ThreadsPanel` on the change request's threads sits under the diff (the page shown
first, then change-request-level threads, then other pages'); on a narrow terminal it is
a few lines until `tab` reaches it, so the diff keeps the room. Each thread on a block is
also drawn in the diff, after the block's last line on the change request's side
(`DiffView.set_annotations`), found through the block map of the change request's page
(`docdeck.tui.content.block_map`). With the diff focused, the thread keys act on the line under
the cursor: `c` comments on its block, and `R`/`e`/`delete`/`+`/`x` on the thread shown at
(or targeting the block of) that line; with the list focused they act on its highlighted
comment or reply, as in the space screen's comments view.

`DiffThreads` is the invisible part of the pane that ties the panel to the diff; the pane
binds the thread keys (they work from the diff and from the list) and hands them over to it.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Protocol

from rich.console import RenderableType
from rich.text import Text
from textual.widget import Widget
from textual.worker import Worker

from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.workers import read, report_worker_failure, start
from docdeck.tui.review._thread_keys import CHECKED as _CHECKED
from docdeck.tui.threads import (
    Scope,
    Thread,
    ThreadItem,
    ThreadsPanel,
    summary_text,
    thread_availability,
)

if TYPE_CHECKING:
    from docdeck.models import ChangeRequest, Space
    from docdeck.tui.content.block_map import BlockMap
    from docdeck.tui.content.revision_cache import RevisionContent
    from docdeck.tui.review._changed_pages import ChangedPagesList
    from docdeck.tui.review._diff_view import DiffView
    from docdeck.tui.review.content import ChangeRequestContent

__all__ = ["DiffThreads", "ThreadsSource"]

_PANEL_ACTIONS = {
    "thread_reply": ("reply", "action_reply"),
    "thread_edit": ("edit_comment", "action_edit_comment"),
    "thread_delete": ("delete_comment", "action_delete_comment"),
    "thread_react": ("react", "action_react"),
    "thread_resolve": ("resolve", "action_resolve"),
}


class ThreadsSource(Protocol):
    """What the threads read from the pane: the change request, the page shown and the
    diff's cursor, and the way to show a line of a page."""

    space: Space
    change_request: ChangeRequest

    @property
    def pages_list(self) -> ChangedPagesList: ...

    @property
    def diff_view(self) -> DiffView: ...

    def current_page_id(self) -> str | None: ...

    def cursor_line(self) -> tuple[str, int] | None: ...

    def sides(self) -> tuple[ChangeRequestContent, RevisionContent]: ...

    def show_line(self, page_id: str, line: int) -> bool: ...


class DiffThreads(Widget):
    """The threads of the pane's panel (`#review-threads`) placed in its diff, and the thread
    keys run on the diff's cursor or the list's."""

    DEFAULT_CSS = "DiffThreads { display: none; }"

    def __init__(self, source: ThreadsSource) -> None:
        super().__init__()
        self.source = source

    @property
    def space(self) -> Space:
        return self.source.space

    @property
    def change_request(self) -> ChangeRequest:
        return self.source.change_request

    # ----- the panel and its scope --------------------------------------------------------

    def _has_panel(self) -> bool:
        return self.screen.query_one_optional("#review-threads") is not None

    @property
    def threads_panel(self) -> ThreadsPanel:
        return self.screen.query_one("#review-threads", ThreadsPanel)

    def review_scope(self) -> Scope:
        return Scope(
            self.space.id,
            change_request=self.change_request.number,
            can_comment=self.space.permissions.comment,
        )

    NARROW_THREADS_BELOW = 110
    """Narrower than this (as the pane's own narrow layout), the list is a few lines."""

    def fit(self) -> None:
        """The panel's layout for the app's width (the pane calls this on a resize)."""
        if self._has_panel():
            narrow = self.app.size.width < self.NARROW_THREADS_BELOW
            self.threads_panel.set_class(narrow, "-narrow")

    def start(self) -> None:
        """The panel on the change request's threads (the pane calls this once mounted)."""
        if not self._has_panel():
            return
        self.fit()
        self.threads_panel.thread_list.add_class("review-tab-stop")
        self.threads_panel.set_scope(self.review_scope())
        self.follow_page()

    def refresh_threads(self) -> None:
        """Read the threads again, the cursor staying on the comment it was on."""
        if self._has_panel():
            panel = self.threads_panel
            item = panel.item
            panel.load(keep=item.subject.id if item is not None else None)

    def check(self, action: str) -> bool | None:
        """The pane's `check_action` for a thread key (`binds`)."""
        if not self._has_panel():
            return True
        panel = self.threads_panel
        name = _CHECKED[action]
        if name in ("comment_block", "comment_scope", "thread_filter"):
            state = thread_availability(name, None, panel.scope or self.review_scope())
        else:
            item = panel.item
            if item is None:  # the thread at the cursor is found when the key is pressed
                return True
            state = thread_availability(name, item, panel.scope)
        return True if state.allowed else None

    def explain(self, action: str) -> bool:
        """A thread key that is not allowed says why (the footer shows it dimmed); True
        when it was said."""
        if action not in _CHECKED or not self._has_panel():
            return False
        return self.threads_panel.explain(_CHECKED[action])

    def follow_page(self) -> None:
        """The panel follows the changed page shown (its threads first)."""
        page_id = self.source.current_page_id()
        page = self.source.pages_list.current
        title = str(getattr(page, "title", "") or "")
        if self._has_panel():
            self.threads_panel.set_page(page_id, title)

    # ----- inline threads -----------------------------------------------------------------

    async def page_blocks(self, page_id: str) -> BlockMap:
        """The block map of the change request's version of a page (cached per revision)."""
        content, _base = self.source.sides()
        return await content.blocks(page_id)

    async def _page_blocks_or_say(self, page_id: str) -> BlockMap | None:
        """`page_blocks` for a key the user pressed: None when they could not be read, after
        telling why."""
        try:
            return await self.page_blocks(page_id)
        except Exception as error:
            problem = describe(error, "Reading the page's blocks")
            self.notify(problem.brief or problem.message, title=problem.title, severity="error")
            return None

    def annotate_threads(self) -> None:
        start(
            self,
            self._annotate,
            name="Placing the threads in the diff",
            group="thread-annotations",
            exclusive=True,
        )

    async def _annotate(self) -> None:
        panel = self.threads_panel
        by_page: dict[str, list[Thread]] = {}
        for thread in panel.shown_threads():
            if thread.page_id is not None and thread.node_id is not None and not thread.outdated:
                by_page.setdefault(thread.page_id, []).append(thread)
        me = panel.me
        diff = self.source.diff_view
        for page_id in set(diff.annotations) | set(by_page):
            rows: dict[int, list[RenderableType]] = {}
            threads = by_page.get(page_id, [])
            if threads:
                try:
                    blocks = await self.page_blocks(page_id)
                except Exception:
                    continue  # the list still shows them; the diff shows its own failure
                for thread in threads:
                    block = blocks.by_key(thread.node_id or "")
                    if block is not None:
                        rows.setdefault(block.last, []).append(summary_text(thread, me))
            diff.set_annotations(page_id, rows)

    async def thread_at_cursor(self) -> ThreadItem | None:
        """The thread whose block holds the diff's cursor line (change side), if any."""
        place = self.source.cursor_line()
        page_id = self.source.current_page_id()
        if place is None or page_id is None or place[0] != "change":
            return None
        threads = [
            t
            for t in self.threads_panel.shown_threads()
            if t.page_id == page_id and t.node_id and not t.outdated
        ]
        if not threads:
            return None
        with contextlib.suppress(Exception):
            blocks = await self.page_blocks(page_id)
            line = place[1]
            for thread in threads:
                block = blocks.by_key(thread.node_id or "")
                if block is not None and block.start <= line <= block.last:
                    return ThreadItem(thread)
        return None

    def thread_chosen(self) -> None:
        """Enter on a thread: the diff shows its block (the page's diff, cursor on it)."""
        item = self.threads_panel.item
        if item is not None:
            self._go_to_thread(item.thread)

    @read("thread-cursor", "Finding the thread's block")
    async def _go_to_thread(self, thread: Thread) -> None:
        page_id, key = thread.page_id, thread.node_id
        if page_id is None:
            self.notify("This thread is on the whole change request.", title="Thread")
            return
        title = thread.comment.target.page.title if thread.comment.target.page else ""
        line = 0
        if key is not None and not thread.outdated:
            blocks = await self._page_blocks_or_say(page_id)
            if blocks is None:
                return
            block = blocks.by_key(key)
            if block is not None:
                line = block.start
        if not self.source.show_line(page_id, line):
            self.notify(
                f"This change request does not change “{title or page_id}”: its thread is "
                "listed here, with no diff to show it in.",
                title="Thread",
            )

    # ----- keys with the diff focused -----------------------------------------------------

    def _diff_focused(self) -> bool:
        return self.screen.focused is self.source.diff_view

    def comment_block(self) -> None:
        panel = self.threads_panel
        if not self.space.permissions.comment:
            panel.explain("comment_block")
            return
        place = self.source.cursor_line()
        page_id = self.source.current_page_id()
        if place is None or page_id is None:
            self.notify(
                "Put the cursor on a line of the diff first (C comments on the whole change "
                "request).",
                title="Comment",
            )
            return
        if place[0] != "change":
            self.notify(
                "This line is only in the base (removed): comment on a line of the change "
                "request's side.",
                title="Comment",
                severity="warning",
            )
            return
        self._comment_block(page_id, place[1])  # the composer: what is typed next is its text

    @read("thread-comment", "Reading the page's blocks", opens_a_screen=True)
    async def _comment_block(self, page_id: str, line: int) -> None:
        blocks = await self._page_blocks_or_say(page_id)
        if blocks is None:
            return
        block = blocks.at_line(line)
        panel = self.threads_panel
        title = panel.page_title or page_id
        if block is None:
            panel.compose_thread(page_id, None, Text(f"A new thread on the page “{title}”"))
            return
        text = Text("A new thread on ")
        text.append(title, style="bold")
        text.append(f" › “{block.text[:160]}”", style="italic")
        panel.compose_thread(page_id, block.key, text)

    def comment_scope(self) -> None:
        self.follow_page()
        self.threads_panel.action_comment_scope()

    def filter(self) -> None:
        self.threads_panel.action_thread_filter()
        self.annotate_threads()

    def at_cursor(self, action: str) -> None:
        """`action` (`thread_reply`...) on the thread at the diff's cursor, or at the list's."""
        name, method = _PANEL_ACTIONS[action]
        self._at_cursor(name, method)  # a composer, a confirmation or a chooser

    @read("thread-cursor", "Finding the thread at the cursor", opens_a_screen=True)
    async def _at_cursor(self, name: str, method: str) -> None:
        panel = self.threads_panel
        item = await self.thread_at_cursor() if self._diff_focused() else panel.item
        if item is None:
            self.notify(
                "No thread at the cursor: move to a line marked 💬, or to the threads list.",
                title="Threads",
            )
            return
        panel.thread_list.show_item(item.key)
        state = thread_availability(name, panel.item, panel.scope)
        if not state.allowed:
            panel.explain(name)
            return
        getattr(panel, method)()

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)
