"""The HTML of one published page: the site's structure and the current space's page tree as
navigation, the page's markdown rendered, every link pointing into the published site.

URLs: a site space lives at `{site}/{section path}/{site space path}/` (or
`{site}/{site space path}/` without sections), as its `urls.published` says; a page at that
URL followed by the page's path (`guides/orders/refunds/`). Every URL keeps the visitor's
`?shareKey=` or `?preview=`. Files of the space (images) are served at
`{site}/~files/{siteSpaceId}/{fileId}` (`~` starts no section, site space or page path).
"""

from __future__ import annotations

import html
import sqlite3
from dataclasses import dataclass
from functools import cached_property
from typing import Any
from urllib.parse import quote, urlsplit

from docdeck.server.content.html import Href, Rendered, render_html
from docdeck.server.content.links import anchor_sets, resolve
from docdeck.server.content.snapshots import Snapshot, get_text, load_snapshot
from docdeck.server.content.tree import PageTree, tree_of
from docdeck.server.content.wire import evaluate
from docdeck.server.sites.customization import site_customization
from docdeck.server.sites.order import ROOT, Level
from docdeck.server.sites.wire import SiteTree

FILES = "~files"
_STYLE = (
    "body{font-family:sans-serif;margin:0;display:flex}nav{min-width:16em;max-width:22em;"
    "padding:1em;background:#f4f4f6;min-height:100vh}main{padding:1em 2em;max-width:48em}"
    "nav ul{list-style:none;padding-left:1em}.current{font-weight:bold}"
    ".cond,.where{color:#777;font-size:.9em}a.broken{color:#b00;text-decoration:line-through}"
    "pre{background:#f4f4f6;padding:.5em;overflow:auto}img{max-width:100%}"
    "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em}"
)
_LINK_SCHEMES = ("http", "https", "mailto")
CSP = (
    "default-src 'none'; img-src * data:; style-src 'unsafe-inline'; base-uri 'none';"
    " frame-ancestors 'none'"
)
"""No script can run in a published page, whatever a body or title holds, and no other page
can frame it (clickjacking a share-link or preview page)."""


def page_html(title: str, body: str, noindex: bool = False) -> str:
    robots = "<meta name='robots' content='noindex'>" if noindex else ""
    return (
        f"<!doctype html><html><head><meta charset='utf-8'>{robots}"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>"
    )


@dataclass(frozen=True)
class SpaceContent:
    """The current revision of a site space's space, as the published site shows it."""

    snapshot: Snapshot
    pages: PageTree

    @classmethod
    def load(cls, conn: sqlite3.Connection, revision_id: str) -> SpaceContent:
        snapshot = load_snapshot(conn, revision_id)
        return cls(snapshot, tree_of(snapshot))

    def entry(self, page_id: str) -> dict[str, Any]:
        return self.snapshot.pages[page_id]

    def first_page(self) -> str | None:
        """The page a site space opens on: its first document in tree order."""
        return next(
            (p for p in self.pages.order if self.entry(p)["type"] == "document"),
            None,
        )


@dataclass
class Published:
    """One site as a visitor sees it, with the query (`?shareKey=`/`?preview=`) to keep."""

    tree: SiteTree
    query: str

    @cached_property
    def base(self) -> str:
        site = self.tree.site
        org = site["org_hostname"] or site["organization_id"]
        return f"/s/{quote(org, safe='')}/{quote(site['basename'], safe='')}/"

    def url(self, segments: list[str], anchor: str | None = None) -> str:
        path = "".join(f"{quote(s, safe='')}/" for s in segments)
        return self.base + path + self.query + (f"#{quote(anchor)}" if anchor else "")

    def site_space_segments(self, site_space_id: str) -> list[str]:
        row = self.tree.site_spaces[site_space_id]
        section = self.tree.sections.get(row["section_id"]) if row["section_id"] else None
        return [section["path"], row["path"]] if section else [row["path"]]

    def page_url(
        self, site_space_id: str, content: SpaceContent, page_id: str, anchor: str | None = None
    ) -> str:
        path = content.pages.paths.get(page_id, "")
        segments = self.site_space_segments(site_space_id) + [s for s in path.split("/") if s]
        return self.url(segments, anchor)

    def file_url(self, site_space_id: str, file_id: str) -> str:
        path = f"{FILES}/{quote(site_space_id, safe='')}/{quote(file_id, safe='')}"
        return self.base + path + self.query


def _link(href: str, title: str, here: bool) -> str:
    css = " class='current'" if here else ""
    return f"<a{css} href='{html.escape(href)}'>{html.escape(title)}</a>"


def _safe_url(url: str) -> str | None:
    return url if urlsplit(url).scheme.lower() in _LINK_SCHEMES else None


class PageView:
    """Renders one site space (and one of its pages, or the page it opens on)."""

    def __init__(
        self,
        conn: sqlite3.Connection,
        site: Published,
        site_space_id: str,
        content: SpaceContent,
        page_id: str | None,
    ) -> None:
        self.conn = conn
        self.site = site
        self.tree = site.tree
        self.site_space_id = site_space_id
        self.content = content
        self.page_id = page_id

    # navigation

    def _page_link(self, page_id: str) -> str | None:
        entry = self.content.entry(page_id)
        title = f"{entry.get('emoji') or ''} {entry['title']}".strip()
        if entry["type"] != "link":
            href = self.site.page_url(self.site_space_id, self.content, page_id)
            return _link(href, title, page_id == self.page_id)
        target = entry.get("target") or {}
        if target.get("kind") == "page" and target.get("page") in self.content.snapshot.pages:
            href = self.site.page_url(self.site_space_id, self.content, target["page"])
            return _link(href, title, False)
        url = _safe_url(str(target.get("url") or "")) if target.get("kind") == "url" else None
        return None if url is None else _link(url, title + " ↗", False)

    def _page_tree(self, parent: str | None) -> str:
        items = []
        for page_id in self.content.pages.kids(parent):
            if self.content.entry(page_id).get("hidden"):
                continue  # hidden pages open by URL but are not listed, as on the platform
            link = self._page_link(page_id)
            if link is not None:
                items.append(f"<li>{link}{self._page_tree(page_id)}</li>")
        return f"<ul>{''.join(items)}</ul>" if items else ""

    def _variants(self, level: Level) -> str:
        items = []
        for node in self.tree.order.get(level, []):
            row = self.tree.site_spaces[node.id]
            title = self.tree.spaces[row["space_id"]]["title"]
            here = node.id == self.site_space_id
            href = self.site.url(self.site.site_space_segments(node.id))
            pages = self._page_tree(None) if here else ""
            items.append(f"<li>{_link(href, title, here)}{pages}</li>")
        return f"<ul>{''.join(items)}</ul>"

    def _section(self, section_id: str) -> str:
        row = self.tree.sections[section_id]
        href = self.site.url([row["path"]])
        variants = self._variants(Level("section", section_id))
        return f"<li>{_link(href, row['title'], False)}{variants}</li>"

    def navigation(self) -> str:
        if not self.tree.has_sections:
            return self._variants(ROOT)
        parts = []
        for node in self.tree.order[ROOT]:
            if node.kind == "site-section":
                parts.append(self._section(node.id))
            elif node.kind == "site-section-group":
                inner = "".join(
                    self._section(n.id) for n in self.tree.order.get(Level("group", node.id), [])
                )
                title = html.escape(self.tree.groups[node.id]["title"])
                parts.append(f"<li><strong>{title}</strong><ul>{inner}</ul></li>")
        return f"<ul>{''.join(parts)}</ul>"

    # the page

    def _rewrite(self, href: str) -> Href:
        assert self.page_id is not None
        snapshot = self.content.snapshot
        anchors = anchor_sets(self.conn, snapshot)
        target = resolve(snapshot, self.content.pages, anchors, self.page_id, href, None)
        if target.kind == "page":
            return Href(
                self.site.page_url(self.site_space_id, self.content, target.ref, target.anchor)
            )
        if target.kind == "file":
            return Href(self.site.file_url(self.site_space_id, target.ref))
        return Href(href, broken=target.kind == "missing")

    def _conditions(self) -> str:
        row = self.tree.site_spaces[self.site_space_id]
        section = self.tree.sections.get(row["section_id"]) if row["section_id"] else None
        conditions = [c for c in (section["condition"] if section else None, row["condition"]) if c]
        return "".join(
            f"<p class='cond'>Shown to visitors when <code>{html.escape(c)}</code></p>"
            for c in conditions
        )

    def _body(self) -> Rendered:
        if self.page_id is None:
            return Rendered("<p>This space has no pages yet.</p>", None)
        entry = self.content.entry(self.page_id)
        if entry["type"] == "group":
            kids = self._page_tree(self.page_id)
            return Rendered(kids or "<p>This group has no pages yet.</p>", None)
        markdown = evaluate(get_text(self.conn, entry.get("body")), self.content.snapshot.variables)
        return render_html(markdown, self._rewrite, title=entry["title"])

    def render(self) -> tuple[str, str]:
        """(title, body) of the HTML page."""
        site_row = self.tree.site
        name = str(site_customization(site_row).get("title") or site_row["title"])
        row = self.tree.site_spaces[self.site_space_id]
        space = self.tree.spaces[row["space_id"]]
        section = self.tree.sections.get(row["section_id"]) if row["section_id"] else None
        where = [section["title"]] if section else []
        where.append(f"{space['emoji'] or ''} {space['title']}".strip())
        if self.page_id is not None:
            entry = self.content.entry(self.page_id)
            heading = f"{entry.get('emoji') or ''} {entry['title']}".strip()
            description = entry.get("description")
        else:
            heading, description = where[-1], None
        body = self._body()
        anchor = f" id='{html.escape(body.title_anchor)}'" if body.title_anchor else ""
        main = (
            f"<main><p class='where'>{html.escape(' › '.join(where))}</p>"
            f"<h1{anchor}>{html.escape(heading)}</h1>"
            + (f"<p><em>{html.escape(description)}</em></p>" if description else "")
            + self._conditions()
            + body.html
            + "</main>"
        )
        title = f"{heading} · {name}"
        return title, f"<nav><h2>{html.escape(name)}</h2>{self.navigation()}</nav>{main}"
