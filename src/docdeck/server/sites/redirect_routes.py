"""Site redirects: list, create, update, delete, and resolving a source path.

A redirect sends a path of the site that no longer exists (say, after a section's path
changed) to a section, a site space or a page of a site space. The published HTML follows
them; `GET {ST}/redirect?source=` says where one leads.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Query, Response

from docdeck.models import (
    ListPage,
    SiteRedirect,
    SiteRedirectCreate,
    SiteRedirectResolution,
    SiteRedirectUpdate,
)
from docdeck.server.errors import not_found
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.ids import new_id, to_db
from docdeck.server.sites import redirects
from docdeck.server.sites.common import ST, ShareKey, tree_for
from docdeck.server.sites.service import load_site, load_site_editor
from docdeck.server.validation import check_not_null
from docdeck.server.wire import no_content, respond, respond_list

router = Router(tags=["site-redirects"])
RD = f"{ST}/redirects/{{siteRedirectId}}"


def _reply(ctx: CtxDep, site_id: str, redirect_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        body = redirects.redirect_json(redirects.load_redirect(conn, site_id, redirect_id))
    return respond(body, status=status)


@router.get(f"{ST}/redirects", "listSiteRedirects", ListPage[SiteRedirect], 403, 404)
async def list_redirects(ctx: CtxDep, organizationId: str, siteId: str, page: PageDep) -> Response:
    with ctx.db.read() as conn:
        load_site(conn, ctx, organizationId, siteId)
        result = redirects.page_of_redirects(conn, siteId, page)
        return respond_list([redirects.redirect_json(r) for r in result.rows], result)


@router.post(f"{ST}/redirects", "createSiteRedirect", SiteRedirect, 403, 404, status=201)
def create_redirect(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteRedirectCreate, Body()]
) -> Response:
    redirect_id, stamp = new_id(), to_db(ctx.now())
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "change a site's redirects")
        redirects.insert_redirect(conn, siteId, redirect_id, body.source, body.destination, stamp)
    return _reply(ctx, siteId, redirect_id, status=201)


@router.patch(RD, "updateSiteRedirectById", SiteRedirect, 403, 404)
def update_redirect(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteRedirectId: str,
    body: Annotated[SiteRedirectUpdate, Body()],
) -> Response:
    check_not_null(body)
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "change a site's redirects")
        redirects.update_redirect(
            conn, siteId, siteRedirectId, body.source, body.destination, to_db(ctx.now())
        )
    return _reply(ctx, siteId, siteRedirectId)


@router.delete(RD, "deleteSiteRedirectById", None, 403, 404, status=204)
def delete_redirect(ctx: CtxDep, organizationId: str, siteId: str, siteRedirectId: str) -> Response:
    with ctx.db.write() as conn:
        load_site_editor(conn, ctx, organizationId, siteId, "change a site's redirects")
        redirects.delete_redirect(conn, siteId, siteRedirectId)
    return no_content()


@router.get(f"{ST}/redirect", "getSiteRedirectBySource", SiteRedirectResolution, 403, 404)
async def resolve_redirect(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    source: Annotated[str, Query(description="The source path, such as /old/page")],
    shareKey: ShareKey = None,
) -> Response:
    _, tree = tree_for(ctx, organizationId, siteId, shareKey)
    with ctx.db.read() as conn:
        row = redirects.find_by_source(conn, siteId, source)
        if row is None:
            raise not_found(f"no redirect from {source!r} in this site")
        body = redirects.redirect_json(row)
        target = tree.destination_url(conn, body["destination"])
    if target is None:
        raise not_found(f"the redirect from {source!r} leads to something no longer in the site")
    return respond({"redirect": body, "target": target})
