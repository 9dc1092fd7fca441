"""The sandbox serves what it publishes: a site's structure as plain HTML at its published URL.

`/s/{organization hostname or id}/{basename}/` opens the default section's default site space;
`/{section path}/` a section (its default site space), `/{section path}/{site space path}/` a
variant; a site without sections has `/{site space path}/`. Visibility is honoured: an
unpublished site is not found, a share-link site needs an active `?shareKey=`, a visitor-auth
site is refused (the sandbox does not authenticate visitors); a `?preview=` token from
`GET {ST}/publishing/preview` opens any site for an hour. Unknown paths follow the site's
redirects. It is a preview, not a theme engine: no styling beyond a few lines of CSS.
"""

from __future__ import annotations

import html
import json
import sqlite3
from urllib.parse import quote, urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from docdeck.server.auth import Caller
from docdeck.server.context import Ctx, Sandbox
from docdeck.server.ids import to_db
from docdeck.server.permissions import Membership
from docdeck.server.services.customization import site_customization
from docdeck.server.services.site_order import ROOT, Level
from docdeck.server.site_wire import SiteTree

router = APIRouter(include_in_schema=False)

_STYLE = (
    "body{font-family:sans-serif;margin:0;display:flex}nav{min-width:16em;padding:1em;"
    "background:#f4f4f6;min-height:100vh}main{padding:1em 2em}nav ul{list-style:none;"
    "padding-left:1em}.current{font-weight:bold}.cond{color:#777;font-size:.9em}"
)


def _page(status: int, title: str, body: str, noindex: bool = False) -> HTMLResponse:
    robots = "<meta name='robots' content='noindex'>" if noindex else ""
    return HTMLResponse(
        f"<!doctype html><html><head><meta charset='utf-8'>{robots}"
        f"<title>{html.escape(title)}</title><style>{_STYLE}</style></head>"
        f"<body>{body}</body></html>",
        status_code=status,
    )


def _refuse(status: int, message: str) -> HTMLResponse:
    return _page(status, message, f"<main><h1>{html.escape(message)}</h1></main>")


def _find_site(conn: sqlite3.Connection, org_key: str, basename: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        """SELECT s.*, o.hostname AS org_hostname,
            (SELECT COUNT(*) FROM site_spaces ss WHERE ss.site_id = s.id) AS site_space_count
        FROM sites s JOIN organizations o ON o.id = s.organization_id
        WHERE (o.hostname = ? OR o.id = ?) AND s.basename = ?""",
        (org_key, org_key, basename),
    ).fetchone()
    return row


def _access(conn: sqlite3.Connection, site: sqlite3.Row, request: Request, now: str) -> str | None:
    """None when the visitor may see the site, else why not."""
    preview = request.query_params.get("preview")
    if preview is not None:
        row = conn.execute(
            "SELECT 1 FROM site_previews WHERE token = ? AND site_id = ? AND expires_at > ?",
            (preview, site["id"], now),
        ).fetchone()
        return None if row is not None else "This preview link has expired; ask for a new one"
    if not site["published"]:
        return "not-found"
    if site["visibility"] == "share-link":
        key = request.query_params.get("shareKey")
        row = conn.execute(
            "SELECT active FROM site_share_links WHERE site_id = ? AND secret = ?",
            (site["id"], key or ""),
        ).fetchone()
        if row is None or not row["active"]:
            return "This site is shared by link only; open it with an active share link"
    if site["visibility"] == "visitor-auth":
        return "This site needs visitor authentication, which the sandbox does not provide"
    return None


@router.get("/s/{orgKey}/{basename}/{rest:path}")
def published_page(request: Request, orgKey: str, basename: str, rest: str) -> Response:
    sandbox: Sandbox = request.app.state.sandbox
    segments = [s for s in rest.split("/") if s]
    with sandbox.db.read() as conn:
        site = _find_site(conn, orgKey, basename)
        if site is None:
            return _refuse(404, "No such site")
        problem = _access(conn, site, request, to_db(sandbox.clock()))
        if problem == "not-found":
            return _refuse(404, "This site is not published")
        if problem is not None:
            return _refuse(403, problem)
        visitor = Membership(site["organization_id"], "", "read")
        ctx = Ctx(sandbox, Caller(user_id="", email="", display_name="visitor"))
        tree = SiteTree.load(conn, ctx, site, visitor)
        target = _resolve(tree, segments)
        if target is None:
            return _redirect_or_404(conn, tree, request, "/" + "/".join(segments))
    keep = {k: v for k, v in request.query_params.items() if k in ("shareKey", "preview")}
    return _render(tree, target, "?" + urlencode(keep) if keep else "")


def _resolve(tree: SiteTree, segments: list[str]) -> str | None:
    """The site space id a path names, or None."""

    def default_in(level: Level) -> str | None:
        children = [n.id for n in tree.order.get(level, []) if n.kind == "site-space"]
        chosen = [i for i in children if tree.site_spaces[i]["is_default"]]
        return (chosen or children)[0] if children else None

    def section_by_path(path: str) -> str | None:
        return next((i for i, r in tree.sections.items() if r["path"] == path), None)

    def in_level(level: Level, path: str) -> str | None:
        for node in tree.order.get(level, []):
            if node.kind == "site-space" and tree.site_spaces[node.id]["path"] == path:
                return node.id
        return None

    if not tree.has_sections:
        if not segments:
            return default_in(ROOT)
        return in_level(ROOT, segments[0]) if len(segments) == 1 else None
    if not segments:
        default = next((i for i, r in tree.sections.items() if r["is_default"]), None)
        return None if default is None else default_in(Level("section", default))
    section = section_by_path(segments[0])
    if section is None or len(segments) > 2:
        return None
    if len(segments) == 1:
        return default_in(Level("section", section))
    return in_level(Level("section", section), segments[1])


def _redirect_or_404(
    conn: sqlite3.Connection, tree: SiteTree, request: Request, path: str
) -> Response:
    row = conn.execute(
        "SELECT destination FROM site_redirects WHERE site_id = ? AND source = ?",
        (tree.site["id"], path.rstrip("/") or "/"),
    ).fetchone()
    target = None if row is None else tree.destination_url(json.loads(row["destination"]))
    if target is None:
        return _refuse(404, f"Nothing is published at {path}")
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(urlsplit(target).path + query, status_code=302)


def _render(tree: SiteTree, current: str, query: str) -> HTMLResponse:
    site = tree.site
    base = f"/s/{quote(site['org_hostname'] or site['organization_id'])}/{quote(site['basename'])}/"

    def link(title: str, segments: list[str], here: bool) -> str:
        href = base + "".join(f"{quote(s)}/" for s in segments) + query
        css = " class='current'" if here else ""
        return f"<a{css} href='{html.escape(href)}'>{html.escape(title)}</a>"

    def variants(level: Level, prefix: list[str]) -> str:
        items = []
        for node in tree.order.get(level, []):
            row = tree.site_spaces[node.id]
            title = tree.spaces[row["space_id"]]["title"]
            items.append(f"<li>{link(title, [*prefix, row['path']], node.id == current)}</li>")
        return f"<ul>{''.join(items)}</ul>"

    def section(section_id: str) -> str:
        row = tree.sections[section_id]
        return (
            f"<li>{link(row['title'], [row['path']], False)}"
            f"{variants(Level('section', section_id), [row['path']])}</li>"
        )

    if tree.has_sections:
        parts = []
        for node in tree.order[ROOT]:
            if node.kind == "site-section":
                parts.append(section(node.id))
            elif node.kind == "site-section-group":
                inner = "".join(section(n.id) for n in tree.order.get(Level("group", node.id), []))
                title = html.escape(tree.groups[node.id]["title"])
                parts.append(f"<li><strong>{title}</strong><ul>{inner}</ul></li>")
        nav = f"<ul>{''.join(parts)}</ul>"
    else:
        nav = variants(ROOT, [])
    row = tree.site_spaces[current]
    space = tree.spaces[row["space_id"]]
    section_row = tree.sections.get(row["section_id"]) if row["section_id"] else None
    conditions: list[str] = [row["condition"]] if row["condition"] else []
    if section_row is not None and section_row["condition"]:
        conditions.insert(0, section_row["condition"])
    shown = "".join(
        f"<p class='cond'>Shown to visitors when <code>{html.escape(c)}</code></p>"
        for c in conditions
    )
    heading = html.escape(space["title"])
    where = f"<p>{html.escape(section_row['title'])}</p>" if section_row else ""
    main = (
        f"<main>{where}<h1>{space['emoji'] or ''} {heading}</h1>{shown}"
        "<p><em>This preview shows the site's structure. Pages of the space are not rendered"
        " here yet (docs/sites.md).</em>"
        "</p></main>"
    )
    name = site_customization(site).get("title") or site["title"]
    title = f"{space['title']} · {name}"
    body = f"<nav><h2>{html.escape(name)}</h2>{nav}</nav>{main}"
    return _page(200, title, body, noindex=site["visibility"] != "public")
