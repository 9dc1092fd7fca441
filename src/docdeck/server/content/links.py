"""Link analysis: every link of every page of a revision, resolved and classified.

Hrefs are written in markdown as GitBook writes them: relative paths to other pages
(`../guides/webhooks.md#retries`), `#anchor` within the page, `.gitbook/assets/<file name>`
for files, and absolute URLs. A link is `broken` when its page, anchor or file is missing in
the revision, `in-app` when it is a URL into the sandbox's own app pages (`/app/...`, which
should be a relative page link instead), else `ok`.

Parsing a body is done once per distinct body (`body_analysis`, content-addressed), so a
one-page change parses one page; classifying a revision is then set lookups over the
stored analyses, kept with the (immutable) snapshot.
"""

from __future__ import annotations

import json
import posixpath
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import unquote, urlsplit

from docdeck.server.content.markdown import analysis_of
from docdeck.server.content.snapshots import (
    Snapshot,
    cached_snapshot,
    changed_keys,
    get_text,
)
from docdeck.server.content.tree import PageTree, normalize_path, same_tree, tree_of

ASSETS = ".gitbook/assets/"
STATUS_ORDER = {"broken": 0, "in-app": 1, "ok": 2}


@dataclass(frozen=True)
class Target:
    kind: str  # "page", "file", "url", "missing"
    status: str
    ref: str  # page id, file id, or the URL / href
    anchor: str | None = None
    page: str | None = None
    """For a missing anchor: the page that lacks it (its anchors decide the status)."""

    @cached_property
    def key(self) -> tuple[str, str, str]:
        return (self.kind, self.ref, self.anchor or "")

    @cached_property
    def sort_key(self) -> tuple[int, str, str, str]:
        return (STATUS_ORDER[self.status], self.kind, self.ref, self.anchor or "")

    def content_ref(self, page_id: str) -> dict[str, Any]:
        """As a ContentRef for the document format, relative to the linking page."""
        if self.kind == "page" and self.anchor:
            return {"kind": "anchor", "anchor": self.anchor, "page": self.ref}
        if self.kind == "page":
            return {"kind": "page", "page": self.ref}
        if self.kind == "file":
            return {"kind": "file", "file": self.ref}
        return {"kind": "url", "url": self.ref}


@dataclass(frozen=True)
class Link:
    source: str  # page id
    target: Target


def analyses(conn: sqlite3.Connection, snapshot: Snapshot) -> dict[str, dict[str, Any]]:
    """The body analysis of every document page of the snapshot, by page id; derived from
    the parent revision's when that is in memory (only changed pages are looked up)."""
    found = snapshot.derived.get("analyses")
    if isinstance(found, dict):
        return found
    parent = _parent(snapshot, "analyses")
    if parent is not None:
        result = dict(parent.derived["analyses"])
        wanted = _changed_pages(conn, parent, snapshot)
        for page_id in wanted:
            result.pop(page_id, None)
    else:
        result, wanted = {}, set(snapshot.pages)
    bodies = {p: snapshot.pages[p]["body"] for p in wanted if snapshot.pages.get(p, {}).get("body")}
    stored: dict[str, dict[str, Any]] = {}
    for digest, data in conn.execute(
        "SELECT b.hash, b.data FROM body_analysis b JOIN json_each(?) j ON b.hash = j.value",
        (json.dumps(sorted(set(bodies.values()))),),
    ):
        stored[digest] = json.loads(data)
    for page_id, digest in bodies.items():
        if digest not in stored:
            stored[digest] = analysis_of(conn, digest, get_text(conn, digest))
        result[page_id] = stored[digest]
    snapshot.derived["analyses"] = result
    return result


def _changed_pages(conn: sqlite3.Connection, old: Snapshot, new: Snapshot) -> set[str]:
    return {item_id for kind, item_id in changed_keys(conn, old, new) if kind == "page"}


def _parent(snapshot: Snapshot, derived_key: str) -> Snapshot | None:
    """The first parent, if it is in memory and has `derived_key` computed."""
    if not snapshot.info.parents:
        return None
    parent = cached_snapshot(snapshot.info.parents[0])
    if parent is None or derived_key not in parent.derived:
        return None
    return parent


def _is_in_app(url: str, app_host: str | None) -> bool:
    parts = urlsplit(url)
    if not parts.path.startswith("/app/"):
        return False
    return not parts.netloc or (app_host is not None and parts.netloc == app_host)


def resolve(
    snapshot: Snapshot,
    tree: PageTree,
    anchors: dict[str, set[str]],
    page_id: str,
    href: str,
    app_host: str | None,
) -> Target:
    href = href.strip()
    parts = urlsplit(href)
    if parts.scheme or href.startswith("//"):
        in_app = parts.scheme in ("http", "https") and _is_in_app(href, app_host)
        return Target("url", "in-app" if in_app else "ok", href)
    if href.startswith("/app/"):
        return Target("url", "in-app", href)
    path, anchor = unquote(parts.path), unquote(parts.fragment) or None
    if not path:
        return _page_target(anchors, page_id, anchor, href)
    if ASSETS in path:
        name = path.rsplit("/", 1)[-1]
        file_id = next((f for f, e in snapshot.files.items() if e["name"] == name), None)
        if file_id is None:
            return Target("missing", "broken", href)
        return Target("file", "ok", file_id)
    if path.startswith("/"):
        joined = path
    else:
        # A page with children is a directory's README.md: links are relative to it.
        here = tree.paths.get(page_id, "")
        folder = here if tree.kids(page_id) else posixpath.dirname(here)
        joined = posixpath.join(folder, path)
    normalized = posixpath.normpath("/" + joined)
    target_id = tree.by_path_index().get(normalize_path(normalized))
    if target_id is None:
        return Target("missing", "broken", href)
    return _page_target(anchors, target_id, anchor, href)


def _page_target(
    anchors: dict[str, set[str]], page_id: str, anchor: str | None, href: str
) -> Target:
    if anchor and anchor not in anchors.get(page_id, set()):
        return Target("missing", "broken", href, page=page_id)
    return Target("page", "ok", page_id, anchor)


def anchor_sets(conn: sqlite3.Connection, snapshot: Snapshot) -> dict[str, set[str]]:
    """Each document page's heading anchors (derived from the parent's when in memory)."""
    found = snapshot.derived.get("anchor-sets")
    if isinstance(found, dict):
        return found
    bodies = analyses(conn, snapshot)
    parent = _parent(snapshot, "anchor-sets")
    if parent is not None:
        result = dict(parent.derived["anchor-sets"])
        for page_id in _changed_pages(conn, parent, snapshot):
            result.pop(page_id, None)
            if page_id in bodies:
                result[page_id] = set(bodies[page_id]["anchors"])
    else:
        result = {pid: set(a["anchors"]) for pid, a in bodies.items()}
    snapshot.derived["anchor-sets"] = result
    return result


def links_of(conn: sqlite3.Connection, snapshot: Snapshot, app_host: str | None) -> list[Link]:
    """Every link in the snapshot, in page-tree order (cached on the snapshot per host).

    Incremental when the parent revision's links are in memory and the change kept every
    path, page and file: only the changed pages' links, and links into pages whose anchors
    changed, are resolved again; the rest are reused.
    """
    cache_key = f"links:{app_host}"
    found = snapshot.derived.get(cache_key)
    if isinstance(found, dict):
        return _in_order(snapshot, found)
    tree = tree_of(snapshot)
    bodies = analyses(conn, snapshot)
    anchors = anchor_sets(conn, snapshot)
    by_source: dict[str, list[Link]] = {}
    parent = _parent(snapshot, cache_key)
    recheck: set[str] = set(tree.order)
    incremental = False
    changed: set[str] = set()
    if parent is not None and parent.files == snapshot.files:
        changed = _changed_pages(conn, parent, snapshot)
        if same_tree(parent, snapshot, changed):
            incremental = "anchor-sets" in parent.derived
    if incremental and parent is not None:
        old_anchors = parent.derived["anchor-sets"]
        moved = {p for p in changed if anchors.get(p) != old_anchors.get(p)}
        recheck = set(changed)
        old_links: dict[str, list[Link]] = parent.derived[cache_key]
        if not moved:  # no anchor moved: every other page's links stay as they were
            by_source = {s: links for s, links in old_links.items() if s not in changed}
        else:
            for source, links in old_links.items():
                if source in changed:
                    continue
                if any((lk.target.page or lk.target.ref) in moved for lk in links):
                    recheck.add(source)
                else:
                    by_source[source] = links
    for page_id in recheck:
        links = []
        for raw in bodies.get(page_id, {}).get("links", []):
            if raw["href"]:
                target = resolve(snapshot, tree, anchors, page_id, raw["href"], app_host)
                links.append(Link(page_id, target))
        by_source[page_id] = links
    snapshot.derived[cache_key] = by_source
    snapshot.derived[f"recheck:{app_host}"] = recheck if incremental else None
    return _in_order(snapshot, by_source)


def _in_order(snapshot: Snapshot, by_source: dict[str, list[Link]]) -> list[Link]:
    return [link for page_id in tree_of(snapshot).order for link in by_source.get(page_id, [])]


def resolver_for(
    conn: sqlite3.Connection, snapshot: Snapshot, page_id: str, app_host: str | None
) -> Any:
    """href -> ContentRef, for the document format of one page."""
    tree = tree_of(snapshot)
    anchors = anchor_sets(conn, snapshot)

    def ref(href: str) -> dict[str, Any]:
        target = resolve(snapshot, tree, anchors, page_id, href, app_host)
        if target.kind == "missing":
            return {"kind": "url", "url": href}
        return target.content_ref(page_id)

    return ref


@dataclass(frozen=True)
class Usage:
    target: Target
    sources: list[str]


def usages(links: list[Link], status: str | None = None) -> list[Usage]:
    """Links grouped by target (broken first, then in-app, then ok), each with its pages."""
    grouped: dict[tuple[str, str, str], Usage] = {}
    seen: set[tuple[tuple[str, str, str], str]] = set()
    for link in links:
        key = link.target.key
        usage = grouped.get(key)
        if usage is None:
            usage = grouped[key] = Usage(link.target, [])
        if (key, link.source) not in seen:
            seen.add((key, link.source))
            usage.sources.append(link.source)
    items = sorted(grouped.values(), key=lambda u: u.target.sort_key)
    if status is not None:
        items = [u for u in items if u.target.status == status]
    return items


def space_usages(conn: sqlite3.Connection, snapshot: Snapshot, app_host: str | None) -> list[Usage]:
    """`usages` of every link of the snapshot, computed once per snapshot and host; when the
    links were found incrementally, the parent's usages are updated for the re-resolved
    pages only."""
    key = f"usages:{app_host}"
    found = snapshot.derived.get(key)
    if isinstance(found, list):
        return found
    links = links_of(conn, snapshot, app_host)
    recheck = snapshot.derived.get(f"recheck:{app_host}")
    parent = _parent(snapshot, key)
    if recheck is None or parent is None:
        found = usages(links)
    else:
        found = _updated_usages(snapshot, parent, app_host, recheck)
    snapshot.derived[key] = found
    return found


def _updated_usages(
    snapshot: Snapshot, parent: Snapshot, app_host: str | None, recheck: set[str]
) -> list[Usage]:
    grouped = {u.target.key: u for u in parent.derived[f"usages:{app_host}"]}
    touched: dict[tuple[str, str, str], Usage] = {}

    def editable(key: tuple[str, str, str], target: Target) -> Usage:
        usage = touched.get(key)
        if usage is None:
            old = grouped.get(key)
            usage = Usage(target, list(old.sources) if old else [])
            touched[key] = grouped[key] = usage
        return usage

    old_links: dict[str, list[Link]] = parent.derived[f"links:{app_host}"]
    for source in recheck:
        for link in old_links.get(source, []):
            usage = editable(link.target.key, link.target)
            if source in usage.sources:
                usage.sources.remove(source)
    new_links: dict[str, list[Link]] = snapshot.derived[f"links:{app_host}"]
    for source in recheck:
        for link in new_links.get(source, []):
            usage = editable(link.target.key, link.target)
            if source not in usage.sources:
                usage.sources.append(source)
    order = {page_id: index for index, page_id in enumerate(tree_of(snapshot).order)}
    for key, usage in touched.items():
        if not usage.sources:
            del grouped[key]
        else:
            usage.sources.sort(key=lambda s: order.get(s, -1))
    return sorted(grouped.values(), key=lambda u: u.target.sort_key)
