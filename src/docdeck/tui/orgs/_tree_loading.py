"""The org tree's loading: one worker per entry fetches its children, and their answer
(or failure) is drawn into the tree.

A refresh keeps what was loaded until the answer replaces it; a failed refresh keeps
it, marked stale. Entries expanded in the last session reopen as they arrive.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime

from docdeck.tui.kit.entries import ITS_CHILDREN, Entry, LoadMoreEntry
from docdeck.tui.kit.errors import describe
from docdeck.tui.kit.workers import client_of, read
from docdeck.tui.orgs._tree_view import TreeView
from docdeck.tui.orgs.first_view_capture import entry_key
from docdeck.tui.orgs.loaders import load_children, load_more
from docdeck.tui.orgs.messages import ChildrenFailed, ChildrenLoaded

__all__ = ["TreeLoading"]


class TreeLoading:
    """Loads the children of the tree that owns it in workers (run on the tree, so they end
    with it) and draws what arrives; the tree hands it its load messages."""

    def __init__(self, tree: TreeView) -> None:
        self.tree = tree
        self.restore: set[str] = set()
        """Entries expanded last time, expanded again as the live ones arrive (once)."""
        self.cursor: str | None = None
        """The entry the cursor was on last time (`entry_key`): it goes back there when it
        arrives, unless the user has moved the cursor meanwhile."""
        self._cursor_at: Entry | None = None

    def mark_unreachable(self) -> None:
        """The connection failed before the organizations came: say so where they would be."""
        if self.tree.model.children is None:
            self.tree.model.loading = False
            self.tree.model.failed = True
            self.tree.model.retry_helps = True
            self.tree.render_children(self.tree.model)

    def load_root(self) -> None:
        self.load(self.tree.model)

    def load(self, entry: Entry, *, keep: bool = False) -> None:
        """Fetch an entry's first page of children in a worker (replacing any in flight).

        `keep` (a refresh): what is loaded stays shown until the answer replaces it; if the
        request fails it stays, marked stale, instead of being thrown away.
        """
        entry.loading = True
        entry.failed = False
        if not (keep and entry.children is not None):
            entry.children = None
            self.tree.render_children(entry)
        _fetch(self.tree, entry)

    def load_more(self, more: LoadMoreEntry) -> None:
        owner = more.parent
        if owner is None or more.loading:
            return
        more.loading = True
        self.tree._relabel(more)
        _fetch_more(self.tree, owner, more)

    def children_loaded(self, message: ChildrenLoaded) -> None:
        entry = message.entry
        if message.replacing is None:
            refreshed = _merge(entry.children, message.children) if entry.children else []
            entry.adopt(message.children)
            entry.children = message.children
            entry.children_loaded_at = datetime.now().astimezone()
            entry.loading = False
            if entry is self.tree.model:
                self.tree._cached = None
            self.tree.clear_stale(entry)
            reopened = self._reopen(message.children)
            self.tree.render_children(entry)
            if self.cursor is not None:
                self._restore_cursor(message.children)
            for child in reopened:
                self.load(child)
            for child in refreshed:
                self.load(child, keep=True)  # what is under it is refreshed too, kept open
        elif entry.children is not None and message.replacing in entry.children:
            # An entry read on an earlier page again (the list shifted meanwhile) is left
            # out: the tree shows each space, team or site once.
            shown = {key for child in entry.children if (key := entry_key(child)) is not None}
            children = [c for c in message.children if entry_key(c) not in shown]
            entry.adopt(children)
            index = entry.children.index(message.replacing)
            entry.children[index : index + 1] = children
            self.tree._splice(entry, message.replacing, children)
        self.tree._sync_selection()
        if entry is self.tree.model:
            self._first_organizations_shown()

    def children_failed(self, message: ChildrenFailed) -> None:
        if message.replacing is not None:
            message.replacing.loading = False
            self.tree._relabel(message.replacing)
            return
        entry = message.entry
        entry.loading = False
        if entry.children is not None:
            # A refresh failed: keep what was loaded, marked, with why.
            self.tree.mark_stale(entry, ITS_CHILDREN, message.error)
        else:
            entry.failed = True
            entry.retry_helps = message.error is None or describe(message.error, "").retry_helps
            self.tree.render_children(entry)
        if entry is self.tree.model:
            self._first_organizations_shown()  # not live, but the tree takes keys from now on

    def _reopen(self, children: list[Entry]) -> list[Entry]:
        """Mark the entries that were expanded in the cached view expanded again."""
        if not self.restore:
            return []
        reopened = []
        for child in children:
            key = entry_key(child)
            if key in self.restore and child.expandable:
                self.restore.discard(key)
                child.expanded = True
                if child.children is None:
                    reopened.append(child)
        return reopened

    def _restore_cursor(self, children: list[Entry]) -> None:
        current = self.tree.current
        if self._cursor_at is not None and current is not self._cursor_at:
            self.cursor = None  # the user has moved it: it stays where they put it
            return
        for child in children:
            if entry_key(child) == self.cursor:
                self.cursor = None
                self.tree.select_entry(child)
                return
        self._cursor_at = self.tree.current  # not there yet: perhaps under an entry reopening

    def _first_organizations_shown(self) -> None:
        notify = getattr(self.tree.app, "organizations_shown", None)
        if notify is not None:
            notify()


_STRUCTURE = {item.name for item in fields(Entry)} | {"found"}
"""Fields that are the tree's state (open, loaded children, marks), not the resource."""


# The workers of `TreeLoading`, run on the tree. Each entry's loads are a group of their
# own: a load replaces the one of its entry only.


@read(
    lambda tree, entry: f"load-{id(entry)}",
    lambda tree, entry: f"Loading {entry.title or 'organizations'}",
)
async def _fetch(tree: TreeView, entry: Entry) -> None:
    take = getattr(tree.app, "take_root_prefetch", None)
    early = take() if take is not None and entry is tree.model else None
    try:
        children = await (early or load_children(client_of(tree), entry))
    except Exception as error:
        tree.post_message(ChildrenFailed(entry, error=error))
        raise
    tree.post_message(ChildrenLoaded(entry, children))


@read(
    lambda tree, owner, more: f"more-{id(owner)}",
    lambda tree, owner, more: f"Loading more of {owner.title or 'organizations'}",
)
async def _fetch_more(tree: TreeView, owner: Entry, more: LoadMoreEntry) -> None:
    try:
        children = await load_more(client_of(tree), owner, more)
    except Exception:
        tree.post_message(ChildrenFailed(owner, replacing=more))
        raise
    tree.post_message(ChildrenLoaded(owner, children, replacing=more))


def _merge(old: list[Entry], new: list[Entry]) -> list[Entry]:
    """A refresh's answer, keeping the entries that were there (by id) instead of new ones.

    Replaced in `new` by the old objects, updated with the new resource, an entry keeps
    being open, its loaded children, its marks and the cursor on it; a write running on
    it still finds it. Returns the open ones with loaded children, to refresh in turn; a
    closed one forgets its children (they are read again when it is opened), as before.
    """
    by_key = {key: entry for entry in old if (key := entry_key(entry)) is not None}
    reload = []
    for index, fresh in enumerate(new):
        key = entry_key(fresh)
        kept = by_key.get(key) if key is not None else None
        if kept is None or type(kept) is not type(fresh):
            continue
        for item in fields(fresh):
            if item.name not in _STRUCTURE:
                setattr(kept, item.name, getattr(fresh, item.name))
        kept.loaded_at = fresh.loaded_at
        if kept.expanded and kept.children is not None:
            reload.append(kept)
        elif not kept.expanded:
            kept.children = None
        new[index] = kept
    return reload
