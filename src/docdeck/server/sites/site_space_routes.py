"""Site spaces (listed, added, updated, deleted and moved as every item of a site's
structure: `item_routes`) and share links."""

from __future__ import annotations

from typing import Annotated

from fastapi import Body, Response

from docdeck.models import (
    ListPage,
    ShareLink,
    ShareLinkCreate,
    ShareLinkUpdate,
    SiteSpace,
    SiteSpaceCreate,
    SiteSpaceMove,
    SiteSpaceUpdate,
)
from docdeck.server.errors import bad_request
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.sites import share_links, structure
from docdeck.server.sites.common import (
    ST,
)
from docdeck.server.sites.item_routes import ItemKind, item_routes
from docdeck.server.sites.service import load_site_admin
from docdeck.server.validation import check_not_null
from docdeck.server.wire import no_content, respond, respond_list

SITE_SPACES = ItemKind(
    kind="site-space",
    path="/site-spaces",
    id_param="siteSpaceId",
    singular="Site Space",
    plural="Site Spaces",
    cursor="site-spaces",
    operations=(
        "listSiteSpaces",
        "addSpaceToSite",
        "updateSiteSpaceById",
        "deleteSiteSpaceById",
        "moveSiteSpace",
    ),
    model=SiteSpace,
    create=SiteSpaceCreate,
    update=SiteSpaceUpdate,
    move=SiteSpaceMove,
    add=lambda conn, site, body: structure.add_site_space(conn, site, body.spaceId, body.sectionId),
    change=structure.update_site_space,
    neighbour=lambda ref: ("site-space", ref.siteSpace),
    keyed=lambda tree: tree.keyed_site_spaces(),
    item=lambda tree: tree.site_space,
    by_default=True,
)

router = Router(tags=["site-spaces"])
router.routes.extend(item_routes(SITE_SPACES, "site-spaces"))
SL = f"{ST}/share-links/{{shareLinkId}}"


def _share_link_reply(ctx: CtxDep, site_id: str, link_id: str, status: int = 200) -> Response:
    with ctx.db.read() as conn:
        site = share_links.site_row(conn, site_id)
        body = share_links.share_link(conn, ctx, site, link_id)
    headers = None
    if status == 201:
        org = site["organization_id"]
        headers = {"Location": ctx.url(f"/v1/orgs/{org}/sites/{site_id}/share-links/{link_id}")}
    return respond(body, status=status, headers=headers)


@router.get(f"{ST}/share-links", "listSiteShareLinks", ListPage[ShareLink], 403, 404)
async def list_share_links(
    ctx: CtxDep, organizationId: str, siteId: str, page: PageDep
) -> Response:
    with ctx.db.read() as conn:
        load_site_admin(conn, ctx, organizationId, siteId, "see a site's share links")
        items, result = share_links.list_share_links(conn, ctx, siteId, page)
    return respond_list(items, result)


@router.post(f"{ST}/share-links", "createSiteShareLink", ShareLink, 403, 404, status=201)
def create_share_link(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[ShareLinkCreate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        load_site_admin(conn, ctx, organizationId, siteId, "create share links")
        link_id = share_links.create_share_link(conn, ctx, siteId, body.name)
    return _share_link_reply(ctx, siteId, link_id, status=201)


@router.patch(SL, "updateSiteShareLinkById", ShareLink, 403, 404)
def update_share_link(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    shareLinkId: str,
    body: Annotated[ShareLinkUpdate, Body()],
) -> Response:
    given = body.model_fields_set
    if not given:
        raise bad_request("body: give at least one of active, name")
    check_not_null(body)
    with ctx.db.write() as conn:
        load_site_admin(conn, ctx, organizationId, siteId, "change share links")
        share_links.update_share_link(conn, siteId, shareLinkId, body.name, body.active)
    return _share_link_reply(ctx, siteId, shareLinkId)


@router.delete(SL, "deleteSiteShareLinkById", None, 403, 404, status=204)
def delete_share_link(ctx: CtxDep, organizationId: str, siteId: str, shareLinkId: str) -> Response:
    with ctx.db.write() as conn:
        load_site_admin(conn, ctx, organizationId, siteId, "delete share links")
        share_links.delete_share_link(conn, siteId, shareLinkId)
    return no_content()
