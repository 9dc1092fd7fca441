"""The space's page tree: titles with emoji, groups, link pages marked, hidden pages dimmed.

A node's children are added when it is expanded, so a 5,000-page space opens with
its top level only (a few dozen nodes) and grows as the user opens it. The filter
shows the pages whose title matches, with the way to them, at most `FILTER_LIMIT`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from docdeck.tui.content.page_tree import PageInfo, SpacePages
from docdeck.tui.kit.formatting import emoji_text
from docdeck.tui.kit.list_keys import (
    LIST_BINDINGS,
    ListKeys,
    collapse_or_step_out,
    expand_or_step_in,
)

__all__ = ["FILTER_LIMIT", "PageTree", "page_label"]

FILTER_LIMIT = 100
"""Matching pages the filter shows at most (with their ancestors); the count says if more."""


def page_label(page: PageInfo) -> Text:
    emoji = emoji_text(page.page.emoji or "")
    if page.type == "group":
        return Text.assemble((page.title.upper() or "(untitled group)", "bold"))
    mark = "↗ " if page.type == "link" else ""
    style = "dim italic" if page.hidden else ""
    label = Text.assemble(f"{emoji} " if emoji else "", mark, (page.title or "(untitled)", style))
    if page.hidden:
        label.append(" (hidden)", style="dim")
    return label


class PageTree(ListKeys, Tree[PageInfo]):
    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("l,right", "expand_cursor", "Expand", show=False, id="tree.expand"),
        Binding("h,left", "collapse_cursor", "Collapse", show=False, id="tree.collapse"),
    ]
    DEFAULT_CSS = """
    PageTree { scrollbar-size-vertical: 1; scrollbar-size-horizontal: 0; }
    """

    @dataclass
    class PageHighlighted(Message):
        page: PageInfo

    @dataclass
    class PageChosen(Message):
        """Enter on a page: read it (focus goes to the preview)."""

        page: PageInfo

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(Text("pages"), id=id)  # a Text: no markup parse (nor emoji table)
        self.show_root = False
        self.guide_depth = 2
        self.auto_expand = False
        self.pages: SpacePages | None = None
        self.filter_text = ""
        self.filter_matches = 0
        self._page_nodes: dict[str, TreeNode[PageInfo]] = {}

    # ----- building --------------------------------------------------------------------------

    def show_pages(self, pages: SpacePages) -> None:
        self.pages = pages
        self._rebuild()

    def _add(self, parent: TreeNode[PageInfo], page: PageInfo) -> TreeNode[PageInfo]:
        node = parent.add(page_label(page), data=page, allow_expand=bool(page.children))
        self._page_nodes[page.id] = node
        return node

    def _fill(self, node: TreeNode[PageInfo]) -> None:
        """Add a node's children the first time it is opened."""
        page = node.data
        if page is None or node.children or not page.children:
            return
        for child in page.children:
            self._add(node, child)

    def _rebuild(self) -> None:
        current = self.current
        self.clear()
        self._page_nodes = {}
        if self.pages is None:
            return
        if self.filter_text:
            first = self._build_filtered()
            needle = self.filter_text.casefold()
            if current is None or needle not in current.title.casefold():
                current = first
        else:
            for page in self.pages.top:
                self._add(self.root, page)
        if (current is not None and current.id in self._page_nodes) or not self.filter_text:
            if current is not None:
                self.select_page(current)
        else:
            self.cursor_line = 0
        # The cursor may land on another page at the same line number, which Tree does not
        # report as a move; say it here (the screen ignores the page it already shows).
        if self.current is not None:
            self.post_message(self.PageHighlighted(self.current))

    def _build_filtered(self) -> PageInfo | None:
        """The matching pages with the way to them; returns the first match."""
        assert self.pages is not None
        needle = self.filter_text.casefold()
        matches = [p for p in self.pages.order if needle in p.title.casefold()]
        self.filter_matches = len(matches)
        keep: set[str] = set()
        for page in matches[:FILTER_LIMIT]:
            keep.add(page.id)
            keep.update(p.id for p in self.pages.ancestors(page))

        def add(parent: TreeNode[PageInfo], pages: list[PageInfo]) -> None:
            for page in pages:
                if page.id not in keep:
                    continue
                node = parent.add(page_label(page), data=page, allow_expand=False)
                self._page_nodes[page.id] = node
                if page.children:
                    node.allow_expand = True
                    add(node, page.children)
                    node.expand()

        add(self.root, self.pages.top)
        return matches[0] if matches else None

    def set_filter(self, text: str) -> None:
        text = text.strip()
        if text == self.filter_text:
            return
        self.filter_text = text
        self._rebuild()

    # ----- moving ----------------------------------------------------------------------------

    @property
    def current(self) -> PageInfo | None:
        node = self.cursor_node
        return node.data if node is not None else None

    def select_page(self, page: PageInfo) -> None:
        """Put the cursor on a page, opening the way to it (its ancestors' children are
        added as needed)."""
        if self.pages is None:
            return
        if page.id not in self._page_nodes and self.filter_text:
            self.filter_text = ""
            self._rebuild()
        for ancestor in self.pages.ancestors(page):
            node = self._page_nodes.get(ancestor.id)
            if node is None:
                return
            self._fill(node)
            node.expand()
        node = self._page_nodes.get(page.id)
        if node is None:
            return
        _ = self.last_line  # lay the lines out so the node knows its line
        self.move_cursor(node)
        self.scroll_to_node(node, animate=False)

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[PageInfo]) -> None:
        event.stop()
        self._fill(event.node)

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[PageInfo]) -> None:
        event.stop()
        # Only where the cursor is now: a highlight that arrives after the cursor moved on
        # (a burst of keys, or the screen putting the cursor on the page it shows) is
        # history. Passing it on made the screen show that page, move the cursor back to
        # it, and the two queued highlights then bounced between two pages for ever.
        if event.node is self.cursor_node and event.node.data is not None:
            self.post_message(self.PageHighlighted(event.node.data))

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[PageInfo]) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.PageChosen(event.node.data))

    def action_expand_cursor(self) -> None:
        expand_or_step_in(self, self._fill)

    def action_collapse_cursor(self) -> None:
        collapse_or_step_out(self)
