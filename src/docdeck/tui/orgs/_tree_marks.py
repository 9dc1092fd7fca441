"""The org tree's fixed lines and marks, and the cached first view drawn before the live one."""

from __future__ import annotations

from rich.text import Text
from textual.widgets.tree import TreeNode

from docdeck.tui.kit.entries import Entry
from docdeck.tui.orgs.first_view import FirstView, ViewItem

__all__ = [
    "BUSY_MARK",
    "EMPTY",
    "FAILED",
    "FAILED_FOR_GOOD",
    "LOADING",
    "NO_ORGANIZATIONS",
    "REFRESHING",
    "STALE",
    "STALE_MARK",
    "fill_cached",
]

LOADING = Text("loading…", style="dim italic")
FAILED = Text("⚠ not loaded — r retries", style="red")
FAILED_FOR_GOOD = Text("⚠ not loaded — the notification says why", style="red")
"""A load that sending again cannot mend (an answer docdeck cannot read, a refused role)."""
EMPTY = Text("(empty)", style="dim italic")
BUSY_MARK = Text("⟳ ", style="bold")
"""Before an entry a write is running on (`docdeck.tui.kit.in_flight`)."""
STALE_MARK = Text("⚠ ", style="bold yellow")
"""Before an entry whose refresh failed: its children are from an earlier load."""
NO_ORGANIZATIONS = Text("This account belongs to no organization.", style="dim italic")
REFRESHING = Text("↻ last session's view — refreshing…", style="dim italic")
STALE = Text("⚠ last session's view, not refreshed — r retries", style="yellow")


def fill_cached(node: TreeNode[Entry], view: FirstView, *, stale: bool) -> None:
    """Draw last session's first view (dim, without entries) under `node` until live data comes."""
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
