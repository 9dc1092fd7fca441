"""The semantic changes a revision made, relative to its first parent.

Pages created, deleted, moved (a new parent) and edited (title, slug, emoji, description,
body, link target), files created, deleted and edited, variables edited: the platform's
`RevisionSemanticChange` items. A revision without a parent (a space's first) lists what it
holds as created.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from docdeck.server.content.snapshots import (
    Entry,
    Snapshot,
    changed_pages,
    load_snapshot,
)
from docdeck.server.content.tree import PageTree, tree_of
from docdeck.server.content.wire import View, file_dict

_PAGE_ATTRIBUTES = {
    "document": ("title", "description", "slug", "emoji", "body"),
    "group": ("title", "emoji", "slug"),
    "link": ("title", "emoji", "target"),
}
_FILE_ATTRIBUTES = ("name", "contentType", "size", "blob")


def _changed_page(entry: Entry, tree: PageTree) -> dict[str, Any]:
    out = {"id": entry["id"], "type": entry["type"], "title": entry["title"]}
    if entry["id"] in tree.paths:
        out["path"] = tree.paths[entry["id"]]
    return out


def _attribute(before: Any, after: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if before is not None:
        out["before"] = before
    if after is not None:
        out["after"] = after
    return out


_FIRST_PARENT: Any = object()


def semantic_changes(
    conn: sqlite3.Connection,
    view: View,
    snapshot: Snapshot,
    limit: int,
    old: Snapshot | None = _FIRST_PARENT,
) -> dict[str, Any]:
    """Relative to `old` (default: the first parent). Only entries whose hashes differ are
    visited, so the cost follows what changed, not the size of the space."""
    if old is _FIRST_PARENT:
        parents = snapshot.info.parents
        old = load_snapshot(conn, parents[0]) if parents else None
    old_pages = old.pages if old else {}
    old_files = old.files if old else {}
    new_tree = tree_of(snapshot)
    old_tree = tree_of(old) if old else new_tree
    changes: list[dict[str, Any]] = []
    order = {pid: i for i, pid in enumerate(new_tree.order)}
    if old is None:
        touched = set(snapshot.pages)
    else:
        touched = {p for p in changed_pages(old, snapshot) if p in snapshot.pages}
    for page_id in sorted(touched, key=lambda p: order.get(p, 0)):
        entry = snapshot.pages[page_id]
        before = old_pages.get(page_id)
        if before is None:
            changes.append({"type": "page_created", "page": _changed_page(entry, new_tree)})
            continue
        if before.get("parent") != entry.get("parent"):
            parent: dict[str, Any] = {}
            if before.get("parent") in old_pages:
                parent["before"] = _changed_page(old_pages[before["parent"]], old_tree)
            if entry.get("parent") in snapshot.pages:
                parent["after"] = _changed_page(snapshot.pages[entry["parent"]], new_tree)
            changes.append(
                {"type": "page_moved", "page": _changed_page(entry, new_tree), "parent": parent}
            )
        attributes = {}
        for name in _PAGE_ATTRIBUTES.get(entry["type"], ("title",)):
            if before.get(name) != entry.get(name):
                wire_name = "document" if name == "body" else name
                attributes[wire_name] = _attribute(before.get(name), entry.get(name))
        if attributes:
            changes.append(
                {
                    "type": "page_edited",
                    "page": _changed_page(entry, new_tree),
                    "attributes": attributes,
                }
            )
    gone = (
        [] if old is None else [p for p in changed_pages(old, snapshot) if p not in snapshot.pages]
    )
    if gone:
        old_order = {pid: i for i, pid in enumerate(old_tree.order)}
        gone.sort(key=lambda p: (old_order.get(p, 0), p))
    for page_id in gone:
        changes.append(
            {"type": "page_deleted", "page": _changed_page(old_pages[page_id], old_tree)}
        )
    space_id = snapshot.info.space_id
    for file_id, entry in sorted(snapshot.files.items()):
        before = old_files.get(file_id)
        if before is None:
            changes.append(
                {"type": "file_created", "file": _changed_file(conn, view, space_id, entry)}
            )
            continue
        attributes = {
            ("downloadURL" if name == "blob" else name): _attribute(
                before.get(name), entry.get(name)
            )
            for name in _FILE_ATTRIBUTES
            if before.get(name) != entry.get(name)
        }
        if not attributes:
            continue
        # A file's link is signed with the reading time: only a changed file's is made, so
        # an answer listing none does not depend on the clock (the answer cache keeps it).
        shown = _changed_file(conn, view, space_id, entry)
        if "downloadURL" in attributes:
            attributes["downloadURL"] = _attribute(
                _changed_file(conn, view, space_id, before)["downloadURL"],
                shown["downloadURL"],
            )
        changes.append({"type": "file_edited", "file": shown, "attributes": attributes})
    for file_id, entry in sorted(old_files.items()):
        if file_id not in snapshot.files:
            shown = _changed_file(conn, view, space_id, entry)
            changes.append({"type": "file_deleted", "file": shown})
    old_vars = old.variables if old else {}
    if old_vars != snapshot.variables:
        names = sorted(set(old_vars) | set(snapshot.variables))
        changes.append(
            {
                "type": "variables_edited",
                "variables": {
                    n: _attribute(old_vars.get(n), snapshot.variables.get(n))
                    for n in names
                    if old_vars.get(n) != snapshot.variables.get(n)
                },
            }
        )
    out: dict[str, Any] = {"changes": changes[:limit]}
    if len(changes) > limit:
        out["more"] = len(changes) - limit
    return out


def _changed_file(
    conn: sqlite3.Connection, view: View, space_id: str, entry: Entry
) -> dict[str, Any]:
    full = file_dict(conn, view, space_id, entry)
    return {k: full[k] for k in ("id", "name", "contentType", "downloadURL")}
