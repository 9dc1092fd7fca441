"""Site redirects: list, create, update, delete, and resolving a source path.

A redirect sends a path of the site that no longer exists (say, after a section's path
changed) to a section, a site space or a page of a site space. The published HTML follows
them; `GET {ST}/redirect?source=` says where one leads.
"""

from __future__ import annotations

import json
import re
import sqlite3
from typing import Annotated, Any

from fastapi import APIRouter, Body, Query, Response

from docdeck.models import (
    SITE_REDIRECT_SOURCE_PATTERN,
    ListPage,
    SiteRedirect,
    SiteRedirectCreate,
    SiteRedirectResolution,
    SiteRedirectUpdate,
)
from docdeck.server.errors import bad_request, not_found
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.pagination import fetch_page
from docdeck.server.sites.common import ST, ShareKey, tree_for
from docdeck.server.sites.service import load_site, require_site_editor
from docdeck.server.sites.structure import body_item
from docdeck.server.wire import Json, no_content, respond, respond_list

router = APIRouter(tags=["site-redirects"])
RD = f"{ST}/redirects/{{siteRedirectId}}"


def redirect_json(row: sqlite3.Row) -> Json:
    return {
        "object": "site-redirect",
        "id": row["id"],
        "source": row["source"],
        "destination": json.loads(row["destination"]),
    }


def _check_source(conn: sqlite3.Connection, site_id: str, source: str, own: str) -> str:
    if not re.fullmatch(SITE_REDIRECT_SOURCE_PATTERN, source):
        raise bad_request(
            f"source: {source!r} is not a path such as /old/page (segments of letters, digits,"
            " '-', '.', '_', '~' or %XX escapes, separated by '/', no trailing '/')"
        )
    clash = conn.execute(
        "SELECT 1 FROM site_redirects WHERE site_id = ? AND source = ? AND id != ?",
        (site_id, source, own),
    ).fetchone()
    if clash is not None:
        raise bad_request(f"source: {source!r} already has a redirect in this site")
    return source


def _check_destination(conn: sqlite3.Connection, site_id: str, destination: Any) -> str:
    data: dict[str, Any] = destination.model_dump()
    if data["kind"] == "site-section":
        body_item(conn, site_id, "site-section", data["siteSectionId"], "destination.siteSectionId")
    else:
        body_item(conn, site_id, "site-space", data["siteSpaceId"], "destination.siteSpaceId")
    return json.dumps(data)


def _load(conn: sqlite3.Connection, site_id: str, redirect_id: str) -> sqlite3.Row:
    row: sqlite3.Row | None = conn.execute(
        "SELECT * FROM site_redirects WHERE id = ? AND site_id = ?", (redirect_id, site_id)
    ).fetchone()
    if row is None:
        raise not_found(f"redirect {redirect_id!r} not found in this site")
    return row


def _reply(ctx: CtxDep, site_id: str, redirect_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        body = redirect_json(_load(conn, site_id, redirect_id))
    return respond(body, status=status)


@router.get(
    f"{ST}/redirects",
    response_model=ListPage[SiteRedirect],
    operation_id="listSiteRedirects",
    responses=errors(403, 404),
)
async def list_redirects(ctx: CtxDep, organizationId: str, siteId: str, page: PageDep) -> Response:
    with ctx.db.read() as conn:
        load_site(conn, ctx, organizationId, siteId)
        result = fetch_page(
            conn,
            select="r.*",
            from_where="FROM site_redirects r WHERE r.site_id = ?",
            params=[siteId],
            keys=["r.source", "r.id"],
            descending=False,
            scope="site-redirects",
            request=page,
        )
        return respond_list([redirect_json(r) for r in result.rows], result)


@router.post(
    f"{ST}/redirects",
    status_code=201,
    response_model=SiteRedirect,
    operation_id="createSiteRedirect",
    responses=errors(403, 404),
)
def create_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteRedirectCreate, Body()]
) -> Response:
    redirect_id, stamp = new_id(), to_db(ctx.now())
    with ctx.db.write() as conn:
        access = load_site(conn, ctx, organizationId, siteId)
        require_site_editor(access.member, "change a site's redirects")
        source = _check_source(conn, siteId, body.source, "")
        destination = _check_destination(conn, siteId, body.destination)
        conn.execute(
            """INSERT INTO site_redirects (id, site_id, source, destination, created_at,
                updated_at) VALUES (?, ?, ?, ?, ?, ?)""",
            (redirect_id, siteId, source, destination, stamp, stamp),
        )
    return _reply(ctx, siteId, redirect_id, status=201)


@router.patch(
    RD,
    response_model=SiteRedirect,
    operation_id="updateSiteRedirectById",
    responses=errors(403, 404),
)
def update_redirect(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteRedirectId: str,
    body: Annotated[SiteRedirectUpdate, Body()],
) -> Response:
    for field in body.model_fields_set:
        if getattr(body, field) is None:
            raise bad_request(f"{field}: must not be null")
    with ctx.db.write() as conn:
        access = load_site(conn, ctx, organizationId, siteId)
        require_site_editor(access.member, "change a site's redirects")
        _load(conn, siteId, siteRedirectId)
        if body.source is not None:
            source = _check_source(conn, siteId, body.source, siteRedirectId)
            conn.execute(
                "UPDATE site_redirects SET source = ? WHERE id = ?", (source, siteRedirectId)
            )
        if body.destination is not None:
            destination = _check_destination(conn, siteId, body.destination)
            conn.execute(
                "UPDATE site_redirects SET destination = ? WHERE id = ?",
                (destination, siteRedirectId),
            )
        conn.execute(
            "UPDATE site_redirects SET updated_at = ? WHERE id = ?",
            (to_db(ctx.now()), siteRedirectId),
        )
    return _reply(ctx, siteId, siteRedirectId)


@router.delete(
    RD, status_code=204, operation_id="deleteSiteRedirectById", responses=errors(403, 404)
)
def delete_redirect(ctx: CtxDep, organizationId: str, siteId: str, siteRedirectId: str) -> Response:
    with ctx.db.write() as conn:
        access = load_site(conn, ctx, organizationId, siteId)
        require_site_editor(access.member, "change a site's redirects")
        conn.execute(
            "DELETE FROM site_redirects WHERE id = ? AND site_id = ?", (siteRedirectId, siteId)
        )
    return no_content()


@router.get(
    f"{ST}/redirect",
    response_model=SiteRedirectResolution,
    operation_id="getSiteRedirectBySource",
    responses=errors(403, 404),
)
async def resolve_redirect(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    source: Annotated[str, Query(description="The source path, such as /old/page")],
    shareKey: ShareKey = None,
) -> Response:
    _, tree = tree_for(ctx, organizationId, siteId, shareKey)
    with ctx.db.read() as conn:
        row = conn.execute(
            "SELECT * FROM site_redirects WHERE site_id = ? AND source = ?", (siteId, source)
        ).fetchone()
        if row is None:
            raise not_found(f"no redirect from {source!r} in this site")
        body = redirect_json(row)
        target = tree.destination_url(conn, body["destination"])
    if target is None:
        raise not_found(f"the redirect from {source!r} leads to something no longer in the site")
    return respond({"redirect": body, "target": target})
