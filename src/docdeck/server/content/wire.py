"""Snapshots to the wire: pages, files and revisions as the platform's JSON shapes.

Built as plain dicts and validated once into the shared models by the routers, so a page tree
of thousands of pages costs one validation pass.
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from functools import cached_property
from typing import Any

from docdeck.server.content.document import to_document
from docdeck.server.content.links import resolver_for
from docdeck.server.content.snapshots import Snapshot, get_text
from docdeck.server.content.tree import PageTree, tree_of
from docdeck.server.files import service as file_links
from docdeck.server.ids import to_db
from docdeck.server.wire import encode, wire_time

_VARIABLE = re.compile(r"\{\{\s*space\.vars\.([A-Za-z_][\w-]*)\s*\}\}")


@dataclass(frozen=True)
class View:
    """Who reads and how: the request's base URL, the caller, the time, the app host.

    The time is read from `clock` on first use only (a file's signed link is all that needs
    it): an answer that never reads it does not depend on it, so the answer cache may keep it
    (`server/http/answer_cache.py` keeps no answer made while the clock was read)."""

    base_url: str
    user_id: str
    clock: Callable[[], datetime]
    app_host: str | None

    @cached_property
    def now(self) -> datetime:
        """The clock read once per view, so every link of one answer has the same expiry."""
        return self.clock()


def page_app_url(view: View, space_id: str, page_id: str) -> str:
    return f"{view.base_url}/app/spaces/{space_id}/pages/{page_id}"


def page_dict(
    view: View,
    snapshot: Snapshot,
    tree: PageTree,
    page_id: str,
    *,
    children: bool = True,
) -> dict[str, Any]:
    entry = snapshot.pages[page_id]
    space_id = snapshot.info.space_id
    kind = entry["type"]
    out: dict[str, Any] = {"id": page_id, "title": entry["title"], "type": kind}
    if "emoji" in entry:
        out["emoji"] = entry["emoji"]
    for key in ("createdAt", "updatedAt"):
        if key in entry:
            out[key] = wire_time(entry[key])
    if kind == "link":
        out["kind"] = "link"
        out["target"] = entry["target"]
        if entry.get("hidden"):
            out["hidden"] = True
        return out
    out["kind"] = "sheet" if kind == "document" else kind
    out["slug"] = entry["slug"]
    out["path"] = tree.paths[page_id]
    if entry.get("hidden"):
        out["hidden"] = True
    kids = tree.kids(page_id) if children else []
    out["pages"] = [
        page_dict(view, snapshot, tree, kid)
        for kid in kids
        if snapshot.pages[kid]["type"] != "group"
    ]
    if kind == "document":
        out["urls"] = {"app": page_app_url(view, space_id, page_id)}
        out["layout"] = entry.get("layout") or {}
        if entry.get("description"):
            out["description"] = entry["description"]
        if entry.get("body"):
            out["documentId"] = entry["body"]
    return out


def pages_dict(view: View, snapshot: Snapshot) -> list[dict[str, Any]]:
    tree = tree_of(snapshot)
    return [page_dict(view, snapshot, tree, pid) for pid in tree.kids(None)]


def encoded_pages(view: View, snapshot: Snapshot) -> bytes:
    """The page tree as JSON, encoded once per snapshot and public URL: a revision never
    changes, and the tree holds nothing particular to the caller."""
    key = f"pages-json:{view.base_url}"
    found = snapshot.derived.get(key)
    if not isinstance(found, bytes):
        found = encode(pages_dict(view, snapshot))
        snapshot.derived[key] = found
    return found


def evaluate(markdown: str, variables: dict[str, Any]) -> str:
    """`{{ space.vars.NAME }}` replaced by the revision's variable (unknown ones kept)."""

    def value(match: re.Match[str]) -> str:
        found = variables.get(match.group(1))
        return match.group(0) if found is None else str(found)

    return _VARIABLE.sub(value, markdown)


def with_body(
    conn: sqlite3.Connection,
    view: View,
    snapshot: Snapshot,
    page: dict[str, Any],
    body_format: str | None,
    evaluated: bool,
) -> dict[str, Any]:
    """The page with its body in `body_format` (markdown or document); without a format the
    platform sends no body, and neither does the sandbox."""
    if body_format is None or page["type"] != "document":
        return page
    digest = snapshot.pages[page["id"]].get("body")
    markdown = get_text(conn, digest)
    if evaluated:
        markdown = evaluate(markdown, snapshot.variables)
    if body_format == "markdown":
        return {**page, "markdown": markdown}
    resolve = resolver_for(conn, snapshot, page["id"], view.app_host)
    return {**page, "document": to_document(markdown, resolve)}


def file_dict(conn: sqlite3.Connection, view: View, space_id: str, entry: dict[str, Any]) -> Any:
    link = file_links.link_for(space_id, entry["blob"], view.user_id, view.now)
    out: dict[str, Any] = {
        "id": entry["id"],
        "name": entry["name"],
        "contentType": entry["contentType"],
        "size": entry["size"],
        "downloadURL": view.base_url + file_links.download_path(conn, link, entry["name"]),
    }
    if "width" in entry:
        out["dimensions"] = {"width": entry["width"], "height": entry["height"]}
    return out


def files_in_order(snapshot: Snapshot) -> list[dict[str, Any]]:
    """Files by name, then id: the order of file lists."""
    return sorted(snapshot.files.values(), key=lambda e: (e["name"].casefold(), e["id"]))


def revision_dict(
    conn: sqlite3.Connection, view: View, snapshot: Snapshot, *, with_pages: bool = True
) -> dict[str, Any]:
    info = snapshot.info
    out: dict[str, Any] = {
        "object": "revision",
        "id": info.id,
        "type": info.type,
        "parents": list(info.parents),
        "files": [file_dict(conn, view, info.space_id, e) for e in files_in_order(snapshot)],
        "reusableContents": [],
        "createdAt": wire_time(to_db(info.created_at)),
        "urls": {"app": f"{view.base_url}/app/spaces/{info.space_id}/revisions/{info.id}"},
    }
    if with_pages:
        out["pages"] = pages_dict(view, snapshot)
    if snapshot.variables:
        out["variables"] = dict(snapshot.variables)
    if info.type == "merge":
        out["mergedFrom"] = {}
    return out
