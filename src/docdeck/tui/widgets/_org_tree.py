"""The organization tree: a lazy view of the entries model, filled by workers as nodes open."""

from __future__ import annotations

from typing import ClassVar

from rich.style import Style
from rich.text import Text
from textual import on
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode, UnknownNodeID
from textual.worker import Worker

from docdeck.tui.entries import (
    CollectionEntry,
    Entry,
    FoundEntry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    RootEntry,
    SpaceEntry,
    TeamEntry,
)
from docdeck.tui.first_view import FirstView, ViewItem
from docdeck.tui.first_view_capture import entry_key
from docdeck.tui.loaders import load_children, load_more
from docdeck.tui.messages import (
    ChildrenFailed,
    ChildrenLoaded,
    EntryOpened,
    EntrySelected,
    SpaceOpened,
)
from docdeck.tui.widgets._list_keys import LIST_BINDINGS, ListKeys
from docdeck.tui.workers import client_of, report_worker_failure

__all__ = ["OrgTree"]

LOADING = Text("loading…", style="dim italic")
FAILED = Text("⚠ not loaded — r retries", style="red")
EMPTY = Text("(empty)", style="dim italic")
BUSY_MARK = Text("⟳ ", style="bold")
"""Before an entry a write is running on (`docdeck.tui.in_flight`)."""
STALE_MARK = Text("⚠ ", style="bold yellow")
"""Before an entry whose refresh failed: its children are from an earlier load."""
NO_ORGANIZATIONS = Text("This account belongs to no organization.", style="dim italic")
REFRESHING = Text("↻ last session's view — refreshing…", style="dim italic")
STALE = Text("⚠ last session's view, not refreshed — r retries", style="yellow")


class OrgTree(ListKeys, Tree[Entry]):
    """Organizations at the top; children load on expand, one worker per node."""

    BINDINGS: ClassVar[list[BindingType]] = [
        *LIST_BINDINGS,
        Binding("right,l", "expand_cursor", "Expand", show=False),
        Binding("left,h", "collapse_cursor", "Collapse", show=False),
    ]

    def __init__(self, *, id: str | None = None) -> None:
        self.model = RootEntry(expanded=True, loading=True)
        super().__init__("Organizations", self.model, id=id)
        self.show_root = False
        self.guide_depth = 3
        self.filter_text = ""
        self._shown: Entry | None = None
        self._cached: FirstView | None = None
        """The last session's first view, shown until live organizations replace it."""
        self._restore: set[str] = set()
        """Entries expanded last time, expanded again as the live ones arrive (once)."""
        self._last_line = -1
        self._last_entry: Entry | None = None
        """The cursor's line at the last highlight: what a jump (PageDown, End) passed over."""
        self._anchor: Entry | None = None
        """The last entry the cursor was on; where it goes back to when a filter stops hiding it."""

    def on_mount(self) -> None:
        cached: FirstView | None = getattr(self.app, "first_view", None)
        self._cached = cached
        self._restore = cached.expanded_keys() if cached is not None else set()
        self.render_children(self.model)  # the cached view or "loading…" while the app connects

    def mark_unreachable(self) -> None:
        """The connection failed before the organizations came: say so where they would be."""
        if self.model.children is None:
            self.model.loading = False
            self.model.failed = True
            self.render_children(self.model)

    # ----- loading ---------------------------------------------------------------------------

    def load_root(self) -> None:
        self.load(self.model)

    def load(self, entry: Entry, *, keep: bool = False) -> None:
        """Fetch an entry's first page of children in a worker (replacing any in flight).

        `keep` (a refresh): what is loaded stays shown until the answer replaces it; if the
        request fails it stays, marked stale, instead of being thrown away.
        """
        entry.loading = True
        entry.failed = False
        if not (keep and entry.children is not None):
            entry.children = None
            self.render_children(entry)
        self.run_worker(
            self._fetch(entry),
            name=f"Loading {entry.title or 'organizations'}",
            group=f"load-{id(entry)}",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch(self, entry: Entry) -> None:
        take = getattr(self.app, "take_root_prefetch", None)
        early = take() if take is not None and entry is self.model else None
        try:
            children = await (early or load_children(client_of(self), entry))
        except Exception:
            self.post_message(ChildrenFailed(entry))
            raise
        self.post_message(ChildrenLoaded(entry, children))

    def _load_more(self, more: LoadMoreEntry) -> None:
        owner = more.parent
        if owner is None or more.loading:
            return
        more.loading = True
        self._relabel(more)
        self.run_worker(
            self._fetch_more(owner, more),
            name=f"Loading more of {owner.title or 'organizations'}",
            group=f"more-{id(owner)}",
            exclusive=True,
            exit_on_error=False,
        )

    async def _fetch_more(self, owner: Entry, more: LoadMoreEntry) -> None:
        try:
            children = await load_more(client_of(self), owner, more)
        except Exception:
            self.post_message(ChildrenFailed(owner, replacing=more))
            raise
        self.post_message(ChildrenLoaded(owner, children, replacing=more))

    @on(ChildrenLoaded)
    def _children_loaded(self, message: ChildrenLoaded) -> None:
        message.stop()
        entry = message.entry
        entry.adopt(message.children)
        if message.replacing is None:
            entry.children = message.children
            entry.loading = False
            if entry is self.model:
                self._cached = None
            if entry.stale:
                entry.stale = False
                self._relabel(entry)
            reopened = self._reopen(message.children)
            self.render_children(entry)
            for child in reopened:
                self.load(child)
        elif entry.children is not None and message.replacing in entry.children:
            index = entry.children.index(message.replacing)
            entry.children[index : index + 1] = message.children
            self._splice(entry, message.replacing, message.children)
        self._sync_selection()
        if entry is self.model:
            self._first_organizations_shown()

    @on(ChildrenFailed)
    def _children_failed(self, message: ChildrenFailed) -> None:
        message.stop()
        if message.replacing is not None:
            message.replacing.loading = False
            self._relabel(message.replacing)
            return
        entry = message.entry
        entry.loading = False
        if entry.children is not None:
            entry.stale = True  # a refresh failed: keep what was loaded, marked
            self._relabel(entry)
        else:
            entry.failed = True
            self.render_children(entry)
        if entry is self.model:
            self._first_organizations_shown()  # not live, but the tree takes keys from now on

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        report_worker_failure(self, event)

    def _reopen(self, children: list[Entry]) -> list[Entry]:
        """Mark the entries that were expanded in the cached view expanded again."""
        if not self._restore:
            return []
        reopened = []
        for child in children:
            key = entry_key(child)
            if key in self._restore and child.expandable:
                self._restore.discard(key)
                child.expanded = True
                if child.children is None:
                    reopened.append(child)
        return reopened

    def _fill_cached(self, node: TreeNode[Entry], view: FirstView, *, stale: bool) -> None:
        node.add_leaf(STALE if stale else REFRESHING)

        def add(parent: TreeNode[Entry], items: list[ViewItem]) -> None:
            for item in items:
                child = parent.add(
                    Text(item.title, style="dim"),
                    None,
                    expand=item.expanded,
                    allow_expand=item.expandable,
                )
                add(child, item.children)

        add(node, view.items)

    def _first_organizations_shown(self) -> None:
        notify = getattr(self.app, "organizations_shown", None)
        if notify is not None:
            notify()

    # ----- rendering -------------------------------------------------------------------------

    def _matches(self, entry: Entry) -> bool:
        return self.filter_text.casefold() in entry.title.casefold()

    def _children_of(self, entry: Entry) -> list[Entry]:
        """The loaded children, and while filtering an organization's server search results."""
        children = list(entry.children or ())
        if self.filter_text and isinstance(entry, OrgEntry) and entry.found is not None:
            children.append(entry.found)
        return children

    def _visible(self, entry: Entry) -> bool:
        if not self.filter_text:
            return True
        if isinstance(entry, LoadMoreEntry):
            return False
        if self._matches(entry) and not isinstance(entry, FoundEntry):
            return True
        return any(self._visible(child) for child in self._children_of(entry))

    def _label(self, entry: Entry) -> Text:
        label = entry.label()
        if isinstance(entry, LoadMoreEntry) and entry.loading:
            return LOADING
        if self.filter_text and self._matches(entry):
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
        if self.filter_text and self._children_of(entry):
            expand = any(self._visible(child) for child in self._children_of(entry))
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
            self._fill_cached(node, cached, stale=entry.failed)
        elif entry.children is not None:
            shown = [child for child in entry.children if self._visible(child)]
            for child in shown:
                self._add(node, child)
            if not entry.children and entry.expandable:
                node.add_leaf(NO_ORGANIZATIONS if entry is self.model else EMPTY)
            elif entry is self.model and not shown and self.filter_text:
                node.add_leaf(
                    Text(
                        f"Nothing loaded matches “{self.filter_text}”; escape clears the filter.",
                        style="dim italic",
                    )
                )
        elif entry.loading:
            node.add_leaf(LOADING)
        elif entry.failed:
            node.add_leaf(FAILED)
        found = entry.found if isinstance(entry, OrgEntry) else None
        if self.filter_text and found is not None and self._visible(found):
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

    def refresh_entry(self, entry: Entry) -> None:
        """Show an entry's changed resource (a rename, a move) in its label and the detail pane."""
        self._relabel(entry)
        if entry is self._shown:
            self.post_message(EntrySelected(entry))

    def set_filter(self, text: str) -> None:
        text = text.strip()
        if text != self.filter_text:
            for org in self.model.children or ():
                if isinstance(org, OrgEntry):
                    org.found = None  # found for another text
        self.filter_text = text
        self.render_children(self.model)
        if self.filter_text:
            first = self._first_match(self.model)
            if first is not None:
                self.select_entry(first)

    def show_found(self, org: OrgEntry, query: str, found: list[Entry]) -> None:
        """Show the spaces the server found for the filter (a stale query's answer is dropped)."""
        if query != self.filter_text or org.parent is not self.model:
            return
        had_match = self._first_match(self.model) is not None
        org.found = FoundEntry(parent=org, query=query, expanded=True) if found else None
        if org.found is not None:
            org.found.children = org.found.adopt(found)
        self.render_children(self.model)
        if not had_match and org.found is not None:
            self.select_entry(found[0])

    def _first_match(self, entry: Entry) -> Entry | None:
        for child in self._children_of(entry):
            if isinstance(child, FoundEntry):
                found = self._first_match(child)
                if found is not None:
                    return found
                continue
            if self._matches(child):
                return child
            found = self._first_match(child)
            if found is not None:
                return found
        return None

    # ----- selection -------------------------------------------------------------------------

    def list_index(self) -> int:
        return self.cursor_line

    def list_length(self) -> int:
        return self.last_line + 1

    def list_go(self, index: int) -> None:
        self.cursor_line = index
        self.scroll_to_line(index, animate=False)

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
                self._load_more(passed.data)

    @on(Tree.NodeSelected)
    def _selected(self, event: Tree.NodeSelected[Entry]) -> None:
        event.stop()
        entry = event.node.data
        if isinstance(entry, LoadMoreEntry):
            self._load_more(entry)
        elif isinstance(entry, MembersEntry | TeamEntry):
            self.post_message(EntryOpened(entry))
        elif isinstance(entry, SpaceEntry):
            self.post_message(SpaceOpened(entry))

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
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and not node.is_expanded:
            node.expand()
        elif node.children:
            self.action_cursor_down()

    def action_collapse_cursor(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    # ----- edits in place --------------------------------------------------------------------

    def insert(self, container: Entry, entry: Entry, *, after: Entry | None = None) -> None:
        """Add a new entry under a loaded container (a new, restored or moved space)."""
        if container.children is None:
            return
        entry.parent = container
        children = container.children
        if after is not None and after in children:
            children.insert(children.index(after) + 1, entry)
        else:
            children.insert(_insertion_index(children, entry), entry)
        self.render_children(container)

    def discard(self, entry: Entry) -> None:
        """Take an entry out of the tree (deleted, moved away, restored)."""
        parent = entry.parent
        if parent is None or parent.children is None or entry not in parent.children:
            return
        parent.children.remove(entry)
        node = entry.node
        entry.node = None
        if node is not None and self._attached(node) and node.parent is not None:
            neighbour = self._neighbour(node) if self._holds_cursor(node) else None
            node.remove()
            if not parent.children:
                self.render_children(parent)  # "(empty)" in its place
            elif neighbour is not None:
                _ = self.last_line
                self.move_cursor(neighbour)
        self._sync_selection()

    def _holds_cursor(self, node: TreeNode[Entry]) -> bool:
        cursor = self.cursor_node
        while cursor is not None:
            if cursor is node:
                return True
            cursor = cursor.parent
        return False

    def _neighbour(self, node: TreeNode[Entry]) -> TreeNode[Entry] | None:
        """Where the cursor goes when its node leaves: the next sibling, else the one before,
        else the parent."""
        parent = node.parent
        if parent is None:
            return None
        siblings = list(parent.children)
        index = siblings.index(node)
        if index + 1 < len(siblings):
            return siblings[index + 1]
        if index > 0:
            return siblings[index - 1]
        return parent if parent is not self.root else None


def _insertion_index(children: list[Entry], entry: Entry) -> int:
    """Collections first, then spaces, then the fixed Members/Teams/Recently deleted entries."""
    kinds: tuple[type[Entry], ...] = (CollectionEntry,)
    if isinstance(entry, SpaceEntry):
        kinds = (CollectionEntry, SpaceEntry, LoadMoreEntry)
    if isinstance(entry, OrgEntry):
        kinds = (OrgEntry,)
    index = 0
    for position, child in enumerate(children):
        if isinstance(child, kinds):
            index = position + 1
    if isinstance(entry, SpaceEntry) and index and isinstance(children[index - 1], LoadMoreEntry):
        index -= 1
    return index
