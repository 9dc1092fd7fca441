"""Applying a batch of authored changes to a change request: in order, atomically, as one
new revision. Every check happens before anything is written; an invalid change refuses the
whole batch with a 400 naming `changes[<index>].<field>`."""

from __future__ import annotations

import base64
import binascii
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from docdeck.models import slugify
from docdeck.models.change_request_content import (
    DeletePage,
    DocumentBody,
    InsertFiles,
    InsertPage,
    RevertPage,
    UpdatePage,
)
from docdeck.server.change_requests.frontmatter import FrontmatterError, split_frontmatter
from docdeck.server.change_requests.markdown_links import resolve_links
from docdeck.server.change_requests.revert import revert_blocks
from docdeck.server.change_requests.service import ChangeRequestAccess
from docdeck.server.content.edits import Draft
from docdeck.server.content.snapshots import get_text, load_snapshot
from docdeck.server.content.snapshots import revision_info as find_revision
from docdeck.server.content.tree import build_tree, unique_slug
from docdeck.server.errors import ApiError, bad_request

MAX_FILE_BYTES = 1024 * 1024
_METADATA = ("emoji", "icon", "description", "hidden", "noIndex", "noRobotsIndex", "condition")
_REMOVABLE = ("emoji", "icon", "condition")


@dataclass
class Outcome:
    changes: list[dict[str, Any]] = field(default_factory=list)
    """(object, page id, ref) in first-touch order."""
    files: list[str] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)

    def touch(self, kind: str, page_id: str, ref: str | None = None) -> None:
        if page_id in self.seen:
            for item in self.changes:
                if item["page"] == page_id and kind == "deleted_page":
                    item["object"] = "deleted_page" if item["object"] != "created_page" else "gone"
            return
        self.seen.add(page_id)
        added: dict[str, Any] = {"object": kind, "page": page_id}
        if ref is not None:
            added["ref"] = ref
        self.changes.append(added)


class _Batch:
    def __init__(self, conn: sqlite3.Connection, cr: ChangeRequestAccess, draft: Draft) -> None:
        self.conn = conn
        self.cr = cr
        self.draft = draft
        self.page_refs: dict[str, str] = {}
        self.file_refs: dict[str, str] = {}
        self.bodies: dict[str, str] = {}
        self.outcome = Outcome()
        self.where = ""

    def fail(self, name: str, message: str) -> ApiError:
        return bad_request(f"{self.where}.{name}: {message}")

    # --- checks -------------------------------------------------------------------------

    def page(self, page_id: str, name: str = "page") -> dict[str, Any]:
        entry = self.draft.pages.get(page_id)
        if entry is None:
            number = self.cr.row["number"]
            raise self.fail(name, f"no page {page_id!r} in change request #{number}")
        return entry

    def markdown(self, document: Any) -> str:
        if isinstance(document, DocumentBody):
            raise self.fail("document", "the sandbox accepts markdown bodies only: {markdown}")
        return str(document.markdown)

    def frontmatter(self, document: Any) -> tuple[dict[str, Any], str]:
        try:
            return split_frontmatter(self.markdown(document))
        except FrontmatterError as error:
            raise self.fail("document.markdown", str(error)) from None

    def ref(self, ref: str | None, name: str = "ref") -> None:
        if ref is None:
            return
        if not ref or "/" in ref:
            raise self.fail(name, "must be a non-empty name without '/'")
        if ref in self.page_refs or ref in self.file_refs:
            raise self.fail(name, f"{ref!r} is already used by another change of this batch")

    def siblings(self, parent: str | None, exclude: str | None = None) -> list[str]:
        ids = [i for i, e in self.draft.pages.items() if e.get("parent") == parent and i != exclude]
        return sorted(ids, key=lambda i: (self.draft.pages[i].get("position", 0.0), i))

    def place(self, page_id: str, parent: str | None, at: int | None) -> None:
        """`at`: the index among the new siblings (None or past the end: append)."""
        others = self.siblings(parent, exclude=page_id)
        positions = [self.draft.pages[i]["position"] for i in others]
        if at is None or at >= len(others):
            position = (positions[-1] if positions else 0.0) + 1.0
        elif at == 0:
            position = positions[0] - 1.0
        else:
            position = (positions[at - 1] + positions[at]) / 2
        entry = dict(self.draft.pages[page_id])
        entry["parent"], entry["position"] = parent, position
        self.draft.pages[page_id] = entry

    def slug(self, page_id: str, parent: str | None, wanted: str | None, title: str) -> str:
        taken = {self.draft.pages[i].get("slug", "") for i in self.siblings(parent, page_id)}
        if wanted is not None:
            if wanted in taken:
                raise self.fail("slug", f"{wanted!r} is already the slug of a sibling page")
            return wanted
        return unique_slug(slugify(title), taken)

    def metadata(
        self, page_id: str, change: InsertPage | UpdatePage, front: dict[str, Any]
    ) -> None:
        entry = dict(self.draft.pages[page_id])
        given = change.model_fields_set
        for name in _METADATA:
            value = front[name] if name in front else getattr(change, name)
            if name not in given and name not in front:
                continue
            if value is None or (name in _REMOVABLE and value == ""):
                entry.pop(name, None)
            else:
                entry[name] = value
        self.draft.pages[page_id] = entry

    # --- changes ------------------------------------------------------------------------

    def insert_page(self, change: InsertPage) -> None:
        self.ref(change.ref)
        parent = change.into
        if parent is not None:
            self.page(parent, "into")
        front, body = self.frontmatter(change.document)
        title = front.get("title") or change.title or _leading_heading(body) or "Untitled"
        page_id = self.draft.add_page(title, parent=parent)
        entry = dict(self.draft.pages[page_id])
        entry["slug"] = self.slug(page_id, parent, front.get("slug") or change.slug, title)
        self.draft.pages[page_id] = entry
        self.place(page_id, parent, change.at)
        self.metadata(page_id, change, front)
        self.bodies[page_id] = body
        if change.ref is not None:
            self.page_refs[change.ref] = page_id
        self.outcome.touch("created_page", page_id, change.ref)

    def update_page(self, change: UpdatePage) -> None:
        entry = self.page(change.page)
        front: dict[str, Any] = {}
        if change.document is not None:
            front, body = self.frontmatter(change.document)
            if entry.get("type") != "document":
                raise self.fail("document", f"page {change.page!r} is a {entry['type']} page")
            self.bodies[change.page] = body
        parent = entry.get("parent")
        if "into" in change.model_fields_set:
            parent = change.into
            if parent is not None:
                self.page(parent, "into")
                below = {change.page, *build_tree(self.draft.pages).descendants(change.page)}
                if parent in below:
                    raise self.fail("into", "a page cannot move into itself or its subpages")
        if "into" in change.model_fields_set or change.at is not None:
            self.place(change.page, parent, change.at)
        title = front.get("title") or change.title
        if title:
            self.draft.pages[change.page] = {**self.draft.pages[change.page], "title": title}
        wanted = front.get("slug") or change.slug
        moved = parent != entry.get("parent")
        if (wanted is not None or moved) and "slug" in entry:
            current = self.draft.pages[change.page]
            slug = self.slug(change.page, parent, wanted, wanted or current["slug"])
            self.draft.pages[change.page] = {**current, "slug": slug}
        self.metadata(change.page, change, front)
        self.draft.update(change.page)  # updatedAt
        self.outcome.touch("updated_page", change.page)

    def delete_page(self, change: DeletePage) -> None:
        self.page(change.page)
        gone = [change.page, *build_tree(self.draft.pages).descendants(change.page)]
        self.draft.remove(change.page)
        for page_id in gone:
            self.bodies.pop(page_id, None)
        self.outcome.touch("deleted_page", change.page)

    def revert_page(self, change: RevertPage) -> None:
        revision = change.revision or self.cr.base
        info = find_revision(self.conn, revision)
        if info is None or info.space_id != self.cr.space.row["id"]:
            raise self.fail("revision", f"no revision {revision!r} in this space")
        old = load_snapshot(self.conn, revision)
        before = old.pages.get(change.page)
        now = self.draft.pages.get(change.page)
        if before is None and now is None:
            raise self.fail("page", f"no page {change.page!r} here or in revision {revision!r}")
        if change.block is not None:
            if before is None or now is None or now.get("type") != "document":
                raise self.fail("block", "blocks are reverted only on a page present in both")
            current = self.bodies.get(change.page) or get_text(self.conn, now.get("body"))
            reverted = revert_blocks(current, get_text(self.conn, before.get("body")), change.block)
            if isinstance(reverted, str):
                self.bodies[change.page] = reverted
            else:
                raise self.fail("block", f"no block {reverted[0]!r} in page {change.page!r}")
            self.outcome.touch("updated_page", change.page)
            return
        if before is None:
            self.draft.remove(change.page)
            self.outcome.touch("deleted_page", change.page)
            return
        restore = [change.page]
        if now is None:  # deleted: its subpages come back with it
            restore += build_tree(old.pages).descendants(change.page)
        for page_id in restore:
            if page_id == change.page or page_id not in self.draft.pages:
                entry = dict(old.pages[page_id])
                parent = entry.get("parent")
                if parent is not None and parent not in self.draft.pages and parent not in restore:
                    entry["parent"] = None
                self.draft.pages[page_id] = entry
                self.bodies.pop(page_id, None)
        self.outcome.touch("updated_page" if now else "created_page", change.page)

    def insert_files(self, change: InsertFiles) -> None:
        for index, item in enumerate(change.files):
            where = f"files[{index}]"
            self.ref(item.ref, f"{where}.ref")
            if (item.url is None) == (item.base64 is None):
                raise self.fail(where, "give exactly one of url or base64")
            if item.url is not None:
                raise self.fail(
                    f"{where}.url", "the sandbox does not fetch files; send the bytes as base64"
                )
            if not item.contentType:
                raise self.fail(f"{where}.contentType", "is required with base64")
            try:
                data = base64.b64decode(item.base64 or "", validate=True)
            except (binascii.Error, ValueError):
                raise self.fail(f"{where}.base64", "is not valid base64") from None
            if len(data) > MAX_FILE_BYTES:
                raise self.fail(f"{where}.base64", "must decode to at most 1 MB")
            file_id = self.draft.add_file(item.name, data, item.contentType)
            self.outcome.files.append(file_id)
            if item.ref is not None:
                self.file_refs[item.ref] = file_id

    def finish(self) -> None:
        """Bodies are written last, their links resolved against the final tree."""
        tree = build_tree(self.draft.pages)
        for page_id, body in self.bodies.items():
            if page_id not in self.draft.pages:
                continue
            text = resolve_links(
                body, tree, self.draft.pages, self.draft.files, self.page_refs, self.file_refs
            )
            self.draft.set_markdown(page_id, text)


def _leading_heading(body: str) -> str | None:
    for line in body.splitlines():
        if line.strip():
            return line[2:].strip() if line.startswith("# ") else None
    return None


def apply_changes(
    conn: sqlite3.Connection, cr: ChangeRequestAccess, draft: Draft, changes: list[Any]
) -> Outcome:
    batch = _Batch(conn, cr, draft)
    handlers: dict[str, Callable[[Any], None]] = {
        "insert_page": batch.insert_page,
        "update_page": batch.update_page,
        "delete_page": batch.delete_page,
        "revert_page": batch.revert_page,
        "insert_files": batch.insert_files,
    }
    for index, change in enumerate(changes):
        batch.where = f"changes[{index}]"
        handlers[change.operation](change)
    batch.finish()
    batch.outcome.changes = [c for c in batch.outcome.changes if c["object"] != "gone"]
    return batch.outcome
