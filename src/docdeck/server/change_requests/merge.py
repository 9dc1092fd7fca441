"""Three-way merges of a change request with main: update (main into the change request) and
merge (the change request into main).

The base is the change request's last common revision with main (`revisionMergedAncestor`,
else `revisionInitial`). Only the entries that changed on either side since the base are
looked at (content-addressed hashes tell which), so the work grows with what changed, not
with the space. Page tree changes (add, delete, move, rename, metadata) and bodies merge
independently: an entry's fields merge one by one (a field changed on both sides keeps the
change request's value), and a body changed on both sides merges block by block
(`blocks.merge_bodies`).

Conflicts are a block changed differently on both sides, or a page edited on one side and
deleted on the other. On update they are written into the change request's new revision
between labelled markers (nothing from either side is lost); on merge the change request's
side is kept, as the platform documents ("the merge was still applied").
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from typing import Any

from docdeck.server.change_requests.blocks import conflict_block, merge_bodies
from docdeck.server.content.snapshots import Entry, Key, Snapshot, changed_keys, get_text
from docdeck.server.content.tree import unique_slug

DELETED_IN_CR = "*(This page was deleted in the change request.)*\n"
DELETED_IN_MAIN = "*(This page was deleted in main.)*\n"


@dataclass
class Merged:
    pages: dict[str, Entry]
    files: dict[str, Entry]
    variables: dict[str, Any]
    bodies: dict[str, str] = field(default_factory=dict)
    """New bodies (merged or with markers) to write, by page id."""
    conflicts: list[str] = field(default_factory=list)
    """Page ids with a conflict."""


def _changed(changed: set[Key], kind: str) -> set[str]:
    return {item_id for k, item_id in changed if k == kind}


class _PageMerge:
    def __init__(
        self,
        conn: sqlite3.Connection,
        base: Snapshot,
        cr: Snapshot,
        main: Snapshot,
        number: int,
        keep_cr: bool,
    ) -> None:
        self.conn, self.base, self.cr, self.main = conn, base, cr, main
        self.number, self.keep_cr = number, keep_cr

    def body(self, entry: Entry | None) -> str:
        return "" if entry is None else get_text(self.conn, entry.get("body"))

    def one(self, page_id: str, out: Merged) -> Entry | None:
        b = self.base.pages.get(page_id)
        o = self.cr.pages.get(page_id)
        t = self.main.pages.get(page_id)
        if o is None and t is None:
            return None
        if o is None or t is None:  # deleted on one side, edited on the other
            out.conflicts.append(page_id)
            if self.keep_cr:
                return o
            kept = dict(o if t is None else t)  # type: ignore[arg-type]
            if kept.get("type") == "document":
                main_side = DELETED_IN_MAIN if t is None else self.body(t)
                cr_side = DELETED_IN_CR if o is None else self.body(o)
                marked = conflict_block(main_side, cr_side, self.number)
                out.bodies[page_id] = marked
            return kept
        if b is None:
            return o
        merged: Entry = {}
        for key in set(b) | set(o) | set(t):
            if key in ("body", "updatedAt"):
                continue
            bv, ov, tv = b.get(key), o.get(key), t.get(key)
            value = tv if ov == bv else ov
            if value is not None:
                merged[key] = value
        merged["updatedAt"] = max(o.get("updatedAt", ""), t.get("updatedAt", ""))
        bb, ob, tb = b.get("body"), o.get("body"), t.get("body")
        if ob == tb or tb == bb:
            body = ob
        elif ob == bb:
            body = tb
        else:
            result = merge_bodies(
                self.body(b),
                self.body(o),
                self.body(t),
                number=self.number,
                keep_change_request=self.keep_cr,
            )
            if result.conflicts:
                out.conflicts.append(page_id)
            out.bodies[page_id] = result.text
            body = ob
        if body is not None:
            merged["body"] = body
        return merged


def merge_snapshots(
    conn: sqlite3.Connection,
    base: Snapshot,
    cr: Snapshot,
    main: Snapshot,
    *,
    onto: Snapshot,
    number: int,
    keep_cr: bool,
) -> Merged:
    """The merged content, built on `onto` (the side the new revision starts from, `cr` or
    `main`): its untouched entries stay the same objects, so committing re-hashes only what
    the merge changed."""
    out = Merged(dict(onto.pages), dict(onto.files), dict(onto.variables))
    cr_changed, main_changed = changed_keys(conn, base, cr), changed_keys(conn, base, main)
    cr_pages, main_pages = _changed(cr_changed, "page"), _changed(main_changed, "page")
    pages = _PageMerge(conn, base, cr, main, number, keep_cr)
    touched: set[str] = set()
    removed: set[str] = set()
    for page_id in cr_pages | main_pages:
        if cr.hashes.get(("page", page_id)) == main.hashes.get(("page", page_id)):
            entry = cr.pages.get(page_id)
        elif page_id not in cr_pages:
            entry = main.pages.get(page_id)
        elif page_id not in main_pages:
            entry = cr.pages.get(page_id)
        else:
            entry = pages.one(page_id, out)
        if entry is None:
            out.pages.pop(page_id, None)
            removed.add(page_id)
        elif onto.pages.get(page_id) is not entry:
            out.pages[page_id] = entry
            touched.add(page_id)
    _repair_tree(out, touched, onto, removed)
    cr_files = _changed(cr_changed, "file")
    for file_id in cr_files | _changed(main_changed, "file"):
        side = cr if file_id in cr_files else main
        found = side.files.get(file_id)
        if found is None:
            out.files.pop(file_id, None)
        else:
            out.files[file_id] = found
    for key in set(base.variables) | set(cr.variables) | set(main.variables):
        bv, ov, tv = base.variables.get(key), cr.variables.get(key), main.variables.get(key)
        value = tv if ov == bv else ov
        if value is None:
            out.variables.pop(key, None)
        else:
            out.variables[key] = value
    return out


def _orphan(entry: Entry, pages: dict[str, Entry]) -> bool:
    parent = entry.get("parent")
    return parent is not None and parent not in pages


def _repair_tree(out: Merged, touched: set[str], onto: Snapshot, removed: set[str]) -> None:
    """A page whose parent the other side deleted goes to the top level; a slug taken twice
    among siblings (both sides added or moved a page there) is made unique on the page the
    merge brought.

    Only what the merge changed is looked at (`onto`, a revision, has neither orphans nor
    twice-taken slugs): the pages it brought, the children of the pages it removed, and the
    siblings of a page it added, moved or gave another slug."""
    orphans = [p for p in touched if _orphan(out.pages[p], out.pages)]
    if removed:  # their children on `onto`'s side (one pass; a deletion is the rare case)
        orphans += [
            p for p, e in out.pages.items() if e.get("parent") in removed and p not in touched
        ]
    for page_id in orphans:
        out.pages[page_id] = {**out.pages[page_id], "parent": None}
        touched.add(page_id)
    placed = ("parent", "slug")
    parents = {
        entry.get("parent")
        for page_id in touched
        if (entry := out.pages.get(page_id)) is not None
        and (
            (before := onto.pages.get(page_id)) is None
            or any(entry.get(key) != before.get(key) for key in placed)
        )
    }
    if not parents:
        return
    by_parent: dict[str | None, list[str]] = {}
    for page_id, entry in out.pages.items():
        if entry.get("parent") in parents:
            by_parent.setdefault(entry.get("parent"), []).append(page_id)
    for siblings in by_parent.values():
        taken: set[str] = set()
        for page_id in sorted(siblings, key=lambda p: (p in touched, p)):
            entry = out.pages[page_id]
            slug = entry.get("slug")
            if slug is None:
                continue
            if slug in taken:
                slug = unique_slug(slug, taken)
                out.pages[page_id] = {**entry, "slug": slug}
            taken.add(slug)
