"""The sandbox serves what it publishes: a site's structure and pages as plain HTML.

`/s/{organization hostname or id}/{basename}/` opens the default section's default site space;
`/{section path}/` a section (its default site space), `/{section path}/{site space path}/` a
variant; a site without sections has `/{site space path}/`. A page's path follows its site
space's (`.../{site space path}/guides/webhooks/`); a path that names no variant of the
section (or no root site space) is a page of the default one. Visibility is honoured: an
unpublished site is not found, a share-link site needs an active `?shareKey=`, a visitor-auth
site is refused (the sandbox does not authenticate visitors); a `?preview=` token from
`GET {ST}/publishing/preview` opens any site for an hour. Unknown paths follow the site's
redirects. It is a preview, not a theme engine (see `published/view.py`).
"""

from __future__ import annotations

import html
import json
import sqlite3
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from docdeck.server.content.snapshots import get_object
from docdeck.server.content.tree import normalize_path
from docdeck.server.files.service import content_type_for, download_headers
from docdeck.server.http.auth import Caller
from docdeck.server.http.context import Ctx, Sandbox
from docdeck.server.ids import to_db
from docdeck.server.permissions import Membership
from docdeck.server.published.view import (
    CSP,
    FILES,
    PageView,
    Published,
    SpaceContent,
    page_html,
)
from docdeck.server.sites.order import ROOT, Level
from docdeck.server.sites.service import preview_digest, share_key_active
from docdeck.server.sites.wire import SiteTree

router = APIRouter(include_in_schema=False)

MAX_PATH = 2048
"""Longer paths name nothing the sandbox publishes (paths are segments of at most 100)."""


def _html(status: int, title: str, body: str, noindex: bool = False) -> HTMLResponse:
    return HTMLResponse(
        page_html(title, body, noindex),
        status_code=status,
        # A share key or preview token in the address never leaves in a Referer.
        headers={
            "Content-Security-Policy": CSP,
            "X-Content-Type-Options": "nosniff",
            "Referrer-Policy": "no-referrer",
        },
    )


def _refuse(status: int, message: str) -> HTMLResponse:
    return _html(status, message, f"<main><h1>{html.escape(message)}</h1></main>", True)


def _find_site(conn: sqlite3.Connection, org_key: str, basename: str) -> sqlite3.Row | None:
    row: sqlite3.Row | None = conn.execute(
        """SELECT s.*, o.hostname AS org_hostname,
            (SELECT COUNT(*) FROM site_spaces ss WHERE ss.site_id = s.id) AS site_space_count
        FROM sites s JOIN organizations o ON o.id = s.organization_id
        WHERE (o.hostname = ? OR o.id = ?) AND s.basename = ?""",
        (org_key, org_key, basename),
    ).fetchone()
    return row


NO_SITE = "No such site (a preview link may have expired: ask for a new one)"
"""The one answer for an unknown basename, an unpublished site and a bad or expired preview
of one: which basenames exist is not for visitors to find out."""


def _access(conn: sqlite3.Connection, site: sqlite3.Row, request: Request, now: str) -> str | None:
    """None when the visitor may see the site, else why not. A `?preview=` token that is not
    valid changes nothing: the site answers as it does without one."""
    preview = request.query_params.get("preview")
    if preview is not None:
        row = conn.execute(
            "SELECT 1 FROM site_previews WHERE token = ? AND site_id = ? AND expires_at > ?",
            (preview_digest(preview), site["id"], now),
        ).fetchone()
        if row is not None:
            return None
    if not site["published"]:
        return "not-found"
    if site["visibility"] == "share-link":
        key = request.query_params.get("shareKey")
        if not share_key_active(conn, site["id"], key):
            return "This site is shared by link only; open it with an active share link"
    if site["visibility"] == "visitor-auth":
        return "This site needs visitor authentication, which the sandbox does not provide"
    return None


@dataclass(frozen=True)
class Spot:
    """What a published path names: a site space and the page path inside it."""

    site_space: str
    page_path: list[str]


@router.get("/s/{orgKey}/{basename}")
async def published_root(request: Request, orgKey: str, basename: str) -> Response:
    """A site's root without its trailing slash: redirected to the URL with one, built from
    `public_url` (never the Host header) and the path as the client sent it."""
    sandbox: Sandbox = request.app.state.sandbox
    raw = request.scope.get("raw_path") or request.url.path.encode()
    path = bytes(raw).decode("latin-1").split("?", 1)[0]
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(f"{sandbox.public_url}{path}/{query}", status_code=307)


@router.get("/s/{orgKey}/{basename}/{rest:path}")
async def published_page(request: Request, orgKey: str, basename: str, rest: str) -> Response:
    sandbox: Sandbox = request.app.state.sandbox
    if len(request.url.path) > MAX_PATH or "\x00" in rest:
        return _refuse(404, "Nothing is published at this path")
    return await run_in_threadpool(_serve, sandbox, request, orgKey, basename, rest)


def _serve(sandbox: Sandbox, request: Request, org_key: str, basename: str, rest: str) -> Response:
    segments = [s for s in rest.split("/") if s]
    with sandbox.db.read() as conn:
        site = _find_site(conn, org_key, basename)
        problem = None if site is None else _access(conn, site, request, to_db(sandbox.clock()))
        if site is None or problem == "not-found":
            return _refuse(404, NO_SITE)
        if problem is not None:
            return _refuse(403, problem)
        visitor = Membership(site["organization_id"], "", "read")
        ctx = Ctx(sandbox, Caller(user_id="", email="", display_name="visitor"))
        tree = SiteTree.load(conn, ctx, site, visitor)
        if segments[:1] == [FILES]:
            return _file(conn, tree, segments[1:])
        keep = {k: v for k, v in request.query_params.items() if k in ("shareKey", "preview")}
        published = Published(tree, "?" + urlencode(keep) if keep else "")
        spot = _resolve(tree, segments)
        view = None if spot is None else _view(conn, published, spot)
        if view is None:
            return _redirect_or_404(conn, tree, request, "/" + "/".join(segments))
        title, body = view.render()
        return _html(200, title, body, noindex=site["visibility"] != "public")


def _view(conn: sqlite3.Connection, published: Published, spot: Spot) -> PageView | None:
    row = published.tree.site_spaces[spot.site_space]
    content = SpaceContent.load(conn, published.tree.spaces[row["space_id"]]["revision_id"])
    if not spot.page_path:
        page_id = content.first_page()
    else:
        page_id = content.pages.by_path_index().get(normalize_path("/".join(spot.page_path)))
        if page_id is None:
            return None
    return PageView(conn, published, spot.site_space, content, page_id)


def _resolve(tree: SiteTree, segments: list[str]) -> Spot | None:
    """The site space and page path a published path names, or None."""

    def default_in(level: Level) -> str | None:
        children = [n.id for n in tree.order.get(level, []) if n.kind == "site-space"]
        chosen = [i for i in children if tree.site_spaces[i]["is_default"]]
        return (chosen or children)[0] if children else None

    def in_level(level: Level, rest: list[str]) -> Spot | None:
        for node in tree.order.get(level, []):
            if node.kind == "site-space" and rest[:1] == [tree.site_spaces[node.id]["path"]]:
                return Spot(node.id, rest[1:])
        default = default_in(level)
        return None if default is None else Spot(default, rest)

    if not tree.has_sections:
        return in_level(ROOT, segments)
    if not segments:
        section = next((i for i, r in tree.sections.items() if r["is_default"]), None)
    else:
        section = next((i for i, r in tree.sections.items() if r["path"] == segments[0]), None)
    return None if section is None else in_level(Level("section", section), segments[1:])


def _file(conn: sqlite3.Connection, tree: SiteTree, rest: list[str]) -> Response:
    """A file of a site space's space (images in pages), only through a site that shows it."""
    row = tree.site_spaces.get(rest[0]) if len(rest) == 2 else None
    if row is None:
        return _refuse(404, "No such file in this site")
    content = SpaceContent.load(conn, tree.spaces[row["space_id"]]["revision_id"])
    entry = content.snapshot.files.get(rest[1])
    data = None if entry is None else get_object(conn, entry["blob"])
    if entry is None or data is None:
        return _refuse(404, "No such file in this site")
    kind = content_type_for(entry["name"], data)
    # A file is the space's, not the sandbox's: it may show, never script the origin.
    return Response(data, media_type=kind, headers=download_headers(entry["name"], kind))


def _redirect_or_404(
    conn: sqlite3.Connection, tree: SiteTree, request: Request, path: str
) -> Response:
    row = conn.execute(
        "SELECT destination FROM site_redirects WHERE site_id = ? AND source = ?",
        (tree.site["id"], path.rstrip("/") or "/"),
    ).fetchone()
    target = None if row is None else tree.destination_url(conn, json.loads(row["destination"]))
    if target is None:
        return _refuse(404, f"Nothing is published at {path}")
    query = f"?{request.url.query}" if request.url.query else ""
    return RedirectResponse(urlsplit(target).path + query, status_code=302)
