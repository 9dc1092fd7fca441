"""The org tree's edits in place: an entry added (created, restored, moved here) or taken
out (deleted, moved away) without reloading its parent, the cursor kept sensible."""

from __future__ import annotations

from textual.widgets.tree import TreeNode

from docdeck.tui.kit.entries import CollectionEntry, Entry, LoadMoreEntry, OrgEntry, SpaceEntry
from docdeck.tui.orgs._tree_view import TreeView

__all__ = ["TreeEdits", "insertion_index"]


class TreeEdits:
    """`insert` and `discard` for the tree that owns it (the screens call them, through the
    tree, after a write succeeded)."""

    def __init__(self, tree: TreeView) -> None:
        self.tree = tree

    def insert(self, container: Entry, entry: Entry, *, after: Entry | None = None) -> None:
        """Add a new entry under a loaded container (a new, restored or moved space)."""
        if container.children is None:
            return
        entry.parent = container
        children = container.children
        if after is not None and after in children:
            children.insert(children.index(after) + 1, entry)
        else:
            children.insert(insertion_index(children, entry), entry)
        self.tree.render_children(container)

    def discard(self, entry: Entry) -> None:
        """Take an entry out of the tree (deleted, moved away, restored)."""
        parent = entry.parent
        if parent is None or parent.children is None or entry not in parent.children:
            return
        parent.children.remove(entry)
        node = entry.node
        entry.node = None
        if node is not None and self.tree._attached(node) and node.parent is not None:
            neighbour = self._neighbour(node) if self._holds_cursor(node) else None
            node.remove()
            if not parent.children:
                self.tree.render_children(parent)  # "(empty)" in its place
            elif neighbour is not None:
                _ = self.tree.last_line
                self.tree.move_cursor(neighbour)
        self.tree._sync_selection()

    def _holds_cursor(self, node: TreeNode[Entry]) -> bool:
        cursor = self.tree.cursor_node
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
        return parent if parent is not self.tree.root else None


def insertion_index(children: list[Entry], entry: Entry) -> int:
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
