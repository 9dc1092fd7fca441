"""The space screen's comments view (`6`) and commenting on a block of the page being read.

The view is a `ThreadsPanel` on the space's own threads (not its change requests'),
the page being read first. In the pages view `c` comments on the block under the cursor:
the raw view's cursor line, or the block at the top of the rendered view; the block's key
comes from the page's document (`docdeck.tui.content.block_map`), and the composer shows the
block's text so the reader sees what the comment will be on.

`c` comments on the page the tree's cursor is on, even while that page is still loading (a
key typed right after `G` or `j`): it shows that page at once, waits for it, then reads its
blocks; the keys typed after `c` wait meanwhile and become the comment's text.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual import events

from docdeck.models import Space
from docdeck.tui.content import RawPage, RenderedPage
from docdeck.tui.content.block_map import Block
from docdeck.tui.content.page_tree import PageInfo
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.typeahead import opens_a_screen
from docdeck.tui.space._reading import Location, SpaceReading
from docdeck.tui.threads import Scope, ThreadsPanel

__all__ = ["COMMENT_ACTIONS", "SpaceComments", "line_in_view"]

COMMENT_ACTIONS = frozenset({"comment_on_block", "comment_on_page"})
"""The screen's own thread keys (in the pages view); the panel has the rest."""


def line_in_view(view: RenderedPage | RawPage) -> int:
    """The markdown line under the cursor (raw) or of the block at the top (rendered)."""
    if isinstance(view, RawPage):
        return view.cursor_location[0]
    return view.top_line


class SpaceComments(SpaceReading):
    space: Space
    older: bool

    @property
    def threads_panel(self) -> ThreadsPanel:
        return self.query_one(ThreadsPanel)

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
        self._panel_ready().compose_thread(page.id, None, context)

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
        worker = self.run_worker(
            self._comment_block(page.id, page.title),
            name=f"Reading the blocks of “{page.title}”",
            group="comment-block",
            exclusive=True,
            exit_on_error=False,
        )
        opens_a_screen(worker)  # the composer: what is typed next is its text

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
        self._panel_ready().compose_thread(page_id, block.key, block_context(title, block))


def block_context(title: str, block: Block) -> Text:
    text = Text("A new thread on ")
    text.append(title or "(untitled)", style="bold")
    preview = block.text if len(block.text) <= 160 else block.text[:159] + "…"
    text.append(f" › “{preview}”", style="italic")
    text.append(f"\n(line {block.start + 1}; move the cursor or scroll to pick another block)")
    return text
