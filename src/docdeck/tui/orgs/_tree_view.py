"""The org tree's drawing: Tree nodes rebuilt from the entries model, and the cursor kept on
its entry while they are.

`OrgTree` adds loading (`_tree_loading`), edits in place (`_tree_edits`) and keys on
top of this; everything here is cheap and makes no request.
"""

from __future__ import annotations

from datetime import datetime

from rich.style import Style
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode, UnknownNodeID

from docdeck.tui.kit.entries import (
    ITS_DETAILS,
    Entry,
    LoadMoreEntry,
    OrgEntry,
    RootEntry,
    Staleness,
)
from docdeck.tui.kit.errors import one_line
from docdeck.tui.kit.formatting import quoted
from docdeck.tui.orgs._tree_filter import children_of, matches, visible
from docdeck.tui.orgs._tree_marks import (
    BUSY_MARK,
    EMPTY,
    FAILED,
    FAILED_FOR_GOOD,
    LOADING,
    NO_ORGANIZATIONS,
    STALE_MARK,
    fill_cached,
)
from docdeck.tui.orgs.first_view import FirstView
from docdeck.tui.orgs.messages import EntrySelected

__all__ = ["TreeView"]


class TreeView(Tree[Entry]):
    """A Tree whose nodes are drawn from `Entry` objects; the entries are the truth."""

    def __init__(self, *, id: str | None = None) -> None:
        self.model = RootEntry(expanded=True, loading=True)
        super().__init__(Text("Organizations"), self.model, id=id)  # no markup parse
        self.show_root = False
        self.guide_depth = 3
        self.filter_text = ""
        self._shown: Entry | None = None
        self._cached: FirstView | None = None
        """The last session's first view, shown until live organizations replace it."""
        self._anchor: Entry | None = None
        """The last entry the cursor was on; where it goes back to when a filter stops hiding it."""

    def _label(self, entry: Entry) -> Text:
        label = entry.label()
        if isinstance(entry, LoadMoreEntry) and entry.loading:
            return LOADING
        if self.filter_text and matches(self.filter_text, entry):
            label.highlight_words([self.filter_text], "reverse", case_sensitive=False)
        # Marks go first, so a label cut to the panel's width keeps them.
        if entry.stale:
            label = STALE_MARK + label
        if entry.busy:
            label = BUSY_MARK + label
        return label

    def show_marks(self, entry: Entry) -> None:
        """Redraw an entry's label after its busy or stale state changed."""
        self._relabel(entry)

    def mark_stale(self, entry: Entry, what: str, error: BaseException | None) -> None:
        """A refresh of `entry` failed: keep what it shows, mark it, and keep why."""
        since = entry.loaded_at if what == ITS_DETAILS else entry.children_loaded_at
        staleness = Staleness(
            what,
            since or entry.loaded_at,
            datetime.now().astimezone(),
            one_line(error) if error is not None else "the request failed",
        )
        entry.stale = entry.stale.joined(staleness) if entry.stale is not None else staleness
        self._stale_changed(entry)

    def clear_stale(self, entry: Entry) -> None:
        if entry.stale is not None:
            entry.stale = None
            self._stale_changed(entry)

    def _stale_changed(self, entry: Entry) -> None:
        self._relabel(entry)
        if entry is self._shown:
            self.post_message(EntrySelected(entry))  # the detail pane explains the mark

    def render_label(self, node: TreeNode[Entry], base_style: Style, style: Style) -> Text:
        """A label too long for the panel ends in "…" instead of being cut mid-word."""
        text = super().render_label(node, base_style, style)
        depth = 0
        parent = node.parent
        while parent is not None and parent is not self.root:
            depth += 1
            parent = parent.parent
        room = self.scrollable_content_region.width - depth * self.guide_depth
        if room > 0 and text.cell_len > room:
            text.truncate(room, overflow="ellipsis")
        return text

    def _add(self, parent: TreeNode[Entry], entry: Entry, before: int | None = None) -> None:
        expand = entry.expanded
        shown_children = children_of(self.filter_text, entry)
        if self.filter_text and shown_children:
            expand = any(visible(self.filter_text, child) for child in shown_children)
        node = parent.add(
            self._label(entry),
            entry,
            before=before,
            expand=expand and entry.expandable,
            allow_expand=entry.expandable,
        )
        entry.node = node
        self._fill(node, entry)

    def _fill(self, node: TreeNode[Entry], entry: Entry) -> None:
        cached = self._cached if entry is self.model and entry.children is None else None
        if cached is not None and (entry.loading or entry.failed):
            fill_cached(node, cached, stale=entry.failed)
        elif entry.children is not None:
            shown = [child for child in entry.children if visible(self.filter_text, child)]
            for child in shown:
                self._add(node, child)
            if not entry.children and entry.expandable:
                node.add_leaf(NO_ORGANIZATIONS if entry is self.model else EMPTY)
            elif entry is self.model and not shown and self.filter_text:
                node.add_leaf(
                    Text(
                        f"Nothing loaded matches {quoted(self.filter_text)}; "
                        "escape clears the filter.",
                        style="dim italic",
                    )
                )
        elif entry.loading:
            node.add_leaf(LOADING)
        elif entry.failed:
            node.add_leaf(FAILED if entry.retry_helps else FAILED_FOR_GOOD)
        found = entry.found if isinstance(entry, OrgEntry) else None
        if self.filter_text and found is not None and visible(self.filter_text, found):
            self._add(node, found)

    def render_children(self, entry: Entry) -> None:
        """Rebuild the nodes under an entry from the model (cheap: no request)."""
        node = self.root if entry is self.model else entry.node
        if node is None or not self._attached(node):
            return
        before = self.current
        if before is None or before is self.model:
            before = self._anchor
        node.remove_children()
        self._fill(node, entry)
        self._follow(before, entry)
        self._sync_selection()

    def _follow(self, before: Entry | None, fallback: Entry) -> None:
        """Keep the cursor on the entry it was on after its node was rebuilt.

        Tree leaves a removed cursor node in place and later lands on whatever line
        now has its number, so the cursor would jump and the detail pane go stale.
        """
        cursor = self.cursor_node
        if cursor is not None and self._attached(cursor):
            return
        _ = self.last_line
        candidate = before
        while candidate is not None:
            node = candidate.node
            if node is not None and node is not self.root and self._attached(node):
                self.move_cursor(node)
                return
            candidate = candidate.parent
        node = fallback.node
        if node is None or node is self.root or not self._attached(node):
            node = self.get_node_at_line(0)
        self.move_cursor(node)

    def _splice(self, owner: Entry, more: LoadMoreEntry, entries: list[Entry]) -> None:
        """Put a newly loaded page where its "load more…" node was, leaving the rest in place."""
        node = more.node
        parent = self.root if owner is self.model else owner.node
        if self.filter_text or node is None or parent is None or node not in parent.children:
            self.render_children(owner)
            return
        index = list(parent.children).index(node)
        node.remove()
        for offset, entry in enumerate(entries):
            self._add(parent, entry, before=index + offset)

    def _attached(self, node: TreeNode[Entry]) -> bool:
        """False for a node removed by a reload while a request for it was in flight."""
        try:
            return self.get_node_by_id(node.id) is node
        except UnknownNodeID:
            return False

    def _relabel(self, entry: Entry) -> None:
        if entry.node is not None and self._attached(entry.node):
            entry.node.set_label(self._label(entry))

    @property
    def current(self) -> Entry | None:
        """The entry under the cursor; a "loading…", "(empty)" or failure line stands for its
        parent, so `r` there reloads that entry and `n` creates in it."""
        node = self.cursor_node
        while node is not None and node.data is None:
            node = node.parent
        return node.data if node is not None else None

    def select_entry(self, entry: Entry) -> None:
        node = entry.node
        if node is None or not self._attached(node):
            return
        # Open the way to it: a node under a collapsed one has no line, and the cursor
        # would land on line 0 (the organization), so the next action went there.
        parent = node.parent
        while parent is not None and parent is not self.root:
            if not parent.is_expanded:
                if parent.data is not None:
                    parent.data.expanded = True
                parent.expand()
            parent = parent.parent
        _ = self.last_line  # lay the lines out so the node knows its line
        self.move_cursor(node)
        self._sync_selection(force=True)

    def _sync_selection(self, *, force: bool = False) -> None:
        _ = self.last_line  # lay out changed lines first, so the cursor node is current
        current = self.current
        if current is not None and current is not self.model:
            self._anchor = current
        if force or current is not self._shown:
            self._shown = current
            self.post_message(EntrySelected(current))
