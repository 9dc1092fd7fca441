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
"""

from __future__ import annotations

import asyncio
import contextlib

from rich.console import RenderableType
from rich.text import Text
from textual import events, on
from textual.binding import BindingType
from textual.screen import Screen
from textual.widgets import OptionList

from docdeck.models import ChangeRequest, Space
from docdeck.tui.content.block_map import BlockMap, block_map
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.kit.workers import client_of
from docdeck.tui.threads import (
    Scope,
    Thread,
    ThreadItem,
    ThreadsPanel,
    summary_text,
    thread_availability,
    thread_binding,
)

__all__ = ["THREAD_BINDINGS", "ReviewThreads"]

_CHECKED = {
    "thread_comment_block": "comment_block",
    "thread_comment_scope": "comment_scope",
    "thread_filter": "thread_filter",
    "thread_reply": "reply",
    "thread_edit": "edit_comment",
    "thread_delete": "delete_comment",
    "thread_react": "react",
    "thread_resolve": "resolve",
}
"""The screen's thread keys and the availability each asks (`thread_availability`)."""

_PANEL_ACTIONS = {
    "thread_reply": ("reply", "action_reply"),
    "thread_edit": ("edit_comment", "action_edit_comment"),
    "thread_delete": ("delete_comment", "action_delete_comment"),
    "thread_react": ("react", "action_react"),
    "thread_resolve": ("resolve", "action_resolve"),
}


THREAD_BINDINGS: list[BindingType] = [
    thread_binding(
        "comment_block",
        "thread_comment_block",
        "Comment",
        "Comment on the block of the line under the cursor",
    ),
    thread_binding(
        "comment_scope",
        "thread_comment_scope",
        "Comment…",
        "Comment on the page or the change request",
    ),
    thread_binding("reply", "thread_reply", "Reply", "Reply to the thread at the cursor"),
    thread_binding("edit_comment", "thread_edit", "Edit", "Edit your comment at the cursor"),
    thread_binding(
        "delete_comment",
        "thread_delete",
        "Delete",
        "Delete your comment at the cursor (asks first)",
    ),
    thread_binding("react", "thread_react", "React", "React to the comment at the cursor"),
    thread_binding(
        "resolve", "thread_resolve", "Resolve", "Resolve or reopen the thread at the cursor"
    ),
    thread_binding(
        "thread_filter", "thread_filter", "Open/resolved", "Show all, open or resolved threads"
    ),
]
"""The thread keys, bound by the pane (they work from the diff and the threads list),
under the panel's ids (`thread_binding`)."""


class ReviewThreads(Screen[None]):
    space: Space
    change_request: ChangeRequest

    # ----- the panel and its scope --------------------------------------------------------

    @staticmethod
    def threads_part() -> ThreadsPanel:
        """The threads panel, composed with the pane so every thread key finds it."""
        return ThreadsPanel(id="review-threads", classes="-docked")

    @property
    def threads_panel(self) -> ThreadsPanel:
        return self.query_one("#review-threads", ThreadsPanel)

    def review_scope(self) -> Scope:
        return Scope(
            self.space.id,
            change_request=self.change_request.number,
            can_comment=self.space.permissions.comment,
        )

    def on_mount(self) -> None:
        self._threads_start()  # the panel is composed with the pane (`threads_part`)

    NARROW_THREADS_BELOW = 110
    """Narrower than this (as the pane's own narrow layout), the list is a few lines."""

    def on_resize(self) -> None:
        if self.query("#review-threads"):
            narrow = self.app.size.width < self.NARROW_THREADS_BELOW
            self.threads_panel.set_class(narrow, "-narrow")

    def _threads_start(self) -> None:
        if not self.query("#review-threads"):
            return
        self.on_resize()
        self.threads_panel.thread_list.add_class("review-tab-stop")
        self.threads_panel.set_scope(self.review_scope())
        self._follow_page()

    def refresh_threads(self) -> None:
        """Read the threads again, the cursor staying on the comment it was on."""
        if self.query("#review-threads"):
            panel = self.threads_panel
            item = panel.item
            panel.load(keep=item.subject.id if item is not None else None)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in _CHECKED or not self.query("#review-threads"):
            return super().check_action(action, parameters)
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

    def on_key(self, event: events.Key) -> None:
        """A thread key that is not allowed says why (the footer shows it dimmed)."""
        active = self.active_bindings.get(event.key)
        if active is None or active.enabled or active.binding.action not in _CHECKED:
            return
        if self.query("#review-threads") and self.threads_panel.explain(
            _CHECKED[active.binding.action]
        ):
            event.stop()

    def _follow_page(self) -> None:
        page_id = self.current_page_id()  # type: ignore[attr-defined]
        page = getattr(getattr(self, "pages_list", None), "current", None)
        title = str(getattr(page, "title", "") or "")
        if self.query("#review-threads"):
            self.threads_panel.set_page(page_id, title)

    @on(OptionList.OptionHighlighted, "#review-pages")
    def _threads_follow_page(self) -> None:
        self._follow_page()

    @on(ThreadsPanel.Loaded)
    def _threads_loaded(self, message: ThreadsPanel.Loaded) -> None:
        self.annotate_threads()

    # ----- inline threads -----------------------------------------------------------------

    async def page_blocks(self, page_id: str) -> BlockMap:
        """The block map of the change request's version of a page (cached per revision)."""
        content, _base = self.sides()  # type: ignore[attr-defined]
        client = client_of(self)
        number = self.change_request.number

        async def build() -> BlockMap:
            markdown = await content.markdown(page_id)
            page = await client.change_requests.content.page(
                self.space.id, number, page_id, format="document"
            )
            document = getattr(page, "document", None)
            nodes = {"nodes": document.nodes if document is not None else []}
            return await asyncio.to_thread(block_map, nodes, markdown)

        result: BlockMap = await content._once(("blocks", page_id), build)
        return result

    def annotate_threads(self) -> None:
        self.run_worker(
            self._annotate,  # type: ignore[arg-type]  # a function: one replaced before it ran is fine
            name="Placing the threads in the diff",
            group="thread-annotations",
            exclusive=True,
            exit_on_error=False,
        )

    async def _annotate(self) -> None:
        panel = self.threads_panel
        by_page: dict[str, list[Thread]] = {}
        for thread in panel.shown_threads():
            if thread.page_id is not None and thread.node_id is not None and not thread.outdated:
                by_page.setdefault(thread.page_id, []).append(thread)
        me = panel.me
        diff = self.diff_view  # type: ignore[attr-defined]
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
        place = self.cursor_line()  # type: ignore[attr-defined]
        page_id = self.current_page_id()  # type: ignore[attr-defined]
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

    @on(OptionList.OptionSelected, "#thread-list")
    def _thread_chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on a thread: the diff shows its block (the page's diff, cursor on it)."""
        event.stop()
        item = self.threads_panel.item
        if item is not None:
            self.run_worker(
                self._go_to_thread(item.thread),
                name="Finding the thread's block",
                group="thread-cursor",
                exclusive=True,
                exit_on_error=False,
            )

    async def _go_to_thread(self, thread: Thread) -> None:
        page_id, key = thread.page_id, thread.node_id
        if page_id is None:
            self.notify("This thread is on the whole change request.", title="Thread")
            return
        title = thread.comment.target.page.title if thread.comment.target.page else ""
        line = 0
        if key is not None and not thread.outdated:
            try:
                blocks = await self.page_blocks(page_id)
            except Exception as error:
                problem = describe(error, "Reading the page's blocks")
                self.notify(problem.brief or problem.message, title=problem.title, severity="error")
                return
            block = blocks.by_key(key)
            if block is not None:
                line = block.start
        if not self.show_line(page_id, line):  # type: ignore[attr-defined]
            self.notify(
                f"This change request does not change “{title or page_id}”: its thread is "
                "listed here, with no diff to show it in.",
                title="Thread",
            )

    # ----- keys with the diff focused -----------------------------------------------------

    def _diff_focused(self) -> bool:
        return self.focused is getattr(self, "diff_view", None)

    def action_thread_comment_block(self) -> None:
        panel = self.threads_panel
        if not self.space.permissions.comment:
            panel.explain("comment_block")
            return
        place = self.cursor_line()  # type: ignore[attr-defined]
        page_id = self.current_page_id()  # type: ignore[attr-defined]
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
        worker = self.run_worker(
            self._comment_block(page_id, place[1]),
            name="Reading the page's blocks",
            group="thread-comment",
            exclusive=True,
            exit_on_error=False,
        )
        opens_a_screen(worker)  # the composer: what is typed next is its text

    async def _comment_block(self, page_id: str, line: int) -> None:
        try:
            blocks = await self.page_blocks(page_id)
        except Exception as error:
            problem = describe(error, "Reading the page's blocks")
            self.notify(problem.brief or problem.message, title=problem.title, severity="error")
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

    def action_thread_comment_scope(self) -> None:
        self._follow_page()
        self.threads_panel.action_comment_scope()

    def action_thread_filter(self) -> None:
        self.threads_panel.action_thread_filter()
        self.annotate_threads()

    def _thread_action(self, action: str) -> None:
        name, method = _PANEL_ACTIONS[action]
        worker = self.run_worker(
            self._at_cursor(name, method),
            name="Finding the thread at the cursor",
            group="thread-cursor",
            exclusive=True,
            exit_on_error=False,
        )
        opens_a_screen(worker)  # a composer, a confirmation or a chooser

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

    def action_thread_reply(self) -> None:
        self._thread_action("thread_reply")

    def action_thread_edit(self) -> None:
        self._thread_action("thread_edit")

    def action_thread_delete(self) -> None:
        self._thread_action("thread_delete")

    def action_thread_react(self) -> None:
        self._thread_action("thread_react")

    def action_thread_resolve(self) -> None:
        self._thread_action("thread_resolve")
