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
from bisect import insort
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import unquote, urlsplit

from docdeck.server.content.markdown import analysis_of
from docdeck.server.content.persistent import Layered, SortedChunks, Window
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


def analyses(conn: sqlite3.Connection, snapshot: Snapshot) -> Layered[str, dict[str, Any]]:
    """The body analysis of every document page of the snapshot, by page id; derived from
    the parent revision's when that is in memory (only changed pages are looked up, and the
    parent's mapping is shared, not copied)."""
    found = snapshot.derived.get("analyses")
    if isinstance(found, Layered):
        return found
    parent = _parent(snapshot, "analyses")
    wanted = set(snapshot.pages) if parent is None else _changed_pages(conn, parent, snapshot)
    bodies = {p: snapshot.pages[p]["body"] for p in wanted if snapshot.pages.get(p, {}).get("body")}
    stored: dict[str, dict[str, Any]] = {}
    for digest, data in conn.execute(
        "SELECT b.hash, b.data FROM body_analysis b JOIN json_each(?) j ON b.hash = j.value",
        (json.dumps(sorted(set(bodies.values()))),),
    ):
        stored[digest] = json.loads(data)
    changes: dict[str, dict[str, Any]] = {}
    for page_id, digest in bodies.items():
        if digest not in stored:
            stored[digest] = analysis_of(conn, digest, get_text(conn, digest))
        changes[page_id] = stored[digest]
    if parent is None:
        result = Layered(changes)
    else:
        result = parent.derived["analyses"].updated(changes, wanted - changes.keys())
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
    anchors: Mapping[str, set[str]],
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
    anchors: Mapping[str, set[str]], page_id: str, anchor: str | None, href: str
) -> Target:
    if anchor and anchor not in anchors.get(page_id, set()):
        return Target("missing", "broken", href, page=page_id)
    return Target("page", "ok", page_id, anchor)


def anchor_sets(conn: sqlite3.Connection, snapshot: Snapshot) -> Layered[str, set[str]]:
    """Each document page's heading anchors (derived from the parent's when in memory)."""
    found = snapshot.derived.get("anchor-sets")
    if isinstance(found, Layered):
        return found
    bodies = analyses(conn, snapshot)
    parent = _parent(snapshot, "anchor-sets")
    if parent is not None:
        changed = _changed_pages(conn, parent, snapshot)
        changes = {p: set(bodies[p]["anchors"]) for p in changed if p in bodies}
        inherited: Layered[str, set[str]] = parent.derived["anchor-sets"]
        result = inherited.updated(changes, changed - changes.keys())
    else:
        result = Layered({pid: set(a["anchors"]) for pid, a in bodies.items()})
    snapshot.derived["anchor-sets"] = result
    return result


def links_of(conn: sqlite3.Connection, snapshot: Snapshot, app_host: str | None) -> list[Link]:
    """Every link in the snapshot, in page-tree order."""
    by_source = link_index(conn, snapshot, app_host).by_source
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


UsageKey = tuple[str, str, str]
SortKey = tuple[int, str, str, str]


def _usage_order(usage: Usage) -> SortKey:
    return usage.target.sort_key


@dataclass(frozen=True)
class LinkIndex:
    """Every link of one snapshot for one app host, kept the ways the routes read them.

    A snapshot's index is derived from its parent's when the parent's is in memory and the
    change kept every path, page and file: only the changed pages' links, and the links of
    pages that link to a page whose anchors changed (found through `incoming`), are resolved
    again, and the three views below are updated for those pages only. They share the
    parent's storage (`persistent.py`): the parent's index is never modified, and a change
    does not copy what it did not change.
    """

    by_source: Layered[str, list[Link]]
    """Each page's links, in the page's order."""
    incoming: Layered[str, frozenset[str]]
    """Pages linking to each target: a page id (also for a missing anchor of that page), a
    file id, or the href of a URL or of a missing target."""
    usages: SortedChunks[Usage]
    """Links grouped by target, each with its pages in tree order, sorted by target."""

    def count(self, status: str | None = None) -> int:
        if status is None:
            return len(self.usages)
        low, high = self._span(status)
        return high - low

    def with_status(self, status: str | None) -> Sequence[Usage]:
        if status is None:
            return self.usages
        low, high = self._span(status)
        return Window(self.usages, low, high)

    def _span(self, status: str) -> tuple[int, int]:
        rank = STATUS_ORDER[status]
        return self.usages.position((rank,)), self.usages.position((rank + 1,))


def _target_of(link: Link) -> str:
    return link.target.page or link.target.ref


@dataclass(frozen=True)
class _Resolver:
    """What a page's links are resolved against: the snapshot, its tree, the pages' analysed
    bodies and anchors, and the app's host."""

    snapshot: Snapshot
    tree: PageTree
    bodies: Mapping[str, dict[str, Any]]
    anchors: Mapping[str, set[str]]
    app_host: str | None

    def links(self, page_id: str) -> list[Link]:
        """The links of `page_id`, resolved."""
        return [
            Link(
                page_id,
                resolve(
                    self.snapshot, self.tree, self.anchors, page_id, raw["href"], self.app_host
                ),
            )
            for raw in self.bodies.get(page_id, {}).get("links", [])
            if raw["href"]
        ]


def _full_index(resolver: _Resolver) -> LinkIndex:
    order = resolver.tree.order
    by_source = {page_id: resolver.links(page_id) for page_id in order}
    incoming: dict[str, set[str]] = {}
    for source, links in by_source.items():
        for link in links:
            incoming.setdefault(_target_of(link), set()).add(source)
    found = usages([link for page_id in order for link in by_source[page_id]])
    return LinkIndex(
        Layered(by_source),
        Layered({target: frozenset(sources) for target, sources in incoming.items()}),
        SortedChunks.of(found, _usage_order),
    )


def link_index(conn: sqlite3.Connection, snapshot: Snapshot, app_host: str | None) -> LinkIndex:
    """The snapshot's `LinkIndex` for `app_host`, made once per snapshot and host."""
    cache_key = f"link-index:{app_host}"
    found = snapshot.derived.get(cache_key)
    if isinstance(found, LinkIndex):
        return found
    bodies = analyses(conn, snapshot)
    resolver = _Resolver(snapshot, tree_of(snapshot), bodies, anchor_sets(conn, snapshot), app_host)
    parent = _parent(snapshot, cache_key)
    index: LinkIndex | None = None
    if parent is not None and parent.files == snapshot.files and "anchor-sets" in parent.derived:
        changed = _changed_pages(conn, parent, snapshot)
        if same_tree(parent, snapshot, changed):
            index = _updated_index(
                parent.derived[cache_key],
                parent.derived["anchor-sets"],
                changed,
                resolver,
            )
    if index is None:
        index = _full_index(resolver)
    snapshot.derived[cache_key] = index
    return index


def _updated_index(
    old: LinkIndex,
    old_anchors: Mapping[str, set[str]],
    changed: set[str],
    resolver: _Resolver,
) -> LinkIndex:
    """`old` (the parent's index) brought to `snapshot`, whose tree and files are the
    parent's and whose changed pages are `changed`."""
    recheck = set(changed)
    for page_id in changed:
        if resolver.anchors.get(page_id) != old_anchors.get(page_id):
            recheck |= old.incoming.get(page_id, frozenset())
    by_source: dict[str, list[Link]] = {}
    added: dict[str, set[str]] = {}
    removed: dict[str, set[str]] = {}
    gained: dict[UsageKey, tuple[Target, list[str]]] = {}
    lost: dict[UsageKey, tuple[Target, list[str]]] = {}
    for source in recheck:
        before = old.by_source.get(source, [])
        after = resolver.links(source)
        by_source[source] = after
        old_targets = {_target_of(link) for link in before}
        new_targets = {_target_of(link) for link in after}
        for target_id in old_targets - new_targets:
            removed.setdefault(target_id, set()).add(source)
        for target_id in new_targets - old_targets:
            added.setdefault(target_id, set()).add(source)
        old_keys = {link.target.key: link.target for link in before}
        new_keys = {link.target.key: link.target for link in after}
        for key in old_keys.keys() - new_keys.keys():
            lost.setdefault(key, (old_keys[key], []))[1].append(source)
        for key in new_keys.keys() - old_keys.keys():
            gained.setdefault(key, (new_keys[key], []))[1].append(source)
    links_to: dict[str, frozenset[str]] = {}
    nobody: set[str] = set()
    for target_id in added.keys() | removed.keys():
        linking = set(old.incoming.get(target_id, frozenset()))
        linking -= removed.get(target_id, set())
        linking |= added.get(target_id, set())
        if linking:
            links_to[target_id] = frozenset(linking)
        else:
            nobody.add(target_id)
    position = resolver.tree.positions()
    put: list[Usage] = []
    gone: list[SortKey] = []
    for key in gained.keys() | lost.keys():
        sort_key = (gained.get(key) or lost[key])[0].sort_key
        present = old.usages.find(sort_key)
        sources = list(present.sources) if present is not None else []
        for source in lost.get(key, (None, []))[1]:
            sources.remove(source)
        for source in gained.get(key, (None, []))[1]:
            insort(sources, source, key=position.__getitem__)
        if not sources:
            if present is not None:
                gone.append(sort_key)
            continue
        first = sources[0]
        if present is not None and present.sources[0] == first and first not in by_source:
            target = present.target
        else:  # as `usages` groups them: the target as the first page (in tree order) has it
            first_links = by_source[first] if first in by_source else old.by_source[first]
            target = next(lk.target for lk in first_links if lk.target.key == key)
        put.append(Usage(target, sources))
    return LinkIndex(
        old.by_source.updated(by_source),
        old.incoming.updated(links_to, nobody),
        old.usages.updated(put, gone),
    )
