"""Site sections and section groups."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body, Response

from docdeck.models import (
    ListPage,
    SiteSection,
    SiteSectionCreate,
    SiteSectionGroup,
    SiteSectionGroupAddSection,
    SiteSectionGroupCreate,
    SiteSectionGroupMove,
    SiteSectionGroupUpdate,
    SiteSectionMove,
    SiteSectionUpdate,
)
from docdeck.server.http.openapi import errors
from docdeck.server.http.params import CtxDep, PageDep
from docdeck.server.sites import structure
from docdeck.server.sites.common import (
    ST,
    Pointer,
    ShareKey,
    delete_reply,
    editing,
    item_reply,
    list_reply,
    move_reply,
    tree_for,
)
from docdeck.server.wire import no_content

router = APIRouter(tags=["site-sections"])
SEC = f"{ST}/sections/{{siteSectionId}}"
GRP = f"{ST}/section-groups/{{siteSectionGroupId}}"


@router.get(
    f"{ST}/sections",
    response_model=ListPage[SiteSection],
    operation_id="listSiteSections",
    responses=errors(403, 404),
)
async def list_sections(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    page: PageDep,
    shareKey: ShareKey = None,
) -> Response:
    _, tree = tree_for(ctx, organizationId, siteId, shareKey)
    return list_reply(ctx, tree.keyed_sections(), page, "site-sections", tree.section)


@router.post(
    f"{ST}/sections",
    status_code=201,
    response_model=SiteSection,
    operation_id="addSectionToSite",
    responses=errors(403, 404),
)
def add_section(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteSectionCreate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        access = editing(ctx, conn, organizationId, siteId)
        section_id = structure.add_section(conn, access.row, body)
    return item_reply(ctx, organizationId, siteId, "site-section", section_id, status=201)


@router.patch(
    SEC,
    response_model=SiteSection,
    operation_id="updateSiteSectionById",
    responses=errors(403, 404),
)
def update_section(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionId: str,
    body: Annotated[SiteSectionUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        access = editing(ctx, conn, organizationId, siteId)
        section = structure.load_item(conn, siteId, "site-section", siteSectionId)
        structure.update_section(conn, access.row, section, body)
    return item_reply(ctx, organizationId, siteId, "site-section", siteSectionId)


@router.delete(
    SEC, status_code=204, operation_id="deleteSiteSectionById", responses=errors(403, 404)
)
def delete_section(ctx: CtxDep, organizationId: str, siteId: str, siteSectionId: str) -> Response:
    return delete_reply(ctx, organizationId, siteId, "site-section", siteSectionId)


@router.post(
    f"{SEC}/move",
    response_model=SiteSection,
    deprecated=True,
    operation_id="moveSiteSection",
    responses=errors(403, 404),
)
def move_section(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionId: str,
    body: Annotated[SiteSectionMove | None, Body()] = None,
) -> Response:
    """Deprecated by the platform for `PATCH {ST}/structure/sort`; the same move."""
    position = body.position if body else None
    before: Pointer = None
    after: Pointer = None
    if position is not None and position.before is not None:
        before = ("site-section", position.before.siteSection)
    if position is not None and position.after is not None:
        after = ("site-section", position.after.siteSection)
    return move_reply(ctx, organizationId, siteId, "site-section", siteSectionId, before, after)


@router.get(
    f"{ST}/section-groups",
    response_model=ListPage[SiteSectionGroup],
    operation_id="listSiteSectionGroups",
    responses=errors(403, 404),
)
async def list_groups(ctx: CtxDep, organizationId: str, siteId: str, page: PageDep) -> Response:
    _, tree = tree_for(ctx, organizationId, siteId)
    return list_reply(ctx, tree.keyed_groups(), page, "site-section-groups", tree.group)


@router.post(
    f"{ST}/section-groups",
    status_code=201,
    response_model=SiteSectionGroup,
    operation_id="addSectionGroupToSite",
    responses=errors(403, 404),
)
def add_group(
    ctx: CtxDep, organizationId: str, siteId: str, body: Annotated[SiteSectionGroupCreate, Body()]
) -> Response:
    with ctx.db.write() as conn:
        access = editing(ctx, conn, organizationId, siteId)
        group_id = structure.add_group(conn, access.row, body)
    return item_reply(ctx, organizationId, siteId, "site-section-group", group_id, status=201)


@router.patch(
    GRP,
    response_model=SiteSectionGroup,
    operation_id="updateSiteSectionGroupById",
    responses=errors(403, 404),
)
def update_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: Annotated[SiteSectionGroupUpdate, Body()],
) -> Response:
    with ctx.db.write() as conn:
        editing(ctx, conn, organizationId, siteId)
        group = structure.load_item(conn, siteId, "site-section-group", siteSectionGroupId)
        structure.update_group(conn, group, body)
    return item_reply(ctx, organizationId, siteId, "site-section-group", siteSectionGroupId)


@router.delete(
    GRP, status_code=204, operation_id="deleteSiteSectionGroupById", responses=errors(403, 404)
)
def delete_group(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionGroupId: str
) -> Response:
    return delete_reply(ctx, organizationId, siteId, "site-section-group", siteSectionGroupId)


@router.post(
    f"{GRP}/sections",
    status_code=201,
    response_model=SiteSectionGroup,
    operation_id="addSectionToGroup",
    responses=errors(403, 404),
)
def add_section_to_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: Annotated[SiteSectionGroupAddSection, Body()],
) -> Response:
    with ctx.db.write() as conn:
        editing(ctx, conn, organizationId, siteId)
        structure.load_item(conn, siteId, "site-section-group", siteSectionGroupId)
        structure.add_section_to_group(conn, siteId, siteSectionGroupId, body.sectionId)
    return item_reply(
        ctx, organizationId, siteId, "site-section-group", siteSectionGroupId, status=201
    )


@router.delete(
    f"{GRP}/sections/{{siteSectionId}}",
    status_code=204,
    operation_id="removeSectionFromGroup",
    responses={**errors(403, 404), 205: {"description": "Removed from the group"}},
)
def remove_section_from_group(
    ctx: CtxDep, organizationId: str, siteId: str, siteSectionGroupId: str, siteSectionId: str
) -> Response:
    """205 when the section left the group, 204 when it was not in it (as the platform)."""
    with ctx.db.write() as conn:
        editing(ctx, conn, organizationId, siteId)
        structure.load_item(conn, siteId, "site-section-group", siteSectionGroupId)
        removed = structure.remove_section_from_group(
            conn, siteId, siteSectionGroupId, siteSectionId
        )
    return Response(status_code=205) if removed else no_content()


@router.post(
    f"{GRP}/move",
    response_model=SiteSectionGroup,
    deprecated=True,
    operation_id="moveSiteSectionGroup",
    responses=errors(403, 404),
)
def move_group(
    ctx: CtxDep,
    organizationId: str,
    siteId: str,
    siteSectionGroupId: str,
    body: Annotated[SiteSectionGroupMove | None, Body()] = None,
) -> Response:
    """Deprecated by the platform for `PATCH {ST}/structure/sort`; the same move."""
    position = body.position if body else None
    before: Pointer = None
    after: Pointer = None
    if position is not None and position.before is not None:
        before = (position.before.type, position.before.id)
    if position is not None and position.after is not None:
        after = (position.after.type, position.after.id)
    kind = "site-section-group"
    return move_reply(ctx, organizationId, siteId, kind, siteSectionGroupId, before, after)
