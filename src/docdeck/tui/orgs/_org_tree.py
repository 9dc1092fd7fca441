"""The organization tree: a lazy view of the entries model, filled by workers as nodes open.

Split by concern: drawing and the cursor (`_tree_view`, what the tree is), and two
objects the tree owns and calls: its loading (`_tree_loading`) and its edits in place
(`_tree_edits`); the filter's rules (`_tree_filter`) and the fixed lines and marks
(`_tree_marks`) are functions and constants. This module is the widget: its keys, the
filter and the events the screens listen to.
"""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode
from textual.worker import Worker

from docdeck.tui.kit.entries import (
    AdminEntry,
    Entry,
    FoundEntry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    SiteEntry,
    SpaceEntry,
    TeamEntry,
    org_of,
    trail_of,
)
from docdeck.tui.kit.list_keys import (
    LIST_BINDINGS,
    ListKeys,
    collapse_or_step_out,
    expand_or_step_in,
)
from docdeck.tui.kit.navigation import OpenAdmin, OpenSite
from docdeck.tui.kit.workers import report_worker_failure
from docdeck.tui.orgs._tree_edits import TreeEdits
from docdeck.tui.orgs._tree_edits import insertion_index as _insertion_index
from docdeck.tui.orgs._tree_filter import first_match
from docdeck.tui.orgs._tree_loading import TreeLoading
from docdeck.tui.orgs._tree_marks import (
    BUSY_MARK,
    EMPTY,
    FAILED,
    LOADING,
    NO_ORGANIZATIONS,
    REFRESHING,
    STALE,
    STALE_MARK,
)
from docdeck.tui.orgs._tree_view import TreeView
from docdeck.tui.orgs.first_view import FirstView
from docdeck.tui.orgs.messages import (
    ChildrenFailed,
    ChildrenLoaded,
    EntryOpened,
    EntrySelected,
    SpaceOpened,
)

__all__ = [
    "BUSY_MARK",
    "EMPTY",
    "FAILED",
    "LOADING",
    "NO_ORGANIZATIONS",
    "REFRESHING",
    "STALE",
    "STALE_MARK",
    "OrgTree",
    "_insertion_index",
]


class OrgTree(ListKeys, TreeView):
    """Organizations at the top; children load on expand, one worker per node."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("right,l", "expand_cursor", "Expand", show=False, id="tree.expand"),
        Binding("left,h", "collapse_cursor", "Collapse", show=False, id="tree.collapse"),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._loader = TreeLoading(self)
        self._edits = TreeEdits(self)
        self._last_line = -1
        self._last_entry: Entry | None = None
        """The cursor's line at the last highlight: what a jump (PageDown, End) passed over."""

    def on_mount(self) -> None:
        cached: FirstView | None = getattr(self.app, "first_view", None)
        self._cached = cached
        self._loader.restore = cached.expanded_keys() if cached is not None else set()
        self._loader.cursor = getattr(self.app, "resume_node", None)
        self.render_children(self.model)  # the cached view or "loading…" while the app connects

    # ----- loading and edits in place (`_tree_loading`, `_tree_edits`) -------------------------

    def mark_unreachable(self) -> None:
        """The connection failed before the organizations came: say so where they would be."""
        self._loader.mark_unreachable()

    def load_root(self) -> None:
        self._loader.load(self.model)

    def load(self, entry: Entry, *, keep: bool = False) -> None:
        """Fetch an entry's first page of children (`keep`: a refresh, see `TreeLoading`)."""
        self._loader.load(entry, keep=keep)

    def insert(self, container: Entry, entry: Entry, *, after: Entry | None = None) -> None:
        """Add a new entry under a loaded container (a new, restored or moved space)."""
        self._edits.insert(container, entry, after=after)

    def discard(self, entry: Entry) -> None:
        """Take an entry out of the tree (deleted, moved away, restored)."""
        self._edits.discard(entry)

    @on(ChildrenLoaded)
    def _children_loaded(self, message: ChildrenLoaded) -> None:
        message.stop()
        self._loader.children_loaded(message)

    @on(ChildrenFailed)
    def _children_failed(self, message: ChildrenFailed) -> None:
        message.stop()
        self._loader.children_failed(message)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def refresh_entry(self, entry: Entry) -> None:
        """Show an entry's changed resource (a rename, a move) in its label and the detail pane."""
        self._relabel(entry)
        if entry is self._shown:
            self.post_message(EntrySelected(entry))

    # ----- the filter ------------------------------------------------------------------------

    def set_filter(self, text: str) -> None:
        text = text.strip()
        if text != self.filter_text:
            for org in self.model.children or ():
                if isinstance(org, OrgEntry):
                    org.found = None  # found for another text
        self.filter_text = text
        self.render_children(self.model)
        if self.filter_text:
            first = first_match(self.filter_text, self.model)
            if first is not None:
                self.select_entry(first)

    def show_found(self, org: OrgEntry, query: str, found: list[Entry]) -> None:
        """Show the spaces the server found for the filter (a stale query's answer is dropped)."""
        if query != self.filter_text or org.parent is not self.model:
            return
        had_match = first_match(self.filter_text, self.model) is not None
        org.found = FoundEntry(parent=org, query=query, expanded=True) if found else None
        if org.found is not None:
            org.found.children = org.found.adopt(found)
        self.render_children(self.model)
        if not had_match and org.found is not None:
            self.select_entry(found[0])

    # ----- keys and events -------------------------------------------------------------------

    @on(Tree.NodeHighlighted)
    def _highlighted(self, event: Tree.NodeHighlighted[Entry]) -> None:
        event.stop()
        self._sync_selection()
        self._load_passed(event.node)

    def _load_passed(self, node: TreeNode[Entry]) -> None:
        """Load every "… load more" the cursor reached or jumped over (PageDown, End, G)."""
        line = node.line
        previous, self._last_line = self._last_line, line
        moved = node.data is not self._last_entry
        self._last_entry = node.data
        if line < 0 or not moved:
            return  # the same entry again: lines moved under it (a page arrived), not the cursor
        start, end = (previous, line) if 0 <= previous <= line else (line, line)
        for index in range(start, end + 1):
            passed = self.get_node_at_line(index)
            if passed is not None and isinstance(passed.data, LoadMoreEntry):
                self._loader.load_more(passed.data)

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[Entry]) -> None:
        event.stop()
        entry = event.node.data
        if isinstance(entry, LoadMoreEntry):
            self._loader.load_more(entry)
        elif isinstance(entry, MembersEntry | TeamEntry):
            self.post_message(EntryOpened(entry))
        elif isinstance(entry, SpaceEntry):
            self.post_message(SpaceOpened(entry))
        elif isinstance(entry, AdminEntry) and (org := org_of(entry)) is not None:
            self.post_message(OpenAdmin(org.organization, entry.view))
        elif isinstance(entry, SiteEntry):
            org = org_of(entry)
            if org is not None:
                self.post_message(OpenSite(org.organization, entry.value, trail_of(entry)))

    @on(Tree.NodeExpanded)
    def _expanded(self, event: Tree.NodeExpanded[Entry]) -> None:
        event.stop()
        entry = event.node.data
        if entry is None:
            return
        entry.expanded = True
        if entry.children is None and not entry.loading:
            self.load(entry)

    @on(Tree.NodeCollapsed)
    def _collapsed(self, event: Tree.NodeCollapsed[Entry]) -> None:
        event.stop()
        if event.node.data is not None:
            event.node.data.expanded = False

    def action_expand_cursor(self) -> None:
        expand_or_step_in(self)

    def action_collapse_cursor(self) -> None:
        collapse_or_step_out(self)
