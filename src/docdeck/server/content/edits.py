"""Changing content: a `Draft` of the next revision, committed as one new revision.

Every write to content (templates, import, the demo, later change requests) goes through a
draft, so every change makes exactly one immutable revision, and the search index and the
stored body analyses follow it.
"""

from __future__ import annotations

import sqlite3
from datetime import datetime
from typing import Any

from docdeck.models import slugify
from docdeck.server.content.markdown import analysis_of
from docdeck.server.content.snapshots import (
    Entry,
    Snapshot,
    commit,
    current_revision_id,
    load_snapshot,
    put_object,
)
from docdeck.server.content.tree import unique_slug
from docdeck.server.files.service import file_entry
from docdeck.server.ids import new_id, to_db
from docdeck.server.search import index as search

DEFAULT_LAYOUT: dict[str, Any] = {
    "width": "default",
    "cover": False,
    "coverSize": "hero",
    "title": True,
    "description": True,
    "tableOfContents": True,
    "outline": True,
    "pagination": True,
    "metadata": True,
}


class Draft:
    """The content of the next revision of a space, starting from its current one, or from
    `base_revision` (a change request's revision: the draft then never touches main)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        space_id: str,
        now: datetime,
        base_revision: str | None = None,
    ) -> None:
        self.conn = conn
        self.space_id = space_id
        self.now = now
        self.base: Snapshot = load_snapshot(
            conn, base_revision or current_revision_id(conn, space_id)
        )
        self.pages: dict[str, Entry] = dict(self.base.pages)
        self.files: dict[str, Entry] = dict(self.base.files)
        self.variables: dict[str, Any] = dict(self.base.variables)
        self.objects: list[str] = []

    # --- pages ----------------------------------------------------------------------------

    def _siblings(self, parent: str | None) -> list[str]:
        return [i for i, e in self.pages.items() if e.get("parent") == parent]

    def _end(self, parent: str | None) -> float:
        positions = [self.pages[i]["position"] for i in self._siblings(parent)]
        return max(positions, default=0.0) + 1.0

    def _slug(self, parent: str | None, wanted: str, exclude: str | None = None) -> str:
        taken = {self.pages[i].get("slug", "") for i in self._siblings(parent) if i != exclude}
        return unique_slug(wanted, taken)

    def add_page(
        self,
        title: str,
        *,
        parent: str | None = None,
        markdown: str | None = None,
        type: str = "document",
        slug: str | None = None,
        emoji: str | None = None,
        description: str | None = None,
        hidden: bool = False,
        href: str | None = None,
        page_id: str | None = None,
    ) -> str:
        """A new page at the end of `parent`'s children; returns its id. Groups live only at
        the top level (the platform's child pages are documents, links or computed)."""
        if type == "group" and parent is not None:
            raise ValueError("a group page can only be at the top level")
        page_id = page_id or new_id()
        stamp = to_db(self.now)
        entry: Entry = {
            "id": page_id,
            "type": type,
            "title": title,
            "parent": parent,
            "position": self._end(parent),
            "createdAt": stamp,
            "updatedAt": stamp,
        }
        if type != "link":
            entry["slug"] = self._slug(parent, slugify(slug or title))
        if type == "document":
            entry["layout"] = dict(DEFAULT_LAYOUT)
            entry["body"] = self._body(markdown or "")
        if type == "link":
            entry["target"] = {"kind": "url", "url": href or ""}
        if emoji:
            entry["emoji"] = emoji
        if description:
            entry["description"] = description
        if hidden:
            entry["hidden"] = True
        self.pages[page_id] = entry
        return page_id

    def _body(self, markdown: str) -> str:
        digest = put_object(self.conn, markdown.encode("utf-8"))
        analysis_of(self.conn, digest, markdown, store=True)
        self.objects.append(digest)
        return digest

    def _touch(self, page_id: str) -> Entry:
        entry = dict(self.pages[page_id])
        entry["updatedAt"] = to_db(self.now)
        self.pages[page_id] = entry
        return entry

    def set_markdown(self, page_id: str, markdown: str) -> None:
        self._touch(page_id)["body"] = self._body(markdown)

    def rename(self, page_id: str, title: str, *, slug: str | None = None) -> None:
        entry = self._touch(page_id)
        entry["title"] = title
        if slug is not None:
            entry["slug"] = self._slug(entry.get("parent"), slugify(slug), exclude=page_id)

    def update(self, page_id: str, **fields: Any) -> None:
        """Sets other entry fields (`emoji`, `description`, `hidden`); None removes one."""
        entry = self._touch(page_id)
        for key, value in fields.items():
            if value is None:
                entry.pop(key, None)
            else:
                entry[key] = value

    def move(self, page_id: str, parent: str | None, *, before: str | None = None) -> None:
        entry = self._touch(page_id)
        entry["parent"] = parent
        if before is not None:
            mark = self.pages[before]["position"]
            lower = [self.pages[i]["position"] for i in self._siblings(parent) if i != page_id]
            below = max((p for p in lower if p < mark), default=mark - 2.0)
            entry["position"] = (below + mark) / 2
        else:
            entry["position"] = self._end(parent)
        if "slug" in entry:
            entry["slug"] = self._slug(parent, entry["slug"], exclude=page_id)

    def remove(self, page_id: str) -> None:
        """The page and every page below it."""
        doomed = [page_id]
        while doomed:
            current = doomed.pop()
            self.pages.pop(current, None)
            doomed.extend(i for i, e in self.pages.items() if e.get("parent") == current)

    # --- files ----------------------------------------------------------------------------

    def add_file(self, name: str, data: bytes, content_type: str | None = None) -> str:
        file_id = new_id()
        entry = file_entry(self.conn, file_id, name, data, content_type)
        self.objects.append(entry["blob"])
        self.files[file_id] = entry
        return file_id

    def remove_file(self, file_id: str) -> None:
        self.files.pop(file_id, None)

    # --- commit ---------------------------------------------------------------------------

    def commit(
        self,
        *,
        type: str = "edits",
        message: str | None = None,
        parents: list[str] | None = None,
        make_current: bool = True,
    ) -> str:
        """Writes the draft as the space's new current revision (or, with `make_current`
        false, as a revision outside main: a change request's); returns its id. Only main's
        revisions are in the search index."""
        revision_id = commit(
            self.conn,
            space_id=self.space_id,
            base=self.base,
            pages=self.pages,
            files=self.files,
            variables=self.variables,
            now=self.now,
            type=type,
            parents=parents,
            message=message,
            new_objects=self.objects,
            make_current=make_current,
        )
        if make_current:
            search.index_revision(
                self.conn, self.space_id, self.base, load_snapshot(self.conn, revision_id)
            )
        return revision_id


def copy_content(
    conn: sqlite3.Connection, source_space: str, target_space: str, now: datetime
) -> str:
    """The target's next revision holds the source's current content (objects shared)."""
    source = load_snapshot(conn, current_revision_id(conn, source_space))
    draft = Draft(conn, target_space, now)
    draft.pages = dict(source.pages)
    draft.files = dict(source.files)
    draft.variables = dict(source.variables)
    conn.execute(
        "INSERT OR IGNORE INTO space_objects (space_id, hash) SELECT ?, hash FROM space_objects"
        " WHERE space_id = ?",
        (target_space, source_space),
    )
    return draft.commit(message=f"Copied from space {source_space}")
