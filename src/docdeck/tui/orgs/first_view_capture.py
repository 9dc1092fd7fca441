"""Between the tree's entries and the first-view cache: what to keep, and whose state it was."""

from __future__ import annotations

from docdeck.tui.kit.entries import (
    CollectionEntry,
    DeletedEntry,
    Entry,
    LoadMoreEntry,
    MembersEntry,
    OrgEntry,
    SiteEntry,
    SitesEntry,
    SpaceEntry,
    TeamEntry,
    TeamsEntry,
)
from docdeck.tui.orgs.first_view import MAX_ITEMS, FirstView, ViewItem

__all__ = ["capture_first_view", "entry_key"]


def entry_key(entry: Entry) -> str | None:
    """A name for the entry that survives a restart (ids, not titles); None: not kept."""
    parent = entry.parent
    if isinstance(entry, OrgEntry) and entry.org is not None:
        return f"org:{entry.org.id}"
    if isinstance(entry, CollectionEntry) and entry.collection is not None:
        return f"collection:{entry.collection.id}"
    if isinstance(entry, SpaceEntry) and entry.space is not None:
        return f"space:{entry.space.id}"
    if isinstance(entry, TeamEntry) and entry.team is not None:
        return f"team:{entry.team.id}"
    if isinstance(entry, SiteEntry) and entry.site is not None:
        return f"site:{entry.site.id}"
    fixed = {
        MembersEntry: "members",
        TeamsEntry: "teams",
        DeletedEntry: "deleted",
        SitesEntry: "sites",
    }
    for kind, name in fixed.items():
        if isinstance(entry, kind) and parent is not None:
            owner = entry_key(parent)
            return f"{name}@{owner}" if owner else None
    return None


def capture_first_view(root: Entry) -> FirstView | None:
    """The loaded top of the tree, as far as a screen shows it; None when nothing is loaded."""
    budget = MAX_ITEMS

    def walk(entries: list[Entry]) -> list[ViewItem]:
        nonlocal budget
        items: list[ViewItem] = []
        for entry in entries:
            if budget <= 0 or isinstance(entry, LoadMoreEntry):
                break
            key = entry_key(entry)
            if key is None:
                continue
            budget -= 1
            item = ViewItem(key, entry.label().plain, entry.expandable, entry.expanded)
            if entry.expanded and entry.children:
                item.children = walk(entry.children)
            items.append(item)
        return items

    if not root.children or root.failed:
        return None
    items = walk(root.children)
    return FirstView(items) if items else None
