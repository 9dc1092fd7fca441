"""Finding content for a caller: the space's revision, a page by id or path, a file.

Content is readable by anyone who can see the space (every role has `view`); a deleted space
answers 404 like its other operations; a revision, page or file that is not in the space is
404 too, named in the message.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

from docdeck.server.access import SpaceAccess, require_live, space_access, space_statement
from docdeck.server.content.snapshots import Entry, Snapshot, load_snapshot
from docdeck.server.content.tree import normalize_path, tree_of
from docdeck.server.content.wire import View
from docdeck.server.errors import found, not_found
from docdeck.server.http.context import Ctx


@dataclass(frozen=True)
class Content:
    access: SpaceAccess
    snapshot: Snapshot

    @property
    def space_id(self) -> str:
        return str(self.access.row["id"])


def view_of(ctx: Ctx) -> View:
    return View(ctx.base_url, ctx.caller.user_id, ctx.now, _host(ctx.base_url))


@lru_cache(maxsize=8)
def _host(base_url: str) -> str:
    """The public URL's host, split once per process (the URL is the server's setting)."""
    return urlsplit(base_url).netloc


# The space with the caller's membership, and the space of the revision read (the one given,
# else the space's current one): one statement, where the revision's row was a second one,
# parsed on every request although a snapshot in memory already holds it.
_SPACE_AND_REVISION = space_statement(
    ", r.space_id AS revision_space",
    " LEFT JOIN revisions r ON r.id = coalesce(?, t.revision_id)",
)


def content_of(
    conn: sqlite3.Connection, ctx: Ctx, space_id: str, revision_id: str | None = None
) -> Content:
    row = conn.execute(
        _SPACE_AND_REVISION, (ctx.caller.user_id, revision_id or None, space_id)
    ).fetchone()
    access = space_access(conn, ctx, row, space_id)
    require_live(access)
    wanted = revision_id or access.row["revision_id"]
    if access.row["revision_space"] != space_id:
        raise not_found(f"revision {wanted!r} not found in space {space_id!r}")
    return Content(access, load_snapshot(conn, wanted))


def page_entry(content: Content, page_id: str) -> Entry:
    entry = content.snapshot.pages.get(page_id)
    return found(entry, f"page {page_id!r} not found in revision {content.snapshot.info.id!r}")


def page_id_by_path(content: Content, path: str) -> str:
    tree = tree_of(content.snapshot)
    page_id = tree.by_path_index().get(normalize_path(path))
    return found(page_id, f"no page at path {path!r} in revision {content.snapshot.info.id!r}")


def file_entry(content: Content, file_id: str) -> Entry:
    entry = content.snapshot.files.get(file_id)
    return found(entry, f"file {file_id!r} not found in revision {content.snapshot.info.id!r}")
