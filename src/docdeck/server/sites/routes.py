"""Sites: list, create, read, update, delete, and their structure (read and sort)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, Query, Response

from docdeck.models import (
    ListPage,
    Site,
    SiteCreate,
    SiteStructure,
    SiteStructureItem,
    SiteStructureSort,
    SiteType,
    SiteUpdate,
)
from docdeck.server.access import load_membership
from docdeck.server.http.openapi import Router
from docdeck.server.http.params import CtxDep, PageDep, contains
from docdeck.server.pagination import Listing, one_of
from docdeck.server.sites import structure
from docdeck.server.sites.common import ST, ShareKey, move_reply, site_reply
from docdeck.server.sites.defaults import settle_defaults
from docdeck.server.sites.service import (
    create_site,
    load_site_editor,
    require_site_admin,
    require_site_editor,
    require_site_reader,
    update_site,
)
from docdeck.server.sites.structure_read import structure_text
from docdeck.server.sites.wire import site_json, site_space_counts
from docdeck.server.wire import JsonBody, no_content, respond_list

router = Router(tags=["sites"])
ORG = "/v1/orgs/{organizationId}"
_SITES = Listing(
    "sites",
    "s.*, o.hostname AS org_hostname",
    "FROM sites s JOIN organizations o ON o.id = s.organization_id WHERE s.organization_id = ?",
    ("s.created_at", "s.id"),
)


@router.get(f"{ORG}/sites", "listSites", ListPage[Site], 403, 404)
async def list_sites(
    ctx: CtxDep,
    organizationId: str,
    page: PageDep,
    space: Annotated[str | None, Query(description="Only sites that use this space")] = None,
    title: Annotated[str | None, Query(description="Title contains (any case)")] = None,
    published: Annotated[bool | None, Query(description="Only (un)published sites")] = None,
    type: Annotated[list[SiteType] | None, Query(description="Only sites of these types")] = None,
) -> Response:
    with ctx.db.read() as conn:
        member = load_membership(conn, ctx, organizationId)
        require_site_reader(member)
        where = ""
        params: list[Any] = [organizationId]
        if space is not None:
            where += " AND s.id IN (SELECT site_id FROM site_spaces WHERE space_id = ?)"
            params.append(space)
        if title is not None:
            where += " AND instr(casefold(s.title), ?) > 0"
            params.append(contains(title))
        if published is not None:
            where += " AND s.published = ?"
            params.append(int(published))
        if type:
            where += one_of("s.type", type)
            params += type
        result = _SITES.page(conn, params, page, and_where=where)
        counts = site_space_counts(conn, [r["id"] for r in result.rows])
    return respond_list([site_json(ctx, r, counts.get(r["id"], 0)) for r in result.rows], result)


@router.post(f"{ORG}/sites", "createSite", Site, 403, 404, status=201)
def create_site_route(
    ctx: CtxDep, organizationId: str, body: Annotated[SiteCreate | None, Body()] = None
) -> Response:
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require_site_editor(member, "create sites")
        site_id, spaces = create_site(conn, organizationId, body or SiteCreate(), ctx.now())
        site = conn.execute("SELECT * FROM sites WHERE id = ?", (site_id,)).fetchone()
        for space_id in spaces:
            structure.insert_site_space(conn, site, space_id, None)
        settle_defaults(conn, site_id)
    return site_reply(ctx, organizationId, site_id, status=201)


@router.get(ST, "getSiteById", Site, 403, 404)
async def get_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    return site_reply(ctx, organizationId, siteId)


@router.patch(ST, "updateSiteById", Site, 403, 404)
def update_site_route(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteUpdate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        access = load_site_editor(conn, ctx, organizationId, siteId, "change a site")
        defaults = update_site(conn, access, body)
        if defaults.get("defaultSiteSection") is not None:
            structure.set_default_section(
                conn, siteId, str(defaults["defaultSiteSection"]), "defaultSiteSection"
            )
        if defaults.get("defaultSiteSpace") is not None:
            structure.set_default_site_space(
                conn, siteId, str(defaults["defaultSiteSpace"]), "defaultSiteSpace"
            )
    return site_reply(ctx, organizationId, siteId)


@router.delete(ST, "deleteSiteById", None, 403, 404, status=204)
def delete_site(ctx: CtxDep, organizationId: str, siteId: str) -> Response:
    with ctx.db.write() as conn:
        member = load_membership(conn, ctx, organizationId)
        require_site_admin(member, "delete sites")
        conn.execute(
            "DELETE FROM sites WHERE id = ? AND organization_id = ?", (siteId, organizationId)
        )
    return no_content()


@router.get(f"{ST}/structure", "getSiteStructure", SiteStructure, 403, 404)
async def get_structure(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    shareKey: ShareKey = None,
) -> Response:
    return JsonBody(structure_text(ctx, organizationId, siteId, shareKey))


@router.patch(f"{ST}/structure/sort", "sortSiteStructure", SiteStructureItem, 403, 404)
def sort_structure(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteStructureSort, Body()]
) -> Response:
    position = body.position
    before, after = (
        None if p is None else (p.type, p.id) for p in (position.before, position.after)
    )
    return move_reply(ctx, organizationId, siteId, body.item.type, body.item.id, before, after)
